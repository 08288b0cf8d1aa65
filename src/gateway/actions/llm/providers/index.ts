import type { Headers } from '../../../../wire/action.js';
import { StatusCode, StatusError } from '../../../../wire/status.js';
import { Header } from '../../headers.js';
import { PROVIDER_NAMES } from '../schema.js';
import { anthropicProvider } from './anthropic.js';
import { echoProvider } from './echo.js';
import { geminiProvider } from './gemini.js';
import { openAiCompatible } from './openai.js';
import type { LlmProvider } from './provider.js';

export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** Every provider, by the name `x-a11-llm-provider` uses. */
export const PROVIDERS: Readonly<Record<ProviderName, LlmProvider>> = {
  openai: openAiCompatible({
    name: 'openai',
    summary: "OpenAI's chat completions API",
    defaultModel: 'gpt-4o-mini',
    defaultBaseUrl: 'https://api.openai.com/v1',
    apiKeyEnv: ['OPENAI_API_KEY'],
    baseUrlEnv: ['OPENAI_BASE_URL'],
    needsApiKey: true,
  }),
  ollama: openAiCompatible({
    name: 'ollama',
    summary: 'a local Ollama server (its OpenAI-compatible /v1 API)',
    defaultModel: 'llama3.2',
    defaultBaseUrl: 'http://127.0.0.1:11434/v1',
    baseUrlEnv: ['OLLAMA_BASE_URL'],
  }),
  llamacpp: openAiCompatible({
    name: 'llamacpp',
    summary: "llama.cpp's llama-server (OpenAI-compatible)",
    defaultModel: 'default',
    defaultBaseUrl: 'http://127.0.0.1:8080/v1',
    baseUrlEnv: ['LLAMACPP_BASE_URL'],
  }),
  vllm: openAiCompatible({
    name: 'vllm',
    summary: "a vLLM server's OpenAI-compatible API",
    defaultModel: 'default',
    defaultBaseUrl: 'http://127.0.0.1:8000/v1',
    apiKeyEnv: ['VLLM_API_KEY'],
    baseUrlEnv: ['VLLM_BASE_URL'],
  }),
  lmstudio: openAiCompatible({
    name: 'lmstudio',
    summary: "LM Studio's local server (OpenAI-compatible)",
    defaultModel: 'default',
    defaultBaseUrl: 'http://127.0.0.1:1234/v1',
    baseUrlEnv: ['LMSTUDIO_BASE_URL'],
  }),
  anthropic: anthropicProvider,
  gemini: geminiProvider,
  echo: echoProvider,
};

const ALIASES: Readonly<Record<string, ProviderName>> = {
  claude: 'anthropic',
  google: 'gemini',
  'llama.cpp': 'llamacpp',
  'llama-cpp': 'llamacpp',
  'lm-studio': 'lmstudio',
  'openai-compatible': 'openai',
};

/** Without a provider header, a model's family usually says where it lives. */
const MODEL_FAMILIES: readonly (readonly [prefix: string, provider: ProviderName])[] = [
  ['claude', 'anthropic'],
  ['gemini', 'gemini'],
  ['gpt', 'openai'],
  ['chatgpt', 'openai'],
  ['o1', 'openai'],
  ['o3', 'openai'],
  ['o4', 'openai'],
  ['llama', 'ollama'],
  ['qwen', 'ollama'],
  ['mistral', 'ollama'],
  ['gemma', 'ollama'],
  ['phi', 'ollama'],
  ['deepseek', 'ollama'],
];

/** The environment variable naming the provider used when a call names none. */
export const DEFAULT_PROVIDER_ENV = 'FLOWPLAY_LLM_PROVIDER';

export type Environment = Readonly<Record<string, string | undefined>>;

export interface ResolvedProvider {
  provider: LlmProvider;
  model: string;
  apiKey: string | undefined;
  baseUrl: string;
}

export function providerNamed(text: string): LlmProvider {
  const word = text.trim().toLowerCase();
  const name = (PROVIDER_NAMES as readonly string[]).includes(word) ? (word as ProviderName) : ALIASES[word];
  if (!name) {
    throw new StatusError(
      StatusCode.INVALID_ARGUMENT,
      `Unknown LLM provider '${text.trim()}'; ${Header.llmProvider} takes one of: ${PROVIDER_NAMES.join(', ')}.`,
    );
  }
  return PROVIDERS[name];
}

/**
 * Which provider, model, key and URL a call gets. The provider comes from the header, else from
 * the model's family, else from $FLOWPLAY_LLM_PROVIDER, else echo. A key from the gateway's
 * environment is only ever sent to the URL the environment (or the provider's default) names:
 * a caller choosing its own base URL brings its own key.
 */
export function resolveProvider(headers: Headers, env: Environment): ResolvedProvider {
  const header = (name: string) => headers.get(name)?.trim() || undefined;
  const model = header(Header.llmModel);
  const named = header(Header.llmProvider);
  const family = model ? MODEL_FAMILIES.find(([prefix]) => model.toLowerCase().startsWith(prefix))?.[1] : undefined;
  const provider = named
    ? providerNamed(named)
    : family
      ? PROVIDERS[family]
      : providerNamed(env[DEFAULT_PROVIDER_ENV]?.trim() || 'echo');
  const callerUrl = header(Header.llmBaseUrl);
  const envUrl = firstSet(env, provider.baseUrlEnv);
  const baseUrl = callerUrl ?? envUrl ?? provider.defaultBaseUrl;
  if (provider.name !== 'echo') checkUrl(baseUrl);
  const apiKey = header(Header.llmApiKey) ?? (callerUrl ? undefined : firstSet(env, provider.apiKeyEnv));
  if (provider.needsApiKey && !apiKey && !callerUrl) {
    const from = provider.apiKeyEnv.length ? ` or set ${provider.apiKeyEnv.join(' or ')} where the gateway runs` : '';
    throw new StatusError(
      StatusCode.FAILED_PRECONDITION,
      `The ${provider.name} provider needs an API key: send the ${Header.llmApiKey} header${from}.`,
    );
  }
  return { provider, model: model ?? provider.defaultModel, apiKey, baseUrl };
}

/** Providers the environment configures (a key or a URL is set), for the startup banner. */
export function configuredProviders(env: Environment): { name: string; summary: string; via: string }[] {
  const found = [];
  for (const provider of Object.values(PROVIDERS)) {
    const variables = [...provider.apiKeyEnv, ...provider.baseUrlEnv].filter((name) => env[name]?.trim());
    if (variables.length) found.push({ name: provider.name, summary: provider.summary, via: variables.join(', ') });
  }
  return found;
}

function firstSet(env: Environment, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

function checkUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, `The LLM base URL '${url}' is not an http:// or https:// URL.`);
  }
}

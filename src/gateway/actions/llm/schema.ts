import { z } from 'zod';
import { defineAction, port } from '../../../wire/schema.js';
import { Header, toolActionHeaders } from '../headers.js';
import { interactionSchema } from './interaction.js';

/** Seconds a provider may stay silent (before its first byte, or between two) unless config says otherwise. */
export const DEFAULT_STALL_SECONDS = 60;

/** The `config` input: the knobs every provider understands; anything else is ignored. */
export const llmConfigSchema = z.looseObject({
  temperature: z.number().min(0).max(2).optional().describe('Sampling temperature.'),
  top_p: z.number().gt(0).max(1).optional().describe('Nucleus sampling mass.'),
  max_tokens: z.number().int().positive().optional().describe('Most tokens to generate.'),
  stop: z.array(z.string()).optional().describe('Sequences that end the answer.'),
  stall_timeout_seconds: z
    .number()
    .positive()
    .optional()
    .describe(`Give up when the provider sends nothing for this long (default ${DEFAULT_STALL_SECONDS}).`),
  delay_ms: z.number().int().min(0).max(10_000).optional().describe('echo only: pause between words.'),
  extra_body: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Fields merged into the provider's request body as they are, for options not listed here."),
});
export type LlmConfig = z.infer<typeof llmConfigSchema>;

/** What `x-a11-llm-provider` may say; the table in providers/index.ts is checked against it. */
export const PROVIDER_NAMES = ['openai', 'ollama', 'llamacpp', 'vllm', 'lmstudio', 'anthropic', 'gemini', 'echo'] as const;

export const interactWithLlmSchema = defineAction({
  name: 'interact_with_llm',
  description: 'Route an LLM interaction to a concrete backend chosen by the x-a11-llm-provider header.',
  inputs: {
    config: port.json(llmConfigSchema, {
      description:
        'Generation settings: temperature, top_p, max_tokens, stop, stall_timeout_seconds, extra_body (and delay_ms for echo).',
    }),
    interactions: port.json(interactionSchema, {
      stream: true,
      required: true,
      description: 'The conversation so far, oldest first, as a11.sdk.Interaction values; close it to start the turn.',
    }),
    tools: port.json(undefined, {
      stream: true,
      description: 'Tool definitions ({name, description, input_schema}) the model may call.',
    }),
  },
  outputs: {
    event_stream: port.json(undefined, { stream: true, description: "The provider's own streaming events, as parsed." }),
    new_interactions: port.json(undefined, {
      stream: true,
      required: true,
      description: "The turn's new interactions: the model's answer, with its usage.",
    }),
    text_output: port.text({ stream: true, description: 'The answer text, as the model writes it.' }),
    thoughts: port.text({ stream: true, description: 'Reasoning text, when the model exposes it.' }),
  },
  headers: {
    ...toolActionHeaders('The allowed action (tool) name patterns, comma-separated.'),
    [Header.llmApiKey]: {
      description: "The backend API key; without it the provider's key from the gateway's environment is used.",
    },
    [Header.llmProvider]: {
      description:
        `Which backend to route to, one of: ${PROVIDER_NAMES.join(', ')} (claude is anthropic). ` +
        'openai, ollama, llamacpp, vllm and lmstudio all speak the OpenAI chat completions API; ' +
        'echo is offline and not a model: it streams the last user message back, word by word, for demos and tests.',
    },
    [Header.llmModel]: { description: "The model to ask; each provider has a default." },
    [Header.llmBaseUrl]: {
      description: "The provider's base URL, for a self-hosted or proxied server (e.g. http://127.0.0.1:11434/v1).",
    },
  },
});

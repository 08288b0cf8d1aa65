/**
 * The headers a run is sent with. Provider, model, base URL, allow-list and deadline are kept in
 * local storage; the API key never is — it lives in this object only, for this page's lifetime.
 */
import { Header } from '../../gateway/actions/headers';
import { PROVIDER_NAMES } from '../../gateway/actions/llm/schema';

const STORAGE_KEY = 'flowplay.run-settings.v1';

interface Saved {
  provider: string;
  model: string;
  baseUrl: string;
  allowed: string;
  deadlineSeconds: number;
}

/** The providers our gateway knows, offered as suggestions (another gateway may know others). */
export const LLM_PROVIDERS: readonly string[] = PROVIDER_NAMES;

export class RunSettings {
  provider = $state('echo');
  model = $state('');
  baseUrl = $state('');
  /** Never persisted. */
  apiKey = $state('');
  /** Comma-separated full-match patterns of actions a flow may call; empty = no restriction. */
  allowed = $state('');
  deadlineSeconds = $state(120);

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null = globalThis.localStorage ?? null) {
    try {
      const saved = JSON.parse(storage?.getItem(STORAGE_KEY) ?? 'null') as Partial<Saved> | null;
      if (saved) {
        if (typeof saved.provider === 'string') this.provider = saved.provider;
        if (typeof saved.model === 'string') this.model = saved.model;
        if (typeof saved.baseUrl === 'string') this.baseUrl = saved.baseUrl;
        if (typeof saved.allowed === 'string') this.allowed = saved.allowed;
        if (typeof saved.deadlineSeconds === 'number' && saved.deadlineSeconds > 0) this.deadlineSeconds = saved.deadlineSeconds;
      }
    } catch {
      // A damaged save means defaults.
    }
  }

  save(): void {
    const saved: Saved = {
      provider: this.provider,
      model: this.model,
      baseUrl: this.baseUrl,
      allowed: this.allowed,
      deadlineSeconds: this.deadlineSeconds,
    };
    try {
      this.storage?.setItem(STORAGE_KEY, JSON.stringify(saved));
    } catch {
      // Not saved; still used for this page.
    }
  }

  /** The allow-list problem, if any pattern is not a regular expression. */
  allowedError(): string {
    for (const pattern of this.#patterns()) {
      try {
        new RegExp(`^(?:${pattern})$`);
      } catch (error) {
        return `'${pattern}' is not a regular expression: ${(error as Error).message}`;
      }
    }
    return '';
  }

  /** The headers for one run starting `now` (ms since the epoch). */
  headers(now = Date.now()): Map<string, string> {
    const headers = new Map<string, string>();
    if (this.provider.trim()) headers.set(Header.llmProvider, this.provider.trim());
    if (this.model.trim()) headers.set(Header.llmModel, this.model.trim());
    if (this.baseUrl.trim()) headers.set(Header.llmBaseUrl, this.baseUrl.trim());
    if (this.apiKey) headers.set(Header.llmApiKey, this.apiKey);
    const patterns = this.#patterns();
    if (patterns.length) headers.set(Header.allowedLlmActions, patterns.join(','));
    if (this.deadlineSeconds > 0) headers.set(Header.deadline, String(Math.round(now + this.deadlineSeconds * 1000)));
    return headers;
  }

  #patterns(): string[] {
    return this.allowed
      .split(',')
      .map((pattern) => pattern.trim())
      .filter(Boolean);
  }
}

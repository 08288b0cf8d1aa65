import type { Headers } from '../../wire/action.js';
import { StatusCode, StatusError } from '../../wire/status.js';
import { Header } from './headers.js';

/**
 * The `x-a11-allowed-llm-actions` patterns: comma-separated, trimmed, empty ones dropped. No
 * header means no restriction (a script or a test is not a model held to an allow-list).
 */
export function allowedPatterns(headers: Headers): string[] {
  const header = headers.get(Header.allowedLlmActions);
  if (header === undefined) return [];
  return header
    .split(',')
    .map((pattern) => pattern.trim())
    .filter(Boolean);
}

/** Compiles the patterns once; each must match a whole action name. INVALID_ARGUMENT for a bad one. */
export function allowListMatcher(patterns: readonly string[]): (name: string) => boolean {
  const compiled = patterns.map((pattern) => {
    try {
      return new RegExp(`^(?:${pattern})$`, 'u');
    } catch (error) {
      throw new StatusError(
        StatusCode.INVALID_ARGUMENT,
        `The allowed-action pattern '${pattern}' (${Header.allowedLlmActions}) is not a valid regular expression: ${(error as Error).message}`,
      );
    }
  });
  if (compiled.length === 0) return () => true;
  return (name) => compiled.some((regex) => regex.test(name));
}

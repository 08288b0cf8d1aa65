import { describe, expect, it } from 'vitest';
import { RunSettings } from './run-settings.svelte';

function memoryStorage() {
  const items = new Map<string, string>();
  return { items, getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
}

describe('run settings', () => {
  it('turns settings into headers, with the deadline counted from the start of the run', () => {
    const settings = new RunSettings(memoryStorage());
    settings.provider = 'echo';
    settings.model = 'tiny';
    settings.apiKey = 'sk-secret';
    settings.allowed = ' shell_.* , , transcribe_audio ';
    settings.deadlineSeconds = 30;
    expect(Object.fromEntries(settings.headers(1_000_000))).toEqual({
      'x-a11-llm-provider': 'echo',
      'x-a11-llm-model': 'tiny',
      'x-a11-llm-api-key': 'sk-secret',
      'x-a11-allowed-llm-actions': 'shell_.*,transcribe_audio',
      'x-a11-deadline': '1030000',
    });
  });

  it('saves everything but the API key', () => {
    const storage = memoryStorage();
    const settings = new RunSettings(storage);
    settings.apiKey = 'sk-secret';
    settings.model = 'm';
    settings.save();
    expect([...storage.items.values()].join()).not.toContain('sk-secret');
    const again = new RunSettings(storage);
    expect(again.model).toBe('m');
    expect(again.apiKey).toBe('');
  });

  it('names an allow-list pattern that is not a regular expression', () => {
    const settings = new RunSettings(memoryStorage());
    settings.allowed = 'shell_(';
    expect(settings.allowedError()).toMatch(/'shell_\(' is not a regular expression/);
  });
});

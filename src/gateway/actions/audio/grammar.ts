import { StatusCode, StatusError } from '../../../wire/status.js';

/** The words of a list entry, as a recogniser's dictionary spells them. */
export function wordsOf(entry: string): string[] {
  return entry
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\s-]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/**
 * A JSGF grammar accepting any sequence of the given words and phrases: what a recogniser needs
 * to hear a known vocabulary reliably, where an open language model guesses.
 */
export function grammarForWords(entries: readonly string[]): string {
  const phrases = [...new Set(entries.map((entry) => wordsOf(entry).join(' ')).filter(Boolean))];
  if (phrases.length === 0) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, "asr_options.words has no words in it: list the words to listen for.");
  }
  return ['#JSGF V1.0;', 'grammar words;', 'public <utterance> = <phrase>+;', `<phrase> = ${phrases.join(' | ')};`, ''].join('\n');
}

/** Words a grammar uses, for checking them against the dictionary (rule names and syntax left out). */
export function grammarWords(grammar: string): string[] {
  const body = grammar
    .replace(/\/\/.*$/gm, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*#JSGF[^;]*;/m, '')
    .replace(/^\s*grammar\s+[^;]*;/m, '')
    .replace(/^\s*import\s+[^;]*;/gm, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\/[\d.]+\//g, ' ')
    .replace(/\bpublic\b/g, ' ');
  return [...new Set(body.toLowerCase().match(/[\p{L}\p{N}'-]+/gu) ?? [])];
}

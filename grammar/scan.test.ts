import { describe, expect, test } from 'vitest';
import { punctuationLength, stringSource } from './scan';

describe('punctuationLength', () => {
  // The language's punctuation, longest first: what the reference lexer reads as one token.
  const punctuation = ['...', '..', '->', '<-', '==', '!=', '<=', '>=', '{', '}', '(', ')', '[', ']', ':', ',', '|', '=', '.', '<', '>', '+', '-'];
  const longestMatch = (text: string): number => punctuation.find((symbol) => text.startsWith(symbol))?.length ?? 0;

  test('reads the longest punctuation at every pair and triple of these characters', () => {
    const letters = [...'.-<>=!{}()[]:,|+a #"1'];
    for (const a of letters) {
      for (const b of ['', ...letters]) {
        for (const c of ['', ...letters]) {
          const text = a + b + c;
          expect(punctuationLength(stringSource(text), 0), text).toBe(longestMatch(text));
        }
      }
    }
  });
});

import { describe, expect, it } from 'vitest';
import { editDistance, nearest } from './suggest.js';

describe('suggestions', () => {
  it('measures edits', () => {
    expect(editDistance('strig', 'string')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('a', 'abcdefgh')).toBe(4);
  });

  it('offers the one close word, and nothing when two are as close or none is', () => {
    expect(nearest('strig', ['string', 'text', 'bytes'])).toBe('string');
    expect(nearest('qustion', ['question', 'answer'])).toBe('question');
    expect(nearest('int', ['int', 'any'])).toBeNull();
    expect(nearest('it', ['if', 'in'])).toBeNull();
    expect(nearest('bat', ['bad', 'bag'])).toBeNull();
    expect(nearest('zzzzzz', ['string'])).toBeNull();
    expect(nearest('ab', ['abcd'])).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { SourceText, utf8Length } from './source-text.js';

// `§` is two bytes and one UTF-16 unit; the emoji four bytes and two units — a conversion that
// only counted code points would get the second wrong and pass on the first.
const text = 'flow marked {\n  in  q: string\n  describe "a § and an 🙂 walk in"\n  q -> o\n}\n';

describe('SourceText', () => {
  const source = new SourceText(text);
  const encoder = new TextEncoder();
  const bytesBefore = (utf16: number) => encoder.encode(text.slice(0, utf16)).length;

  it('gives the UTF-8 offset of every UTF-16 offset, and back', () => {
    for (let at = 0; at <= text.length; at++) {
      const code = text.charCodeAt(at);
      if (code >= 0xdc00 && code <= 0xdfff) continue; // the middle of a pair is not a position
      expect(source.byteOffset(at), `at ${at}`).toBe(bytesBefore(at));
      expect(source.utf16Offset(bytesBefore(at)), `at ${at}`).toBe(at);
    }
    expect(source.byteOffset(text.length)).toBe(utf8Length(text));
  });

  it('counts columns in code points and lines from one', () => {
    const emoji = text.indexOf('🙂');
    const after = emoji + 2;
    expect(source.position(emoji)).toEqual({ offset: bytesBefore(emoji), line: 3, column: 24 });
    expect(source.position(after).column).toBe(25);
    expect(source.position(0)).toEqual({ offset: 0, line: 1, column: 1 });
    expect(source.position(text.indexOf('q ->'))).toMatchObject({ line: 4, column: 3 });
  });

  it('clamps out-of-range offsets and the middle of a surrogate pair', () => {
    expect(source.position(-5)).toEqual({ offset: 0, line: 1, column: 1 });
    expect(source.position(10_000).offset).toBe(utf8Length(text));
    const emoji = text.indexOf('🙂');
    expect(source.position(emoji + 1)).toEqual(source.position(emoji));
    expect(source.utf16Offset(bytesBefore(emoji) + 2)).toBe(emoji);
  });

  it('finds the offset of a line and column, staying on the line', () => {
    expect(source.offsetAt(4, 3)).toBe(text.indexOf('q ->'));
    expect(source.offsetAt(1, 999)).toBe(text.indexOf('\n'));
    expect(source.offsetAt(0, 1)).toBe(0);
    expect(source.offsetAt(99, 1)).toBe(text.length);
  });

  it('indexes an empty text', () => {
    const empty = new SourceText('');
    expect(empty.position(3)).toEqual({ offset: 0, line: 1, column: 1 });
    expect(empty.utf16Offset(50)).toBe(0);
    expect(empty.lineCount).toBe(1);
  });

  it('writes a lone surrogate as the three bytes of U+FFFD, as TextEncoder does', () => {
    const odd = 'a\ud800b';
    expect(new SourceText(odd).byteOffset(3)).toBe(encoder.encode(odd).length);
  });
});

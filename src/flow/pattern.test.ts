import { describe, expect, it } from 'vitest';
import { allHolesNamed, compilePattern, matchPattern, type Pattern } from './pattern.js';

function compiled(text: string): Pattern {
  const result = compilePattern(text);
  if (!result.ok) throw new Error(result.error);
  return result.pattern;
}

describe('match patterns', () => {
  it('names its holes and their kinds', () => {
    const pattern = compiled('name={name} age={age:int}');
    expect(pattern.holes.map((h) => [h.name, h.kind])).toEqual([
      ['name', 'string'],
      ['age', 'int'],
    ]);
    expect(allHolesNamed(pattern)).toBe(true);
    expect(allHolesNamed(compiled('{} and {x}'))).toBe(false);
  });

  it('refuses what it cannot read, and says where', () => {
    expect(compilePattern('a {b')).toMatchObject({ ok: false, column: 2 });
    expect(compilePattern('a } b {c}')).toMatchObject({ ok: false, column: 2 });
    expect(compilePattern('{x:float}')).toMatchObject({ ok: false, column: 0 });
    expect(compilePattern('{x} {x}')).toMatchObject({ ok: false, column: 4 });
    expect(compilePattern('{a b}')).toMatchObject({ ok: false });
    expect(compilePattern('no holes')).toMatchObject({ ok: false });
    expect(compilePattern('{a:rest} tail')).toMatchObject({ ok: false });
    expect(compilePattern('{{literal}} {x}').ok).toBe(true);
  });

  it('searches, and matches any run of spaces with one', () => {
    expect(matchPattern(compiled('name={name} age={age:int}'), 'user: name=Alice   age=27 ok')).toEqual(['Alice', '27']);
    expect(matchPattern(compiled('age={age:int}'), 'age=none')).toBeNull();
  });

  it('lets a run hole give characters back, and an open last hole take its line', () => {
    expect(matchPattern(compiled('{level:word}: {message}'), 'WARN: disk low\nnext')).toEqual(['WARN', 'disk low']);
    expect(matchPattern(compiled('{n:number}.'), 'got 1.5.')).toEqual(['1.5']);
    expect(matchPattern(compiled('{n:number} two'), '1. two')).toBeNull();
    expect(matchPattern(compiled('a={a:rest}'), 'x a=1\n2')).toEqual(['1\n2']);
  });

  it('keeps an open hole on its line unless the pattern breaks the line', () => {
    expect(matchPattern(compiled('a={a} b={b}'), 'a=1\nb=2')).toBeNull();
    expect(matchPattern(compiled('a={a}\nb={b}'), 'a=1  \n  b=2')).toEqual(['1', '2']);
  });

  it('reads booleans in either case and literal braces', () => {
    expect(matchPattern(compiled('ok={ok:bool}'), 'ok=TRUE')).toEqual(['TRUE']);
    expect(matchPattern(compiled('{{{x}}}'), 'a {b} c')).toEqual(['b']);
  });
});

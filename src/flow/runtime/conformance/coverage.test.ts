/**
 * The conformance suite must exercise the whole language: every stage, builtin, statement, match
 * kind and standard-library action appears in at least one case. The word lists come from the
 * vocabulary and the standard library, so a word added there without a case fails here.
 */
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ActionRegistry } from '../../../wire/registry.js';
import { registerStandardLibrary, readOnlyPolicy } from '../../../gateway/stdlib/index.js';
import { builtins, matchPatternKinds, modifierWords, stages, statementWords } from '../../vocabulary.js';
import { allCases } from './cases.js';

/** The flow text of every case, its comments and expectation lines left out. */
const code = allCases()
  .map((one) =>
    one.source
      .split('\n')
      .map((line) => line.replace(/(^|\s)#.*$/, ''))
      .join('\n'),
  )
  .join('\n');

function escaped(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}

function uncovered(words: readonly string[], pattern: (word: string) => RegExp): string[] {
  return words.filter((word) => !pattern(escaped(word)).test(code));
}

describe('the conformance cases cover', () => {
  it('every stage', () => {
    // `at` is the stage `x.field` over a stream becomes; it is never written.
    const written = stages.map((stage) => stage.name).filter((name) => name !== 'at');
    expect(written).toHaveLength(33);
    const barred = written.filter((name) => !stages.find((stage) => stage.name === name)?.bare);
    expect(uncovered(barred, (word) => new RegExp(`\\|\\s*(?:try\\s+)?${word}\\b`))).toEqual([]);
    // A bare stage is also written without its bar: `a then b`, a line opening with `where`.
    const bare = stages.filter((stage) => stage.bare).map((stage) => stage.name);
    expect(uncovered(bare, (word) => new RegExp(`[\\w)\\]]\\s+${word}\\b|^\\s*${word}\\b`, 'm'))).toEqual([]);
  });

  it('every stage that may run in parallel, run in parallel', () => {
    const parallel = stages.filter((stage) => stage.parallel && stage.name !== 'at').map((stage) => stage.name);
    expect(uncovered(parallel, (word) => new RegExp(`\\|\\s*${word}\\b[^|\\n]*\\bparallel\\s+\\d+`))).toEqual([]);
  });

  it('every builtin', () => {
    expect(uncovered(builtins.map((builtin) => builtin.name), (word) => new RegExp(`(?<![\\w.-])${word}\\s*\\(`))).toEqual([]);
  });

  it('every statement', () => {
    expect(uncovered(statementWords, (word) => new RegExp(`(?:^|\\{)\\s*(?:[\\w, ]+=\\s*)?(?:try\\s+)?${word}\\b`, 'm'))).toEqual([]);
  });

  it('every modifier a call may carry', () => {
    expect(uncovered(modifierWords, (word) => new RegExp(`\\)\\s.*\\b${word.replace(' ', '\\s+')}\\b`))).toEqual([]);
  });

  it('every kind a match hole may read', () => {
    expect(uncovered(matchPatternKinds, (word) => new RegExp(`\\{\\w+:${word}\\}`))).toEqual([]);
  });

  it('every standard-library action', () => {
    const streams = { stdin: Readable.from([]), stdout: new PassThrough(), stderr: new PassThrough() };
    const registry = registerStandardLibrary(new ActionRegistry(), readOnlyPolicy(['.']), { streams });
    const names = registry.names();
    expect(names.length).toBeGreaterThanOrEqual(19);
    expect(uncovered(names, (word) => new RegExp(`\\b(?:run|call)\\s+${word}\\s*\\(`))).toEqual([]);
  });
});

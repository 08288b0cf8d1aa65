import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Stack } from '@lezer/lr';
import { fileTests } from '@lezer/generator/test';
import { describe, expect, test } from 'vitest';
import { generateMutations } from '../test/support/mutations';
import { REFERENCE_DIR } from '../test/support/reference';
import { canShift } from './can-shift';
import { parser } from './index';

/**
 * `canShift` over a Lezer stack must answer exactly what Lezer's own `Stack.canShift` answers:
 * asked for every term, on every stack Lezer's parse holds after every step — recovery's
 * stacks included — over inputs with and without mistakes.
 */
function disagreements(source: string): string[] {
  const found: string[] = [];
  const parse = parser.startParse(source);
  const terms = (parser as unknown as { maxTerm: number }).maxTerm;
  for (;;) {
    const stacks = (parse as unknown as { stacks: Stack[] }).stacks;
    for (const stack of stacks) {
      for (let term = 1; term <= terms; term++) {
        if (stack.canShift(term) !== canShift(stack, term)) found.push(`${parser.getName(term)} at ${stack.pos}`);
      }
    }
    if (parse.advance()) return found;
  }
}

const grammarTests = readdirSync(join(import.meta.dirname, 'test'))
  .filter((name) => name.endsWith('.txt'))
  .flatMap((file) => fileTests(readFileSync(join(import.meta.dirname, 'test', file), 'utf8'), file).map((spec) => ({ name: `${file}: ${spec.name}`, source: spec.text })));

describe("canShift agrees with Lezer's", () => {
  test('on every stack of every grammar test', () => {
    for (const { name, source } of grammarTests) expect(disagreements(source), name).toEqual([]);
  });

  test.skipIf(!REFERENCE_DIR)('on every stack of 150 seeded mutations of the reference flows', () => {
    const flows = readdirSync(join(REFERENCE_DIR!, 'flows'))
      .filter((name) => name.endsWith('.flow'))
      .map((name) => ({ name, source: readFileSync(join(REFERENCE_DIR!, 'flows', name), 'utf8') }));
    for (const mutation of generateMutations(flows, 150, 11_2026)) {
      expect(disagreements(mutation.source), `${mutation.origin}: ${mutation.note}`).toEqual([]);
    }
  }, 120_000);

  test('on a deep stack', () => {
    expect(disagreements(`flow f {\n  let x = ${'not '.repeat(300)}a\n  x -> b = =\n}\n`)).toEqual([]);
  });
});

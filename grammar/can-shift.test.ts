import type { Stack } from '@lezer/lr';
import { describe, expect, test } from 'vitest';
import { generateMutations } from '../test/support/mutations';
import { grammarTestCases } from '../test/support/grammar-tests';
import { REFERENCE_DIR, REFERENCE_MISSING, referenceFlows } from '../test/support/reference';
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

const grammarTests = grammarTestCases();

describe("canShift agrees with Lezer's", () => {
  test('on every stack of every grammar test', () => {
    for (const { name, source } of grammarTests) expect(disagreements(source), name).toEqual([]);
  });

  test.skipIf(!REFERENCE_DIR)(`on every stack of 150 seeded mutations of the reference flows${REFERENCE_DIR ? '' : ` (${REFERENCE_MISSING})`}`, () => {
    for (const mutation of generateMutations(referenceFlows(), 150, 11_2026)) {
      expect(disagreements(mutation.source), `${mutation.origin}: ${mutation.note}`).toEqual([]);
    }
  }, 120_000);

  test('on a deep stack', () => {
    expect(disagreements(`flow f {\n  let x = ${'not '.repeat(300)}a\n  x -> b = =\n}\n`)).toEqual([]);
  });
});

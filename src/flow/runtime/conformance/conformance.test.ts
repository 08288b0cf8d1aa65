/**
 * The runtime's conformance suite: every case runs here and must produce its expected output (or
 * its expected failure); where the reference's `a11 flow run` is installed and can run the case,
 * it runs too and the two must agree.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { stopA11 } from '../../../../test/support/a11.js';
import { A11_BIN, A11_MISSING } from '../../../../test/support/reference.js';
import { allCases, type ConformanceCase } from './cases.js';
import { runHere, runReference, scratchDirectory, type CaseResult } from './run-case.js';

const cases = allCases();
const scratch: string[] = [];

function lines(text: string, sorted: boolean): string[] {
  const found = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text ? text.split('\n') : [];
  return sorted ? [...found].sort() : found;
}

/** Lists sorted, where the case says the order between writers is not defined. */
function normalised(outputs: Record<string, unknown>, sorted: boolean): unknown {
  if (!sorted) return outputs;
  return Object.fromEntries(
    Object.entries(outputs).map(([port, value]) => [port, Array.isArray(value) ? [...value].map((one) => JSON.stringify(one)).sort() : value]),
  );
}

/** A named flow's outputs from either side: ours print the object, the reference an envelope. */
function outputsOf(result: CaseResult, reference: boolean, sorted: boolean): unknown {
  const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
  return normalised((reference ? parsed.outputs : parsed) as Record<string, unknown>, sorted);
}

/**
 * The reference's exit code, except that its command line sometimes aborts (SIGABRT) while
 * shutting down after a named flow has finished and printed its result: that is not the flow's.
 */
function referenceExit(result: CaseResult, named: boolean): number {
  const aborted = result.exit === 134 || result.exit === -6;
  if (named && aborted && result.stdout.includes('"outputs"')) return 0;
  return result.exit;
}

const ours = new Map<string, Promise<CaseResult>>();

function runOurs(one: ConformanceCase): Promise<CaseResult> {
  let result = ours.get(one.name);
  if (!result) {
    const directory = scratchDirectory();
    scratch.push(directory);
    result = runHere(one, directory);
    ours.set(one.name, result);
  }
  return result;
}

afterAll(() => {
  stopA11();
  for (const directory of scratch) rmSync(directory, { recursive: true, force: true });
});

describe('the runtime conformance suite', () => {
  it('has at least 150 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
  });

  for (const one of cases) {
    it(one.name, async () => {
      const result = await runOurs(one);
      const context = `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
      expect(result.exit, context).toBe(one.exit);
      for (const wanted of one.stderr) expect(result.stderr, context).toContain(wanted);
      if (one.flow) {
        if (one.outputs !== undefined) {
          expect(outputsOf(result, false, one.sorted), context).toEqual(normalised(one.outputs as Record<string, unknown>, one.sorted));
        }
        return;
      }
      expect(lines(result.stdout, one.sorted), context).toEqual(one.sorted ? [...one.stdout].sort() : one.stdout);
    });
  }
});

describe.skipIf(!A11_BIN)(`the same cases under the reference's a11 flow run${A11_BIN ? '' : ` (${A11_MISSING})`}`, () => {
  for (const one of cases) {
    if (one.noOracle) {
      it.skip(`${one.name} (${one.noOracle})`, () => {});
      continue;
    }
    it.concurrent(one.name, async () => {
      const directory = scratchDirectory();
      scratch.push(directory);
      const [reference, here] = await Promise.all([runReference(one, directory), runOurs(one)]);
      const context = `reference stdout:\n${reference.stdout}\nreference stderr:\n${reference.stderr}\nours:\n${here.stdout}\n${here.stderr}`;
      expect(here.exit, context).toBe(referenceExit(reference, one.flow !== undefined));
      if (one.flow) {
        if (referenceExit(reference, true) === 0) expect(outputsOf(here, false, one.sorted), context).toEqual(outputsOf(reference, true, one.sorted));
        return;
      }
      expect(lines(here.stdout, one.sorted), context).toEqual(lines(reference.stdout, one.sorted));
    });
  }
});

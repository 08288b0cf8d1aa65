/**
 * An endless stream costs constant memory: a million values pushed one by one through
 * `| scan … | window 3 | where …` leave the heap, after a full collection, within a few MB of where
 * it stood once the pipeline was warm.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { Chunk } from '../../wire/chunk.js';
import { Media } from '../../wire/media.js';
import { compileFlow } from '../compile.js';
import { collectOutputs, runFlow } from './run-flow.js';
import { plainValue } from './values/plain.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function heapAfterCollection(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

const source = `
flow steady {
  in  numbers: integer stream
  out kept:    integer
  out last:    list[integer]
  smoothed = node()
  numbers
    | scan {"total": 0, "step": 0} as state, {"total": state.total + it, "step": it - state.step}
    | map it.total - it.step
    | window 3
    | where it[0] + it[1] < it[2]
    -> smoothed
  smoothed | count -> kept
  smoothed | last 1 -> last
}
`;

const TOTAL = 1_000_000;
/** The values fed in: small, and going up and down, so the filter keeps some and not others. */
const fed = (n: number) => (n * 7919) % 13 - 6;
const WARM = 100_000;
const SAMPLE_EVERY = 100_000;

describe('a pipeline over a million values', () => {
  it('keeps heap growth under 4 MB', async () => {
    const compiled = compileFlow(source, { sourceName: 'steady.flow' });
    expect(compiled.diagnostics.filter((one) => one.severity === 'error')).toEqual([]);
    const run = runFlow(compiled.program!, { flow: 'steady', openInputs: ['numbers'] });
    const outputs = collectOutputs(run);
    const numbers = run.inputs.get('numbers')!;

    let baseline = 0;
    let highest = 0;
    for (let n = 1; n <= TOTAL; n++) {
      await numbers.put(Chunk.fromValue(Media.json, fed(n)));
      if (n === WARM) baseline = heapAfterCollection();
      else if (n > WARM && n % SAMPLE_EVERY === 0) highest = Math.max(highest, heapAfterCollection());
    }
    numbers.close();
    const status = await run.done;
    expect(status.ok, status.message).toBe(true);

    // What the pipeline computed, worked out here independently.
    let kept = 0;
    const recent: number[] = [];
    let lastKept: number[] | undefined;
    let total = 0;
    let step = 0;
    for (let n = 1; n <= TOTAL; n++) {
      total += fed(n);
      step = fed(n) - step;
      recent.push(total - step);
      if (recent.length > 3) recent.shift();
      if (recent.length === 3 && recent[0]! + recent[1]! < recent[2]!) {
        kept++;
        lastKept = [...recent];
      }
    }
    expect(plainValue(await outputs)).toEqual({ kept, last: lastKept });

    const growthMb = (highest - baseline) / (1024 * 1024);
    console.log(`heap after ${WARM} values: ${(baseline / 1048576).toFixed(1)} MB; highest after: ${(highest / 1048576).toFixed(1)} MB; growth ${growthMb.toFixed(2)} MB`);
    expect(growthMb).toBeLessThan(4);
  }, 180_000);
});

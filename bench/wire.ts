/**
 * The wire, timed: our client against our own session and against the reference gateway, side by
 * side in one run, over real loopback WebSockets.
 *
 * Run it (built with the project's vite config, like the other benches):
 *
 *     npx vite build --ssr bench/wire.ts --outDir build/bench-wire --emptyOutDir --logLevel warn && node build/bench-wire/wire.js
 *
 * Optional: `--calls N` (round trips, default 2000), `--lines N` (streamed values, default 200000),
 * `--ours-only` (skip the reference, e.g. for profiling).
 * The reference is a11-kit 0.4.4's `a11 gateway run` ($A11_BIN, else .tools/a11-kit, else
 * /opt/a11ref44); without it only our side is measured.
 *
 * Prints:
 *   - round-trip latency of a small call (`__ping` with a short text: ActionMessage, one value
 *     in, one value out, dispatch and completion statuses), median and p90;
 *   - throughput of a streamed output port: `seq 1 N` as text lines — our session writes them
 *     from a handler, the gateway from `shell_execute` — read by our client, in values/s and MB/s
 *     of payload;
 *   - the ratio ours/reference for each (latency: below 1 is faster; throughput: above 1 is faster).
 */

import { performance } from 'node:perf_hooks';
import { startReferenceGateway } from '../test/support/gateway.js';
import { REFERENCE_A11 } from '../test/support/reference-checker.js';
import { Chunk } from '../src/wire/chunk.js';
import { connectSession, startWireServer } from '../src/wire/node-ws.js';
import { ActionRegistry } from '../src/wire/registry.js';
import { defineAction, port } from '../src/wire/schema.js';
import type { Session } from '../src/wire/session.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const CALLS = option('calls', 2000);
const LINES = option('lines', 200_000);
const WARMUP = Math.min(200, CALLS);
const OURS_ONLY = args.includes('--ours-only');

/** Our stand-in for `seq 1 N`: the same lines, written by a handler as fast as the wire takes them. */
const seqAction = defineAction({
  name: 'seq_lines',
  description: 'Writes the numbers 1..count, one text line each.',
  inputs: { count: port.json() },
  outputs: { output_lines: port.text({ stream: true }) },
});

interface Latency {
  median: number;
  p90: number;
}

interface Throughput {
  values: number;
  bytes: number;
  seconds: number;
}

async function pingLatency(client: Session): Promise<Latency> {
  for (let i = 0; i < WARMUP; i++) await client.ping('x');
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now();
    await client.ping('x');
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]!, p90: samples[Math.floor(samples.length * 0.9)]! };
}

/** Reads a streamed port to its end, counting values and payload bytes. */
async function drain(call: { output(port: string): { reader(): AsyncIterable<Chunk> }; done: Promise<{ ok: boolean; toString(): string }> }, portName: string, start: number): Promise<Throughput> {
  let values = 0;
  let bytes = 0;
  for await (const chunk of call.output(portName).reader()) {
    values++;
    bytes += chunk.bytes.length;
  }
  const status = await call.done;
  if (!status.ok) throw new Error(`the streaming call failed: ${status}`);
  return { values, bytes, seconds: (performance.now() - start) / 1000 };
}

async function oursStream(client: Session): Promise<Throughput> {
  const start = performance.now();
  const call = client.invoke(seqAction);
  await call.input('count').finalize(Chunk.json(LINES));
  return drain(call, 'output_lines', start);
}

async function referenceStream(client: Session): Promise<Throughput> {
  const schema = await client.describe('shell_execute');
  const start = performance.now();
  const call = client.invoke(schema);
  await call.input('command').finalize(Chunk.text(`seq 1 ${LINES}`));
  await call.input('parameters').finalize(Chunk.json({ timeout_seconds: 600 }));
  return drain(call, 'output_lines', start);
}

const fmt = (value: number, digits = 1) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pad = (text: string, width: number) => text.padStart(width);

async function main(): Promise<void> {
  const registry = new ActionRegistry().register(seqAction, async (ctx) => {
    const count = Number(await ctx.value('count'));
    const output = ctx.output('output_lines');
    for (let i = 1; i <= count; i++) await output.put(Chunk.text(String(i)));
  });
  const server = await startWireServer(registry);
  const ours = await connectSession(server.url);
  const oursLatency = await pingLatency(ours);
  await oursStream(ours); // warm-up
  const oursThroughput = await oursStream(ours);
  await ours.close();
  await server.close();

  let refLatency: Latency | undefined;
  let refThroughput: Throughput | undefined;
  const bin = OURS_ONLY ? null : REFERENCE_A11;
  if (bin) {
    const gateway = await startReferenceGateway(bin);
    try {
      const client = await connectSession(gateway.url);
      refLatency = await pingLatency(client);
      // No warm-up run: the client side was warmed by our own runs, and the gateway's takes minutes.
      refThroughput = await referenceStream(client);
      await client.close();
    } finally {
      await gateway.stop();
    }
  }

  const line = (label: string, mine: string, theirs: string, ratio: string) => console.log(`${label.padEnd(34)}${pad(mine, 16)}${pad(theirs, 16)}${pad(ratio, 12)}`);
  console.log(`wire bench: ${CALLS} round trips, ${LINES.toLocaleString('en-US')} streamed lines, loopback WebSockets, node ${process.version}`);
  line('', 'ours', 'reference', 'ours/ref');
  const ratio = (a: number, b: number | undefined) => (b === undefined ? 'n/a' : `${fmt(a / b, 2)}×`);
  line('__ping round trip, median (ms)', fmt(oursLatency.median, 3), refLatency ? fmt(refLatency.median, 3) : 'n/a', ratio(oursLatency.median, refLatency?.median));
  line('__ping round trip, p90 (ms)', fmt(oursLatency.p90, 3), refLatency ? fmt(refLatency.p90, 3) : 'n/a', ratio(oursLatency.p90, refLatency?.p90));
  const valuesPerSecond = (t: Throughput) => t.values / t.seconds;
  const megabytesPerSecond = (t: Throughput) => t.bytes / t.seconds / 1e6;
  line('streamed port (values/s)', fmt(valuesPerSecond(oursThroughput), 0), refThroughput ? fmt(valuesPerSecond(refThroughput), 0) : 'n/a', ratio(valuesPerSecond(oursThroughput), refThroughput && valuesPerSecond(refThroughput)));
  line('streamed port (MB/s of payload)', fmt(megabytesPerSecond(oursThroughput), 2), refThroughput ? fmt(megabytesPerSecond(refThroughput), 2) : 'n/a', ratio(megabytesPerSecond(oursThroughput), refThroughput && megabytesPerSecond(refThroughput)));
  line('streamed values received', String(oursThroughput.values), refThroughput ? String(refThroughput.values) : 'n/a', '');
  if (!bin && !OURS_ONLY) console.log('(reference not measured: a11-kit not installed — run scripts/install-test-deps.sh or set A11_BIN)');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

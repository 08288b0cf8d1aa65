/**
 * flow_run on our gateway and on the reference's, side by side, in one run:
 *
 *   npm run build && npx vite build --ssr bench/gateway.ts --outDir build/bench-gateway --emptyOutDir --logLevel warn \
 *     && node build/bench-gateway/gateway.js [--seconds 5] [--concurrency 1,50,500] [--idle 1000]
 *
 * Both gateways run as their own processes on loopback (ours: `flowplay serve`; the reference:
 * `a11 gateway run` from a11-kit 0.4.4, found through $A11_BIN, .tools/a11-kit or /opt/a11ref44,
 * with audio capture and speech recognition off). One client — this
 * process, speaking A11 with src/wire — drives both the same way: N callers, each on its own
 * connection, call `flow_run` on a one-step flow back to back for a fixed time. It prints p50
 * and p99 latency, throughput and wrong answers (calls that ended OK without the right `result`)
 * per concurrency, then the memory one idle connection costs
 * (resident set growth of the gateway process over K idle connections, divided by K; K is 1000
 * by default, because over a few hundred the growth is lost in the heap's own slack), with the
 * ratio ours/reference for each.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Chunk } from '../src/wire/chunk.js';
import { connectSession } from '../src/wire/node-ws.js';
import type { Session } from '../src/wire/session.js';
import { Status, StatusCode } from '../src/wire/status.js';
import { flowRunSchema } from '../src/gateway/flow-tools/schemas.js';
import { startReferenceGateway } from '../test/support/gateway.js';
import { freePortIn } from '../test/support/ports.js';
import { REFERENCE_A11 } from '../test/support/reference-checker.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FLOW = `
flow shout {
  in  word: string required
  out loud: string
  word | map upper(it) -> loud
}
`;

interface Gateway {
  name: string;
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** This bench's own ports. */
const freePort = () => freePortIn(8600, 8649);

async function waitForPort(port: number, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/actions`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`${name} did not start listening on ${port} within 60 s`);
}

function launched(name: string, child: ChildProcess, port: number): Gateway {
  let output = '';
  child.stdout?.on('data', (data: Buffer) => (output = (output + data.toString()).slice(-4000)));
  child.stderr?.on('data', (data: Buffer) => (output = (output + data.toString()).slice(-4000)));
  return {
    name,
    url: `ws://127.0.0.1:${port}/a11`,
    process: child,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

async function startOurs(dataDir: string, nodeArgs: string[]): Promise<Gateway> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'bin/flowplay.js'), 'serve', '--port', String(port), '--data-dir', dataDir, '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const gateway = launched('flowplay', child, port);
  await waitForPort(port, child, 'flowplay serve');
  return gateway;
}

async function startReference(bin: string): Promise<Gateway> {
  const reference = await startReferenceGateway(bin);
  return { name: 'reference', url: reference.url, process: reference.process, stop: reference.stop };
}

let callCounter = 0;

/**
 * One flow_run, start to result: its latency in milliseconds, and whether it answered right.
 * A wrong answer is counted rather than thrown: a11-kit 0.4.4's gateway now and then (about one
 * call in a few thousand, seen in a wire trace) ends flow_run OK after streaming the flow's output
 * without ever writing `result`, and one such call must not void the whole comparison.
 */
async function runOnce(session: Session, word: string): Promise<{ ms: number; right: boolean }> {
  const started = performance.now();
  const call = session.invoke(flowRunSchema, { id: `bench-${process.pid}-${++callCounter}` });
  const result = call.output('result').reader().next();
  await call.input('source').finalize(Chunk.text(FLOW));
  await call.input('inputs').finalize(Chunk.json({ word }));
  call.input('input_streams').close();
  call.input('flow').close();
  const [value, status] = await Promise.all([result, call.done]);
  if (!status.ok) throw new Error(`flow_run failed: ${status}`);
  const loud = (value?.value as { loud?: unknown } | undefined)?.loud;
  return { ms: performance.now() - started, right: loud === word.toUpperCase() };
}

interface Measured {
  p50: number;
  p99: number;
  throughput: number;
  calls: number;
  /** Calls that ended OK without the right `result`. */
  wrong: number;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

async function measure(gateway: Gateway, callers: number, seconds: number): Promise<Measured> {
  const sessions = await Promise.all(Array.from({ length: callers }, () => connectSession(gateway.url)));
  try {
    // Warm up: every connection makes one call first.
    await Promise.all(sessions.map((session, index) => runOnce(session, `warm${index}`)));
    const latencies: number[] = [];
    let wrong = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    await Promise.all(
      sessions.map(async (session, index) => {
        for (let n = 0; performance.now() < until; n++) {
          const { ms, right } = await runOnce(session, `w${index}x${n}`);
          latencies.push(ms);
          if (!right) wrong += 1;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), throughput: latencies.length / elapsed, calls: latencies.length, wrong };
  } finally {
    for (const session of sessions) session.abort(new Status(StatusCode.CANCELLED, 'The benchmark is over.'));
  }
}

function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb * 1024;
}

/** Resident-set growth per idle connection, over `count` connections that each made one call. */
async function idleCost(gateway: Gateway, count: number): Promise<number> {
  const pid = gateway.process.pid!;
  await new Promise((done) => setTimeout(done, 1000));
  const before = residentBytes(pid);
  const sessions: Session[] = [];
  for (let i = 0; i < count; i++) {
    const session = await connectSession(gateway.url);
    await session.ping('idle');
    sessions.push(session);
  }
  await new Promise((done) => setTimeout(done, 1500));
  const after = residentBytes(pid);
  for (const session of sessions) session.abort(new Status(StatusCode.CANCELLED, 'The benchmark is over.'));
  return (after - before) / count;
}

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '5' },
      concurrency: { type: 'string', default: '1,50,500' },
      idle: { type: 'string', default: '1000' },
      'ours-only': { type: 'boolean', default: false },
      'node-args': { type: 'string', default: '' },
    },
  });
  const seconds = Number(values.seconds);
  const levels = String(values.concurrency).split(',').map(Number);
  const idle = Number(values.idle);
  const bin = REFERENCE_A11;
  const oursOnly = values['ours-only'] === true;
  if (!bin && !oursOnly) {
    console.error('The reference gateway (a11-kit) is not installed: run scripts/install-test-deps.sh or set A11_BIN.');
    process.exitCode = 2;
    return;
  }
  if (!existsSync(join(ROOT, 'build/node/main.js'))) {
    console.error('flowplay is not built: run `npm run build` first.');
    process.exitCode = 2;
    return;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'flowplay-bench-'));
  const nodeArgs = String(values['node-args']).split(' ').filter(Boolean);
  const gateways = [await startOurs(join(scratch, 'ours'), nodeArgs), ...(oursOnly ? [] : [await startReference(bin!)])];
  try {
    console.log(`flow_run of a one-step flow, ${seconds} s per level; every caller on its own connection.\n`);
    console.log('callers  gateway      p50 ms   p99 ms   calls/s    calls    wrong');
    for (const callers of levels) {
      const results: Measured[] = [];
      for (const gateway of gateways) {
        const measured = await measure(gateway, callers, seconds);
        results.push(measured);
        console.log(
          `${String(callers).padStart(7)}  ${gateway.name.padEnd(10)} ${fmt(measured.p50).padStart(8)} ${fmt(measured.p99).padStart(8)} ${fmt(measured.throughput).padStart(9)} ${String(measured.calls).padStart(8)} ${String(measured.wrong).padStart(8)}`,
        );
      }
      const [ours, reference] = results as [Measured, Measured | undefined];
      if (!reference) continue;
      console.log(
        `${''.padStart(7)}  ours/ref   ${fmt(ours.p50 / reference.p50, 2).padStart(8)} ${fmt(ours.p99 / reference.p99, 2).padStart(8)} ${fmt(ours.throughput / reference.throughput, 2).padStart(9)}\n`,
      );
    }
    const costs = [];
    for (const gateway of gateways) costs.push(await idleCost(gateway, idle));
    console.log(`memory per idle connection (resident set growth over ${idle} connections):`);
    for (const [index, gateway] of gateways.entries()) console.log(`  ${gateway.name.padEnd(10)} ${fmt(costs[index]! / 1024)} KiB`);
    if (costs.length === 2) console.log(`  ours/ref   ${fmt(costs[0]! / costs[1]!, 2)}`);
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

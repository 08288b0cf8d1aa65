/**
 * Running one conformance case: here (in process, through what `flowplay run` runs) and, when the
 * reference is installed, with its `a11 flow run` — same file, same arguments, same input.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runA11 } from '../../../../test/support/a11.js';
import { runProgram } from '../../../cli/run-program.js';
import { parseCommandArgs } from '../../../cli/command.js';
import { policyFrom } from '../../../cli/policy.js';
import { parseInput, runCommand } from '../../../cli/run.js';
import { parseDuration } from '../values/time.js';
import type { ConformanceCase } from './cases.js';

export interface CaseResult {
  stdout: string;
  stderr: string;
  exit: number;
}

function collect(stream: PassThrough): () => string {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return () => Buffer.concat(chunks).toString('utf8');
}

/** The case run in process, the way `flowplay run` would run it. */
export async function runHere(one: ConformanceCase, cwd: string): Promise<CaseResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out = collect(stdout);
  const err = collect(stderr);
  const parsed = parseCommandArgs(runCommand, [...one.flags, one.file]);
  const inputs: Record<string, unknown> = {};
  for (const given of one.inputs) {
    const [name, value] = parseInput(given);
    inputs[name] = value;
  }
  const policy = policyFrom(parsed.values);
  const timeout = typeof parsed.values.timeout === 'string' ? parseDuration(parsed.values.timeout) : undefined;
  if (!policy.roots.length || policy.roots[0] === '.') policy.roots = [cwd];
  const exit = await runProgram({
    source: one.source,
    sourceName: one.name + '.flow',
    ...(one.flow ? { flow: one.flow } : {}),
    inputs,
    args: one.args,
    policy,
    stdin: Readable.from([Buffer.from(one.stdin)]),
    stdout,
    stderr,
    ...(timeout ? { timeoutMs: timeout.nanos / 1e6 } : {}),
  });
  return { stdout: out(), stderr: err(), exit };
}

/** The case run by the reference's `a11 flow run`, in `cwd`. */
export async function runReference(one: ConformanceCase, cwd: string): Promise<CaseResult> {
  const file = join(cwd, `${one.name}.flow`);
  writeFileSync(file, one.source);
  const args = ['flow', 'run', ...one.flags];
  if (one.flow) {
    args.push('--format', 'json', '--flow', one.flow);
    for (const input of one.inputs) args.push('--input', input);
  }
  args.push(`${one.name}.flow`);
  if (one.args.length) args.push('--', ...one.args);
  return runA11(args, { cwd, stdin: one.stdin });
}

export function scratchDirectory(): string {
  return mkdtempSync(join(tmpdir(), 'flowplay-conformance-'));
}

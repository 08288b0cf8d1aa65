/**
 * `flowplay run`'s program runner in this process, with standard output and error captured as
 * text — how tests compare a program's run with `a11 flow run` without spawning a process.
 */
import { PassThrough } from 'node:stream';
import { runProgram, type ProgramRun } from '../../src/cli/run-program.js';

export interface CapturedRun {
  exit: number;
  stdout: string;
  stderr: string;
}

export async function runProgramCaptured(options: Omit<ProgramRun, 'stdout' | 'stderr'>): Promise<CapturedRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (piece: Buffer) => out.push(piece));
  stderr.on('data', (piece: Buffer) => err.push(piece));
  const exit = await runProgram({ ...options, stdout, stderr });
  return { exit, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

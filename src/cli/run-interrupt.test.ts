/**
 * Ctrl-C on `flowplay run`: the run is cancelled, not the process killed outright, so the
 * programs a flow started (each in a process group of its own, out of the terminal's reach) are
 * stopped too, and the user is told what happened.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertBuilt, FLOWPLAY_BIN } from '../../test/support/flowplay.js';

const scratch = mkdtempSync(join(tmpdir(), 'flowplay-interrupt-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Starts a long `sleep`, prints its pid, and reads standard input, which the test never closes. */
const NEVER_ENDS = `flow {
  nodes scratch
  p = run spawn_process(program: "sleep", arguments: ["1000"]) via scratch
  skip p.stdout, p.stderr, p.exit_code, p.stdout_lines, p.stderr_lines, p.signal, p.usage, p.sandbox
  o = run write_stdout(content: p.pid | map strformat("%d\\n", it)) via scratch
  skip o.bytes_written
  input = run read_stdin() via scratch
  skip input.bytes, input.is_tty
  e = run write_stderr(content: input.lines) via scratch
  skip e.bytes_written
}
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('flowplay run, interrupted', () => {
  it('on SIGINT stops the flow and the processes it started, says so in one line, and exits 130', async () => {
    assertBuilt();
    const file = join(scratch, 'never-ends.flow');
    writeFileSync(file, NEVER_ENDS);
    const child = spawn(process.execPath, [FLOWPLAY_BIN, 'run', '--allow-run', file], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const sleeper = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (data: Buffer) => {
        stdout += data.toString();
        const pid = /^(\d+)\n/.exec(stdout);
        if (pid) resolve(Number(pid[1]));
      });
      void exited.then((code) => reject(new Error(`flowplay run ended (${code}) before starting sleep: ${stderr}`)));
    });
    expect(alive(sleeper)).toBe(true);
    child.kill('SIGINT');
    const code = await exited;
    try {
      expect(code).toBe(130);
      expect(stderr).toBe(`${file}: interrupted by SIGINT; the flow and every process it started were stopped.\n`);
      expect(alive(sleeper)).toBe(false);
    } finally {
      if (alive(sleeper)) process.kill(sleeper, 'SIGKILL');
      child.stdin.destroy();
    }
  }, 20_000);
});

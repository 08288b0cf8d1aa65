/**
 * Text ports (`lines`, `text`, `stdout_lines`) carry UTF-8 or refuse: bytes that are not UTF-8
 * fail the action with INVALID_ARGUMENT naming the bytes port, instead of reaching the flow as
 * U+FFFD, as `a11 flow run` refuses them too. Run as programs, the way `flowplay run` runs them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runProgramCaptured } from '../../../test/support/run-program.js';
import { policyFrom } from '../../cli/policy.js';

const scratch = mkdtempSync(join(tmpdir(), 'flowplay-text-ports-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const LATIN1 = Buffer.from('caf\xe9 ok\nplain\n', 'latin1');

function run(source: string, stdin: Buffer[], flags: Record<string, unknown> = {}) {
  return runProgramCaptured({
    source,
    sourceName: 'lines.flow',
    policy: policyFrom({ root: [scratch], ...flags } as Parameters<typeof policyFrom>[0]),
    stdin: Readable.from(stdin),
  });
}

/** A program that runs `step` and writes each value of its `port` as a line; `skips` are its other ports. */
const echoLines = (step: string, skips: string, port: string) => `flow {
  nodes scratch
  source = ${step} via scratch
  ${skips ? `skip ${skips}` : ''}
  o = run write_stdout(content: source.${port} | map strformat("%s\\n", it)) via scratch
  skip o.bytes_written
}
`;

describe('text ports of the standard library', () => {
  it('read_stdin: lines that are not UTF-8 fail the run, naming the bytes port, rather than reaching the flow changed', async () => {
    const result = await run(echoLines('run read_stdin()', 'source.bytes, source.is_tty', 'lines'), [LATIN1]);
    expect(result.exit).toBe(1);
    expect(result.stdout).not.toContain('\uFFFD');
    expect(result.stderr).toContain("the port 'lines' holds bytes that are not valid UTF-8");
    expect(result.stderr).toContain('`bytes` port');
  });

  it('read_stdin: a character split between two reads is still one character', async () => {
    const result = await run(echoLines('run read_stdin()', 'source.bytes, source.is_tty', 'lines'), [Buffer.from([0x63, 0xc3]), Buffer.from([0xa9, 0x0a])]);
    expect(result).toEqual({ exit: 0, stdout: 'c\u00e9\n', stderr: '' });
  });

  it('read_file: lines and text that are not UTF-8 fail the same way', async () => {
    const file = join(scratch, 'latin1.txt');
    writeFileSync(file, LATIN1);
    const lines = await run(echoLines(`run read_file(path: ${JSON.stringify(file)})`, 'source.bytes, source.text, source.info', 'lines'), []);
    expect(lines.exit).toBe(1);
    expect(lines.stderr).toContain("the port 'lines' holds bytes that are not valid UTF-8");
    const readText = `run read_file(path: ${JSON.stringify(file)}, options: {"omit": ["bytes", "lines", "info"]})`;
    const text = await run(echoLines(readText, '', 'text'), []);
    expect(text.exit).toBe(1);
    expect(text.stderr).toContain("the port 'text' holds bytes that are not valid UTF-8");
  });

  it("spawn_process: a program's output lines that are not UTF-8 name its stdout port", async () => {
    const step = `run spawn_process(program: "printf", arguments: ["caf\\\\351\\\\n"])`;
    const skips = 'source.stdout, source.stderr, source.stderr_lines, source.exit_code, source.signal, source.usage, source.sandbox, source.pid';
    const result = await run(echoLines(step, skips, 'stdout_lines'), [], { 'allow-run': true });
    expect(result.exit).toBe(1);
    expect(result.stderr).toContain("the port 'stdout_lines' holds bytes that are not valid UTF-8");
    expect(result.stderr).toContain('`stdout` port');
  });
});

import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { callAction, logText, startCall } from '../../../../test/support/actions.js';
import { LocalDispatcher } from '../../../wire/local-dispatcher.js';
import { ActionRegistry } from '../../../wire/registry.js';
import { StatusCode } from '../../../wire/status.js';
import { ClosableScope, GLOBAL_SCOPE, type ConnectionScope } from '../../scope.js';
import { registerShellActions } from './handlers.js';
import { shellExecuteSchema, shellExitSchema, shellListSchema, shellStartSchema } from './schemas.js';
import { MAX_SHELLS_PER_CONNECTION, ShellManager } from './shell-manager.js';

const managers: ShellManager[] = [];

function setup(scope: ConnectionScope = GLOBAL_SCOPE) {
  const manager = new ShellManager();
  managers.push(manager);
  const dispatcher = new LocalDispatcher(registerShellActions(new ActionRegistry(), { manager, scope }));
  const run = (command: string, headers: Record<string, string> = {}, parameters?: unknown) =>
    callAction(dispatcher, shellExecuteSchema, {
      inputs: { command: [command], ...(parameters ? { parameters: [parameters] } : {}) },
      headers,
    });
  const start = async () => {
    const result = await callAction(dispatcher, shellStartSchema);
    expect(result.status.ok).toBe(true);
    return String(result.outputs.shell_id![0]);
  };
  return { manager, dispatcher, run, start };
}

/** Whether a process with this exact command line is running (to prove nothing leaked). */
function running(marker: string): boolean {
  const table = execFileSync('ps', ['-A', '-o', 'args='], { encoding: 'utf8' });
  return table.split('\n').some((line) => line.includes(marker) && !line.includes('ps -A'));
}

afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

describe('shell actions', () => {
  it('runs a command in a throwaway shell, stdout and stderr interleaved, and discards the shell', async () => {
    const { run, manager } = setup();
    const result = await run('echo out; echo err >&2; printf "no newline"');
    expect(result.status.ok).toBe(true);
    expect(result.outputs.output_lines).toEqual(['out', 'err', 'no newline']);
    expect(logText(result)).toContain('3 lines of output, exit code 0');
    expect(manager.size).toBe(0);
  });

  it('keeps state across commands in a started shell, then lists and exits it', async () => {
    const { run, start, dispatcher } = setup();
    const id = await start();
    const headers = { 'x-a11-shell-id': id };
    await run('cd /tmp && export GREETING=hello && shout() { echo "$1!"; }', headers);
    const result = await run('pwd; echo $GREETING; shout hey', headers);
    expect(result.outputs.output_lines).toEqual(['/tmp', 'hello', 'hey!']);
    expect((await callAction(dispatcher, shellListSchema)).outputs.shell_ids).toEqual([id]);
    expect((await callAction(dispatcher, shellExitSchema, { headers })).status.ok).toBe(true);
    expect((await callAction(dispatcher, shellListSchema)).outputs.shell_ids).toEqual([]);
    const gone = await callAction(dispatcher, shellExitSchema, { headers });
    expect(gone.status.code).toBe(StatusCode.NOT_FOUND);
    expect((await run('true', headers)).status.code).toBe(StatusCode.NOT_FOUND);
  });

  it('streams each line as the command prints it', async () => {
    const { dispatcher } = setup();
    const call = startCall(dispatcher, shellExecuteSchema, { inputs: { command: ['echo first; sleep 1; echo second'] } });
    const reader = call.output('output_lines').reader();
    const started = Date.now();
    expect((await reader.next())?.value).toBe('first');
    expect(Date.now() - started).toBeLessThan(900);
    expect((await reader.next())?.value).toBe('second');
    expect((await call.done).ok).toBe(true);
  });

  it('reports a non-zero exit code on the log without failing, and survives syntax errors', async () => {
    const { run, start } = setup();
    const headers = { 'x-a11-shell-id': await start() };
    const failed = await run('echo before; false', headers);
    expect(failed.status.ok).toBe(true);
    expect(logText(failed)).toContain('exit code 1');
    const broken = await run("echo 'unterminated", headers);
    expect(broken.status.ok).toBe(true);
    expect(broken.outputs.output_lines!.join('\n')).toMatch(/unexpected EOF|matching/);
    expect((await run('echo still here', headers)).outputs.output_lines).toEqual(['still here']);
  });

  it('kills a command that outlives its timeout, with its whole process group, and keeps the shell', async () => {
    const { run, start } = setup();
    const headers = { 'x-a11-shell-id': await start() };
    const marker = `sleep 3${Math.floor(Math.random() * 1000) + 100}`;
    const started = Date.now();
    const result = await run(`echo started; ${marker} | cat`, headers, { timeout_seconds: 1 });
    expect(result.status.code).toBe(StatusCode.DEADLINE_EXCEEDED);
    expect(result.status.message).toContain('timed out after 1 s');
    expect(result.outputs.output_lines).toEqual(['started']);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(running(marker)).toBe(false);
    expect((await run('echo alive', headers)).outputs.output_lines).toEqual(['alive']);
  });

  it('stops a command at the x-a11-deadline header', async () => {
    const { run } = setup();
    const result = await run('sleep 30', { 'x-a11-deadline': String(Date.now() + 500) });
    expect(result.status.code).toBe(StatusCode.DEADLINE_EXCEEDED);
  });

  it('kills the command when the call is cancelled', async () => {
    const { dispatcher, manager } = setup();
    const marker = `sleep 4${Math.floor(Math.random() * 1000) + 100}`;
    const call = startCall(dispatcher, shellExecuteSchema, { inputs: { command: [marker] } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(running(marker)).toBe(true);
    call.cancel();
    expect((await call.done).code).toBe(StatusCode.CANCELLED);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(running(marker)).toBe(false);
    expect(manager.size).toBe(0);
  });

  it('kills a loop the shell runs itself on cancel, leaving no child behind', async () => {
    const { dispatcher, run } = setup();
    const marker = `sleep 6${Math.floor(Math.random() * 1000) + 100}`;
    const call = startCall(dispatcher, shellExecuteSchema, { inputs: { command: [`while true; do ${marker}; done`] } });
    await waitFor(() => running(marker));
    call.cancel();
    expect((await call.done).code).toBe(StatusCode.CANCELLED);
    await waitFor(() => !running(marker), 3000);
    expect(running(marker)).toBe(false);
    expect((await run('echo next')).outputs.output_lines).toEqual(['next']);
  });

  it('refuses bad input clearly', async () => {
    const { run, dispatcher } = setup();
    const blank = await run('   ');
    expect(blank.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(blank.status.message).toContain("'command' input is required");
    const negative = await run('true', {}, { timeout_seconds: -1 });
    expect(negative.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(negative.status.message).toContain('timeout_seconds');
    const noId = await callAction(dispatcher, shellExitSchema);
    expect(noId.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(noId.status.message).toContain('x-a11-shell-id');
  });

  it('caps the shells of one connection and reaps them when the connection ends', async () => {
    const scope = new ClosableScope('conn-1');
    const { start, dispatcher, manager, run } = setup(scope);
    const ids = [];
    for (let i = 0; i < MAX_SHELLS_PER_CONNECTION; i++) ids.push(await start());
    const refused = await callAction(dispatcher, shellStartSchema);
    expect(refused.status.code).toBe(StatusCode.RESOURCE_EXHAUSTED);
    const marker = `sleep 5${Math.floor(Math.random() * 1000) + 100}`;
    await run(`${marker} &`, { 'x-a11-shell-id': ids[0]! });
    expect(running(marker)).toBe(true);
    await scope.close();
    expect(manager.size).toBe(0);
    expect(running(marker)).toBe(false);
  });

  it('delivers a very long line in bounded pieces', async () => {
    const { run } = setup();
    const result = await run(`head -c 200000 /dev/zero | tr '\\0' x`);
    const lines = result.outputs.output_lines as string[];
    expect(lines.join('')).toHaveLength(200000);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(64 * 1024);
  });
});

async function waitFor(condition: () => boolean, withinMs = 5000): Promise<void> {
  const endAt = Date.now() + withinMs;
  while (!condition() && Date.now() < endAt) await new Promise((resolve) => setTimeout(resolve, 50));
}

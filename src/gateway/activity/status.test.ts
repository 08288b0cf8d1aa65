import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collectCall, startCall } from '../../../test/support/actions.js';
import { startTestGateway, type TestGateway } from '../../../test/support/flowplay-gateway.js';
import { Status, StatusCode } from '../../wire/status.js';
import { FileMicrophone } from '../actions/audio/microphone.js';
import { PocketsphinxBackend } from '../actions/audio/pocketsphinx.js';
import { captureTranscriptionSchema } from '../actions/audio/schemas.js';
import { shellExecuteSchema, shellStartSchema } from '../actions/shell/schemas.js';
import { flowActionsSchema, flowCheckSchema, flowRunSchema } from '../flow-tools/schemas.js';
import { readOnlyPolicy } from '../stdlib/index.js';
import { spawnProcessSchema } from '../stdlib/process.js';
import { gatewayStatusReportSchema, gatewayStatusSchema, type GatewayStatusReport } from './status-schema.js';

const gateways: TestGateway[] = [];

afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
});

async function gateway(options: Parameters<typeof startTestGateway>[0] = {}): Promise<TestGateway> {
  const started = await startTestGateway(options);
  gateways.push(started);
  return started;
}

/** The report as `GET /status` answers it, checked against its schema. */
async function httpStatus(served: TestGateway): Promise<GatewayStatusReport> {
  const response = await fetch(new URL('/status', served.started.server.url));
  expect(response.status).toBe(200);
  return gatewayStatusReportSchema.parse(await response.json());
}

/** Polls the report until `check` holds (or fails with the last report, to show why). */
async function until(served: TestGateway, check: (report: GatewayStatusReport) => boolean, withinMs = 10_000): Promise<GatewayStatusReport> {
  const end = Date.now() + withinMs;
  let report = await httpStatus(served);
  while (!check(report)) {
    if (Date.now() > end) throw new Error(`The status never got there; it reads:\n${JSON.stringify(report, null, 2)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    report = await httpStatus(served);
  }
  return report;
}

/** Whether `pid` is a live process whose command line holds `marker` (an independent look, via /proc). */
function runs(pid: number, marker: string): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (state.slice(state.lastIndexOf(')') + 2).startsWith('Z')) return false;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(marker);
  } catch {
    return false;
  }
}

const idle = (report: GatewayStatusReport) =>
  report.calls.length === 0 && report.flow_runs.length === 0 && report.processes.length === 0 && report.shells.every((shell) => shell.command === null);

const uniqueSleep = () => `sleep 7${Math.floor(Math.random() * 9000) + 1000}`;

describe('the gateway status report', () => {
  it('shows a running shell command with its pids, and not once it has ended', async () => {
    const served = await gateway();
    const session = await served.connect();
    const started = await collectCall(startCall(session, shellStartSchema));
    const shellId = String(started.outputs.shell_id![0]);
    const headers = { 'x-a11-shell-id': shellId };
    const marker = uniqueSleep();
    const call = startCall(session, shellExecuteSchema, { headers, inputs: { command: [`sleep 0.2; ${marker}; echo done`] } });

    const running = await until(served, (report) => report.shells.some((shell) => shell.command?.text.includes(marker) && shell.groups.some((group) => group.pids.some((pid) => runs(pid, marker)))));
    const shell = running.shells.find((candidate) => candidate.id === shellId)!;
    expect(shell).toMatchObject({ transient: false, connection: running.connections[0]!.id, closing: false });
    expect(shell.command!.call).toBe(call.id);
    const pids = shell.groups.flatMap((group) => group.pids);
    expect(running.calls).toEqual([expect.objectContaining({ id: call.id, action: 'shell_execute', connection: running.connections[0]!.id })]);
    expect(running.summary).toMatchObject({ connections: 1, calls: 1, shells: 1, commands: 1 });
    // The shell itself and its command are the gateway's; they are counted once each.
    const bash = running.processes.find((child) => child.kind === 'shell' && child.pid === shell.pid)!;
    expect(bash.started_by).toMatchObject({ action: 'shell_start' });
    expect(bash.pids).toEqual(expect.arrayContaining([shell.pid, ...pids]));
    expect(running.summary.processes).toBe(new Set([shell.pid, ...pids, ...bash.pids]).size);

    call.cancel();
    expect((await call.done).code).toBe(StatusCode.CANCELLED);
    const after = await until(served, (report) => report.calls.length === 0 && report.shells[0]?.command === null);
    expect(after.shells[0]!.groups).toEqual([]);
    for (const pid of pids) expect(runs(pid, marker)).toBe(false);
    // The persistent shell is still there, and still the only process left.
    expect(after.summary).toMatchObject({ shells: 1, commands: 0, calls: 0 });
    expect(after.processes.map((child) => child.pids)).toEqual([[shell.pid]]);

    const quick = await collectCall(startCall(session, shellExecuteSchema, { headers, inputs: { command: ['sleep 0.1; echo finished'] } }));
    expect(quick.outputs.output_lines).toEqual(['finished']);
    const finished = await httpStatus(served);
    expect(finished.shells[0]!.command).toBeNull();
    expect(finished.calls).toEqual([]);
  });

  it('shows a throwaway shell while its command runs, and nothing left once it is cancelled', async () => {
    const served = await gateway();
    const session = await served.connect();
    const marker = uniqueSleep();
    const call = startCall(session, shellExecuteSchema, { inputs: { command: [`echo start; ${marker}`] } });
    const running = await until(served, (report) => report.shells.some((shell) => shell.command?.text.includes(marker) && shell.groups.length > 0));
    expect(running.shells[0]).toMatchObject({ id: null, transient: true, connection: running.connections[0]!.id });
    const pids = running.processes.flatMap((child) => child.pids);
    expect(pids.some((pid) => runs(pid, marker))).toBe(true);

    call.cancel();
    await call.done;
    const after = await until(served, (report) => report.shells.length === 0 && idle(report));
    expect(after.summary).toMatchObject({ calls: 0, flow_runs: 0, shells: 0, commands: 0, processes: 0 });
    for (const pid of pids) expect(runs(pid, marker)).toBe(false);
  });

  it('shows a flow run in progress, the call running it and the command it started, until it is cancelled', async () => {
    const served = await gateway();
    const session = await served.connect();
    const marker = uniqueSleep();
    const source = `flow long {
  out lines: string stream
  sh = run shell_execute(command: "echo go; ${marker}", parameters: {"timeout_seconds": 600})
  sh.output_lines -> lines
}
`;
    const call = startCall(session, flowRunSchema, { inputs: { source: [source] } });
    const running = await until(served, (report) => report.flow_runs.length === 1 && report.shells.some((shell) => shell.groups.length > 0));
    const connection = running.connections[0]!.id;
    expect(running.flow_runs).toEqual([expect.objectContaining({ call: call.id, flow: 'long', connection })]);
    expect(running.calls).toEqual([expect.objectContaining({ id: call.id, action: 'flow_run', connection })]);
    // The nested shell_execute runs in a throwaway shell of this connection, started by that step.
    const shell = running.shells[0]!;
    expect(shell).toMatchObject({ transient: true, connection });
    expect(shell.command!.text).toContain(marker);
    const bash = running.processes.find((child) => child.pid === shell.pid)!;
    expect(bash).toMatchObject({ kind: 'shell', connection, started_by: { action: 'shell_execute' } });
    expect(bash.started_by!.call).toBe(shell.command!.call);

    call.cancel();
    expect((await call.done).code).toBe(StatusCode.CANCELLED);
    const after = await until(served, (report) => report.shells.length === 0 && idle(report));
    expect(after.summary).toMatchObject({ connections: 1, calls: 0, flow_runs: 0, shells: 0, commands: 0, processes: 0 });
  });

  it('lists each connection while it is open and forgets it once closed', async () => {
    const served = await gateway();
    const first = await served.connect();
    const second = await served.connect();
    const both = await until(served, (report) => report.connections.length === 2);
    for (const connection of both.connections) expect(connection).toMatchObject({ remote: 'loopback', browser: false, calls: 0 });
    expect(Date.parse(both.connections[0]!.since)).toBeLessThanOrEqual(Date.now());

    await first.close();
    const one = await until(served, (report) => report.connections.length === 1);
    expect(one.summary.connections).toBe(1);
    await second.close();
    await until(served, (report) => report.connections.length === 0 && report.summary.connections === 0);
  });

  it('reaps the shells of a connection that drops, and reports them gone', async () => {
    const served = await gateway();
    const session = await served.connect();
    await collectCall(startCall(session, shellStartSchema));
    const marker = uniqueSleep();
    void startCall(session, shellExecuteSchema, { inputs: { command: [marker] } });
    await until(served, (report) => report.shells.length === 2 && report.summary.commands === 1);
    session.connection.abort(new Status(StatusCode.UNAVAILABLE, 'The test pulls the plug.'));
    const after = await until(served, (report) => report.connections.length === 0 && report.shells.length === 0 && idle(report));
    expect(after.summary.processes).toBe(0);
  });

  it('counts the programs spawn_process runs, by the call that ran them', async () => {
    const policy = readOnlyPolicy([]);
    policy.processes = { enabled: true, anyProgram: true, programs: [], inheritEnvironment: true };
    const served = await gateway({ stdlib: policy });
    const session = await served.connect();
    const marker = `${Math.floor(Math.random() * 9000) + 1000}`;
    // The program forks a child of its own, which is counted with it.
    const call = startCall(session, spawnProcessSchema, { inputs: { program: ['sh'], arguments: [['-c', `sleep 8${marker} & sleep 9${marker}; wait`]] } });
    const running = await until(served, (report) => report.processes.some((child) => child.kind === 'spawn_process' && child.pids.length >= 3));
    const spawned = running.processes.find((child) => child.kind === 'spawn_process')!;
    expect(spawned).toMatchObject({ pgid: spawned.pid, exited: false, connection: running.connections[0]!.id, started_by: { call: call.id, action: 'spawn_process' } });
    expect(spawned.command).toContain('sh -c sleep');
    // sh and its two sleeps.
    expect(spawned.pids.filter((pid) => runs(pid, marker))).toHaveLength(3);

    call.cancel();
    await call.done;
    await until(served, (report) => report.processes.length === 0 && report.summary.processes === 0);
    for (const pid of spawned.pids) expect(runs(pid, marker)).toBe(false);
  });

  it('still shows what is left of a group whose leader has exited', async () => {
    const policy = readOnlyPolicy([]);
    policy.processes = { enabled: true, anyProgram: true, programs: [], inheritEnvironment: true };
    const served = await gateway({ stdlib: policy });
    const session = await served.connect();
    const marker = `${Math.floor(Math.random() * 9000) + 1000}`;
    // The leader leaves a background sleep behind, with its output pipes closed so the call can end.
    const result = await collectCall(
      startCall(session, spawnProcessSchema, { inputs: { program: ['sh'], arguments: [['-c', `sleep 6${marker} >/dev/null 2>&1 </dev/null & exit 0`]] } }),
    );
    expect(result.status.ok).toBe(true);
    const left = await until(served, (report) => report.processes.some((child) => child.exited));
    const lingering = left.processes.find((child) => child.exited)!;
    expect(lingering.pids).toHaveLength(1);
    expect(runs(lingering.pids[0]!, `sleep 6${marker}`)).toBe(true);
    expect(left.calls).toEqual([]);
    process.kill(-lingering.pgid, 'SIGKILL');
    await until(served, (report) => report.processes.length === 0);
  });
});

describe('gateway_status and GET /status', () => {
  it('answers gateway_status over A11, leaving out the call that asks', async () => {
    const served = await gateway();
    const session = await served.connect();
    const result = await collectCall(startCall(session, gatewayStatusSchema));
    expect(result.status.ok).toBe(true);
    const report = gatewayStatusReportSchema.parse(result.outputs.status![0]);
    expect(report.format).toBe('flowplay.gateway-status/v1');
    expect(report.summary.calls).toBe(0);
    expect(report.connections).toHaveLength(1);
    expect(report.gateway.pid).toBe(process.pid);
    expect(String(result.log[0]?.message)).toMatch(/^Running: 1 connection\(s\), 0 other call\(s\)/);
  });

  it('is an operator tool: flow_actions does not list it and no flow may call it', async () => {
    const served = await gateway();
    const session = await served.connect();
    const listed = await collectCall(startCall(session, flowActionsSchema));
    const names = (listed.outputs.actions![0] as { action: string }[]).map((entry) => entry.action);
    expect(names).toContain('shell_execute');
    expect(names).not.toContain('gateway_status');
    const source = `flow peek {
  out report: object
  s = run gateway_status()
  s.status -> report
}
`;
    const checked = await collectCall(startCall(session, flowCheckSchema, { inputs: { source: [source] } }));
    expect(checked.status.code).toBe(StatusCode.PERMISSION_DENIED);
    expect(checked.status.message).toContain("may not call 'gateway_status'");
    const ran = await collectCall(startCall(session, flowRunSchema, { inputs: { source: [source] } }));
    expect(ran.status.code).toBe(StatusCode.PERMISSION_DENIED);
  });

  it('serves GET /status as JSON with no CORS header, to local programs and to pages with the token', async () => {
    const served = await gateway();
    const base = served.started.server.url.slice(0, served.started.server.url.indexOf('?'));
    const token = served.started.token;
    const origin = new URL(base).origin;

    const plain = await fetch(`${base}status`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('no-store');
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    gatewayStatusReportSchema.parse(await plain.json());

    const pageWithout = await fetch(`${base}status`, { headers: { origin } });
    expect(pageWithout.status).toBe(403);
    expect(await pageWithout.text()).toContain('launch token');
    const pageWith = await fetch(`${base}status?token=${token}`, { headers: { origin } });
    expect(pageWith.status).toBe(200);
    expect(pageWith.headers.get('access-control-allow-origin')).toBeNull();
    const bearer = await fetch(`${base}status`, { headers: { origin, authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(200);
    expect((await fetch(`${base}status?token=wrong-token`, { headers: { origin } })).status).toBe(403);
    expect((await fetch(`${base}status?token=${token}`, { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    // A browser fetching for another site without saying so (a <script src>, say) still needs the token.
    expect((await fetch(`${base}status`, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await fetch(`${base}status`, { headers: { 'sec-fetch-site': 'none' } })).status).toBe(200);
    expect((await fetch(`${base}status?token=${token}`, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);

    const post = await fetch(`${base}status`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = await fetch(`${base}status`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

const cannotHear = await new PocketsphinxBackend().unavailable();
describe.skipIf(!!cannotHear)(`speech and capture processes in the report${cannotHear ? ` (${cannotHear})` : ''}`, () => {
  let dir = '';
  let wav = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'flowplay-status-'));
    wav = join(dir, 'tone.wav');
    execFileSync('sox', ['-n', '-r', '16000', '-c', '1', wav, 'synth', '300', 'sine', '440', 'vol', '0.1']);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts the capture program and the recogniser of capture_transcription, until it is cancelled', async () => {
    const served = await gateway({ microphone: new FileMicrophone(wav) });
    const session = await served.connect();
    const call = startCall(session, captureTranscriptionSchema, {
      inputs: { asr_options: [{ words: ['hello world'] }] },
      open: ['control_events'],
    });
    const running = await until(served, (report) => ['audio_capture', 'pocketsphinx'].every((kind) => report.processes.some((child) => child.kind === kind)));
    const capture = running.processes.find((child) => child.kind === 'audio_capture')!;
    const recogniser = running.processes.find((child) => child.kind === 'pocketsphinx')!;
    expect(capture.command).toContain(wav);
    expect(recogniser.command).toContain('pocketsphinx_continuous');
    for (const child of [capture, recogniser]) expect(child.started_by).toEqual({ call: call.id, action: 'capture_transcription' });
    // pocketsphinx is fed through `cat |`: the pipeline's processes are all counted.
    expect(recogniser.pids.length).toBeGreaterThanOrEqual(2);

    call.cancel();
    await call.done;
    const after = await until(served, (report) => report.processes.length === 0 && report.calls.length === 0);
    expect(after.summary.processes).toBe(0);
  });
});

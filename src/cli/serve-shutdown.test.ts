import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startCall } from '../../test/support/actions.js';
import { serveFlowplay } from '../../test/support/flowplay.js';
import { gatewayStatusReportSchema, type GatewayStatusReport } from '../gateway/activity/status-schema.js';
import { shellExecuteSchema } from '../gateway/actions/shell/schemas.js';
import { flowRunSchema } from '../gateway/flow-tools/schemas.js';
import { connectSession } from '../wire/node-ws.js';
import { StatusCode } from '../wire/status.js';

/** Whether a process whose command line holds `marker` is running on this machine (a witness independent of the gateway). */
function running(marker: string): boolean {
  return execFileSync('ps', ['-A', '-o', 'args='], { encoding: 'utf8' })
    .split('\n')
    .some((line) => line.includes(marker));
}

describe('flowplay serve shutdown', () => {
  it('ends every run and every process it started on SIGTERM, and exits 0 within seconds', async () => {
    const served = await serveFlowplay(['--allow-run']);
    const statusUrl = new URL('/status', served.url);
    const endpoint = `ws://${new URL(served.url).host}/a11`;
    const tag = `${process.pid}${Math.floor(Math.random() * 9000) + 1000}`;
    const inFlow = `sleep 7${tag}`;
    const direct = `sleep 8${tag}`;
    const spawned = `9${tag}`;
    try {
      const session = await connectSession(endpoint);
      const source = `flow long {
  out lines: string stream
  sh = run shell_execute(command: "for i in $(seq 100); do echo tick $i; ${inFlow}; done", parameters: {"timeout_seconds": 600})
  sh.output_lines -> lines
  p = run spawn_process(program: "sleep", arguments: ["${spawned}"])
}
`;
      const flow = startCall(session, flowRunSchema, { inputs: { source: [source] } });
      const command = startCall(session, shellExecuteSchema, { inputs: { command: [`echo here; ${direct}`], parameters: [{ timeout_seconds: 600 }] } });

      let report: GatewayStatusReport | undefined;
      for (const end = Date.now() + 15_000; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 100))) {
        report = gatewayStatusReportSchema.parse(await (await fetch(statusUrl)).json());
        if (report.summary.commands === 2 && report.processes.some((child) => child.kind === 'spawn_process')) break;
      }
      expect(report?.flow_runs.map((run) => run.flow)).toEqual(['long']);
      expect(report?.summary.commands).toBe(2);
      expect(report?.processes.map((child) => child.kind).sort()).toEqual(['shell', 'shell', 'spawn_process']);
      for (const marker of [inFlow, direct, spawned]) expect(running(marker)).toBe(true);

      const signalled = Date.now();
      const code = await served.stop();
      const took = Date.now() - signalled;
      expect(code).toBe(0);
      expect(took).toBeLessThan(5000);
      expect((await flow.done).code).toBe(StatusCode.UNAVAILABLE);
      expect((await command.done).code).toBe(StatusCode.UNAVAILABLE);
      for (const marker of [inFlow, direct, spawned]) expect(running(marker)).toBe(false);
      expect(served.output).toContain('shutting down');
    } finally {
      await served.stop();
    }
  }, 40_000);
});

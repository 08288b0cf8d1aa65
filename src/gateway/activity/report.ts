import type { HeldShell } from '../actions/shell/shell-manager.js';
import type { GatewayActivity } from './activity.js';
import { groupsOf, processTree } from './processes.js';
import { STATUS_FORMAT, type GatewayStatusReport, type StatusShell } from './status-schema.js';

/** Longest command text a report quotes. */
const COMMAND_LIMIT = 500;

export interface StatusSources {
  activity: GatewayActivity;
  /** The shells the gateway holds (its ShellManager's view). */
  shells: () => HeldShell[];
}

export interface StatusOptions {
  /** The call asking for the report, which is left out of it. */
  askingCall?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

async function describeShell(held: HeldShell): Promise<{ report: StatusShell; pids: number[] }> {
  const { shell } = held;
  const tree = shell.isAlive ? await processTree(shell.pid) : [];
  const running = shell.running;
  const text = running?.text.trim() ?? '';
  return {
    report: {
      id: held.id ?? null,
      transient: held.transient,
      connection: held.connection ?? null,
      pid: shell.pid,
      started_at: iso(shell.startedAt),
      closing: held.closing,
      command: running
        ? {
            text: text.length > COMMAND_LIMIT ? `${text.slice(0, COMMAND_LIMIT - 1)}…` : text,
            call: running.callId ?? null,
            started_at: iso(running.startedAt),
          }
        : null,
      groups: groupsOf(tree, shell.pid),
    },
    pids: tree.map((member) => member.pid),
  };
}

/**
 * What the gateway is running now, read from the owners of each part (see GatewayActivity):
 * nothing here scans the machine's process list for names.
 */
export async function buildStatusReport(sources: StatusSources, options: StatusOptions = {}): Promise<GatewayStatusReport> {
  const { activity } = sources;
  const now = Date.now();
  const connections = activity.connections;
  const calls = connections.flatMap((connection) =>
    connection
      .calls()
      .filter((call) => call.id !== options.askingCall)
      .map((call) => ({ id: call.id, action: call.action, started_at: iso(call.startedAt), connection: connection.id })),
  );
  const [shells, processes] = await Promise.all([Promise.all(sources.shells().map(describeShell)), activity.children.list()]);
  const livePids = new Set([...processes.flatMap((child) => child.pids), ...shells.flatMap((shell) => shell.pids)]);
  const flowRuns = activity.flowRuns;
  return {
    format: STATUS_FORMAT,
    generated_at: iso(now),
    gateway: { pid: process.pid, started_at: iso(activity.startedAt), uptime_ms: now - activity.startedAt },
    summary: {
      connections: connections.length,
      calls: calls.length,
      flow_runs: flowRuns.length,
      shells: shells.length,
      commands: shells.filter((shell) => shell.report.command !== null).length,
      processes: livePids.size,
    },
    connections: connections.map((connection) => ({
      id: connection.id,
      remote: connection.remote,
      browser: connection.browser,
      since: iso(connection.since),
      calls: calls.filter((call) => call.connection === connection.id).length,
    })),
    calls,
    flow_runs: flowRuns.map((run) => ({ call: run.call, flow: run.flow, started_at: iso(run.startedAt), connection: run.connection ?? null })),
    shells: shells.map((shell) => shell.report),
    processes,
  };
}

import type { ChildProcess } from 'node:child_process';
import type { ChildKind, StatusProcess } from './status-schema.js';
import { groupMembers, processTree } from './processes.js';

/** Longest command line a report quotes. */
const COMMAND_LIMIT = 300;

/** Who a child process was started for. */
export interface ChildOwner {
  connection: string | undefined;
  call: { id: string; action: string } | undefined;
}

interface TrackedChild {
  kind: ChildKind;
  pid: number;
  command: string;
  startedAt: number;
  owner: ChildOwner;
  exited: boolean;
}

/**
 * Every child process the gateway started, entered by the code that spawned it. Each child
 * leads a process group of its own (they are all spawned detached), so "is anything of it left"
 * has an exact answer even after the child itself has gone: is anyone still in its group. An
 * entry leaves once its child has exited and its group is empty.
 */
export class ChildProcesses {
  readonly #children = new Map<number, TrackedChild>();

  /** Enters `child` (spawned with `detached: true`); a child that failed to start is ignored. */
  track(child: ChildProcess, kind: ChildKind, argv: readonly string[], owner: ChildOwner): void {
    const pid = child.pid;
    if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const command = argv.join(' ');
    const entry: TrackedChild = {
      kind,
      pid,
      command: command.length > COMMAND_LIMIT ? `${command.slice(0, COMMAND_LIMIT - 1)}…` : command,
      startedAt: Date.now(),
      owner,
      exited: false,
    };
    this.#children.set(pid, entry);
    child.once('exit', () => {
      entry.exited = true;
      void this.#forgetIfGone(entry);
    });
  }

  /** How many children are entered (alive, or with something of their group left). */
  get size(): number {
    return this.#children.size;
  }

  /** Each child with what is alive of it now; entries with nothing left are dropped. */
  async list(): Promise<StatusProcess[]> {
    const entries = [...this.#children.values()];
    const reports = await Promise.all(
      entries.map(async (entry): Promise<StatusProcess | undefined> => {
        const pids = entry.exited ? await groupMembers(entry.pid) : (await processTree(entry.pid)).map((process) => process.pid);
        if (pids.length === 0) {
          // Alive a moment ago but gone now: its exit event is on its way.
          if (entry.exited) this.#forget(entry);
          return undefined;
        }
        return {
          kind: entry.kind,
          pid: entry.pid,
          pgid: entry.pid,
          command: entry.command,
          started_at: new Date(entry.startedAt).toISOString(),
          connection: entry.owner.connection ?? null,
          started_by: entry.owner.call ? { call: entry.owner.call.id, action: entry.owner.call.action } : null,
          exited: entry.exited,
          pids: pids.sort((a, b) => a - b),
        };
      }),
    );
    return reports.filter((report): report is StatusProcess => report !== undefined);
  }

  /**
   * Ends whatever is left (shutdown): SIGTERM to every group, then SIGKILL to those still there
   * after `graceMs`. Resolves once every group is empty or the second round has been sent.
   */
  async terminateAll(graceMs = 2000): Promise<void> {
    if (this.#children.size === 0) return;
    // A child's descendants may lead groups of their own (a shell's jobs do): those too.
    const trees = await Promise.all([...this.#children.values()].map((entry) => (entry.exited ? [] : processTree(entry.pid))));
    const groups = [...new Set([...this.#children.keys(), ...trees.flat().map((process) => process.pgid)])];
    for (const pgid of groups) signal(pgid, 'SIGTERM');
    const until = Date.now() + graceMs;
    let left = groups;
    while (Date.now() < until) {
      left = (await Promise.all(left.map(async (pgid) => ((await groupMembers(pgid)).length ? pgid : undefined)))).filter(
        (pgid): pgid is number => pgid !== undefined,
      );
      if (left.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const pgid of left) signal(pgid, 'SIGKILL');
  }

  /** SIGKILL to every group at once, without waiting (the process is exiting). */
  killAllNow(): void {
    for (const pgid of this.#children.keys()) signal(pgid, 'SIGKILL');
  }

  async #forgetIfGone(entry: TrackedChild): Promise<void> {
    if ((await groupMembers(entry.pid)).length === 0) this.#forget(entry);
  }

  #forget(entry: TrackedChild): void {
    if (this.#children.get(entry.pid) === entry) this.#children.delete(entry.pid);
  }
}

function signal(pgid: number, name: NodeJS.Signals): void {
  try {
    process.kill(-pgid, name);
  } catch {
    // ESRCH: nothing left in the group.
  }
}

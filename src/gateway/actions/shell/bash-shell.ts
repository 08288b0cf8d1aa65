import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Status, StatusCode, StatusError } from '../../../wire/status.js';
import { trackChildProcess } from '../../activity/attribution.js';
import { OutputQueue } from './output-queue.js';
import { descendantGroups, signalGroup } from './process-tree.js';

/** How long a signalled command gets to give the shell back before the next escalation. */
const TERMINATION_GRACE_MS = 2000;
/** How long each signal round waits for a terminated command's end marker. */
const KILL_ROUND_MS = 750;
/** A line longer than this is delivered in pieces, so one endless line cannot grow without bound. */
export const MAX_LINE_CHARS = 64 * 1024;

export interface ExecuteOptions {
  /** Hard wall-clock limit; the command's processes are killed when it passes. */
  timeoutMs?: number;
  /** Aborting it kills the command (the shell survives when it can). */
  signal?: AbortSignal;
  /** Receives each output line (stdout and stderr interleaved) as it is printed; awaited. */
  onLine: (line: string) => Promise<void> | void;
  /** The call running the command, for the gateway's status report. */
  callId?: string;
}

/** The command a shell is executing now. */
export interface RunningCommand {
  text: string;
  callId: string | undefined;
  startedAt: number;
}

export interface ExecuteResult {
  exitCode: number;
}

/**
 * One long-lived `bash` process that runs commands one at a time and keeps its state (working
 * directory, variables, functions) between them.
 *
 * Each command runs in the foreground of the shell, so what it sets persists; job control
 * (`set -m`) puts every pipeline it starts in a process group of its own, which is what lets a
 * timed-out command be killed without killing the shell. The command text is handed to `eval`
 * through a quoted here-document, so a command with a syntax error fails like any other
 * instead of leaving the shell waiting for the rest of a quote. A unique end marker printed
 * after the command carries its exit status and says where its output stops.
 */
export class BashShell {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #output: OutputQueue;
  #exited = false;
  #exitWaiters: (() => void)[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #running: RunningCommand | undefined;
  /** When the shell was started (milliseconds since the epoch). */
  readonly startedAt = Date.now();

  private constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
    this.#output = new OutputQueue(child.stdout);
    child.stderr.resume();
    child.stdin.on('error', () => {});
    child.once('exit', () => {
      this.#exited = true;
      for (const resolve of this.#exitWaiters.splice(0)) resolve();
    });
  }

  /** Starts `bash` in a session of its own (so its whole tree can be signalled) and readies it. */
  static async start(options: { bashPath?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<BashShell> {
    const child = spawn(options.bashPath ?? 'bash', ['--noprofile', '--norc'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      cwd: options.cwd,
      env: options.env ?? process.env,
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) =>
        reject(new StatusError(StatusCode.FAILED_PRECONDITION, `Cannot start bash: ${error.message}. Is bash installed?`)),
      );
    });
    trackChildProcess(child, 'shell', [options.bashPath ?? 'bash', '--noprofile', '--norc']);
    const shell = new BashShell(child);
    // Everything the shell and its commands print arrives on one pipe, in the order printed.
    shell.#write('exec 2>&1\nset -m\n');
    return shell;
  }

  get pid(): number {
    return this.#child.pid!;
  }

  get isAlive(): boolean {
    return !this.#exited;
  }

  /** The command executing now (until its processes are gone), or undefined when idle. */
  get running(): RunningCommand | undefined {
    return this.#running;
  }

  /** Runs `command`, waiting for any command already running in this shell to finish first. */
  execute(command: string, options: ExecuteOptions): Promise<ExecuteResult> {
    const run = this.#queue.then(() => this.#execute(command, options));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #execute(command: string, options: ExecuteOptions): Promise<ExecuteResult> {
    if (!this.isAlive) throw new StatusError(StatusCode.FAILED_PRECONDITION, 'The shell is not running any more.');
    if (options.signal?.aborted) throw abortStatus(options.signal);
    const token = `__A11_END_${randomBytes(12).toString('hex')}__`;
    this.#write(
      `IFS= read -r -d '' __a11_command <<'${token}_CMD'\n${command}\n${token}_CMD\n` +
        `{ eval "$__a11_command"; } </dev/null\n` +
        `printf '${token} %d\\n' "$?"\n`,
    );
    const endAt = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
    let pending = '';
    let finished = false;
    this.#running = { text: command, callId: options.callId, startedAt: Date.now() };
    try {
      for (;;) {
        const piece = await this.#output.next(endAt === undefined ? undefined : endAt - Date.now(), options.signal);
        if (piece === null) {
          finished = true;
          throw new StatusError(StatusCode.UNAVAILABLE, 'The shell exited before the command finished.');
        }
        if (piece === undefined) {
          await this.#terminateCommand(token);
          finished = true;
          if (options.signal?.aborted) throw abortStatus(options.signal);
          throw new StatusError(
            StatusCode.DEADLINE_EXCEEDED,
            `The command timed out after ${formatSeconds(options.timeoutMs ?? 0)} and was terminated.`,
          );
        }
        pending += piece;
        const at = pending.indexOf(token);
        if (at >= 0) {
          // What precedes the marker: whole lines, and maybe a last one printed without a newline.
          const rest = pending.slice(0, at);
          const exitCode = await this.#readExitCode(pending.slice(at + token.length));
          finished = true;
          for (const line of splitLines(rest, true)) {
            for (let from = 0; from < line.length || from === 0; from += MAX_LINE_CHARS) {
              await options.onLine(line.slice(from, from + MAX_LINE_CHARS));
            }
          }
          return { exitCode };
        }
        // Complete lines go out now; an unfinished one waits (it may be where the marker starts).
        const cut = pending.lastIndexOf('\n') + 1;
        const complete = pending.slice(0, cut);
        pending = pending.slice(cut);
        for (const line of splitLines(complete, false)) await options.onLine(line);
        while (pending.length > MAX_LINE_CHARS + token.length) {
          await options.onLine(pending.slice(0, MAX_LINE_CHARS));
          pending = pending.slice(MAX_LINE_CHARS);
        }
      }
    } finally {
      // An early exit (a throwing onLine, say) must not leave the command running.
      if (!finished) await this.#terminateCommand(token);
      this.#running = undefined;
    }
  }

  /** Ends the shell: asks politely (end of input), then signals every process it started. */
  async close(): Promise<void> {
    if (this.#exited) return;
    const groups = await descendantGroups(this.pid);
    this.#child.stdin.end();
    for (const pgid of groups) signalGroup(pgid, 'SIGTERM');
    if (await this.#waitExit(1000)) return this.#killLeftovers(groups);
    signalGroup(this.pid, 'SIGTERM');
    if (await this.#waitExit(1000)) return this.#killLeftovers(groups);
    signalGroup(this.pid, 'SIGKILL');
    this.#killLeftovers(groups);
    await this.#waitExit(1000);
  }

  /** Kills the shell and everything in its group at once, without waiting (process exit). */
  killNow(): void {
    if (this.#exited) return;
    signalGroup(this.pid, 'SIGKILL');
  }

  #killLeftovers(groups: Set<number>): void {
    for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
  }

  #write(text: string): void {
    if (!this.#child.stdin.writable) return;
    this.#child.stdin.write(text);
  }

  async #readExitCode(trailing: string): Promise<number> {
    const endAt = Date.now() + TERMINATION_GRACE_MS;
    while (!trailing.includes('\n')) {
      const more = await this.#output.next(endAt - Date.now());
      if (more === null || more === undefined) break;
      trailing += more;
    }
    const code = Number.parseInt(trailing.trim().split(/\s+/)[0] ?? '', 10);
    return Number.isNaN(code) ? -1 : code;
  }

  /**
   * Stops the running command: every process group the shell has started gets SIGTERM, then
   * SIGKILL, each followed by a wait for the shell to print the end marker. A shell that never
   * comes back is torn down.
   */
  async #terminateCommand(token: string): Promise<void> {
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (!this.isAlive) return;
      for (const pgid of await descendantGroups(this.pid)) signalGroup(pgid, signal);
      if (await this.#drainTo(token, KILL_ROUND_MS)) return;
    }
    // Still no end marker: the shell itself is running the command (a loop, say) and starts a
    // new child each time one dies. Its current children must be found before it goes, because
    // once it is dead they belong to init and can no longer be traced back to it.
    const orphans = await descendantGroups(this.pid);
    signalGroup(this.pid, 'SIGKILL');
    this.#killLeftovers(orphans);
    await this.#waitExit(TERMINATION_GRACE_MS);
  }

  async #drainTo(token: string, withinMs: number): Promise<boolean> {
    const endAt = Date.now() + withinMs;
    let seen = '';
    for (;;) {
      const at = seen.indexOf(token);
      if (at >= 0) {
        await this.#readExitCode(seen.slice(at + token.length));
        return true;
      }
      seen = seen.slice(-token.length);
      const piece = await this.#output.next(endAt - Date.now());
      if (piece === null || piece === undefined) return false;
      seen += piece;
    }
  }

  #waitExit(withinMs: number): Promise<boolean> {
    if (this.#exited) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), withinMs);
      this.#exitWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

function abortStatus(signal: AbortSignal): StatusError {
  const reason: unknown = signal.reason;
  if (reason instanceof StatusError) return reason;
  return new StatusError(new Status(StatusCode.CANCELLED, 'The command was cancelled and its processes were killed.'));
}

/** Lines of `text`; a last line without its newline counts only when `includePartial`. */
function splitLines(text: string, includePartial: boolean): string[] {
  if (!text) return [];
  const lines = text.split('\n');
  const last = lines.pop()!;
  if (includePartial && last !== '') lines.push(last);
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

import { randomUUID } from 'node:crypto';
import { StatusCode, StatusError } from '../../../wire/status.js';
import type { ConnectionScope } from '../../scope.js';
import { BashShell } from './bash-shell.js';

/** Most shells one connection may keep running at once. */
export const MAX_SHELLS_PER_CONNECTION = 4;
/** Most shells the process-wide scope (callers outside any connection) may keep. */
export const MAX_GLOBAL_SHELLS = 10;

interface ShellEntry {
  shell: BashShell;
  /** The scope's id ('global' for callers outside any connection). */
  scope: string;
  global: boolean;
}

/** One shell as the manager holds it, for the gateway's status report. */
export interface HeldShell {
  /** The id shell_start gave it; undefined for a throwaway shell. */
  id: string | undefined;
  shell: BashShell;
  /** The connection it belongs to; undefined for the global scope. */
  connection: string | undefined;
  transient: boolean;
  /** Being closed: no longer reachable by id, but its processes may still be alive. */
  closing: boolean;
}

export interface ShellManagerOptions {
  /** Starts a fresh shell; tests and sandboxes swap it. */
  startShell?: () => Promise<BashShell>;
}

/**
 * Owns every running shell: ids, per-scope caps, and cleanup. A shell belongs to the connection
 * that started it and is reaped when that connection ends; shells started outside a
 * connection (the global scope) live until `shell_exit` or until the manager is closed.
 */
export class ShellManager {
  readonly #shells = new Map<string, ShellEntry>();
  readonly #watchedScopes = new Set<string>();
  readonly #startShell: () => Promise<BashShell>;
  readonly #transients = new Map<BashShell, ShellEntry>();
  /** Shells on their way out, until their close() has finished. */
  readonly #closing = new Map<BashShell, HeldShell>();

  constructor(options: ShellManagerOptions = {}) {
    this.#startShell = options.startShell ?? (() => BashShell.start());
  }

  /** Starts a shell in `scope`; RESOURCE_EXHAUSTED when the scope already has its maximum. */
  async start(scope: ConnectionScope): Promise<string> {
    const limit = scope.global ? MAX_GLOBAL_SHELLS : MAX_SHELLS_PER_CONNECTION;
    if (this.list(scope).length >= limit) {
      const where = scope.global ? 'the global scope' : 'this connection';
      throw new StatusError(
        StatusCode.RESOURCE_EXHAUSTED,
        `Cannot start another shell: ${where} already has ${limit} running (the maximum). ` +
          'Exit one with shell_exit first.',
      );
    }
    const shell = await this.#startShell();
    const id = randomUUID().replaceAll('-', '');
    this.#shells.set(id, { shell, scope: scope.id, global: scope.global });
    if (!scope.global && !this.#watchedScopes.has(scope.id)) {
      this.#watchedScopes.add(scope.id);
      scope.onClose(() => this.#reap(scope.id));
    }
    return id;
  }

  /** The shell with `id`, or NOT_FOUND. A shell is reachable from any scope that knows its id. */
  get(id: string): BashShell {
    const entry = this.#shells.get(id);
    if (!entry) throw new StatusError(StatusCode.NOT_FOUND, `No running shell has the id '${id}'.`);
    return entry.shell;
  }

  list(scope: ConnectionScope): string[] {
    return [...this.#shells].filter(([, entry]) => entry.scope === scope.id).map(([id]) => id);
  }

  async exit(id: string): Promise<void> {
    const entry = this.#shells.get(id);
    if (!entry) throw new StatusError(StatusCode.NOT_FOUND, `No running shell has the id '${id}'.`);
    this.#shells.delete(id);
    await this.#closeShell(entry, id);
  }

  /** A throwaway shell for one command in `scope`; `dispose` it when the command is over. */
  async transient(scope?: ConnectionScope): Promise<{ shell: BashShell; dispose: () => Promise<void> }> {
    const shell = await this.#startShell();
    const entry: ShellEntry = { shell, scope: scope?.id ?? 'global', global: scope?.global ?? true };
    this.#transients.set(shell, entry);
    return {
      shell,
      dispose: async () => {
        if (!this.#transients.delete(shell)) return;
        await this.#closeShell(entry, undefined);
      },
    };
  }

  /** How many shells are running, throwaway ones included (for leak checks and status). */
  get size(): number {
    return this.#shells.size + this.#transients.size;
  }

  /** Every shell held now: by id, throwaway, and those still closing. */
  held(): HeldShell[] {
    const view = (entry: ShellEntry, id: string | undefined): HeldShell => ({
      id,
      shell: entry.shell,
      connection: entry.global ? undefined : entry.scope,
      transient: id === undefined,
      closing: false,
    });
    return [
      ...[...this.#shells].map(([id, entry]) => view(entry, id)),
      ...[...this.#transients.values()].map((entry) => view(entry, undefined)),
      ...this.#closing.values(),
    ];
  }

  /** Ends every shell (server shutdown). */
  async close(): Promise<void> {
    const all = [...[...this.#shells].map(([id, entry]) => [entry, id] as const), ...[...this.#transients.values()].map((entry) => [entry, undefined] as const)];
    this.#shells.clear();
    this.#transients.clear();
    await Promise.all([...all.map(([entry, id]) => this.#closeShell(entry, id)), ...[...this.#closing.keys()].map((shell) => shell.close())]);
  }

  /** Kills every shell at once, without waiting (the process is exiting). */
  killAll(): void {
    for (const entry of this.#shells.values()) entry.shell.killNow();
    for (const shell of [...this.#transients.keys(), ...this.#closing.keys()]) shell.killNow();
  }

  /** Closes a shell that has left the tables, keeping it in view until it has gone. */
  async #closeShell(entry: ShellEntry, id: string | undefined): Promise<void> {
    this.#closing.set(entry.shell, {
      id,
      shell: entry.shell,
      connection: entry.global ? undefined : entry.scope,
      transient: id === undefined,
      closing: true,
    });
    try {
      await entry.shell.close();
    } finally {
      this.#closing.delete(entry.shell);
    }
  }

  async #reap(scopeId: string): Promise<void> {
    this.#watchedScopes.delete(scopeId);
    const closing: Promise<void>[] = [];
    for (const [id, entry] of this.#shells) {
      if (entry.scope !== scopeId) continue;
      this.#shells.delete(id);
      closing.push(this.#closeShell(entry, id));
    }
    await Promise.all(closing);
  }
}

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
  scope: string;
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
  readonly #transients = new Set<BashShell>();

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
    this.#shells.set(id, { shell, scope: scope.id });
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
    await entry.shell.close();
  }

  /** A throwaway shell for one command; `dispose` it when the command is over. */
  async transient(): Promise<{ shell: BashShell; dispose: () => Promise<void> }> {
    const shell = await this.#startShell();
    this.#transients.add(shell);
    return {
      shell,
      dispose: async () => {
        this.#transients.delete(shell);
        await shell.close();
      },
    };
  }

  /** How many shells are running, throwaway ones included (for leak checks and status). */
  get size(): number {
    return this.#shells.size + this.#transients.size;
  }

  /** Ends every shell (server shutdown). */
  async close(): Promise<void> {
    const all = [...this.#shells.values()].map((entry) => entry.shell).concat([...this.#transients]);
    this.#shells.clear();
    this.#transients.clear();
    await Promise.all(all.map((shell) => shell.close()));
  }

  /** Kills every shell at once, without waiting (the process is exiting). */
  killAll(): void {
    for (const entry of this.#shells.values()) entry.shell.killNow();
    for (const shell of this.#transients) shell.killNow();
  }

  async #reap(scopeId: string): Promise<void> {
    this.#watchedScopes.delete(scopeId);
    const closing: Promise<void>[] = [];
    for (const [id, entry] of this.#shells) {
      if (entry.scope !== scopeId) continue;
      this.#shells.delete(id);
      closing.push(entry.shell.close());
    }
    await Promise.all(closing);
  }
}

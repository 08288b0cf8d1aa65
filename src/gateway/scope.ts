/**
 * Who an action is running for: one client connection, or nobody in particular (the global
 * scope — in-process callers and tests). State an action keeps beyond one call (shells) hangs
 * off a scope and is released when the scope closes.
 */
export interface ConnectionScope {
  readonly id: string;
  readonly global: boolean;
  /** Runs `callback` once when the scope ends (at once if it already has). */
  onClose(callback: () => void | Promise<void>): void;
}

/** The scope of callers outside any connection; it never closes. */
export const GLOBAL_SCOPE: ConnectionScope = {
  id: 'global',
  global: true,
  onClose() {},
};

/** A connection's scope, closed by whoever owns the connection. */
export class ClosableScope implements ConnectionScope {
  readonly global = false;
  #callbacks: (() => void | Promise<void>)[] = [];
  #closed = false;

  constructor(readonly id: string) {}

  get closed(): boolean {
    return this.#closed;
  }

  onClose(callback: () => void | Promise<void>): void {
    if (this.#closed) void callback();
    else this.#callbacks.push(callback);
  }

  /** Runs every close callback, waiting for them all; failures are reported, never thrown. */
  async close(onError?: (error: unknown) => void): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const callbacks = this.#callbacks.splice(0);
    await Promise.all(
      callbacks.map(async (callback) => {
        try {
          await callback();
        } catch (error) {
          onError?.(error);
        }
      }),
    );
  }
}

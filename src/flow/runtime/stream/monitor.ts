/**
 * One run's stop switch, and the waits it ends.
 *
 * Everything in a run that waits — a reader for a value, a producer for room, a barrier for a
 * step, a pass for a buffer — waits on a {@link Condition} of the run's {@link Monitor}. Stopping
 * the monitor (a failure, a cancellation, a deadline) rejects every one of those waits with the
 * reason, so a failed run ends instead of hanging, and nothing it started keeps holding memory.
 */
import { Status, StatusCode, StatusError } from '../../../wire/status.js';

interface Pending {
  resolve(): void;
  reject(error: StatusError): void;
}

export class Monitor {
  #stopped: Status | undefined;
  readonly #pending = new Set<Pending>();
  readonly #listeners = new Set<(status: Status) => void>();
  readonly #controller = new AbortController();

  /**
   * A monitor that stops when this one does, and can be stopped on its own: what a nested body
   * runs under, so a `try { … }` that failed ends its own steps without ending the run.
   */
  child(): Monitor {
    const child = new Monitor();
    const unsubscribe = this.onStop((status) => child.stop(status));
    child.#detach = unsubscribe;
    child.onStop(unsubscribe);
    return child;
  }

  #detach: (() => void) | undefined;

  /**
   * Lets go of the parent without stopping: the body this monitor ran is over, so the parent need
   * not remember to stop it (a loop of a million passes would otherwise leave a million behind).
   */
  dispose(): void {
    this.#detach?.();
    this.#detach = undefined;
    this.#listeners.clear();
  }

  /** The reason the run was stopped, once it has been. */
  get stopped(): Status | undefined {
    return this.#stopped;
  }

  /** Aborted when the run stops: for timers, fetches and nested calls. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Throws the stop reason if the run has been stopped. */
  check(): void {
    if (this.#stopped) throw new StatusError(this.#stopped);
  }

  /** Gives up on the run. The first reason wins; every pending wait rejects with it. */
  stop(reason: Status): void {
    if (this.#stopped) return;
    this.#stopped = reason.ok ? new Status(StatusCode.CANCELLED, 'The flow stopped.') : reason;
    const error = new StatusError(this.#stopped);
    for (const pending of [...this.#pending]) pending.reject(error);
    this.#pending.clear();
    for (const listener of [...this.#listeners]) listener(this.#stopped);
    this.#listeners.clear();
    this.#controller.abort(error);
  }

  /** Calls `listener` once when the run stops (at once if it already has); returns an unsubscribe. */
  onStop(listener: (status: Status) => void): () => void {
    if (this.#stopped) {
      listener(this.#stopped);
      return () => {};
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** @internal */
  park(pending: Pending): boolean {
    if (this.#stopped) return false;
    this.#pending.add(pending);
    return true;
  }

  /** @internal */
  unpark(pending: Pending): void {
    this.#pending.delete(pending);
  }
}

/** Something a task of the run waits for, woken by whoever changes what it waits on. */
export class Condition {
  #waiters: Pending[] = [];

  constructor(readonly monitor: Monitor) {}

  /**
   * Resolves at the next {@link notify}; rejects with the stop reason if the run stops first —
   * the run of `waiter` when given (whoever is waiting, which may be a nested body's task waiting
   * on an outer body's stream), else the run this condition belongs to.
   */
  wait(waiter: Monitor = this.monitor): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const entry: Pending = {
        resolve: () => {
          waiter.unpark(entry);
          resolve();
        },
        reject: (error) => {
          this.#waiters = this.#waiters.filter((one) => one !== entry);
          reject(error);
        },
      };
      if (!waiter.park(entry)) {
        reject(new StatusError(waiter.stopped!));
        return;
      }
      this.#waiters.push(entry);
    });
  }

  /**
   * Like {@link wait}, but gives up after `ms`: resolves true when notified, false on the timeout.
   */
  waitFor(ms: number, waiter: Monitor = this.monitor): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const entry: Pending = {
        resolve: () => {
          clearTimeout(timer);
          waiter.unpark(entry);
          resolve(true);
        },
        reject: (error) => {
          clearTimeout(timer);
          this.#waiters = this.#waiters.filter((one) => one !== entry);
          reject(error);
        },
      };
      if (!waiter.park(entry)) {
        reject(new StatusError(waiter.stopped!));
        return;
      }
      this.#waiters.push(entry);
      timer = setTimeout(
        () => {
          this.#waiters = this.#waiters.filter((one) => one !== entry);
          waiter.unpark(entry);
          resolve(false);
        },
        Math.max(0, Math.min(ms, 2 ** 31 - 1)),
      );
    });
  }

  get waiting(): boolean {
    return this.#waiters.length > 0;
  }

  notify(): void {
    if (this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const pending of waiters) pending.resolve();
  }
}

/** Waits until `ready()` holds, re-checking at each notify of `condition`. */
export async function waitUntil(condition: Condition, ready: () => boolean, waiter?: Monitor): Promise<void> {
  while (!ready()) await condition.wait(waiter);
}

/** Sleeps `ms`, ending early (rejecting) when the run stops. */
export function sleep(monitor: Monitor, ms: number): Promise<void> {
  if (ms <= 0) {
    monitor.check();
    return Promise.resolve();
  }
  return new Promise<void>((resolve, reject) => {
    const pending: Pending = {
      resolve,
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    };
    if (!monitor.park(pending)) {
      reject(new StatusError(monitor.stopped!));
      return;
    }
    const timer = setTimeout(
      () => {
        monitor.unpark(pending);
        resolve();
      },
      Math.min(ms, 2 ** 31 - 1),
    );
  });
}

/** A promise of `T` that rejects with the stop reason if the run stops first. */
export function orStop<T>(monitor: Monitor, promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const pending: Pending = { resolve: () => {}, reject };
    if (!monitor.park(pending)) {
      // The stop is the answer; the promise's own failure, when it comes (a put into a node
      // the stop has since aborted), is moot, and left unobserved it would be an unhandled rejection.
      promise.catch(() => {});
      reject(new StatusError(monitor.stopped!));
      return;
    }
    promise.then(
      (value) => {
        monitor.unpark(pending);
        resolve(value);
      },
      (error: unknown) => {
        monitor.unpark(pending);
        reject(error);
      },
    );
  });
}

/**
 * `work`, or `late()` thrown if it has not settled within `ms`. The timer is cleared as soon as
 * the work settles, so a long bound does not keep anything alive after a run has ended.
 */
export async function within<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  if (!Number.isFinite(ms)) return work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), Math.max(0, Math.min(ms, 2 ** 31 - 1)));
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

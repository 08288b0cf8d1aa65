/**
 * One instance of a call step: its invocation, once started, and its outcome, once finished.
 * Everything wired to the call — a pipe into one of its inputs, a reader of one of its outputs, a
 * `wait` on it, a race — waits here, so a call that never starts still answers them all.
 */
import type { Invocation } from '../../../wire/action.js';
import type { StreamNode } from '../../../wire/node.js';
import { Status, StatusError } from '../../../wire/status.js';
import { Condition, orStop, waitUntil, type Monitor } from '../stream/monitor.js';

export class CallHandle {
  #invocation: Invocation | undefined;
  #startError: Status | undefined;
  #started = false;
  #done = false;
  #error: Status | undefined;
  readonly #changed: Condition;

  constructor(readonly monitor: Monitor) {
    this.#changed = new Condition(monitor);
  }

  get finished(): boolean {
    return this.#done;
  }

  get invocation(): Invocation | undefined {
    return this.#invocation;
  }

  /** Notified whenever this call starts or finishes (what a race waits on). */
  get changed(): Condition {
    return this.#changed;
  }

  started(invocation: Invocation): void {
    this.#invocation = invocation;
    this.#started = true;
    this.#changed.notify();
  }

  /** The call never started: say why, so nothing waits on it for ever. */
  neverStarted(why: Status): void {
    if (!this.#started) {
      this.#started = true;
      this.#startError = why;
    }
    this.#error ??= why;
    this.#done = true;
    this.#changed.notify();
  }

  setError(error: Status): void {
    this.#error ??= error;
  }

  get error(): Status | undefined {
    return this.#error;
  }

  finish(): void {
    this.#done = true;
    this.#changed.notify();
  }

  /** The invocation, once the call has started; the reason it never did, thrown. */
  async invocationOf(waiter: Monitor): Promise<Invocation> {
    await waitUntil(this.#changed, () => this.#started, waiter);
    if (this.#startError) throw new StatusError(this.#startError);
    return this.#invocation!;
  }

  /** The node of one of the call's ports, once the call has started. */
  async node(port: string, direction: 'inputs' | 'outputs', waiter: Monitor): Promise<StreamNode> {
    const invocation = await this.invocationOf(waiter);
    return direction === 'inputs' ? invocation.input(port) : invocation.output(port);
  }

  /** How the call went, once it has gone. */
  async outcome(waiter: Monitor): Promise<Status> {
    await waitUntil(this.#changed, () => this.#done, waiter);
    if (this.#error) return this.#error;
    const invocation = this.#invocation;
    return invocation ? await orStop(waiter, invocation.done) : Status.OK;
  }
}

/**
 * Who the code running now is working for: which gateway, connection and call. An action
 * handler served from an {@link AttributedRegistry} runs inside its attribution, and so does
 * everything it awaits or starts — a nested action, a pocketsphinx or sox process, a shell — so
 * a child process can be entered under the call that caused it without that call being passed
 * down through every layer in between (the speech backend and microphone interfaces know nothing
 * of calls). Code running outside any attribution (a test driving a ShellManager, `flowplay run`)
 * enters nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChildProcess } from 'node:child_process';
import type { ActionHandler } from '../../wire/action.js';
import { ActionRegistry } from '../../wire/registry.js';
import type { ActionSchema } from '../../wire/schema.js';
import type { ConnectionScope } from '../scope.js';
import type { GatewayActivity } from './activity.js';
import type { ChildKind } from './status-schema.js';

export interface Attribution {
  activity: GatewayActivity;
  /** The connection's id; undefined for callers outside any connection. */
  connection: string | undefined;
  call: { id: string; action: string };
}

const storage = new AsyncLocalStorage<Attribution>();

/** The attribution of the code running now, if any. */
export function currentAttribution(): Attribution | undefined {
  return storage.getStore();
}

/** Enters a just-spawned child (which must lead its own process group) under the current call. */
export function trackChildProcess(child: ChildProcess, kind: ChildKind, argv: readonly string[]): void {
  const here = storage.getStore();
  here?.activity.children.track(child, kind, argv, { connection: here.connection, call: here.call });
}

/**
 * A registry whose handlers run attributed to their call and connection, and counted by the
 * gateway's activity until they settle. Actions registered on it compose through it too (the
 * flow tools run nested steps from the same registry), so nested calls are attributed to
 * themselves.
 */
export class AttributedRegistry extends ActionRegistry {
  constructor(
    private readonly activity: GatewayActivity,
    private readonly scope: ConnectionScope,
  ) {
    super();
  }

  override register(schema: ActionSchema, handler?: ActionHandler): this {
    return super.register(schema, handler ? this.#attributed(handler) : undefined);
  }

  #attributed(handler: ActionHandler): ActionHandler {
    const connection = this.scope.global ? undefined : this.scope.id;
    return (ctx) =>
      this.activity.runHandler(() =>
        storage.run({ activity: this.activity, connection, call: { id: ctx.id, action: ctx.name } }, () => handler(ctx)),
      );
  }
}

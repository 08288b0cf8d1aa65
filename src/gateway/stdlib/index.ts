/**
 * The Flow standard library: actions a host can offer a flow — files, a clock, processes,
 * randomness, the environment, HTTP, and this process's standard streams — each refusing with
 * PERMISSION_DENIED whatever the host's {@link FlowPolicy} does not grant.
 *
 * Every action is registered whatever the policy, so a flow that reaches for one it may not use
 * is told why (and which flag would allow it) rather than that it does not exist. What a host
 * already registered under one of these names stays: a host that offers its own `read_file`
 * meant its own.
 */
import type { ActionRegistry } from '../../wire/registry.js';
import { boundedHandler } from './bounded.js';
import { filesystemActions } from './fs.js';
import { httpActions } from './http.js';
import type { FlowPolicy } from './policy.js';
import { processActions } from './process.js';
import type { Registration } from './shared.js';
import { standardStreamActions, type StandardStreams } from './streams.js';
import { systemActions } from './system.js';
import { timeActions } from './time.js';

export type { FlowPolicy } from './policy.js';
export { readOnlyPolicy } from './policy.js';
export type { StandardStreams } from './streams.js';

export interface StandardLibraryOptions {
  /** This process's standard streams; without them `read_stdin` and the writers are not offered. */
  streams?: StandardStreams;
  /** The environment `env_get` reads (the process's own by default). */
  environment?: Readonly<Record<string, string | undefined>>;
}

/** Every action of the standard library, under `policy`. */
export function standardLibrary(policy: FlowPolicy, options: StandardLibraryOptions = {}): Registration[] {
  const all = [
    ...(options.streams ? standardStreamActions(options.streams) : []),
    ...filesystemActions(policy),
    ...processActions(policy),
    ...systemActions(policy, options.environment ?? process.env),
    ...timeActions(),
    ...httpActions(policy),
  ];
  const limit = policy.timeoutMs;
  if (limit === undefined || !(limit > 0)) return all;
  return all.map(({ schema, handler }) => ({ schema, handler: boundedHandler(handler, limit) }));
}

/** Registers the standard library on `registry`, leaving every name the host already has alone. */
export function registerStandardLibrary(registry: ActionRegistry, policy: FlowPolicy, options: StandardLibraryOptions = {}): ActionRegistry {
  for (const { schema, handler } of standardLibrary(policy, options)) {
    if (!registry.has(schema.name)) registry.register(schema, handler);
  }
  return registry;
}

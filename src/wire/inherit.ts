import { INHERITED_HEADER_PREFIX, type ActionDispatcher, type Headers, type Invocation, type InvokeOptions } from './action.js';
import type { ActionRegistry } from './registry.js';
import type { ActionSchema } from './schema.js';

/**
 * The headers a nested call carries: the parent's `x-a11-*` headers (deadline, shell, model
 * settings, tracing), overridden by any the nested call sets itself.
 */
export function inheritHeaders(parent: Headers, own: Headers | undefined): Headers {
  const merged = new Map<string, string>();
  for (const [name, value] of parent) if (name.startsWith(INHERITED_HEADER_PREFIX)) merged.set(name, value);
  if (own) for (const [name, value] of own) merged.set(name.toLowerCase(), value);
  return merged;
}

/** A dispatcher that gives every call it starts the inheritable headers of the call it serves. */
export class InheritingDispatcher implements ActionDispatcher {
  constructor(
    readonly inner: ActionDispatcher,
    readonly parentHeaders: Headers,
  ) {}

  invoke(schema: ActionSchema, options: InvokeOptions = {}): Invocation {
    return this.inner.invoke(schema, { ...options, headers: inheritHeaders(this.parentHeaders, options.headers) });
  }
}

/**
 * Runs an action here when `registry` holds a handler for it, and on the peer otherwise — how a
 * served call's nested actions find their way (schema-only registrations are the peer's actions).
 */
export class RoutingDispatcher implements ActionDispatcher {
  constructor(
    readonly registry: ActionRegistry,
    readonly local: ActionDispatcher,
    readonly peer: ActionDispatcher,
  ) {}

  invoke(schema: ActionSchema, options?: InvokeOptions): Invocation {
    const here = this.registry.get(schema.name)?.handler !== undefined;
    return (here ? this.local : this.peer).invoke(schema, options);
  }
}

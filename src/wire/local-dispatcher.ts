import type { ActionDispatcher, Invocation, InvokeOptions } from './action.js';
import { resolveAction } from './builtins.js';
import { runHandler } from './handler-run.js';
import { InheritingDispatcher } from './inherit.js';
import { newCallId } from './ids.js';
import { LOG_PORT } from './log.js';
import { portNodeId } from './names.js';
import { StreamNode } from './node.js';
import type { ActionRegistry } from './registry.js';
import { requirePort, type ActionSchema } from './schema.js';
import { Status, StatusCode } from './status.js';

/** Runs actions in this process, with the handlers of a registry. */
export class LocalDispatcher implements ActionDispatcher {
  constructor(readonly registry: ActionRegistry) {}

  invoke(schema: ActionSchema, options: InvokeOptions = {}): Invocation {
    const id = options.id ?? newCallId(schema.name.replace(/[^A-Za-z0-9_]/g, '_'));
    const inputs = new Map(schema.inputs.map((port) => [port.name, new StreamNode({ id: portNodeId(id, port.name) })]));
    const outputs = new Map(schema.outputs.map((port) => [port.name, new StreamNode({ id: portNodeId(id, port.name) })]));
    const log = new StreamNode({ id: portNodeId(id, LOG_PORT), capacity: 1024 });
    const controller = new AbortController();
    const cancel = (status?: Status) =>
      controller.abort(status ?? new Status(StatusCode.CANCELLED, `Call '${id}' to '${schema.name}' was cancelled.`));
    if (options.signal) {
      if (options.signal.aborted) cancel();
      else options.signal.addEventListener('abort', () => cancel(), { once: true });
    }
    const handler = resolveAction(this.registry, schema.name)?.handler;
    const headers = options.headers ?? new Map<string, string>();
    const dispatcher = new InheritingDispatcher(this, headers);
    const done = handler
      ? runHandler({ id, schema, handler, headers, inputs, outputs, log, controller, dispatcher })
      : Promise.resolve(this.#refuse(schema, outputs, log));
    return {
      id,
      schema,
      input: (port) => inputs.get(requirePort(schema, 'input', port).name)!,
      output: (port) => outputs.get(requirePort(schema, 'output', port).name)!,
      log,
      done,
      cancel,
    };
  }

  #refuse(schema: ActionSchema, outputs: Map<string, StreamNode>, log: StreamNode): Status {
    const status = this.registry.has(schema.name)
      ? new Status(
          StatusCode.FAILED_PRECONDITION,
          `Action '${schema.name}' has no handler here: it is served by the peer. Say 'call ${schema.name}(…)' instead of 'run'.`,
        )
      : new Status(StatusCode.NOT_FOUND, `No action named '${schema.name}' is registered.`);
    for (const node of outputs.values()) node.abort(status);
    log.close(status);
    return status;
  }
}

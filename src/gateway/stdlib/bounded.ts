/**
 * The policy's `timeoutMs`: a bound on every action the library runs, whatever the flow asked
 * for. The handler sees it the way it sees an `x-a11-deadline` — an earlier deadline and a signal
 * that fires then — so a clock or a sleep ends gracefully where it would at a deadline, and
 * anything still working is stopped and fails DEADLINE_EXCEEDED naming the host's limit.
 */
import type { ActionContext, ActionHandler } from '../../wire/action.js';
import { Status, StatusCode, StatusError } from '../../wire/status.js';

function withLimit(context: ActionContext, signal: AbortSignal, deadline: number): ActionContext {
  return {
    get id() {
      return context.id;
    },
    get name() {
      return context.name;
    },
    get schema() {
      return context.schema;
    },
    get headers() {
      return context.headers;
    },
    get dispatcher() {
      return context.dispatcher;
    },
    get origin() {
      return context.origin;
    },
    signal,
    deadline,
    input: (port) => context.input(port),
    value: (port) => context.value(port),
    values: (port) => context.values(port),
    output: (port) => context.output(port),
    write: (port, value) => context.write(port, value),
    writeChunk: (port, chunk) => context.writeChunk(port, chunk),
    log: (message, level, options) => context.log(message, level, options),
  };
}

/** `handler`, stopped once `limitMs` has passed since it started. */
export function boundedHandler(handler: ActionHandler, limitMs: number): ActionHandler {
  return async (context) => {
    const limit = AbortSignal.timeout(limitMs);
    const signal = AbortSignal.any([context.signal, limit]);
    const deadline = Math.min(context.deadline ?? Infinity, Date.now() + limitMs);
    try {
      await handler(withLimit(context, signal, deadline));
    } catch (error) {
      if (limit.aborted && !context.signal.aborted) {
        throw new StatusError(
          new Status(StatusCode.DEADLINE_EXCEEDED, `${context.name} did not finish within this host's limit of ${limitMs / 1000}s per action`),
        );
      }
      throw error;
    }
  };
}

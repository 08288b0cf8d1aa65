import type { ActionContext, ActionDispatcher, ActionHandler, CallOrigin, Headers } from './action.js';
import { Chunk } from './chunk.js';
import { portMediaType } from './media.js';
import { deadlineFromHeaders } from './deadline.js';
import { logChunk, type LogLevel, type LogRecordOptions } from './log.js';
import type { NodeReader, StreamNode } from './node.js';
import { requirePort, type ActionSchema } from './schema.js';
import { Status, StatusCode, StatusError } from './status.js';

export interface HandlerRun {
  id: string;
  schema: ActionSchema;
  handler: ActionHandler;
  headers: Headers;
  inputs: ReadonlyMap<string, StreamNode>;
  outputs: ReadonlyMap<string, StreamNode>;
  log: StreamNode;
  /** Aborting it cancels the action. */
  controller: AbortController;
  dispatcher: ActionDispatcher;
  /** The wire session the call came in on, if any. */
  origin?: CallOrigin;
}

/**
 * Runs one handler to its end and settles its ports: on success every output still open is closed
 * OK; on failure every output is aborted with the failure. Inputs the handler did not read are
 * drained so their writers never stall. Resolves with the completion status; never rejects.
 */
export async function runHandler(run: HandlerRun): Promise<Status> {
  const { controller } = run;
  let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  const readers = new Map<string, NodeReader>();
  let status: Status;
  try {
    const deadline = deadlineFromHeaders(run.headers);
    if (deadline !== undefined) {
      const cancelAtDeadline = () =>
        controller.abort(new StatusError(StatusCode.DEADLINE_EXCEEDED, `Action '${run.schema.name}' ran past its deadline.`));
      const remaining = deadline - Date.now();
      if (remaining <= 0) cancelAtDeadline();
      else deadlineTimer = setTimeout(cancelAtDeadline, Math.min(remaining, 2 ** 31 - 1));
    }
    const onAbort = () => {
      const reason = cancellationStatus(controller.signal.reason);
      for (const node of run.outputs.values()) node.abort(reason);
      for (const node of run.inputs.values()) node.abort(reason);
    };
    if (controller.signal.aborted) onAbort();
    else controller.signal.addEventListener('abort', onAbort, { once: true });
    await run.handler(makeContext(run, deadline, readers));
    status = controller.signal.aborted ? cancellationStatus(controller.signal.reason) : Status.OK;
  } catch (error) {
    status = controller.signal.aborted ? cancellationStatus(controller.signal.reason) : Status.fromError(error);
  } finally {
    if (deadlineTimer !== undefined) clearTimeout(deadlineTimer);
  }
  for (const node of run.outputs.values()) node.close(status);
  for (const [port, node] of run.inputs) (readers.get(port) ?? node.reader()).release();
  run.log.close(status);
  return status;
}

function cancellationStatus(reason: unknown): Status {
  if (reason instanceof StatusError) return reason.status;
  if (reason instanceof Status) return reason;
  return new Status(StatusCode.CANCELLED, 'The action was cancelled.');
}

function makeContext(run: HandlerRun, deadline: number | undefined, readers: Map<string, NodeReader>): ActionContext {
  const { schema } = run;
  const input = (port: string): NodeReader => {
    let reader = readers.get(port);
    if (!reader) {
      requirePort(schema, 'input', port);
      const node = run.inputs.get(port);
      if (!node) throw new StatusError(StatusCode.INTERNAL, `Input '${port}' of '${schema.name}' has no node.`);
      reader = node.reader();
      readers.set(port, reader);
    }
    return reader;
  };
  const decode = (port: string, chunk: Chunk): unknown => {
    const value = chunk.value;
    const validator = requirePort(schema, 'input', port).validator;
    if (!validator) return value;
    const checked = validator.safeParse(value);
    if (checked.success) return checked.data;
    const problems = checked.error.issues
      .map((issue) => `${issue.path.length ? issue.path.join('.') : 'value'}: ${issue.message}`)
      .join('; ');
    throw new StatusError(StatusCode.INVALID_ARGUMENT, `Input '${port}' of '${schema.name}' is invalid: ${problems}.`);
  };
  const output = (port: string): StreamNode => {
    requirePort(schema, 'output', port);
    const node = run.outputs.get(port);
    if (!node) throw new StatusError(StatusCode.INTERNAL, `Output '${port}' of '${schema.name}' has no node.`);
    return node;
  };
  return {
    id: run.id,
    name: schema.name,
    schema,
    headers: run.headers,
    signal: run.controller.signal,
    deadline,
    dispatcher: run.dispatcher,
    ...(run.origin ? { origin: run.origin } : {}),
    input,
    async value(port) {
      const chunk = await input(port).next();
      return chunk === undefined ? undefined : decode(port, chunk);
    },
    async *values(port) {
      const reader = input(port);
      for (let chunk = await reader.next(); chunk !== undefined; chunk = await reader.next()) yield decode(port, chunk);
    },
    output,
    async write(port, value) {
      const node = output(port);
      const type = requirePort(schema, 'output', port).type;
      await node.put(value instanceof Chunk ? value : Chunk.fromValue(portMediaType(type), value));
    },
    async writeChunk(port, chunk) {
      await output(port).put(chunk);
    },
    log(message: unknown, level?: LogLevel, options: Omit<LogRecordOptions, 'level'> = {}) {
      // Narration never blocks the action; past the log's capacity of unread records it is dropped
      // rather than held without bound for a reader that may never come.
      if (run.log.isClosed || run.log.backlog >= run.log.capacity) return;
      run.log.push(logChunk(message, { ...options, ...(level ? { level } : {}) }));
    },
  };
}

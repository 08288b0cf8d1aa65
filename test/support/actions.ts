import type { ActionDispatcher, Invocation } from '../../src/wire/action.js';
import { Chunk } from '../../src/wire/chunk.js';
import { readLogChunk, type LogRecord } from '../../src/wire/log.js';
import type { ActionSchema } from '../../src/wire/schema.js';
import type { Status } from '../../src/wire/status.js';

export interface CallOptions {
  /** Values per input port, each written then the port closed; unnamed inputs are closed empty. */
  inputs?: Record<string, unknown[] | Chunk[]>;
  headers?: Record<string, string>;
  id?: string;
  /** Leave these inputs open (the test writes them itself through `invocation.input`). */
  open?: string[];
}

export interface CallResult {
  status: Status;
  /** Decoded values per output port; a port that failed holds what arrived before it did. */
  outputs: Record<string, unknown[]>;
  /** The status each output ended with. */
  ends: Record<string, Status | undefined>;
  log: LogRecord[];
}

/** Starts an action and feeds its inputs; read the outputs from the returned invocation. */
export function startCall(dispatcher: ActionDispatcher, schema: ActionSchema, options: CallOptions = {}): Invocation {
  const invocation = dispatcher.invoke(schema, {
    ...(options.id ? { id: options.id } : {}),
    headers: new Map(Object.entries(options.headers ?? {})),
  });
  const open = new Set(options.open ?? []);
  void (async () => {
    for (const port of schema.inputs) {
      if (open.has(port.name)) continue;
      const node = invocation.input(port.name);
      for (const value of options.inputs?.[port.name] ?? []) {
        await node.put(value instanceof Chunk ? value : Chunk.fromValue(port.type, value));
      }
      node.close();
    }
  })();
  return invocation;
}

/** Runs an action to its end and collects everything it produced. */
export async function callAction(dispatcher: ActionDispatcher, schema: ActionSchema, options: CallOptions = {}): Promise<CallResult> {
  return collectCall(startCall(dispatcher, schema, options));
}

export async function collectCall(invocation: Invocation): Promise<CallResult> {
  const outputs: Record<string, unknown[]> = {};
  const ends: Record<string, Status | undefined> = {};
  const readers = invocation.schema.outputs.map(async (port) => {
    const values: unknown[] = [];
    outputs[port.name] = values;
    const node = invocation.output(port.name);
    try {
      for await (const chunk of node.reader()) values.push(chunk.value);
    } catch {
      // The failure is on `ends` and on the call's status.
    }
    ends[port.name] = node.status;
  });
  const log: LogRecord[] = [];
  const logRead = (async () => {
    try {
      for await (const chunk of invocation.log.reader()) log.push(readLogChunk(chunk));
    } catch {
      // A failed call closes its log with the failure; what it said before is kept.
    }
  })();
  const [status] = await Promise.all([invocation.done, logRead, ...readers]);
  return { status, outputs, ends, log };
}

/** Every log message of a call joined into one text. */
export function logText(result: CallResult): string {
  return result.log.map((record) => String(record.message)).join('\n');
}

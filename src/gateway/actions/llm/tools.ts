import type { ActionContext, ActionDispatcher, Invocation } from '../../../wire/action.js';
import { getSchemaSchema } from '../../../wire/builtins.js';
import { Chunk } from '../../../wire/chunk.js';
import { encodeText } from '../../../wire/codecs.js';
import { readLogChunk } from '../../../wire/log.js';
import { Media, parseMimetype } from '../../../wire/media.js';
import { isReservedName } from '../../../wire/names.js';
import type { ActionRegistry } from '../../../wire/registry.js';
import type { ActionSchema, PortSchema } from '../../../wire/schema.js';
import { documentEntries, schemaFromEntry } from '../../../wire/schema-document.js';
import { Status, StatusCode, StatusError } from '../../../wire/status.js';
import { allowedPatterns, allowListMatcher } from '../allow-list.js';
import { bytesToBase64 } from './interaction.js';
import type { ToolCall, ToolDefinition, ToolResult } from './providers/provider.js';

/** The most of a tool's result a model is shown; the rest is cut, and it is told so. */
const RESULT_LIMIT = 32 * 1024;

/** A tool the model is offered, and where it runs. */
export interface OfferedTool {
  definition: ToolDefinition;
  /** An action registered here (`local`), or one the caller described and serves itself (`caller`). */
  where: 'local' | 'caller';
}

/** The model's view of an action: its inputs as the properties of one arguments object. */
export function toolDefinition(schema: ActionSchema): ToolDefinition {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const port of schema.inputs) {
    if (port.autofill) continue;
    let property: Record<string, unknown> = { ...(port.jsonSchema ?? (port.type.startsWith(Media.text) ? { type: 'string' } : { type: 'object' })) };
    if (port.description && !property.description) property.description = port.description;
    if (!port.unary) property = { type: 'array', items: property, ...(port.required ? { minItems: 1 } : {}) };
    properties[port.name] = property;
    if (port.required) required.push(port.name);
  }
  return {
    name: schema.name,
    description: schema.description,
    input_schema: { type: 'object', properties, ...(required.length ? { required } : {}) },
  };
}

/**
 * The tools this turn may use. Nothing without `x-a11-allowed-llm-actions`: which tools a model
 * gets is the caller's decision. With it, the caller's own tools (described on `tools`) and the
 * registered actions the patterns admit, except this action, reserved names and anything the
 * caller already described.
 */
export async function collectTools(ctx: ActionContext, registry: ActionRegistry | undefined): Promise<OfferedTool[]> {
  const patterns = allowedPatterns(ctx.headers);
  const allowed = allowListMatcher(patterns);
  const offered: OfferedTool[] = [];
  const skipped: string[] = [];
  for await (const value of ctx.values('tools')) {
    const definition = callerTool(value);
    if (patterns.length > 0 && allowed(definition.name)) offered.push({ definition, where: 'caller' });
    else skipped.push(definition.name);
  }
  if (skipped.length) ctx.log(`Tools not offered to the model (not allowed by the caller's patterns): ${skipped.join(', ')}.`, 'warning');
  if (patterns.length === 0 || !registry) return offered;
  const described = new Set(offered.map((tool) => tool.definition.name));
  for (const { schema, handler } of registry.list()) {
    if (!handler || schema.name === ctx.name || isReservedName(schema.name) || described.has(schema.name) || !allowed(schema.name)) continue;
    offered.push({ definition: toolDefinition(schema), where: 'local' });
  }
  return offered;
}

function callerTool(value: unknown): ToolDefinition {
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof record.name !== 'string' || !record.name) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, "Each value on 'tools' is {name, description, input_schema}; one has no name.");
  }
  const schema = record.input_schema ?? record.parameters;
  return {
    name: record.name,
    description: typeof record.description === 'string' ? record.description : '',
    input_schema: typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>) : { type: 'object', properties: {} },
  };
}

/** A finished tool call: what the model is told, and what the interactions record. */
export interface ExecutedTool {
  result: ToolResult;
  /** Fragments of the inputs sent and outputs received, as a11.NodeFragment JSON. */
  inputs: unknown[];
  outputs: unknown[];
  /** What the action narrated for the person watching (never shown to the model). */
  log: string;
}

export interface ToolRunner {
  ctx: ActionContext;
  registry: ActionRegistry | undefined;
  offered: readonly OfferedTool[];
}

/** Runs one tool call to its end; failures become an error result, never a thrown error. */
export async function executeTool(runner: ToolRunner, call: ToolCall, invocationId: string): Promise<ExecutedTool> {
  const tool = runner.offered.find((candidate) => candidate.definition.name === call.name);
  const failed = (message: string): ExecutedTool => ({
    result: { callId: call.id, name: call.name, content: `Error: ${message}`, isError: true },
    inputs: [],
    outputs: [],
    log: '',
  });
  if (!tool) return failed(`there is no tool named '${call.name}' in this conversation.`);
  if ('__unparsed_arguments' in call.arguments) return failed('the arguments were not a JSON object.');
  try {
    const dispatcher = tool.where === 'local' ? runner.ctx.dispatcher : runner.ctx.origin?.peer;
    if (!dispatcher) return failed(`'${call.name}' is the caller's tool, and the caller is not on an A11 session to run it.`);
    const schema = tool.where === 'local' ? runner.registry!.require(call.name).schema : await peerSchema(dispatcher, call.name);
    const invocation = dispatcher.invoke(schema, { id: invocationId, signal: runner.ctx.signal });
    const inputs = await feedInputs(invocation, schema, call.arguments);
    const [outputs, log] = await Promise.all([readOutputs(invocation, schema), readLog(invocation)]);
    const status = await invocation.done;
    if (!status.ok) return { ...failed(status.toString()), inputs, outputs: outputs.fragments, log };
    return { result: { callId: call.id, name: call.name, content: outputs.content }, inputs, outputs: outputs.fragments, log };
  } catch (error) {
    return failed(Status.fromError(error).toString());
  }
}

/** The caller's schema for one of its tools, asked with `__get_schema__`. */
async function peerSchema(peer: ActionDispatcher, name: string): Promise<ActionSchema> {
  const call = peer.invoke(getSchemaSchema);
  await call.input('action').finalize(Chunk.text(name));
  const answer = await call.output('schema').reader().next();
  (await call.done).throwIfError();
  const [entry] = documentEntries(answer?.value);
  if (!entry) throw new StatusError(StatusCode.NOT_FOUND, `The caller does not describe a tool named '${name}'.`);
  return schemaFromEntry(entry);
}

async function feedInputs(invocation: Invocation, schema: ActionSchema, args: Record<string, unknown>): Promise<unknown[]> {
  const fragments: unknown[] = [];
  for (const port of schema.inputs) {
    const node = invocation.input(port.name);
    const given = args[port.name];
    const values = given === undefined ? [] : port.unary ? [given] : Array.isArray(given) ? given : [given];
    for (const [seq, value] of values.entries()) {
      const chunk = chunkFor(port, value);
      await node.put(chunk);
      fragments.push(fragment(`${invocation.id}#${port.name}`, chunk, seq));
    }
    node.close();
  }
  return fragments;
}

function chunkFor(port: PortSchema, value: unknown): Chunk {
  if (parseMimetype(port.type).base.startsWith('text/')) return Chunk.text(typeof value === 'string' ? value : JSON.stringify(value));
  return Chunk.fromValue(port.type.startsWith(Media.json) || port.type.startsWith(Media.msgpack) ? port.type : Media.json, value);
}

async function readOutputs(invocation: Invocation, schema: ActionSchema): Promise<{ content: string; fragments: unknown[] }> {
  const fragments: unknown[] = [];
  const byPort = await Promise.all(
    schema.outputs.map(async (port) => {
      const values: unknown[] = [];
      try {
        for await (const chunk of invocation.output(port.name).reader()) {
          if (chunk.isNull) continue;
          fragments.push(fragment(`${invocation.id}#${port.name}`, chunk, values.length));
          values.push(chunk.value instanceof Uint8Array ? `<${chunk.value.length} bytes>` : chunk.value);
        }
      } catch {
        // The failure is the call's status.
      }
      return [port.name, values] as const;
    }),
  );
  const filled = byPort.filter(([, values]) => values.length > 0).map(([name, values]) => [name, values.length === 1 ? values[0] : values] as const);
  const result: unknown = filled.length === 1 ? filled[0]![1] : Object.fromEntries(filled);
  let content = typeof result === 'string' ? result : JSON.stringify(result);
  if (content.length > RESULT_LIMIT) content = `${content.slice(0, RESULT_LIMIT)}… [cut: ${content.length} characters in all]`;
  return { content, fragments };
}

async function readLog(invocation: Invocation): Promise<string> {
  const lines: string[] = [];
  try {
    for await (const chunk of invocation.log.reader()) {
      const record = readLogChunk(chunk);
      if (!record.internal) lines.push(typeof record.message === 'string' ? record.message : JSON.stringify(record.message));
    }
  } catch {
    // A failed call's log ends with the failure; what it said before stays.
  }
  return lines.join('\n');
}

/** A node fragment as an Interaction records it (`a11.NodeFragment` JSON). */
function fragment(id: string, chunk: Chunk, seq: number): unknown {
  return { data: { data: bytesToBase64(chunk.bytes), metadata: { mimetype: chunk.mimetype } }, id, seq };
}

/** The tool logs of a round, as interaction metadata (`tool_logs`: JSON of call id → log). */
export function toolLogsMetadata(executed: readonly ExecutedTool[]): Record<string, string> {
  const logs = Object.fromEntries(executed.filter((tool) => tool.log).map((tool) => [tool.result.callId, tool.log]));
  return Object.keys(logs).length ? { tool_logs: bytesToBase64(encodeText(JSON.stringify(logs))) } : {};
}

/**
 * Outcomes as values, and what the flow says about itself: the status a step or a node ended
 * with, which subject of a race won, the status a `fail`/`abort` names, and the flow's log.
 */
import { Chunk } from '../../../wire/chunk.js';
import { DEFAULT_LOG_LEVEL, parseLogLevel } from '../../../wire/log.js';
import { Status, StatusCode, StatusError } from '../../../wire/status.js';
import type { Expr, FailCode, LogSpec, RefId, StepId } from '../../program.js';
import { orStop } from '../stream/monitor.js';
import { decodeChunk, type Item } from '../values/chunks.js';
import { asText } from '../values/convert.js';
import { statusCodeOf, statusOfRecord, statusRecord } from '../values/status-record.js';
import { strformat } from '../values/strformat.js';
import { ChunkValue, kindOf, type Value } from '../values/value.js';
import type { Scope } from './scope.js';

/** Steps whose outcome is their own to record (not a call's to be asked for). */
function recordsOutcome(kind: string): boolean {
  return kind === 'block' || kind === 'for' || kind === 'repeat' || kind === 'pipe';
}

/** The status record a status ref stands for: of a step (waiting for it) or of a node or port. */
export async function statusItem(scope: Scope, refId: RefId): Promise<Item> {
  const ref = scope.ref(refId);
  if (ref.kind !== 'status') throw new StatusError(StatusCode.INTERNAL, `Internal flow error: ${ref.label} is not a status.`);
  if (ref.subjectStep !== null) {
    const step = scope.flow.steps[ref.subjectStep]!;
    if (recordsOutcome(step.kind)) {
      const owner = await scope.stepDone(ref.subjectStep);
      return statusRecord(owner.outcomes.get(ref.subjectStep) ?? Status.OK);
    }
    if (step.kind === 'call') return statusRecord(await scope.callOf(ref.subjectStep).outcome(scope.monitor));
    await scope.stepDone(ref.subjectStep);
    return statusRecord(Status.OK);
  }
  if (ref.subjectRef !== null) return statusRecord(await nodeOutcome(scope, ref.subjectRef));
  throw new StatusError(StatusCode.INTERNAL, `Internal flow error: ${ref.label} has no status to read.`);
}

/** Which subject of a race finished first, once the barrier has. */
export async function winnerItem(scope: Scope, refId: RefId): Promise<Item> {
  const ref = scope.ref(refId);
  if (ref.kind !== 'winner') throw new StatusError(StatusCode.INTERNAL, `Internal flow error: ${ref.label} is not a race.`);
  const owner = await scope.stepDone(ref.step);
  const won = owner.winners.get(ref.step);
  if (won === undefined) throw new StatusError(StatusCode.FAILED_PRECONDITION, `${ref.label} never finished.`);
  return won;
}

/**
 * How a node's stream ended. A node this flow writes is over when its writers are (a barrier on
 * one nothing here writes is what ends it); one it only reads is over when its stream ends.
 */
export async function nodeOutcome(scope: Scope, refId: RefId): Promise<Status> {
  const written = scope.findDestination(refId);
  if (written) {
    if (written.writers <= 0) await written.end();
    await written.finished(scope.monitor);
    const node = await written.node();
    return node.status ?? Status.OK;
  }
  // One the flow only reads is over when its writer says so; whoever reads it (the call draining
  // outputs nobody reads, a pipe) keeps it moving meanwhile.
  const node = await readableNode(scope, refId);
  return orStop(scope.monitor, node.closed());
}

async function readableNode(scope: Scope, refId: RefId) {
  const ref = scope.ref(refId);
  switch (ref.kind) {
    case 'node':
      return scope.localNode(refId);
    case 'call-port':
      return scope.callOf(ref.call).node(ref.name, ref.direction, scope.monitor);
    case 'flow-port':
      return ref.direction === 'inputs' ? scope.runner.setup.ports.inputNode(ref.name) : scope.runner.setup.ports.output(ref.name);
    default:
      throw new StatusError(StatusCode.INTERNAL, `Internal flow error: ${ref.label} has no stream to end.`);
  }
}

/** The status a `fail` or `abort` names: a code (by name, number or a whole record) and a message. */
export async function chosenStatus(scope: Scope, code: FailCode | null, messageExpr: Expr | null): Promise<Status> {
  let codeValue: Value = null;
  if (code?.kind === 'named') codeValue = code.code;
  else if (code?.kind === 'expr') codeValue = await scope.evaluate(code.expr);
  let message: Value = null;
  let hasMessage = messageExpr !== null;
  if (messageExpr) message = await scope.evaluate(messageExpr);
  // `fail check`: raise exactly the status the flow recovered from.
  if (!hasMessage && kindOf(codeValue) === 'object') return statusOfRecord(codeValue);
  if (!hasMessage && statusCodeOf(codeValue) === undefined) {
    message = codeValue;
    hasMessage = true;
    codeValue = null;
  }
  let resolved = statusCodeOf(codeValue) ?? StatusCode.INTERNAL;
  if (resolved === StatusCode.OK) resolved = StatusCode.INTERNAL;
  const text = hasMessage ? asText(message) : '';
  return new Status(resolved, text || `${scope.runner.name} failed.`);
}

function logOptions(scope: Scope, spec: LogSpec) {
  return {
    level: (spec.level ? parseLogLevel(spec.level) : undefined) ?? DEFAULT_LOG_LEVEL,
    channel: scope.runner.name,
    line: spec.line,
  };
}

/** A value as the log carries it: text as text, a chunk as its own payload, anything else as itself. */
function loggable(scope: Scope, value: Value, carried: Item | null): unknown {
  if (typeof value === 'string') return value;
  if (value instanceof ChunkValue) return decodeChunk(value.chunk, scope.runner.setup.types);
  if (carried instanceof Chunk) return carried.value;
  return value;
}

/** A `log`/`logf` statement (no item) or stage (the item going past). */
export async function writeLog(scope: Scope, spec: LogSpec, item: Item | null): Promise<void> {
  const it = item === null ? null : scope.value(item);
  const { level, channel, line } = logOptions(scope, spec);
  if (spec.format !== null) {
    const args: Value[] = [];
    for (const argument of spec.arguments) args.push(await scope.evaluate(argument, it));
    scope.runner.setup.log(strformat(spec.format, args), level, { channel, line });
    return;
  }
  if (spec.arguments.length) {
    const value = await scope.evaluate(spec.arguments[0]!, it);
    scope.runner.setup.log(loggable(scope, value, null), level, { channel, line });
    return;
  }
  if (item !== null) scope.runner.setup.log(loggable(scope, it, item), level, { channel, line });
}

export function logItem(scope: Scope, spec: LogSpec, item: Item): Promise<void> {
  return writeLog(scope, spec, item);
}

/** A value a `try` stage dropped with nowhere to send it: said once, at warning. */
export function tolerateValue(scope: Scope, message: string): void {
  scope.runner.setup.log(message, 'warning', { channel: scope.runner.name });
}

/** Waits for a step in scope to finish (what `after` does). */
export async function afterSteps(scope: Scope, steps: readonly StepId[]): Promise<void> {
  for (const step of steps) await orStop(scope.monitor, scope.stepDone(step));
}

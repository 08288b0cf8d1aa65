/**
 * `run` and `call` steps: start the nested action (locally for `run` and for a sibling flow, on
 * the peer for `call`), close the inputs nothing writes, drain the outputs nothing reads, and wait
 * for it — within its `timeout` — ending the flow with its failure unless the step said `try`.
 */
import type { Invocation } from '../../../wire/action.js';
import { portNodeId } from '../../../wire/names.js';
import { Status, StatusCode, StatusError } from '../../../wire/status.js';
import type { CallStep } from '../../program.js';
import { asStatusError } from '../stream/bus.js';
import { orStop, within } from '../stream/monitor.js';
import { asText } from '../values/convert.js';
import { messageDuration } from '../stages/duration-text.js';
import { drainNode } from './nodes.js';
import type { Scope } from './scope.js';

async function start(scope: Scope, step: CallStep): Promise<Invocation> {
  const runner = scope.runner;
  const schema = runner.schemaOf(step.action);
  const sibling = runner.setup.siblings.has(step.action);
  const registered = runner.setup.registry.get(step.action);
  const local = step.mode === 'run' || sibling || !runner.setup.peer;
  if (step.mode === 'run' && !sibling && !registered?.handler) {
    throw new StatusError(
      StatusCode.FAILED_PRECONDITION,
      `${runner.name} says 'run ${step.action}', but ${step.action} is registered here for its schema alone and has no ` +
        `handler to run. Say 'call' to dispatch it on the stream this flow is attached to.`,
    );
  }
  if (step.mode === 'call' && local && !sibling && !registered?.handler) {
    throw new StatusError(
      StatusCode.FAILED_PRECONDITION,
      `${runner.name} says 'call ${step.action}', but this flow is attached to no peer to call it on, and ` +
        `${step.action} has no handler here.`,
    );
  }

  // `forward headers` first, so an explicit `with` of the same name — the more specific — wins.
  const headers = runner.inheritedHeaders();
  for (const [name, value] of runner.forwardedHeaders(step.forward)) headers.set(name, value);
  for (const header of step.headers) {
    const value = await scope.evaluate(header.value);
    headers.set(header.name.toLowerCase(), value instanceof Uint8Array ? new TextDecoder().decode(value) : asText(value));
  }
  let id: string | undefined;
  if (step.actionId) id = asText(await scope.evaluate(step.actionId)) || undefined;

  const dispatcher = local ? runner.setup.local : runner.setup.peer!;
  return dispatcher.invoke(schema, { ...(id ? { id } : {}), headers, signal: scope.monitor.signal });
}

/**
 * `tee`: the step's port nodes also go where the flow's own do — onto the session a host runs it
 * on — so a client watching the run sees what the nested action was given and gave back.
 */
function expose(scope: Scope, invocation: Invocation): void {
  const map = scope.runner.setup.nodeMap;
  if (!map.expose) return;
  for (const port of invocation.schema.inputs) map.expose(portNodeId(invocation.id, port.name), invocation.input(port.name));
  for (const port of invocation.schema.outputs) map.expose(portNodeId(invocation.id, port.name), invocation.output(port.name));
}

/** Which of the call's ports this body writes, and which of its outputs it reads. */
function wiring(scope: Scope, step: CallStep): { written: Set<string>; read: Set<string> } {
  const written = new Set<string>();
  const read = new Set<string>();
  for (const refId of Object.values(step.ports)) {
    const ref = scope.ref(refId);
    if (ref.kind !== 'call-port' || ref.call !== step.id) continue;
    if (ref.direction === 'inputs' && scope.findDestination(refId)) written.add(ref.name);
    if (ref.direction === 'outputs' && (scope.analysis.readers.get(refId) ?? 0) > 0) read.add(ref.name);
  }
  return { written, read };
}

async function awaitDone(scope: Scope, step: CallStep, invocation: Invocation): Promise<Status> {
  const done = orStop(scope.monitor, invocation.done);
  if (step.timeout === null) return done;
  const seconds = step.timeout;
  const late = new Status(StatusCode.DEADLINE_EXCEEDED, `${step.action} did not finish within its timeout of ${messageDuration(seconds)}.`);
  try {
    return await within(done, seconds * 1000, () => new StatusError(late));
  } catch (error) {
    if (!(error instanceof StatusError) || error.status !== late) throw error;
    invocation.cancel(late);
    await orStop(scope.monitor, invocation.done);
    return late;
  }
}

export async function runCall(scope: Scope, step: CallStep): Promise<void> {
  const handle = scope.callOf(step.id);
  let invocation: Invocation;
  try {
    invocation = await start(scope, step);
  } catch (error) {
    // A step that never started still has to say so: everything wired to it waits on it.
    const why = asStatusError(error).status;
    handle.neverStarted(why);
    if (step.tolerant && !scope.monitor.stopped) return;
    throw new StatusError(why);
  }

  if (step.tee) expose(scope, invocation);
  const { written, read } = wiring(scope, step);
  const unclosed = invocation.schema.inputs.filter((port) => !written.has(port.name) && !port.autofill);
  const undrained = invocation.schema.outputs.filter((port) => !read.has(port.name));
  handle.started(invocation);

  // Inputs nothing writes are closed now, or the action waits for them for ever; outputs nothing
  // reads are read and discarded, or the action stalls writing them.
  for (const port of unclosed) invocation.input(port.name).close();
  const drains = undrained.map((port) =>
    drainNode(invocation.output(port.name), scope.monitor).catch((error: unknown) => {
      if (step.tolerant && !scope.monitor.stopped) return;
      throw error;
    }),
  );
  let outcome: Status;
  try {
    const [status] = await Promise.all([awaitDone(scope, step, invocation), ...drains]);
    outcome = status as Status;
  } catch (error) {
    handle.setError(asStatusError(error).status);
    handle.finish();
    throw error;
  }
  if (!outcome.ok) handle.setError(outcome);
  handle.finish();
  if (!outcome.ok && (!step.tolerant || scope.monitor.stopped)) throw new StatusError(outcome);
}

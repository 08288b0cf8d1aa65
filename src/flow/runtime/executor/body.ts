/**
 * Running a body: set up what its analysis says, run every step at once, and end cleanly — a
 * failure stops the body's own monitor (ending whatever its steps waited on), and once every step
 * is done the streams nobody will read any more are let go so their producers drain.
 */
import { Status, StatusCode, StatusError } from '../../../wire/status.js';
import type { RefId, Step, StepId } from '../../program.js';
import { asStatusError, Bus } from '../stream/bus.js';
import { ReplayBuffer } from '../stream/buffer.js';
import { LazyValue } from '../stream/lazy.js';
import { isPromise, QUEUE_DEPTH } from '../stream/reader.js';
import { truthy } from '../values/compare.js';
import { runCall } from './calls.js';
import { runWait } from './barriers.js';
import { CallHandle } from './call-handle.js';
import { Destination } from './destination.js';
import { runFor, runRepeat } from './loops.js';
import { afterSteps, chosenStatus, statusItem, winnerItem, writeLog } from './outcomes.js';
import { produce } from './produce.js';
import { Scope } from './scope.js';

/** Checks a call's wired ports against what it calls, once per body (not once per pass). */
function checkCallPorts(scope: Scope, step: Step): void {
  if (step.kind !== 'call') return;
  const schema = scope.runner.schemaOf(step.action);
  for (const [key, refId] of Object.entries(step.ports)) {
    const ref = scope.ref(refId);
    const input = key.startsWith('inputs:');
    const name = ref.kind === 'call-port' ? ref.name : key.slice(key.indexOf(':') + 1);
    const declared = input ? schema.inputs : schema.outputs;
    if (declared.some((port) => port.name === name)) continue;
    const known = declared.map((port) => port.name).sort();
    throw new StatusError(
      StatusCode.NOT_FOUND,
      `${step.action} has no ${input ? 'input' : 'output'} port '${name}' (declared: ${known.length ? known.join(', ') : 'none'}), ` +
        `but ${ref.label} names one.`,
    );
  }
}

function openDestination(scope: Scope, refId: RefId): Destination {
  const ref = scope.ref(refId);
  const writers = scope.analysis.writers.get(refId) ?? 0;
  switch (ref.kind) {
    case 'call-port': {
      const step = scope.flow.steps[ref.call]!;
      const call = step.kind === 'call' ? step : undefined;
      const schema = call ? scope.runner.schemaOf(call.action) : undefined;
      const port = schema?.inputs.find((one) => one.name === ref.name);
      return new Destination(scope.monitor, {
        label: ref.label,
        writers,
        tolerant: call?.tolerant ?? false,
        portType: port?.type ?? '',
        open: () => scope.callOf(ref.call).node(ref.name, ref.direction, scope.monitor),
      });
    }
    case 'flow-port':
      return new Destination(scope.monitor, {
        label: ref.label,
        writers,
        tolerant: false,
        open: async () => scope.runner.setup.ports.output(ref.name),
      });
    case 'node':
      return new Destination(scope.monitor, { label: ref.label, writers, tolerant: false, open: () => scope.localNode(refId) });
    default:
      throw new StatusError(StatusCode.INTERNAL, `Internal flow error: ${ref.label} is not something a flow can write.`);
  }
}

function prepare(scope: Scope): void {
  const { flow, analysis } = scope;
  const check = scope.runner.firstCheckOf(scope.body);
  for (const stepId of flow.bodies[scope.body]!.steps) {
    const step = flow.steps[stepId]!;
    if (step.kind !== 'call') continue;
    if (check) checkCallPorts(scope, step);
    scope.calls.set(stepId, new CallHandle(scope.monitor));
  }
  for (const refId of analysis.refs) {
    const readers = analysis.readers.get(refId) ?? 0;
    const ref = scope.ref(refId);
    if (readers <= 0 || scope.presets.has(refId) || ref.kind === 'bound') continue;
    if (ref.kind === 'status') {
      scope.lazies.set(refId, new LazyValue(() => statusItem(scope, refId)));
      continue;
    }
    if (ref.kind === 'winner') {
      scope.lazies.set(refId, new LazyValue(() => winnerItem(scope, refId)));
      continue;
    }
    const bus = new Bus(scope.monitor, ref.label, readers);
    scope.buses.set(refId, bus);
    // Read from inside a loop or a branch: buffered once here, replayed to every reader.
    if (analysis.materialise.has(refId)) scope.buffers.set(refId, new ReplayBuffer(scope.monitor, bus.take()));
  }
  for (const refId of analysis.destinations) scope.destinations.set(refId, openDestination(scope, refId));
}

/** Runs one body to its end; throws the failure that ended it. */
export async function runBody(scope: Scope): Promise<void> {
  try {
    prepare(scope);
    for (const refId of scope.analysis.unwritten) (await scope.localNode(refId)).close();
  } catch (error) {
    scope.monitor.dispose();
    throw asStatusError(error);
  }
  for (const [refId, bus] of scope.buses) scope.spawn(bus.pump((sink) => produce(scope, refId, sink)));
  for (const buffer of scope.buffers.values()) scope.spawn(buffer.fill());

  const failures: StatusError[] = [];
  const steps = scope.flow.bodies[scope.body]!.steps.map((stepId) =>
    runStep(scope, stepId).catch((error: unknown) => {
      const failure = asStatusError(error);
      failures.push(failure);
      // The first failure is the body's: everything else it was waiting on is given up.
      scope.monitor.stop(failure.status);
    }),
  );
  await Promise.all(steps);

  // Every step is done: streams nobody will read any more are let go, so their producers drain.
  for (const bus of scope.buses.values()) bus.releaseUntaken();
  for (const cursor of scope.cursors.values()) cursor.then((open) => open.stop(), () => {});
  const tasks = await Promise.allSettled(scope.tasks);
  scope.monitor.dispose();
  const failure = Scope.firstFailure(failures);
  if (failure) throw failure;
  for (const task of tasks) if (task.status === 'rejected' && !scope.monitor.stopped) throw asStatusError(task.reason);
}

async function runStep(scope: Scope, stepId: StepId): Promise<void> {
  const step = scope.flow.steps[stepId]!;
  let failure: unknown;
  try {
    await afterSteps(scope, step.after);
    await execute(scope, step);
  } catch (error) {
    failure = error;
  }
  for (const refId of scope.analysis.held.get(stepId) ?? []) {
    try {
      await scope.destinationOf(refId).release();
    } catch (error) {
      failure ??= error;
    }
  }
  scope.markDone(stepId);
  if (failure !== undefined) throw failure;
}

async function readToEnd(scope: Scope, refId: RefId): Promise<void> {
  const reader = await scope.subscribe(refId);
  for (;;) {
    let batch = reader.read(64);
    if (isPromise(batch)) batch = await batch;
    if (batch === null) return;
  }
}

async function runPipe(scope: Scope, step: Extract<Step, { kind: 'pipe' }>): Promise<void> {
  const destination = scope.destinationOf(step.destination);
  const reader = await scope.subscribe(step.source);
  const tolerate = (error: unknown) => {
    // Tolerated at the statement: a source that aborted and a destination that refused are, from
    // here, one event — this pipe did not finish.
    if (!step.tolerant || scope.monitor.stopped) throw error;
    scope.record(step.id, asStatusError(error).status);
  };
  for (;;) {
    let batch;
    try {
      batch = reader.read(QUEUE_DEPTH);
      if (isPromise(batch)) batch = await batch;
    } catch (error) {
      return tolerate(error);
    }
    if (batch === null) return;
    try {
      await destination.write(batch, scope.monitor);
    } catch (error) {
      return tolerate(error);
    }
  }
}

async function runNested(scope: Scope, body: number): Promise<void> {
  if (scope.flow.bodies[body]!.steps.length === 0) return;
  await runBody(new Scope(scope.runner, body, scope));
}

async function execute(scope: Scope, step: Step): Promise<void> {
  switch (step.kind) {
    case 'call':
      return runCall(scope, step);
    case 'pipe':
      return runPipe(scope, step);
    case 'skip':
      // A counted skip was applied where the stream is produced; `skip act` of an action whose
      // outputs are not known here has nothing to read (the call drains what nobody reads).
      if (step.count !== null || step.source === null) return;
      return readToEnd(scope, step.source);
    case 'capture': {
      const reader = await scope.subscribe(step.source);
      let batch = reader.read(1);
      if (isPromise(batch)) batch = await batch;
      reader.stop();
      scope.captures.set(step.slot, batch === null ? null : scope.value(batch[0]!));
      return;
    }
    case 'wait':
    case 'drain':
      return runWait(scope, step);
    case 'cancel': {
      if (step.target === null) return;
      const invocation = await scope.callOf(step.target).invocationOf(scope.monitor);
      invocation.cancel();
      return;
    }
    case 'fail':
      throw new StatusError(await chosenStatus(scope, step.code, step.message));
    case 'abort': {
      if (step.destination === null) return;
      const reason = await chosenStatus(scope, step.code, step.message);
      return scope.destinationOf(step.destination).abort(reason);
    }
    case 'log':
      return writeLog(scope, step.log, null);
    case 'block': {
      // A block's outcome is its own: a failure inside is the block's, and `try` says the flow
      // means to read it rather than end there.
      let outcome = Status.OK;
      try {
        await runNested(scope, step.inner);
      } catch (error) {
        outcome = asStatusError(error).status;
      }
      scope.record(step.id, outcome);
      if (!outcome.ok && (!step.tolerant || scope.monitor.stopped)) throw new StatusError(outcome);
      return;
    }
    case 'if': {
      let condition = scope.evaluate(step.condition);
      if (isPromise(condition)) condition = await condition;
      return runNested(scope, truthy(condition) ? step.then : step.else);
    }
    case 'for':
    case 'repeat': {
      let outcome = Status.OK;
      try {
        await (step.kind === 'for' ? runFor(scope, step) : runRepeat(scope, step));
      } catch (error) {
        outcome = asStatusError(error).status;
      }
      scope.record(step.id, outcome);
      if (!outcome.ok) throw new StatusError(outcome);
      return;
    }
  }
}

export { Scope };
export const CANCELLED = new Status(StatusCode.CANCELLED, 'The flow was cancelled.');

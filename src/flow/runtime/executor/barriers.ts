/**
 * `wait`, `drain`, `wait first of` and `wait all of`: barriers that hold until their subjects are
 * finished, and end the flow with a subject's failure unless that subject was a `try`.
 */
import { StatusCode, StatusError } from '../../../wire/status.js';
import type { DrainStep, RefId, WaitStep } from '../../program.js';
import { waitUntil, within } from '../stream/monitor.js';
import { isPromise } from '../stream/reader.js';
import { isFailedRecord, statusOfRecord } from '../values/status-record.js';
import type { Value } from '../values/value.js';
import { messageDuration } from '../stages/duration-text.js';
import type { Scope } from './scope.js';

/** What a barrier is a barrier on, out of its label: `wait x` → `x`. */
function subjectOf(label: string): string {
  const space = label.indexOf(' ');
  return space < 0 ? label : label.slice(space + 1);
}

function timedOut(step: WaitStep | DrainStep, seconds: number): StatusError {
  return new StatusError(
    StatusCode.DEADLINE_EXCEEDED,
    `Waiting for ${subjectOf(step.label)} timed out after ${messageDuration(seconds)}.`,
  );
}

async function readOutcome(scope: Scope, outcome: RefId): Promise<Value> {
  const reader = await scope.subscribe(outcome);
  let batch = reader.read(1);
  if (isPromise(batch)) batch = await batch;
  return batch === null ? null : scope.value(batch[0]!);
}

/** A bounded wait: the deadline races the read, and losing the race fails the barrier. */
function bounded<T>(seconds: number | null, step: WaitStep | DrainStep, work: Promise<T>): Promise<T> {
  if (seconds === null) return work;
  return within(work, seconds * 1000, () => timedOut(step, seconds));
}

function check(tolerant: boolean, record: Value): void {
  if (tolerant || !isFailedRecord(record)) return;
  throw new StatusError(statusOfRecord(record));
}

export async function runWait(scope: Scope, step: WaitStep | DrainStep): Promise<void> {
  if (step.kind === 'wait' && step.subjects.length > 0) return runWaitMany(scope, step);
  if (step.outcome === null) return;
  const timeout = step.kind === 'wait' ? step.timeout : null;
  const record = await bounded(timeout, step, readOutcome(scope, step.outcome));
  check(step.kind === 'wait' && step.tolerant, record);
}

/**
 * Several subjects. `first` holds until one call is finished and leaves the others running (a
 * flow that wants them stopped says `cancel`); which one won is recorded for whoever reads the
 * race. `all` holds for every one of them.
 */
async function runWaitMany(scope: Scope, step: WaitStep): Promise<void> {
  let reading: readonly RefId[] = step.subjects;
  if (step.race) {
    const handles = step.subjects.map((outcome) => {
      const ref = scope.ref(outcome);
      if (ref.kind !== 'status' || ref.subjectStep === null || scope.flow.steps[ref.subjectStep]!.kind !== 'call') {
        throw new StatusError(
          StatusCode.INVALID_ARGUMENT,
          `${ref.label} is not a call, and 'wait first of' races calls: a node or a port is finished when whoever ` +
            `writes it says so, which is what 'wait' and 'drain' are for.`,
        );
      }
      return scope.callOf(ref.subjectStep);
    });
    if (handles.length === 0) return;
    let won = -1;
    const ready = () => {
      won = handles.findIndex((handle) => handle.finished);
      return won >= 0;
    };
    const waitAny = (async () => {
      while (!ready()) await Promise.race(handles.map((handle) => handle.changed.wait(scope.monitor)));
    })();
    await bounded(step.timeout, step, waitAny);
    scope.winners.set(step.id, won);
    reading = [step.subjects[won]!];
  }
  const readAll = (async () => {
    for (const outcome of reading) check(step.tolerant, await readOutcome(scope, outcome));
  })();
  await bounded(step.race ? null : step.timeout, step, readAll);
}

export { waitUntil };

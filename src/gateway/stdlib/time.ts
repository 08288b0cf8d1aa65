/**
 * `ticker` and `sleep_for`: values that arrive because time passed. A ticker is scheduled from its
 * start, so a slow reader makes ticks skip (counted) rather than the interval drift; both end
 * gracefully on `{"command": "stop"}`.
 */
import type { ActionHandler } from '../../wire/action.js';
import { defineAction } from '../../wire/schema.js';
import { StatusCode, StatusError } from '../../wire/status.js';
import { parseDuration } from '../../flow/runtime/values/time.js';
import { Outputs, readOptions, readValue, StopSignal } from './ports.js';
import { CONTROL_PORT, DEADLINE_HEADERS, JSON_TYPE, type Registration } from './shared.js';

export const tickerSchema = defineAction({
  name: 'ticker',
  description:
    'Produce a value every interval, so that a composition can act because time passed rather than because ' +
    'something arrived. Bounded by count, by a total duration, by the deadline header, or by a stop command. Ticks ' +
    'are scheduled from the start rather than from the last one, so a slow reader does not make the interval drift ' +
    '-- it makes ticks skip, counted on `skipped`.',
  inputs: {
    options: {
      type: JSON_TYPE,
      description:
        'All optional: every (interval, default 1s, minimum 1ms), count (how many ticks, default unbounded), for (how ' +
        'long to keep going), immediate (tick once at the start), catch_up (deliver ticks a slow reader missed ' +
        'instead of skipping them), and omit -- output port names to close immediately rather than write.',
    },
    [CONTROL_PORT]: {
      type: JSON_TYPE,
      stream: true,
      description: 'Control commands; a {"command": "stop"} ends the stream gracefully, which is how a flow stops a clock it started.',
    },
  },
  outputs: {
    ticks: { type: JSON_TYPE, stream: true, description: 'One {number, at, scheduled, late_ms} per tick, as it fires.' },
    skipped: {
      type: 'integer',
      description: 'How many ticks were not delivered because a reader was more than an interval behind.',
    },
    count: { type: 'integer', description: 'How many ticks were delivered.' },
  },
  headers: DEADLINE_HEADERS('The stream ends gracefully once it is reached.'),
});

export const sleepForSchema = defineAction({
  name: 'sleep_for',
  description:
    'Wait, then report having waited: what `after` needs to order one statement behind a delay. A stop command or ' +
    'a cancellation cuts the wait short and says so on `woke`.',
  inputs: {
    duration: {
      type: 'string',
      required: true,
      description: 'How long to wait, written as Flow writes a duration (30s, 250ms, 1m30s) or as a number of seconds.',
    },
    [CONTROL_PORT]: { type: JSON_TYPE, stream: true, description: 'Control commands; a {"command": "stop"} ends the wait early.' },
  },
  outputs: {
    woke: {
      type: JSON_TYPE,
      description: '{at, elapsed_ms, interrupted} -- where `interrupted` says the wait was cut short rather than ran its course.',
    },
  },
  headers: DEADLINE_HEADERS('The wait ends once it is reached.'),
});

/** An instant written as RFC 3339 with every fractional digit it has and a `+00:00` offset. */
export function rfc3339Full(epochMs: number): string {
  return rfc3339Nanos(BigInt(Math.round(epochMs * 1e3)) * 1000n);
}

/** The same, from nanoseconds since the epoch (what a file's `mtimeNs` is), losing nothing. */
export function rfc3339Nanos(epochNs: bigint): string {
  const seconds = epochNs / 1_000_000_000n - (epochNs % 1_000_000_000n < 0n ? 1n : 0n);
  const nanos = epochNs - seconds * 1_000_000_000n;
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  const fraction = nanos.toString().padStart(9, '0').replace(/0+$/, '');
  return `${base}${fraction ? `.${fraction}` : ''}+00:00`;
}

/** Now, in milliseconds with a sub-millisecond fraction where the platform has one. */
function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

const ticker: ActionHandler = async (context) => {
  const options = await readOptions(context);
  const every = options.durationMs('every', 1000);
  if (every < 1) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, 'options.every must be at least 1ms; a faster source than that is a stream rather than a clock');
  }
  const count = options.intInRange('count', 0, 0, Number.MAX_SAFE_INTEGER);
  const forMs = options.durationMs('for', Infinity);
  const catchUp = options.bool('catch_up', false);
  const immediate = options.bool('immediate', false);
  const outputs = Outputs.open(context, options);
  const stop = new StopSignal(context, CONTROL_PORT);

  const started = preciseNow();
  const until = Math.min(started + forMs, context.deadline ?? Infinity);
  let delivered = 0;
  let skipped = 0;
  for (let index = immediate ? 0 : 1; ; index++) {
    const scheduled = started + every * index;
    if (scheduled > until) break;
    if (await stop.waitFor(scheduled - preciseNow())) break;
    const fired = preciseNow();
    const late = fired - scheduled;
    if (!catchUp && late >= every) {
      skipped++;
      continue;
    }
    delivered++;
    const last = count > 0 && delivered >= count;
    const tick = { number: delivered, at: rfc3339Full(fired), scheduled: rfc3339Full(scheduled), late_ms: Math.trunc(late) };
    const written = outputs.value('ticks', tick, last);
    if (written) await written;
    if (last) break;
  }
  if (stop.failure) throw stop.failure;
  stop.check();
  await outputs.only('skipped', skipped);
  await outputs.only('count', delivered);
  outputs.finish();
};

const sleepFor: ActionHandler = async (context) => {
  const raw = await readValue(context, 'duration');
  const outputs = Outputs.open(context);
  const stop = new StopSignal(context, CONTROL_PORT);
  let requested = 0;
  if (typeof raw === 'number') requested = raw * 1000;
  else if (typeof raw === 'string') {
    const parsed = parseDuration(raw);
    if (!parsed) throw new StatusError(StatusCode.INVALID_ARGUMENT, `'${raw}' is not a duration; write one as 30s, 250ms, 1m30s, or a number of seconds`);
    requested = parsed.nanos / 1e6;
  } else if (raw !== undefined && raw !== null) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, "sleep_for's duration must be a duration or a number of seconds");
  }
  if (requested < 0) throw new StatusError(StatusCode.INVALID_ARGUMENT, 'sleep_for will not wait a negative length of time');
  const interrupted = await stop.waitFor(requested);
  if (stop.failure) throw stop.failure;
  stop.check();
  await outputs.only('woke', { at: rfc3339Full(preciseNow()), elapsed_ms: Math.trunc(requested), interrupted });
  outputs.finish();
};

export function timeActions(): Registration[] {
  return [
    { schema: tickerSchema, handler: ticker },
    { schema: sleepForSchema, handler: sleepFor },
  ];
}

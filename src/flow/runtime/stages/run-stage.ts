/**
 * One stage applied to a stream: reads `source`, publishes to `sink`, returns when the source has
 * ended (or the stage has read all it wants), throws the failure that ended it otherwise.
 */
import { StatusCode, StatusError } from '../../../wire/status.js';
import type { StageOp } from '../../program.js';
import type { Reader, Sink } from '../stream/reader.js';
import { runJson, runPackb, runStrformat, runText, runTimeout } from './encode.js';
import type { StageEnv, StageOf } from './env.js';
import { runBatch, runChunk, runDistinct, runFirst, runGroup, runLast, runSort, runWindow } from './gather.js';
import { runCollect, runCount, runExtreme, runFold, runJoin, runScan, runSum } from './reduce.js';
import {
  runAt,
  runDrop,
  runFlatten,
  runLog,
  runMap,
  runMatch,
  runMime,
  runPace,
  runThen,
  runTruncate,
  runWhere,
} from './reshape.js';

type Runner = (op: StageOp, source: Reader, sink: Sink, env: StageEnv) => Promise<void>;

function as<T extends StageOp['takes']>(run: (op: StageOf<T>, source: Reader, sink: Sink, env: StageEnv) => Promise<void>): Runner {
  return run as Runner;
}

const stages: Readonly<Record<string, Runner>> = {
  at: as<'at'>(runAt),
  first: as<'number'>(runFirst),
  last: as<'number'>(runLast),
  drop: as<'number'>(runDrop),
  truncate: as<'number'>(runTruncate),
  batch: as<'number'>(runBatch),
  window: as<'number'>(runWindow),
  chunk: as<'number'>(runChunk),
  flatten: runFlatten,
  group: as<'expr'>(runGroup),
  sort: as<'sort-key'>(runSort),
  where: as<'expr'>(runWhere),
  map: as<'expr'>(runMap),
  scan: as<'fold'>(runScan),
  match: as<'string'>(runMatch),
  distinct: runDistinct,
  then: as<'stream'>(runThen),
  log: as<'log'>(runLog),
  logf: as<'logf'>(runLog),
  mime: as<'string'>(runMime),
  strformat: as<'string'>(runStrformat),
  collect: runCollect,
  count: (op, source, sink) => runCount(op, source, sink),
  sum: as<'expr?'>((op, source, sink, env) => runSum(op, source, sink, env, false)),
  avg: as<'expr?'>((op, source, sink, env) => runSum(op, source, sink, env, true)),
  min: as<'expr?'>((op, source, sink, env) => runExtreme(op, source, sink, env, -1)),
  max: as<'expr?'>((op, source, sink, env) => runExtreme(op, source, sink, env, 1)),
  fold: as<'fold'>(runFold),
  join: as<'string?'>(runJoin),
  text: (_op, source, sink, env) => runText(source, sink, env),
  json: (_op, source, sink, env) => runJson(source, sink, env),
  packb: (_op, source, sink, env) => runPackb(source, sink, env),
  timeout: as<'duration'>(runTimeout),
  pace: as<'duration'>(runPace),
};

/** The stage names this runtime implements (the 33 of the vocabulary, and `at`). */
export const stageNames: readonly string[] = Object.keys(stages);

export function runStage(op: StageOp, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const run = Object.hasOwn(stages, op.name) ? stages[op.name] : undefined;
  if (!run) throw new StatusError(StatusCode.INVALID_ARGUMENT, `Unknown stage '${op.name}'.`);
  return run(op, source, sink, env);
}

import { describe, expect, it } from 'vitest';
import { Chunk } from '../../../wire/chunk.js';
import { Status, StatusCode, StatusError } from '../../../wire/status.js';
import type { Constant, Expr, LogSpec, StageOp } from '../../program.js';
import { stages as vocabularyStages } from '../../vocabulary.js';
import { evaluate } from '../evaluate.js';
import { Bus } from '../stream/bus.js';
import { Monitor } from '../stream/monitor.js';
import { CollectingSink, ListReader, type Reader } from '../stream/reader.js';
import { itemValue, valueToChunk, type Item } from '../values/chunks.js';
import { NO_STRUCTS } from '../values/coerce.js';
import { asText } from '../values/convert.js';
import { NO_HOST_TYPES } from '../values/host-types.js';
import { statusRecord } from '../values/status-record.js';
import { newRecord, Real, type Value } from '../values/value.js';
import type { StageEnv } from './env.js';
import { runStage, stageNames } from './run-stage.js';

const at = { from: 0, to: 0 };
const it_: Expr = { kind: 'it', at };
const literal = (value: Constant): Expr => ({ kind: 'literal', value, at });
const int = (value: number): Expr => literal({ kind: 'integer', value });
const str = (value: string): Expr => literal({ kind: 'string', value });
const binary = (op: Extract<Expr, { kind: 'binary' }>['op'], left: Expr, right: Expr): Expr => ({ kind: 'binary', op, left, right, at });
const attr = (base: Expr, name: string): Expr => ({ kind: 'attr', base, name, at });
const call = (name: string, ...args: Expr[]): Expr => ({ kind: 'builtin', name, args, at });
const carryRef = 99;
const carried: Expr = { kind: 'ref', ref: carryRef, at };

function stage(name: string, extra: Record<string, unknown> = {}): StageOp {
  const takes = vocabularyStages.find((word) => word.name === name)?.takes ?? 'none';
  return { name, takes, tolerant: false, failures: null, parallel: 1, ordered: true, at, ...extra } as unknown as StageOp;
}

interface Harness {
  env: StageEnv;
  logs: string[];
  tolerated: Value[];
  monitor: Monitor;
}

function harness(streams: Record<number, Item[]> = {}): Harness {
  const monitor = new Monitor();
  const logs: string[] = [];
  const tolerated: Value[] = [];
  const context = (it: Value, refs: Map<number, Value> = new Map()) => ({
    it,
    ref: (ref: number) => refs.get(ref) ?? null,
    coercion: NO_STRUCTS,
    builtins: { types: NO_HOST_TYPES },
  });
  const env: StageEnv = {
    monitor,
    label: 'words | stage',
    sourceLabel: 'words',
    value: (item) => itemValue(item),
    evaluate: (expr, it) => evaluate(expr, context(it)),
    evaluateFold: (expr, carry, held, it) => evaluate(expr, context(it, new Map([[carry, held]]))),
    subscribe: (ref) => new ListReader(streams[ref] ?? []),
    log: (spec: LogSpec, item) => void logs.push(spec.format ? `${spec.format}:${asText(itemValue(item))}` : asText(itemValue(item))),
    tolerate: (_item, why: StatusError, parallel) => void tolerated.push(parallel ? why.status.message : statusRecord(why.status)),
    packb: (value) => valueToChunk(value, 'application/x-msgpack'),
  };
  return { env, logs, tolerated, monitor };
}

async function through(op: StageOp, items: Item[], h = harness()): Promise<Value[]> {
  const sink = new CollectingSink();
  await runStage(op, new ListReader(items), sink, h.env);
  return sink.items.map((item) => itemValue(item));
}

function texts(values: Value[]): string[] {
  return values.map(asText);
}

describe('the stage table', () => {
  it('has every stage of the vocabulary, and `at`', () => {
    expect([...stageNames].sort()).toEqual([...vocabularyStages.map((word) => word.name), 'at'].sort());
  });
});

describe('stages that look at each value', () => {
  it('maps and filters', async () => {
    expect(await through(stage('map', { expr: call('upper', it_) }), ['a', 'b'])).toEqual(['A', 'B']);
    expect(await through(stage('where', { expr: binary('>', it_, int(1)) }), [1, 2, 3])).toEqual([2, 3]);
  });

  it('reads a field or an item of each value', async () => {
    const records = [Object.assign(newRecord(), { a: 1 }), Object.assign(newRecord(), { b: 2 })];
    expect(await through(stage('at', { takes: 'at', field: 'a', index: null, namedOrIndexed: false }), records)).toEqual([1, null]);
    expect(await through(stage('at', { takes: 'at', field: '1', index: 1, namedOrIndexed: false }), [[1, 2], [3]])).toEqual([2, null]);
    const pair = stage('at', { takes: 'at', field: 'age', index: 1, namedOrIndexed: true });
    expect(await through(pair, [Object.assign(newRecord(), { age: 27 }), ['Alice', 30]])).toEqual([27, 30]);
  });

  it('matches a pattern, dropping what does not fit', async () => {
    const found = await through(stage('match', { text: 'name={name} age={age:int}' }), ['name=Alice   age=27', 'nothing', 'name=Bo age=3']);
    expect(texts(found)).toEqual(['{"age": 27, "name": "Alice"}', '{"age": 3, "name": "Bo"}']);
    await expect(through(stage('match', { text: 'name={name' }), ['x'])).rejects.toThrow(/cannot be read/);
  });

  it('flattens lists and lets anything else through', async () => {
    expect(await through(stage('flatten'), ['a', ['b', 'c'], []])).toEqual(['a', 'b', 'c']);
  });

  it('truncates, drops and chooses by media type', async () => {
    expect(await through(stage('truncate', { count: 2 }), ['abc', [1, 2, 3]])).toEqual(['ab', [1, 2]]);
    expect(await through(stage('drop', { count: 2 }), [1, 2, 3, 4])).toEqual([3, 4]);
    const items = [Chunk.text('t'), Chunk.json({ j: 1 }), 'computed', Chunk.bytes(new Uint8Array([1]))];
    expect(texts(await through(stage('mime', { text: 'text/*' }), items))).toEqual(['t']);
    expect(texts(await through(stage('mime', { text: 'application/json' }), items))).toEqual(['{"j": 1}', 'computed']);
  });

  it('logs every value and passes it on unchanged', async () => {
    const h = harness();
    const spec = { level: null, format: null, arguments: [], line: 3 };
    const chunk = Chunk.json('kept');
    const sink = new CollectingSink();
    await runStage(stage('log', { log: spec }), new ListReader([chunk, 'b']), sink, h.env);
    expect(sink.items[0]).toBe(chunk);
    expect(h.logs).toEqual(['kept', 'b']);
  });

  it('drops a value it cannot do under `try`, and fails without it', async () => {
    const failing = call('b64decode', it_);
    const h = harness();
    const kept = await through(stage('map', { expr: failing, tolerant: true }), ['aGk=', '!!', 'aGk='], h);
    expect(kept.map(asText)).toEqual(['hi', 'hi']);
    expect(asText(h.tolerated[0]!)).toContain('"code": "INVALID_ARGUMENT"');
    const sink = new CollectingSink();
    await expect(runStage(stage('map', { expr: failing }), new ListReader(['aGk=', '!!', 'aGk=']), sink, harness().env)).rejects.toThrow(
      /not base64/,
    );
    // What was made before the failure still went on.
    expect(sink.items.map((item) => asText(itemValue(item)))).toEqual(['hi']);
  });

  it('keeps the order under `parallel`, unless told not to', async () => {
    const upper = stage('map', { expr: call('upper', it_), parallel: 4 });
    expect(await through(upper, ['a', 'b', 'c', 'd', 'e'])).toEqual(['A', 'B', 'C', 'D', 'E']);
    const loose = stage('map', { expr: call('upper', it_), parallel: 4, ordered: false });
    expect((await through(loose, ['a', 'b', 'c', 'd'])).map(asText).sort()).toEqual(['A', 'B', 'C', 'D']);
    const h = harness();
    const tolerant = stage('map', { expr: call('b64decode', it_), parallel: 3, tolerant: true });
    expect((await through(tolerant, ['aGk=', '!!', 'aGk='], h)).map(asText)).toEqual(['hi', 'hi']);
    expect(h.tolerated).toEqual(['b64decode was given text that is not base64.']);
  });

  it('reads this stream, then another', async () => {
    const h = harness({ 7: ['c'] });
    expect(await through(stage('then', { stream: 7 }), ['a', 'b'], h)).toEqual(['a', 'b', 'c']);
  });

  it('spaces values out without dropping any', async () => {
    const started = Date.now();
    expect(await through(stage('pace', { seconds: 0.02 }), ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
  });
});

describe('stages that choose or gather by position', () => {
  it('takes the first and the last', async () => {
    expect(await through(stage('first', { count: 2 }), [1, 2, 3])).toEqual([1, 2]);
    expect(await through(stage('first', { count: 5 }), [1])).toEqual([1]);
    expect(await through(stage('first', { count: 0 }), [1])).toEqual([]);
    expect(await through(stage('last', { count: 2 }), [1, 2, 3])).toEqual([2, 3]);
  });

  it('batches, windows and groups', async () => {
    expect(await through(stage('batch', { count: 2 }), ['a', 'b', 'c'])).toEqual([['a', 'b'], ['c']]);
    expect(await through(stage('window', { count: 2 }), ['a', 'b', 'c'])).toEqual([
      ['a', 'b'],
      ['b', 'c'],
    ]);
    expect(await through(stage('window', { count: 3 }), ['a', 'b'])).toEqual([]);
    expect(await through(stage('window', { count: 1 }), ['a', 'b'])).toEqual([['a'], ['b']]);
    await expect(through(stage('window', { count: 0 }), ['a'])).rejects.toThrow(/not a width/);
    const ends = call('ends-with', it_, str('.'));
    expect(await through(stage('group', { expr: ends }), ['a', 'b.', 'c'])).toEqual([['a', 'b.'], ['c']]);
  });

  it('cuts text by bytes without splitting a character, and bytes by bytes', async () => {
    expect(await through(stage('chunk', { count: 4 }), ['abcdefghij'])).toEqual(['abcd', 'efgh', 'ij']);
    expect(await through(stage('chunk', { count: 3 }), ['ééé'])).toEqual(['é', 'é', 'é']);
    expect(await through(stage('chunk', { count: 2 }), [new Uint8Array([1, 2, 3])])).toEqual([new Uint8Array([1, 2]), new Uint8Array([3])]);
    expect(await through(stage('chunk', { count: 4 }), [7])).toEqual([7]);
    await expect(through(stage('chunk', { count: 0 }), ['a'])).rejects.toThrow(/not a size/);
  });

  it('sorts stably, by a key, either way round', async () => {
    expect(await through(stage('sort', { by: null, descending: false }), ['pear', 'apple', 'fig'])).toEqual(['apple', 'fig', 'pear']);
    expect(await through(stage('sort', { by: null, descending: true }), ['pear', 'apple', 'fig'])).toEqual(['pear', 'fig', 'apple']);
    const hits = [1, 2, 3].map((id, index) => Object.assign(newRecord(), { id, score: [5, 9, 5][index]! }));
    const ranked = await through(stage('sort', { by: attr(it_, 'score'), descending: true }), hits);
    expect(ranked.map((hit) => asText(hit))).toEqual(['{"id": 2, "score": 9}', '{"id": 1, "score": 5}', '{"id": 3, "score": 5}']);
  });

  it('drops a value equal to one already seen', async () => {
    expect(await through(stage('distinct'), ['a', 'b', 'a', 1, '1'])).toEqual(['a', 'b', 1]);
  });
});

describe('stages that reduce', () => {
  it('totals, averages and finds the extremes', async () => {
    expect(await through(stage('sum', { expr: null }), [1, 4, 7])).toEqual([12]);
    expect(await through(stage('sum', { expr: null }), [])).toEqual([0]);
    expect(await through(stage('avg', { expr: null }), [1, 4, 7])).toEqual([new Real(4)]);
    expect(await through(stage('avg', { expr: null }), [])).toEqual([]);
    expect(await through(stage('max', { expr: null }), [1, 7, 4])).toEqual([7]);
    expect(await through(stage('min', { expr: null }), [])).toEqual([]);
    const orders = [3, 4.5].map((price) => Object.assign(newRecord(), { price }));
    expect(await through(stage('sum', { expr: attr(it_, 'price') }), orders)).toEqual([7.5]);
  });

  it('collects, counts and joins', async () => {
    expect(await through(stage('collect'), ['a', 'b'])).toEqual([['a', 'b']]);
    expect(await through(stage('count'), ['a', 'b'])).toEqual([2]);
    expect(await through(stage('join', { text: ', ' }), ['a', 1])).toEqual(['a, 1']);
    expect(await through(stage('join', { text: null }), ['a', 'b'])).toEqual(['ab']);
  });

  it('folds, and scans every state it passes through', async () => {
    const fold = { start: { kind: 'integer', value: 0 }, carried: 'total', carry: carryRef, expr: binary('+', carried, it_) };
    expect(await through(stage('fold', fold), [3, 4, 5])).toEqual([12]);
    expect(await through(stage('fold', fold), [])).toEqual([0]);
    expect(await through(stage('scan', fold), [3, 4, 5])).toEqual([3, 7, 12]);
    expect(await through(stage('scan', fold), [])).toEqual([]);
  });
});

describe('stages about encoding and time', () => {
  it('renders text, reads JSON and formats', async () => {
    expect(await through(stage('text'), [new Real(3), [1]])).toEqual(['3.0', '[1]']);
    expect(texts(await through(stage('json'), ['{"a": 1}', 'plain', 5]))).toEqual(['{"a": 1}', 'plain', '5']);
    expect(await through(stage('strformat', { text: '<%s>' }), ['a'])).toEqual(['<a>']);
  });

  it('packs as MessagePack, leaving packed chunks alone', async () => {
    const packed = Chunk.msgpack({ a: 1 });
    const sink = new CollectingSink();
    await runStage(stage('packb'), new ListReader([packed, 'x']), sink, harness().env);
    expect(sink.items[0]).toBe(packed);
    expect((sink.items[1] as Chunk).mimetype).toBe('application/x-msgpack');
    expect(itemValue(sink.items[1]!)).toBe('x');
  });

  it('fails a stream that goes quiet for longer than the gap', async () => {
    const h = harness();
    const bus = new Bus(h.monitor, 'words', 1);
    const reader: Reader = bus.take();
    void bus.pump(async (sink) => {
      await sink.write(['a']);
      await new Promise(() => {});
    });
    const sink = new CollectingSink();
    const failure = await runStage(stage('timeout', { seconds: 0.05 }), reader, sink, h.env).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StatusError);
    expect((failure as StatusError).status).toEqual(new Status(StatusCode.DEADLINE_EXCEEDED, 'Nothing arrived on words for 50ms.'));
    expect(sink.items).toEqual(['a']);
    h.monitor.stop(Status.OK);
  });

  it('lets a stream that keeps arriving through', async () => {
    expect(await through(stage('timeout', { seconds: 5 }), ['a', 'b'])).toEqual(['a', 'b']);
  });
});

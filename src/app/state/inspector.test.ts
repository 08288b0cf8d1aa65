import { describe, expect, it } from 'vitest';
import { Chunk } from '../../wire/chunk';
import { StreamNode } from '../../wire/node';
import { Status, StatusCode } from '../../wire/status';
import { Inspector } from './inspector.svelte';

function manualFrames() {
  const queued: (() => void)[] = [];
  return { schedule: (callback: () => void) => queued.push(callback), frame: () => queued.splice(0).forEach((callback) => callback()) };
}

describe('Inspector', () => {
  it('records every value of every watched port, with seq, time, mimetype, size and preview', async () => {
    const frames = manualFrames();
    const inspector = new Inspector(frames.schedule);
    inspector.begin('run 1', performance.now());
    const words = new StreamNode({ id: 'c1-flow#words' });
    const reply = new StreamNode({ id: 'c1-flow#reply' });
    inspector.watch(words, 'words', 'input');
    inspector.watch(reply, 'reply', 'output');
    await words.put(Chunk.text('one'));
    await reply.put(Chunk.json({ n: 1 }));
    await words.finalize(Chunk.text('two'));
    reply.abort(new Status(StatusCode.INTERNAL, 'model crashed'));
    expect(inspector.shown).toBe(0);
    frames.frame();
    expect(inspector.shown).toBe(3);
    expect(inspector.visible().map((record) => [record.port, record.seq, record.mimetype, record.size, record.preview])).toEqual([
      ['words', 0, 'text/plain', 3, 'one'],
      ['reply', 0, 'application/json', 7, '{"n":1}'],
      ['words', 1, 'text/plain', 3, 'two'],
    ]);
    expect(inspector.records.every((record) => record.ms >= 0)).toBe(true);
    expect(inspector.ports).toEqual([
      { port: 'words', role: 'input', values: 2, bytes: 6, mimetype: 'text/plain', state: 'ok', message: '' },
      { port: 'reply', role: 'output', values: 1, bytes: 7, mimetype: 'application/json', state: 'failed', message: 'INTERNAL: model crashed' },
    ]);
  });

  it('keeps recording while paused and shows it all on resume; filters and clears', () => {
    const frames = manualFrames();
    const inspector = new Inspector(frames.schedule);
    inspector.begin('run');
    inspector.record('a', 'output', Chunk.text('1'), 0);
    frames.frame();
    inspector.togglePause();
    inspector.record('b', 'output', Chunk.text('2'), 0);
    inspector.record('a', 'output', Chunk.text('3'), 1);
    frames.frame();
    expect(inspector.shown).toBe(1);
    inspector.togglePause();
    expect(inspector.shown).toBe(3);
    inspector.filter = 'a';
    expect(inspector.visible().map((record) => record.preview)).toEqual(['1', '3']);
    const exported = JSON.parse(inspector.exportJson());
    expect(exported.format).toBe('flowplay.trace/v1');
    expect(exported.records).toHaveLength(3);
    inspector.clear();
    expect(inspector.visible()).toEqual([]);
    expect(inspector.ports.find((port) => port.port === 'a')?.values).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { Chunk } from '../../wire/chunk';
import { OutputSink, type OutputSurface } from './output-sink';

function recorder() {
  const calls: string[] = [];
  const surface: OutputSurface = {
    appendText: (text) => calls.push(`text:${text}`),
    appendLine: (text) => calls.push(`line:${text}`),
    appendBlock: (text) => calls.push(`block:${text}`),
    clear: () => calls.push('clear'),
  };
  return { calls, surface };
}

function manualFrames() {
  const queued: (() => void)[] = [];
  return { schedule: (callback: () => void) => queued.push(callback), frame: () => queued.splice(0).forEach((callback) => callback()) };
}

describe('OutputSink', () => {
  it('appends a burst of tokens in one paint, and paints nothing twice', () => {
    const frames = manualFrames();
    const sink = new OutputSink('reply', frames.schedule);
    const { calls, surface } = recorder();
    sink.attach(surface);
    for (const word of ['Echo: ', 'hello ', 'world']) sink.push(Chunk.text(word));
    expect(calls).toEqual(['clear']);
    frames.frame();
    sink.push(Chunk.text('!'));
    frames.frame();
    expect(calls).toEqual(['clear', 'text:Echo: hello world', 'text:!']);
    expect(sink.layout).toBe('text');
    expect(sink.received).toBe(4);
    expect(sink.painted).toBe(4);
    expect(sink.text()).toBe('Echo: hello world!');
  });

  it('shows JSON values as pretty blocks between runs of text', () => {
    const frames = manualFrames();
    const sink = new OutputSink('mixed', frames.schedule);
    const { calls, surface } = recorder();
    sink.attach(surface);
    sink.push(Chunk.text('a '));
    sink.push(Chunk.json({ n: 1 }));
    sink.push(Chunk.text('b'));
    sink.push(Chunk.null());
    frames.frame();
    expect(calls).toEqual(['clear', 'text:a ', 'block:{\n  "n": 1\n}', 'text:b']);
  });

  it('shows values that carry no spacing of their own (shell lines) one per line', () => {
    const frames = manualFrames();
    const sink = new OutputSink('lines', frames.schedule);
    const { calls, surface } = recorder();
    sink.attach(surface);
    sink.push(Chunk.text('tick 1'));
    frames.frame();
    sink.push(Chunk.text('tick 2'));
    frames.frame();
    sink.push(Chunk.text('tick 3'));
    frames.frame();
    expect(sink.layout).toBe('lines');
    // The first value was painted as text, then the view was repainted once as lines.
    expect(calls).toEqual(['clear', 'text:tick 1', 'clear', 'line:tick 1', 'line:tick 2', 'line:tick 3']);
    expect(sink.text()).toBe('tick 1\ntick 2\ntick 3\n');
    sink.setLayout('text');
    expect(calls.slice(-2)).toEqual(['clear', 'text:tick 1tick 2tick 3']);
  });

  it('replays everything to a view attached later, including what is still queued', () => {
    const frames = manualFrames();
    const sink = new OutputSink('late', frames.schedule);
    for (let i = 0; i < 1000; i++) sink.push(Chunk.text(`${i} `));
    const { calls, surface } = recorder();
    sink.attach(surface);
    frames.frame();
    expect(calls.filter((call) => call.startsWith('text:'))).toHaveLength(1);
    expect(calls.join('')).toContain('999 ');
    expect(sink.painted).toBe(1000);
  });
});

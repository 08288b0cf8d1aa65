import { describe, expect, it } from 'vitest';
import { FrameBatcher } from './frame-batcher';

function manualFrames() {
  const queued: (() => void)[] = [];
  return {
    schedule: (callback: () => void) => queued.push(callback),
    frame: () => queued.splice(0).forEach((callback) => callback()),
    get waiting() {
      return queued.length;
    },
  };
}

describe('FrameBatcher', () => {
  it('hands over every value once per frame, in order, however many arrive', () => {
    const frames = manualFrames();
    const batches: number[][] = [];
    const batcher = new FrameBatcher<number>((batch) => batches.push(batch), frames.schedule);
    for (let i = 0; i < 10_000; i++) batcher.push(i);
    expect(frames.waiting).toBe(1);
    frames.frame();
    batcher.push(10_000);
    frames.frame();
    expect(batches.length).toBe(2);
    expect(batches.flat()).toEqual(Array.from({ length: 10_001 }, (_, i) => i));
  });

  it('schedules nothing while idle and can flush at the end of a stream', () => {
    const frames = manualFrames();
    const seen: string[] = [];
    const batcher = new FrameBatcher<string>((batch) => seen.push(...batch), frames.schedule);
    frames.frame();
    expect(seen).toEqual([]);
    batcher.push('a');
    batcher.flushNow();
    expect(seen).toEqual(['a']);
    frames.frame();
    expect(seen).toEqual(['a']);
  });

  it('drops nothing after close because it accepts nothing', () => {
    const frames = manualFrames();
    const seen: string[] = [];
    const batcher = new FrameBatcher<string>((batch) => seen.push(...batch), frames.schedule);
    batcher.push('a');
    batcher.close();
    batcher.push('b');
    frames.frame();
    expect(seen).toEqual([]);
    expect(batcher.pending).toBe(0);
  });
});

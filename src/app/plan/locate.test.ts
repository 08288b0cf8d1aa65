import { describe, expect, it } from 'vitest';
import { parseFlow } from '../../flow/syntax/parse';
import type { PlanStepLike } from './graph';
import { locateStep } from './locate';

const source = `flow listen {
  in  asr: object
  out reply: string stream
  mic = call capture_audio(options: {"sample_rate": 16000}) timeout 120s
  skip mic.events
  heard = run transcribe_audio(audio: mic.audio | packb, asr_options: asr)
  heard.transcription_pieces | first 1 -> reply
  for piece in heard.events {
    log piece
  }
}
`;

const steps: PlanStepLike[] = [
  { step: 'call', label: 'mic', action: 'capture_audio', mode: 'call' },
  { step: 'pipe', label: '{...} -> mic.options', from: '{...}', to: 'mic.options' },
  { step: 'skip', label: 'mic.events', of: 'mic.events' },
  { step: 'run', label: 'heard', action: 'transcribe_audio', mode: 'run' },
  { step: 'pipe', label: 'mic.audio | packb -> heard.audio', from: 'mic.audio | packb', to: 'heard.audio' },
  { step: 'pipe', label: 'asr -> heard.asr_options', from: 'asr', to: 'heard.asr_options' },
  { step: 'pipe', label: '… -> reply', from: 'heard.transcription_pieces | first 1', to: 'reply' },
  { step: 'for', label: 'for', of: 'heard.events', body: [{ step: 'log', label: 'log' }] },
];

describe('locating plan steps in the source', () => {
  const file = parseFlow(source).ast;
  const at = (path: number[]) => {
    const span = locateStep(source, file, 'listen', steps, path);
    return span ? source.slice(span.from, span.to) : undefined;
  };

  it('finds action steps, their argument pipes and other pipes', () => {
    expect(at([0])).toMatch(/^mic = call capture_audio\(.*\) timeout 120s$/);
    expect(at([1])).toBe('options: {"sample_rate": 16000}');
    expect(at([4])).toBe('audio: mic.audio | packb');
    expect(at([6])).toBe('heard.transcription_pieces | first 1 -> reply');
  });

  it('finds skips and control steps, nested ones too', () => {
    expect(at([2])).toBe('skip mic.events');
    expect(at([7])).toMatch(/^for piece in heard.events \{/);
    expect(at([7, 0, 0])).toBe('log piece');
  });
});

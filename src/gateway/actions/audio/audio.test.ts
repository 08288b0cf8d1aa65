import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { speechWav } from '../../../../e2e/support/speech.js';
import { callAction, logText, startCall } from '../../../../test/support/actions.js';
import { Chunk } from '../../../wire/chunk.js';
import { LocalDispatcher } from '../../../wire/local-dispatcher.js';
import { ActionRegistry } from '../../../wire/registry.js';
import { StatusCode } from '../../../wire/status.js';
import { AUDIO_BUFFER_MIMETYPE, chunkToAudioBuffer, type AudioBuffer } from './audio-buffer.js';
import { encodeAudioBuffer } from '../../../wire/audio-buffer.js';
import { encode } from '@msgpack/msgpack';
import { grammarForWords, grammarWords } from './grammar.js';
import { registerAudioActions } from './handlers.js';
import { AlsaMicrophone, FileMicrophone, type Microphone } from './microphone.js';
import { PocketsphinxBackend } from './pocketsphinx.js';
import { StreamingResampler } from './resample.js';
import { captureAudioSchema, captureTranscriptionSchema, listAudioInputsSchema, transcribeAudioSchema } from './schemas.js';
import { asSentence } from './transcription.js';

const backend = new PocketsphinxBackend();
const speechMissing = await backend.unavailable();
const toolsMissing = (() => {
  try {
    execFileSync('espeak-ng', ['--version']);
    execFileSync('sox', ['--version']);
    return undefined;
  } catch {
    return 'espeak-ng and sox are needed to make speech (scripts/install-test-deps.sh installs them)';
  }
})();
const cannotHear = speechMissing ?? toolsMissing;

// Whole phrases: a grammar of sentences is what makes a synthetic voice reliably recognisable.
const WORDS = ['hello world', 'this is a test', 'is the sky blue', 'stop'];

function dispatcher(microphone: Microphone = new AlsaMicrophone(), speech = backend) {
  return new LocalDispatcher(registerAudioActions(new ActionRegistry(), { backend: speech, microphone }));
}

/** A WAV file's samples as AudioBuffers at its own rate (22.05 kHz from espeak), 2048 frames each. */
function wavBuffers(path: string, framesPerBuffer = 2048): AudioBuffer[] {
  const raw = execFileSync('sox', [path, '-t', 'raw', '-e', 'floating-point', '-b', '32', '-L', '-c', '1', '-']);
  const all = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  const rate = Number(execFileSync('soxi', ['-r', path], { encoding: 'utf8' }).trim());
  const buffers: AudioBuffer[] = [];
  for (let at = 0; at < all.length; at += framesPerBuffer) {
    const samples = all.slice(at, at + framesPerBuffer);
    buffers.push({ samples, channels: 1, frames: samples.length, sampleRate: rate, endTime: null });
  }
  return buffers;
}

describe('AudioBuffer', () => {
  it('reads audio from a tagged chunk, from its bare bytes, and from a one-record msgpack value', () => {
    const buffer: AudioBuffer = { samples: Float32Array.from([0.5, -0.25, 1, 0]), channels: 2, frames: 2, sampleRate: 16000, endTime: 5n };
    expect(chunkToAudioBuffer(Chunk.fromValue(AUDIO_BUFFER_MIMETYPE, buffer))).toEqual(buffer);
    expect(chunkToAudioBuffer(Chunk.bytes(encodeAudioBuffer(buffer)))).toEqual(buffer);
    const record = encode({ samples: new Uint8Array(buffer.samples.buffer), num_channels: 2, num_frames: 2, sample_rate: 16000, end_time: 5 });
    expect(chunkToAudioBuffer(Chunk.fromBytes('application/x-msgpack', record))).toEqual(buffer);
    expect(() => chunkToAudioBuffer(Chunk.json({ hello: 1 }))).toThrow(/Not an AudioBuffer/);
  });

  it('resamples any rate and channel count to 16 kHz mono, seamlessly across buffers', () => {
    const resampler = new StreamingResampler();
    const rate = 48000;
    let total = 0;
    const out: number[] = [];
    for (let block = 0; block < 10; block++) {
      const frames = 480;
      const samples = new Float32Array(frames * 2);
      for (let i = 0; i < frames; i++) {
        const value = 0.5 * Math.sin((2 * Math.PI * 440 * (block * frames + i)) / rate);
        samples[i] = value;
        samples[frames + i] = value;
      }
      const pcm = resampler.push({ samples, channels: 2, frames, sampleRate: rate, endTime: null });
      total += pcm.length;
      out.push(...pcm);
    }
    expect(Math.abs(total - 1600)).toBeLessThanOrEqual(1);
    const peak = Math.max(...out.map(Math.abs));
    expect(peak).toBeGreaterThan(15000);
    expect(peak).toBeLessThan(17000);
    const jumps = out.slice(1).map((value, i) => Math.abs(value - out[i]!));
    expect(Math.max(...jumps)).toBeLessThan(5000);
  });
});

describe('speech options', () => {
  it('turns a word list into a JSGF grammar and reads the words back out of one', () => {
    const grammar = grammarForWords(['Hello', 'good morning', 'hello']);
    expect(grammar).toContain('<phrase> = hello | good morning;');
    expect(grammarWords(grammar).sort()).toEqual(['good', 'hello', 'morning']);
  });

  it('ends an utterance as a sentence or a question', () => {
    expect(asSentence('hello world')).toBe('Hello world.');
    expect(asSentence('is the sky blue')).toBe('Is the sky blue?');
    expect(asSentence('done!')).toBe('Done!');
  });
});

describe('audio on a host without a microphone', () => {
  it('lists no inputs and says so; capture fails clearly', async () => {
    const microphone = new AlsaMicrophone();
    if ((await microphone.list()).length > 0) return; // This host has a microphone: nothing to show here.
    const listed = await callAction(dispatcher(microphone), listAudioInputsSchema);
    expect(listed.status.ok).toBe(true);
    expect(listed.outputs.inputs).toEqual([]);
    expect(logText(listed)).toContain('no audio input devices');
    const captured = await callAction(dispatcher(microphone), captureAudioSchema, { inputs: { options: [{}] }, open: ['control_events'] });
    expect(captured.status.code).toBe(StatusCode.FAILED_PRECONDITION);
    expect(captured.status.message).toContain('no audio input device');
  });
});

describe('speech recognition backends', () => {
  it('fails with FAILED_PRECONDITION saying what to install when no recogniser is installed', async () => {
    const absent = new PocketsphinxBackend({ program: 'pocketsphinx_not_installed_here' });
    const result = await callAction(dispatcher(new AlsaMicrophone(), absent), transcribeAudioSchema, { inputs: { audio: [] } });
    expect(result.status.code).toBe(StatusCode.FAILED_PRECONDITION);
    expect(result.status.message).toContain('apt-get install pocketsphinx pocketsphinx-en-us');
  });
});

describe.skipIf(!!cannotHear)(`speech recognition with pocketsphinx${cannotHear ? ` (${cannotHear})` : ''}`, () => {
  it('transcribes a streamed AudioBuffer input one utterance at a time, constrained by a word list', async () => {
    const wav = await speechWav('hello world', { silenceSeconds: 1 });
    const call = startCall(dispatcher(), transcribeAudioSchema, {
      inputs: {
        asr_options: [{ words: WORDS }],
        audio: wavBuffers(wav).map((buffer) => Chunk.fromValue(AUDIO_BUFFER_MIMETYPE, buffer)),
      },
    });
    const [pieces, events] = await Promise.all([call.output('transcription_pieces').collect(), call.output('events').collect()]);
    expect((await call.done).toString()).toBe('OK');
    expect(pieces.map((chunk) => chunk.value)).toEqual(['Hello world.']);
    expect(events.map((chunk) => (chunk.value as { kind: string }).kind)).toEqual([
      'capture_started',
      'inference_started',
      'inference_stopped',
    ]);
  });

  it('endpoints an utterance when the audio stops arriving, before the input is closed', async () => {
    const wav = await speechWav('this is a test', { silenceSeconds: 0 });
    const call = startCall(dispatcher(), transcribeAudioSchema, { inputs: { asr_options: [{ words: WORDS }] }, open: ['audio'] });
    for (const buffer of wavBuffers(wav)) await call.input('audio').put(Chunk.fromValue(AUDIO_BUFFER_MIMETYPE, buffer));
    const piece = await call.output('transcription_pieces').reader().next();
    expect(piece?.value).toBe('This is a test.');
    call.input('audio').close();
    expect((await call.done).ok).toBe(true);
  });

  it('refuses words the recogniser cannot pronounce', async () => {
    const result = await callAction(dispatcher(), transcribeAudioSchema, { inputs: { asr_options: [{ words: ['hello', 'xqzvbn'] }], audio: [] } });
    expect(result.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(result.status.message).toContain('xqzvbn');
  });

  it('captures from a host microphone until a stop control event, then reports it stopped', async () => {
    const wav = await speechWav('hello world', { silenceSeconds: 2 });
    const call = startCall(dispatcher(new FileMicrophone(wav)), captureAudioSchema, {
      inputs: { options: [{ sample_rate: 16000, buffer_frames: 1600 }] },
      open: ['control_events'],
    });
    const audio = call.output('audio').reader();
    const first = (await audio.next())!.value as AudioBuffer;
    expect(first.frames).toBe(1600);
    expect(first.sampleRate).toBe(16000);
    await call.input('control_events').put(Chunk.json({ command: 'stop' }));
    const events = await call.output('events').collect();
    expect(events.map((chunk) => chunk.value)).toEqual([{ kind: 'started' }, { kind: 'stopped' }]);
    expect((await call.done).ok).toBe(true);
  });

  it('transcribes the host microphone with capture_transcription', async () => {
    const wav = await speechWav('is the sky blue', { silenceSeconds: 1 });
    const call = startCall(dispatcher(new FileMicrophone(wav)), captureTranscriptionSchema, {
      inputs: { asr_options: [{ words: WORDS }] },
      open: ['control_events'],
    });
    const piece = await call.output('transcription_pieces').reader().next();
    expect(piece?.value).toBe('Is the sky blue?');
    await call.input('control_events').put(Chunk.json({ command: 'stop' }));
    expect((await call.done).ok).toBe(true);
  });
});

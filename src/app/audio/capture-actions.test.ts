import { describe, expect, it } from 'vitest';
import { decodeAudioBuffer } from '../../wire/audio-buffer';
import { Chunk } from '../../wire/chunk';
import { LocalDispatcher } from '../../wire/local-dispatcher';
import { ActionRegistry } from '../../wire/registry';
import { StatusCode } from '../../wire/status';
import { registerCaptureActions } from './capture-actions';
import { captureAudioSchema, captureTranscriptionSchema, transcribeAudioSchema } from '../../gateway/actions/audio/schemas';
import type { AudioSourceOpener, AudioSourceOptions, OpenAudioSource } from './source';

/** A microphone that produces a ramp every few milliseconds, and a last partial block on stop. */
function syntheticMicrophone() {
  const opened: { options: AudioSourceOptions; stopped: boolean; source: OpenAudioSource }[] = [];
  const open: AudioSourceOpener = async (options) => {
    let frame = 0;
    const block = (frames: number) => {
      const samples = Float32Array.from({ length: frames }, () => ((frame++ % 100) - 50) / 100);
      source.onblock({ samples, sampleRate: options.sampleRate, endTime: BigInt(Date.now()) * 1_000_000n, peak: 0.5 });
    };
    const timer = setInterval(() => block(options.blockFrames), 3);
    const record = { options, stopped: false, source: undefined as unknown as OpenAudioSource };
    const source: OpenAudioSource = {
      onblock: () => {},
      onended: () => {},
      async stop() {
        clearInterval(timer);
        if (!record.stopped) block(7);
        record.stopped = true;
      },
    };
    record.source = source;
    opened.push(record);
    return source;
  };
  return { open, opened };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (however slow the machine) until `count` values have been written to a node. */
async function untilWritten(node: { written: number }, count: number): Promise<void> {
  while (node.written < count) await wait(2);
}

function setup() {
  const microphone = syntheticMicrophone();
  const levels: number[] = [];
  const registry = new ActionRegistry();
  const gatewayRegistry = new ActionRegistry();
  registerCaptureActions(
    registry,
    microphone.open,
    { gateway: () => ({ dispatcher: new LocalDispatcher(gatewayRegistry), schema: (name) => gatewayRegistry.get(name)?.schema }) },
    { level: (peak) => levels.push(peak) },
  );
  return { microphone, levels, dispatcher: new LocalDispatcher(registry), gatewayRegistry };
}

describe('capture_audio served by the page', () => {
  it('streams AudioBuffers between started and stopped, and ends on a stop command', async () => {
    const { dispatcher, microphone, levels } = setup();
    const call = dispatcher.invoke(captureAudioSchema);
    await call.input('options').finalize(Chunk.json({ sample_rate: 16000, buffer_frames: 160 }, 'a11.sdk.AudioInputOptions'));
    const control = call.input('control_events');
    const audio = call.output('audio').collect();
    const events = call.output('events').collect();
    await untilWritten(call.output('audio'), 3);
    await control.put(Chunk.json({ command: 'stop' }));
    const status = await call.done;
    expect(status.ok).toBe(true);
    const buffers = (await audio).map((chunk) => decodeAudioBuffer(chunk.bytes));
    expect(buffers.length).toBeGreaterThan(2);
    expect(buffers.slice(0, -1).every((buffer) => buffer.frames === 160 && buffer.channels === 1 && buffer.sampleRate === 16000)).toBe(true);
    expect(buffers.at(-1)!.frames).toBe(7);
    expect(typeof buffers[0]!.endTime).toBe('bigint');
    expect((await events).map((chunk) => chunk.value)).toEqual([{ kind: 'started' }, { kind: 'stopped' }]);
    expect((await events)[0]!.mimetype).toBe('application/json;type=a11.sdk.AudioCaptureEvent');
    expect(microphone.opened[0]!.stopped).toBe(true);
    expect(levels.at(-1)).toBe(0);
    expect(levels).toContain(0.5);
  });

  it('defaults to 16 kHz and the capture block size, and keeps capturing when the control stream closes without stop', async () => {
    const { dispatcher, microphone } = setup();
    const call = dispatcher.invoke(captureAudioSchema);
    await call.input('options').finalize(Chunk.json({}));
    call.input('control_events').close();
    const reader = call.output('audio').reader();
    await reader.next();
    expect(microphone.opened[0]!.options).toEqual({ sampleRate: 16000, blockFrames: 256 });
    await wait(20);
    expect(microphone.opened[0]!.stopped).toBe(false);
    call.cancel();
    const status = await call.done;
    expect(status.code).toBe(StatusCode.CANCELLED);
    expect(microphone.opened[0]!.stopped).toBe(true);
  });

  it('drops whole buffers for a reader that falls behind, and says how many', async () => {
    const { dispatcher, levels } = setup();
    const call = dispatcher.invoke(captureAudioSchema);
    await call.input('options').finalize(Chunk.json({ buffer_frames: 16 }));
    const audio = call.output('audio').reader();
    const events = call.output('events').collect();
    await audio.next();
    // Every block reports its level, delivered or not: wait for more than the backlog holds.
    while (levels.length < 70) await wait(2);
    for (let i = 0; i < 60; i++) await audio.next();
    await call.input('control_events').put(Chunk.json({ command: 'stop' }));
    for (let chunk = await audio.next(); chunk; chunk = await audio.next());
    expect((await call.done).ok).toBe(true);
    const kinds = (await events).map((chunk) => chunk.value as { kind: string; dropped?: number });
    const dropped = kinds.find((event) => event.kind === 'buffers_dropped');
    expect(dropped?.dropped).toBeGreaterThan(0);
    expect(kinds.at(-1)).toEqual({ kind: 'stopped' });
  });

  it('fails UNAVAILABLE when the device goes away during capture', async () => {
    const { dispatcher, microphone } = setup();
    const call = dispatcher.invoke(captureAudioSchema);
    await call.input('options').finalize(Chunk.json({}));
    await call.output('audio').reader().next();
    microphone.opened[0]!.source.onended('The microphone stopped: it was unplugged.');
    const status = await call.done;
    expect(status.code).toBe(StatusCode.UNAVAILABLE);
    expect(status.message).toMatch(/unplugged/);
  });
});

describe('capture_transcription served by the page', () => {
  const transcribeSchema = transcribeAudioSchema;

  it('sends the microphone to the gateway’s transcribe_audio and streams back what it heard', async () => {
    const { dispatcher, gatewayRegistry } = setup();
    let asrSeen: unknown;
    gatewayRegistry.register(transcribeSchema, async (context) => {
      asrSeen = await context.value('asr_options');
      await context.write('events', { kind: 'inference_started' });
      let frames = 0;
      for await (const buffer of context.values('audio')) frames += (buffer as { frames: number }).frames;
      await context.write('transcription_pieces', `heard ${frames > 0 ? 'audio' : 'nothing'}`);
      await context.write('events', { kind: 'inference_stopped' });
    });
    const call = dispatcher.invoke(captureTranscriptionSchema);
    await call.input('asr_options').finalize(Chunk.json({ model: 'small', words: ['hello'] }));
    call.input('capture_options').close();
    const pieces = call.output('transcription_pieces').collect();
    const events = call.output('events').collect();
    await untilWritten(call.output('events'), 2);
    await call.input('control_events').put(Chunk.json({ command: 'stop' }));
    expect((await call.done).ok).toBe(true);
    expect((await pieces).map((chunk) => chunk.value)).toEqual(['heard audio']);
    expect(asrSeen).toMatchObject({ model: 'small', words: ['hello'] });
    expect((await events).map((chunk) => (chunk.value as { kind: string }).kind)).toEqual([
      'capture_started',
      'inference_started',
      'inference_stopped',
      'capture_stopped',
    ]);
  });

  it('stops listening and fails with the recogniser’s status when recognition fails', async () => {
    const { dispatcher, gatewayRegistry, microphone } = setup();
    gatewayRegistry.register(transcribeSchema, async () => {
      throw new Error('no model loaded');
    });
    const call = dispatcher.invoke(captureTranscriptionSchema);
    call.input('asr_options').close();
    call.input('capture_options').close();
    const status = await call.done;
    expect(status.ok).toBe(false);
    expect(status.message).toMatch(/no model loaded/);
    expect(microphone.opened[0]?.stopped ?? true).toBe(true);
  });

  it('explains that recognition needs a gateway offering transcribe_audio', async () => {
    const { dispatcher } = setup();
    const call = dispatcher.invoke(captureTranscriptionSchema);
    const status = await call.done;
    expect(status.code).toBe(StatusCode.FAILED_PRECONDITION);
    expect(status.message).toMatch(/transcribe_audio/);
  });
});

/**
 * The browser microphone as an audio source: getUserMedia into an AudioContext running at the
 * requested rate (the browser resamples), through the capture worklet, which posts fixed-size
 * mono blocks. Processing (echo cancellation, noise suppression, gain control) is off, so the
 * samples are what the device hears.
 */
import { StatusCode, StatusError } from '../../wire/status';
import type { CaptureBlock, CaptureStopped } from './capture.worklet';
import workletUrl from './capture.worklet.ts?worker&url';
import type { AudioSourceOpener, OpenAudioSource } from './source';

function refusal(error: unknown): StatusError {
  const name = (error as { name?: string }).name;
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return new StatusError(StatusCode.PERMISSION_DENIED, 'The browser refused the microphone: allow it for this page and run again.');
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') {
    return new StatusError(StatusCode.NOT_FOUND, 'No microphone was found on this machine.');
  }
  return new StatusError(StatusCode.UNAVAILABLE, `The microphone could not be opened: ${(error as Error).message ?? String(error)}`);
}

export const openMicrophone: AudioSourceOpener = async (options) => {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw new StatusError(
      StatusCode.FAILED_PRECONDITION,
      'This page cannot reach a microphone: it needs a secure context (https, or http://localhost / 127.0.0.1).',
    );
  }
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: {
        channelCount: 1,
        echoCancellation: false,
        noiseSuppression: false,
        autoGainControl: false,
        ...(options.device ? { deviceId: options.device } : {}),
      },
    });
  } catch (error) {
    throw refusal(error);
  }
  const context = new AudioContext({ sampleRate: options.sampleRate });
  try {
    await context.audioWorklet.addModule(workletUrl);
  } catch (error) {
    stream.getTracks().forEach((track) => track.stop());
    await context.close();
    throw new StatusError(StatusCode.INTERNAL, `The capture worklet did not load: ${(error as Error).message}`);
  }
  const source = context.createMediaStreamSource(stream);
  const worklet = new AudioWorkletNode(context, 'flowplay-capture', {
    numberOfInputs: 1,
    numberOfOutputs: 1,
    channelCount: 1,
    channelCountMode: 'explicit',
    processorOptions: { blockFrames: options.blockFrames },
  });
  // A silent path to the destination keeps the graph pulled, so the worklet always runs.
  const silence = context.createGain();
  silence.gain.value = 0;
  source.connect(worklet).connect(silence).connect(context.destination);
  await context.resume();

  const toWallClock = (clock: number): bigint => {
    const stamp = context.getOutputTimestamp();
    const performanceMs = (stamp.performanceTime ?? performance.now()) + (clock - (stamp.contextTime ?? context.currentTime)) * 1000;
    return BigInt(Math.round((performance.timeOrigin + performanceMs) * 1e6));
  };

  let stopped: (() => void) | undefined;
  const opened: OpenAudioSource = {
    onblock: () => {},
    onended: () => {},
    async stop() {
      if (context.state === 'closed') return;
      const flushed = new Promise<void>((resolve) => (stopped = resolve));
      worklet.port.postMessage({ type: 'stop' });
      // The worklet posts its last partial block, then 'stopped'; it answers within a quantum.
      await Promise.race([flushed, new Promise((resolve) => setTimeout(resolve, 250))]);
      stream.getTracks().forEach((track) => track.stop());
      source.disconnect();
      worklet.disconnect();
      await context.close();
    },
  };
  worklet.port.onmessage = (event: MessageEvent<CaptureBlock | CaptureStopped>) => {
    const message = event.data;
    if (message.type === 'stopped') return stopped?.();
    opened.onblock({ samples: message.samples, sampleRate: message.sampleRate, endTime: toWallClock(message.endClock), peak: message.peak });
  };
  stream.getAudioTracks()[0]?.addEventListener('ended', () => {
    if (context.state !== 'closed') opened.onended('The microphone stopped: it was unplugged or its permission was withdrawn.');
  });
  return opened;
};

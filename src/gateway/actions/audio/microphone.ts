import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { StatusCode, StatusError } from '../../../wire/status.js';
import { trackChildProcess } from '../../activity/attribution.js';
import type { AudioBuffer } from './audio-buffer.js';
import type { AudioDeviceInfo, AudioInputOptions } from './options.js';

/** Rate and channels used when the options leave them to the device. */
const DEFAULT_RATE = 16_000;
const DEFAULT_CHANNELS = 1;
/** Captured bytes kept for a slow reader before the capture program is paused (about 2 min at 16 kHz). */
const MAX_WAITING_BYTES = 4 << 20;
/** How long a stopped capture program gets to exit before it is killed. */
const STOP_GRACE_MS = 2000;

/** A running capture: buffers until `stop`, then the buffers end. */
export interface CaptureSession {
  readonly sampleRate: number;
  readonly channels: number;
  readonly buffers: AsyncIterable<AudioBuffer>;
  /** Stops capturing; `buffers` ends after what was already captured. */
  stop(): void;
}

/** Where the gateway's host captures sound from. */
export interface Microphone {
  /** One line for the startup banner. */
  describe(): Promise<string>;
  list(): Promise<AudioDeviceInfo[]>;
  open(options: AudioInputOptions): Promise<CaptureSession>;
}

/** The argv of a program that writes raw 16-bit little-endian interleaved samples to stdout. */
export type CaptureCommand = (device: AudioDeviceInfo | undefined, sampleRate: number, channels: number) => string[];

/**
 * Reads raw 16-bit samples from a capture program's stdout and cuts them into AudioBuffers of
 * `bufferFrames` frames (planar float32), stamped with the time their last sample arrived.
 */
export function captureFromProcess(
  argv: string[],
  sampleRate: number,
  channels: number,
  bufferFrames: number,
  options: { realtime?: boolean } = {},
): CaptureSession {
  const [program, ...args] = argv;
  const child = spawn(program!, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  trackChildProcess(child, 'audio_capture', argv);
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr = (stderr + data.toString()).slice(-2000)));
  let stopped = false;
  const signalCapture = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // Already gone.
    }
  };
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', resolve);
    child.once('error', (error) => {
      stderr += error.message;
      resolve(-1);
    });
  });
  const bytesPerBuffer = bufferFrames * channels * 2;
  const startedAt = Date.now();
  let framesOut = 0;
  // A file can be read faster than anyone speaks; played as a microphone it keeps the clock.
  const keepTime = async (frames: number) => {
    framesOut += frames;
    const due = startedAt + (framesOut / sampleRate) * 1000 - Date.now();
    if (options.realtime && due > 0 && !stopped) await new Promise((resolve) => setTimeout(resolve, due));
  };
  // Read from the start: output a child writes before anyone iterates must not be lost (a pipe
  // whose writer has exited and closed is otherwise read as empty). Paused while too much waits.
  const pieces: Buffer[] = [];
  let waiting = 0;
  let ended = false;
  let wake: (() => void) | undefined;
  child.stdout.on('data', (data: Buffer) => {
    pieces.push(data);
    waiting += data.length;
    if (waiting > MAX_WAITING_BYTES) child.stdout.pause();
    wake?.();
  });
  child.stdout.on('close', () => {
    ended = true;
    wake?.();
  });
  async function* buffers(): AsyncGenerator<AudioBuffer> {
    let pending: Buffer = Buffer.alloc(0);
    for (;;) {
      const data = pieces.shift();
      if (data === undefined) {
        if (ended || stopped) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        continue;
      }
      waiting -= data.length;
      if (waiting <= MAX_WAITING_BYTES && child.stdout.isPaused()) child.stdout.resume();
      pending = pending.length ? Buffer.concat([pending, data]) : data;
      while (pending.length >= bytesPerBuffer && !stopped) {
        await keepTime(bufferFrames);
        yield toBuffer(pending.subarray(0, bytesPerBuffer), sampleRate, channels);
        pending = pending.subarray(bytesPerBuffer);
      }
      if (stopped) break;
    }
    const whole = pending.length - (pending.length % (channels * 2));
    if (whole > 0 && !stopped) yield toBuffer(pending.subarray(0, whole), sampleRate, channels);
    const code = await exited;
    if (code !== 0 && !stopped) {
      throw new StatusError(StatusCode.UNAVAILABLE, `Audio capture (${program}) stopped with exit code ${code}: ${stderr.trim() || 'no explanation'}`);
    }
  }
  return {
    sampleRate,
    channels,
    buffers: buffers(),
    stop() {
      if (stopped) return;
      stopped = true;
      wake?.();
      signalCapture('SIGTERM');
      // A program blocked writing to a pipe nobody reads (it was paused) never gets to act on
      // SIGTERM: closing the pipe ends its write with EPIPE; SIGKILL if even that is not enough.
      child.stdout.destroy();
      const timer = setTimeout(() => signalCapture('SIGKILL'), STOP_GRACE_MS);
      void exited.then(() => clearTimeout(timer));
    },
  };
}

function toBuffer(bytes: Buffer, sampleRate: number, channels: number): AudioBuffer {
  const numFrames = bytes.length / (channels * 2);
  const samples = new Float32Array(numFrames * channels);
  for (let frame = 0; frame < numFrames; frame++) {
    for (let channel = 0; channel < channels; channel++) {
      samples[channel * numFrames + frame] = bytes.readInt16LE((frame * channels + channel) * 2) / 32768;
    }
  }
  return { samples, channels, frames: numFrames, sampleRate, endTime: BigInt(Date.now()) * 1_000_000n };
}

function resolvedFormat(options: AudioInputOptions): { sampleRate: number; channels: number; bufferFrames: number } {
  return {
    sampleRate: options.sample_rate > 0 ? options.sample_rate : DEFAULT_RATE,
    channels: options.channels > 0 ? options.channels : DEFAULT_CHANNELS,
    bufferFrames: options.buffer_frames > 0 ? options.buffer_frames : options.block_frames,
  };
}

/**
 * The host's ALSA capture devices, recorded with `arecord` (alsa-utils) or, failing that, sox.
 * Devices come from `arecord -l` when it is installed, else from /proc/asound/pcm.
 */
export class AlsaMicrophone implements Microphone {
  async describe(): Promise<string> {
    const devices = await this.list();
    const tool = await this.#tool();
    if (devices.length === 0) return 'no audio input device on this host';
    if (!tool) return `${devices.length} input device(s), but neither arecord (alsa-utils) nor sox is installed to record from them`;
    return `${devices.map((device) => device.name).join(', ')} (recorded with ${tool})`;
  }

  async list(): Promise<AudioDeviceInfo[]> {
    const fromArecord = await run('arecord', ['-l']);
    const entries: { card: number; device: number; name: string }[] = [];
    if (fromArecord !== undefined) {
      for (const match of fromArecord.matchAll(/^card (\d+): [^[]*\[([^\]]*)\], device (\d+): [^[]*\[([^\]]*)\]/gm)) {
        entries.push({ card: Number(match[1]), device: Number(match[3]), name: `${match[2]}: ${match[4]}` });
      }
    } else {
      const pcm = await readFile('/proc/asound/pcm', 'utf8').catch(() => '');
      for (const line of pcm.split('\n')) {
        const match = /^(\d+)-(\d+): ([^:]*):.*\bcapture\b/.exec(line);
        if (match) entries.push({ card: Number(match[1]), device: Number(match[2]), name: match[3]!.trim() });
      }
    }
    return entries.map((entry, index) => ({
      index,
      name: `${entry.name} (hw:${entry.card},${entry.device})`,
      host_api: 'ALSA',
      max_input_channels: 2,
      max_output_channels: 0,
      default_sample_rate: 48_000,
      is_default_input: index === 0,
      is_default_output: false,
    }));
  }

  async open(options: AudioInputOptions): Promise<CaptureSession> {
    const devices = await this.list();
    if (devices.length === 0) {
      throw new StatusError(
        StatusCode.FAILED_PRECONDITION,
        "The gateway's host has no audio input device (list_audio_inputs finds none), so it cannot capture here. " +
          'Capture on the client instead: a flow can `call capture_audio` to use the caller\'s microphone.',
      );
    }
    const device = pickDevice(devices, options);
    const { sampleRate, channels, bufferFrames } = resolvedFormat(options);
    const tool = await this.#tool();
    if (!tool) {
      throw new StatusError(StatusCode.FAILED_PRECONDITION, 'Recording needs arecord or sox on the gateway host: apt-get install alsa-utils');
    }
    const hw = /\((hw:\d+,\d+)\)$/.exec(device.name)?.[1] ?? 'default';
    const argv =
      tool === 'arecord'
        ? ['arecord', '-q', '-D', hw, '-t', 'raw', '-f', 'S16_LE', '-r', String(sampleRate), '-c', String(channels)]
        : ['sox', '-q', '-t', 'alsa', hw, '-t', 'raw', '-e', 'signed', '-b', '16', '-L', '-r', String(sampleRate), '-c', String(channels), '-'];
    return captureFromProcess(argv, sampleRate, channels, bufferFrames);
  }

  async #tool(): Promise<'arecord' | 'sox' | undefined> {
    if ((await run('arecord', ['--version'])) !== undefined) return 'arecord';
    if ((await run('sox', ['--version'])) !== undefined) return 'sox';
    return undefined;
  }
}

/**
 * A sound file played as if it were the host's microphone (through sox): for demos and tests on a
 * machine without one.
 */
export class FileMicrophone implements Microphone {
  constructor(readonly path: string) {}

  async describe(): Promise<string> {
    return `the file ${this.path}, played as a microphone`;
  }

  async list(): Promise<AudioDeviceInfo[]> {
    return [
      {
        index: 0,
        name: `file: ${this.path}`,
        host_api: 'file',
        max_input_channels: 1,
        max_output_channels: 0,
        default_sample_rate: DEFAULT_RATE,
        is_default_input: true,
        is_default_output: false,
      },
    ];
  }

  async open(options: AudioInputOptions): Promise<CaptureSession> {
    const { sampleRate, channels, bufferFrames } = resolvedFormat(options);
    const argv = ['sox', '-q', this.path, '-t', 'raw', '-e', 'signed', '-b', '16', '-L', '-r', String(sampleRate), '-c', String(channels), '-'];
    return captureFromProcess(argv, sampleRate, channels, bufferFrames, { realtime: true });
  }
}

function pickDevice(devices: AudioDeviceInfo[], options: AudioInputOptions): AudioDeviceInfo {
  if (options.device_name) {
    const named = devices.find((device) => device.name.includes(options.device_name));
    if (!named) {
      throw new StatusError(
        StatusCode.NOT_FOUND,
        `No audio input is named '${options.device_name}'; list_audio_inputs shows: ${devices.map((d) => d.name).join(', ')}.`,
      );
    }
    return named;
  }
  if (options.device_index >= 0) {
    const indexed = devices[options.device_index];
    if (!indexed) throw new StatusError(StatusCode.NOT_FOUND, `No audio input has index ${options.device_index} (there are ${devices.length}).`);
    return indexed;
  }
  return devices.find((device) => device.is_default_input) ?? devices[0]!;
}

function run(program: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(program, args, { timeout: 5000 }, (error, stdout) => resolve(error && (error as { code?: unknown }).code === 'ENOENT' ? undefined : stdout));
  });
}

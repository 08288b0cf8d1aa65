import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { StatusCode, StatusError } from '../../../wire/status.js';
import { trackChildProcess } from '../../activity/attribution.js';
import { grammarWords } from './grammar.js';
import type { RecognitionOptions, RecognitionStream, SpeechBackend } from './recognizer.js';

const PROGRAM = 'pocketsphinx_continuous';
const DEFAULT_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
export const INSTALL_HINT = 'apt-get install pocketsphinx pocketsphinx-en-us';
/** Frames (10 ms each) of silence that end an utterance; shorter than the default for prompt pieces. */
const END_OF_SPEECH_FRAMES = 25;

export interface PocketsphinxOptions {
  modelDir?: string;
  program?: string;
}

/**
 * Debian's pocketsphinx (`pocketsphinx_continuous`), fed raw 16 kHz samples on stdin and printing
 * one line per utterance. It cannot read a pipe as /dev/stdin directly when spawned from Node (the
 * descriptor is a socket), hence `cat |` in front of it.
 */
export class PocketsphinxBackend implements SpeechBackend {
  readonly name = 'pocketsphinx';
  readonly #modelDir: string;
  readonly #program: string;
  #dictionary: Promise<Set<string>> | undefined;

  constructor(options: PocketsphinxOptions = {}) {
    this.#modelDir = options.modelDir ?? DEFAULT_MODEL_DIR;
    this.#program = options.program ?? PROGRAM;
  }

  get #acousticModel(): string {
    return join(this.#modelDir, 'en-us');
  }

  get #dictionaryFile(): string {
    return join(this.#modelDir, 'cmudict-en-us.dict');
  }

  async unavailable(): Promise<string | undefined> {
    if (!(await onPath(this.#program))) {
      return `Speech recognition needs pocketsphinx, which is not installed on the gateway's host: ${INSTALL_HINT}`;
    }
    if (!(await exists(join(this.#acousticModel, 'mdef'))) || !(await exists(this.#dictionaryFile))) {
      return `pocketsphinx has no US English model in ${this.#modelDir}: ${INSTALL_HINT}`;
    }
    return undefined;
  }

  async describe(): Promise<string> {
    const missing = await this.unavailable();
    return missing ? `none (${missing})` : `pocketsphinx (US English model, ${this.#modelDir})`;
  }

  async open(options: RecognitionOptions): Promise<RecognitionStream> {
    const missing = await this.unavailable();
    if (missing) throw new StatusError(StatusCode.FAILED_PRECONDITION, missing);
    const notes: string[] = [];
    const language = options.language.trim().toLowerCase();
    if (language && language !== 'auto' && !language.startsWith('en')) {
      throw new StatusError(
        StatusCode.FAILED_PRECONDITION,
        `pocketsphinx here only has a US English model; asr_options.language '${options.language}' cannot be recognised.`,
      );
    }
    let acousticModel = this.#acousticModel;
    if (options.model) {
      if (await exists(join(options.model, 'mdef'))) acousticModel = options.model;
      else notes.push(`asr_options.model '${options.model}' is not a pocketsphinx model directory; using the US English model.`);
    }
    const args = ['-infile', '/dev/stdin', '-hmm', acousticModel, '-dict', this.#dictionaryFile, '-vad_postspeech', String(END_OF_SPEECH_FRAMES)];
    let scratch: string | undefined;
    if (options.grammar) {
      await this.#checkVocabulary(grammarWords(options.grammar));
      scratch = await mkdtemp(join(tmpdir(), 'flowplay-asr-'));
      const grammarFile = join(scratch, 'grammar.gram');
      await writeFile(grammarFile, options.grammar);
      args.push('-jsgf', grammarFile);
      notes.push('Recognition is constrained by a grammar.');
    } else {
      args.push('-lm', join(this.#modelDir, 'en-us.lm.bin'));
    }
    return startProcess(this.#program, args, notes, () => (scratch ? rm(scratch, { recursive: true, force: true }) : undefined));
  }

  async #checkVocabulary(words: readonly string[]): Promise<void> {
    this.#dictionary ??= readFile(this.#dictionaryFile, 'utf8').then(
      (text) => new Set(text.split('\n').map((line) => line.slice(0, line.indexOf(' ')).replace(/\(\d+\)$/, ''))),
    );
    const dictionary = await this.#dictionary;
    const unknown = words.filter((word) => !dictionary.has(word));
    if (unknown.length) {
      throw new StatusError(
        StatusCode.INVALID_ARGUMENT,
        `The recogniser's dictionary has no pronunciation for: ${unknown.slice(0, 20).join(', ')}. Use other words or spell them as ordinary English words.`,
      );
    }
  }
}

function startProcess(program: string, args: string[], notes: string[], cleanup: () => unknown): RecognitionStream {
  const child = spawn('sh', ['-c', `cat | exec ${program} "$@"`, 'sh', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  trackChildProcess(child, 'pocketsphinx', [program, ...args]);
  child.stdin.on('error', () => {});
  const errors: string[] = [];
  let stderrTail = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderrTail = (stderrTail + text).slice(-8192);
    for (const line of text.split('\n')) if (line.startsWith('ERROR')) errors.push(line.replace(/^ERROR:\s*/, '').trim());
  });
  let closed = false;
  const kill = () => {
    if (closed) return;
    closed = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  void exited.then(cleanup);
  // Lines are taken as they are printed, whether or not anyone is iterating yet.
  const lines: string[] = [];
  let pending = '';
  let ended = false;
  let wake: (() => void) | undefined;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    pending += text;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (line) lines.push(line);
    }
    wake?.();
  });
  child.stdout.on('close', () => {
    if (pending.trim()) lines.push(pending.trim());
    ended = true;
    wake?.();
  });
  async function* utterances(): AsyncGenerator<string> {
    for (;;) {
      const line = lines.shift();
      if (line !== undefined) {
        yield line;
        continue;
      }
      if (ended) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    const code = await exited;
    if (code !== 0 && !closed) {
      const why = errors.length ? errors.slice(-3).join('; ') : stderrTail.trim().split('\n').slice(-3).join('; ');
      throw new StatusError(StatusCode.INTERNAL, `pocketsphinx stopped with exit code ${code}: ${why || 'no explanation printed'}`);
    }
  }
  return {
    notes,
    async write(samples) {
      if (closed || !child.stdin.writable) return;
      const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
      if (!child.stdin.write(bytes)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            child.stdin.off('drain', done);
            child.stdin.off('close', done);
            resolve();
          };
          child.stdin.once('drain', done);
          child.stdin.once('close', done);
        });
      }
    },
    end() {
      if (!closed) child.stdin.end();
    },
    utterances: utterances(),
    close: kill,
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function onPath(program: string): Promise<boolean> {
  if (program.includes('/')) return executable(program);
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && (await executable(join(dir, program)))) return true;
  }
  return false;
}

async function executable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

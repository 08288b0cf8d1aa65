/** What a transcription asks of a recogniser. */
export interface RecognitionOptions {
  /** A recogniser-specific model name or path; empty for the backend's default. */
  model: string;
  language: string;
  /** A JSGF grammar the speech must follow (generated from a word list, or given). */
  grammar?: string;
}

/** One running recognition: 16 kHz mono 16-bit samples in, one text per utterance out. */
export interface RecognitionStream {
  /** Notes worth a log line (which model, what was ignored). */
  readonly notes: readonly string[];
  /** Feeds samples; resolves once the recogniser has room for more. */
  write(samples: Int16Array): Promise<void>;
  /** No more audio: the last utterance is finished and `utterances` ends. */
  end(): void;
  /** Each recognised utterance as it is decoded; throws if the recogniser fails. */
  readonly utterances: AsyncIterable<string>;
  /** Stops at once, discarding what was not decoded (idempotent). */
  close(): void;
}

/** A speech recogniser the gateway can drive. */
export interface SpeechBackend {
  readonly name: string;
  /** Undefined when it can run on this host; otherwise why not, and what to install. */
  unavailable(): Promise<string | undefined>;
  /** One line for the startup banner. */
  describe(): Promise<string>;
  open(options: RecognitionOptions): Promise<RecognitionStream>;
}

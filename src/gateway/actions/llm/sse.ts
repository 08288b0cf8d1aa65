import { StatusCode, StatusError } from '../../../wire/status.js';

export interface ServerSentEvent {
  /** The `event:` field; `message` when the server named none. */
  event: string;
  data: string;
}

export interface ReadEventsOptions {
  /** The longest gap allowed between two pieces of the body before the stream is given up. */
  stallMs: number;
  signal?: AbortSignal;
  /** Who is talking, for error messages: `OpenAI-compatible server at http://…`. */
  source: string;
}

/**
 * Parses a `text/event-stream` body into events as they arrive. A body that goes quiet for
 * longer than `stallMs` fails with DEADLINE_EXCEEDED (and the request is cancelled), so a
 * provider that stops mid-answer cannot hold a turn open forever.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  options: ReadEventsOptions,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await readWithin(reader, options);
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
      }
      if (done) {
        if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
        return;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  options: ReadEventsOptions,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new StatusError(
            StatusCode.DEADLINE_EXCEEDED,
            `The ${options.source} sent nothing for ${options.stallMs / 1000} s in the middle of its answer; the turn was abandoned.`,
          ),
        ),
      options.stallMs,
    );
  });
  try {
    return await Promise.race([reader.read(), stalled]);
  } finally {
    clearTimeout(timer);
  }
}

import { StatusCode, StatusError } from '../../../wire/status.js';
import { readServerSentEvents, type ServerSentEvent } from './sse.js';

export interface StreamRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Names the server in errors: `Anthropic API at https://…`. */
  source: string;
  stallMs: number;
  signal: AbortSignal;
}

/** POSTs a JSON body and yields the server-sent events of the answer as they arrive. */
export async function* postForEvents(request: StreamRequest): AsyncGenerator<ServerSentEvent> {
  const controller = new AbortController();
  const abort = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) abort();
  request.signal.addEventListener('abort', abort, { once: true });
  try {
    const response = await connect(request, controller.signal);
    if (!response.ok) throw await httpFailure(response, request.source);
    if (!response.body) throw new StatusError(StatusCode.UNAVAILABLE, `The ${request.source} answered with no body.`);
    yield* readServerSentEvents(response.body, { stallMs: request.stallMs, signal: controller.signal, source: request.source });
  } finally {
    request.signal.removeEventListener('abort', abort);
    controller.abort();
  }
}

async function connect(request: StreamRequest, signal: AbortSignal): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new StatusError(
            StatusCode.DEADLINE_EXCEEDED,
            `The ${request.source} did not start answering within ${request.stallMs / 1000} s.`,
          ),
        ),
      request.stallMs,
    );
  });
  try {
    return await Promise.race([
      fetch(request.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...request.headers },
        body: JSON.stringify(request.body),
        signal,
      }),
      stalled,
    ]);
  } catch (error) {
    if (error instanceof StatusError || signal.aborted) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new StatusError(StatusCode.UNAVAILABLE, `Cannot reach the ${request.source} (${why}). Is it running, and is the base URL right?`);
  } finally {
    clearTimeout(timer);
  }
}

/** The status an HTTP error answer stands for, with the server's own explanation when it gave one. */
async function httpFailure(response: Response, source: string): Promise<StatusError> {
  let detail = '';
  try {
    const text = (await response.text()).slice(0, 2000);
    detail = errorMessageIn(text) ?? text.trim();
  } catch {
    // The status line is still worth reporting.
  }
  const code =
    response.status === 400 || response.status === 422
      ? StatusCode.INVALID_ARGUMENT
      : response.status === 401
        ? StatusCode.UNAUTHENTICATED
        : response.status === 403
          ? StatusCode.PERMISSION_DENIED
          : response.status === 404
            ? StatusCode.NOT_FOUND
            : response.status === 429
              ? StatusCode.RESOURCE_EXHAUSTED
              : response.status >= 500
                ? StatusCode.UNAVAILABLE
                : StatusCode.UNKNOWN;
  return new StatusError(code, `The ${source} answered HTTP ${response.status}${detail ? `: ${detail}` : '.'}`);
}

/** `{"error": {"message": …}}`, `{"error": "…"}` or `{"message": …}` — the shapes providers use. */
export function errorMessageIn(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    const error = parsed.error;
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
      return (error as { message: string }).message;
    }
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // Not JSON: the caller shows the raw text.
  }
  return undefined;
}

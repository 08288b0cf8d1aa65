import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export type Route = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** Requests whose connection the client closed before the answer ended. */
  aborted: number;
  close(): Promise<void>;
}

/** An HTTP server on an ephemeral loopback port that records requests and answers with `route`. */
export async function fakeServer(route: Route): Promise<FakeServer> {
  const state: FakeServer = { url: '', requests: [], aborted: 0, close: async () => {} };
  const server = createServer(async (request, response) => {
    let text = '';
    for await (const piece of request) text += String(piece);
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Kept as text.
    }
    const recorded = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
    state.requests.push(recorded);
    response.on('close', () => {
      if (!response.writableFinished) state.aborted++;
    });
    await route(recorded, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** Answers with server-sent events, `gapMs` apart; `stallAfter` stops sending (but keeps the connection open). */
export async function sendEvents(
  response: ServerResponse,
  events: { event?: string; data: unknown }[],
  options: { gapMs?: number; stallAfter?: number } = {},
): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [index, event] of events.entries()) {
    if (options.stallAfter !== undefined && index >= options.stallAfter) return;
    if (index > 0 && options.gapMs) await new Promise((resolve) => setTimeout(resolve, options.gapMs));
    if (response.destroyed) return;
    const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
    response.write(`${event.event ? `event: ${event.event}\n` : ''}data: ${data}\n\n`);
  }
  response.end();
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Status } from '../wire/status.js';
import { DEFAULT_LIMITS } from './limits.js';
import { startServer, type AcceptedConnection, type RunningServer } from './server.js';
import { checkConnection, isLoopback, tokenMatches } from './security.js';

const TOKEN = 'test-token-0123456789';

/** Answers every accepted connection by closing it cleanly, remembering who came in. */
function recordingServe(accepted: AcceptedConnection[]) {
  return (connection: AcceptedConnection) => {
    accepted.push(connection);
    let resolve!: (status: Status) => void;
    const ended = new Promise<Status>((done) => (resolve = done));
    connection.socket.on('close', () => resolve(Status.OK));
    return { ended, shutdown: () => connection.socket.close(1001, 'bye') };
  };
}

/** Tries a WebSocket upgrade; resolves with the HTTP status of a refusal, or 101. */
function upgrade(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers, perMessageDeflate: false });
    socket.on('open', () => {
      socket.close();
      resolve({ status: 101, body: '' });
    });
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (data: Buffer) => (body += data.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.on('error', () => {});
  });
}

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers }, (response) => {
      let body = '';
      response.on('data', (data: Buffer) => (body += data.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('access rules', () => {
  it('compares tokens whatever their length', () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches('short', TOKEN)).toBe(false);
    expect(tokenMatches(undefined, TOKEN)).toBe(false);
    expect(tokenMatches(`${TOKEN}x`, TOKEN)).toBe(false);
  });

  it('knows loopback addresses and names', () => {
    for (const host of ['127.0.0.1', '127.8.9.1', '::1', '[::1]', '::ffff:127.0.0.1', 'localhost']) expect(isLoopback(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'example.com']) expect(isLoopback(host)).toBe(false);
  });

  it('asks a client from another machine for the token', () => {
    const policy = { token: TOKEN, allowedOrigins: new Set<string>(), allowedHosts: new Set<string>() };
    const from = (remoteAddress: string, url = '/a11') =>
      checkConnection({ url, headers: {}, socket: { remoteAddress } } as never, policy);
    expect(from('10.1.2.3')).toMatchObject({ ok: false, status: 401 });
    expect(from('10.1.2.3', `/a11?token=${TOKEN}`)).toMatchObject({ ok: true });
    expect(from('127.0.0.1')).toMatchObject({ ok: true, browser: false });
    expect(from('127.0.0.1', '/a11?token=wrong-token')).toMatchObject({ ok: false, status: 403 });
  });
});

describe('the server', () => {
  let dir: string;
  let server: RunningServer;
  const accepted: AcceptedConnection[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flowplay-static-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="app"></div>');
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      staticDir: dir,
      token: TOKEN,
      extraOrigins: ['http://127.0.0.1:5173'],
      limits: { ...DEFAULT_LIMITS, maxConnections: 3 },
      serveConnection: recordingServe(accepted),
      discovery: (method, url) =>
        new URL(url, 'http://x').pathname === '/actions' ? { status: 200, headers: { 'content-type': 'application/json' }, body: `{"method":"${method}"}` } : undefined,
    });
  });

  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const endpoint = () => `ws://127.0.0.1:${server.port}/a11`;
  const ownOrigin = () => `http://127.0.0.1:${server.port}`;

  it('prints a page URL carrying the token, and serves the app at it', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${TOKEN}`);
    expect(server.a11Url).toBe(`ws://127.0.0.1:${server.port}/a11?token=${TOKEN}`);
    const page = await get(server.url);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="app"></div>');
  });

  it('serves discovery beside the app', async () => {
    const answer = await get(`http://127.0.0.1:${server.port}/actions`);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('{"method":"GET"}');
  });

  it('serves a local program that sends no Origin, without a token', async () => {
    expect((await upgrade(endpoint())).status).toBe(101);
    expect(accepted.at(-1)?.browser).toBe(false);
  });

  it('serves a page from its own origin that presents the token', async () => {
    expect((await upgrade(`${endpoint()}?token=${TOKEN}`, { origin: ownOrigin() })).status).toBe(101);
    expect(accepted.at(-1)?.browser).toBe(true);
    expect((await upgrade(`${endpoint()}?token=${TOKEN}`, { origin: 'http://127.0.0.1:5173' })).status).toBe(101);
  });

  it('refuses a page that does not present the token, before any A11 traffic', async () => {
    const before = accepted.length;
    const refused = await upgrade(endpoint(), { origin: ownOrigin() });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('launch token');
    expect((await upgrade(`${endpoint()}?token=nope-nope-nope`, { origin: ownOrigin() })).status).toBe(403);
    expect(accepted.length).toBe(before);
  });

  it('refuses a page from another origin even with the token', async () => {
    const refused = await upgrade(`${endpoint()}?token=${TOKEN}`, { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('https://evil.example');
  });

  it('refuses requests naming another host (DNS rebinding)', async () => {
    expect((await upgrade(endpoint(), { host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await get(`http://127.0.0.1:${server.port}/`, { host: 'evil.example' })).status).toBe(403);
  });

  it('answers other paths as they are', async () => {
    expect((await upgrade(`ws://127.0.0.1:${server.port}/elsewhere`)).status).toBe(404);
    expect((await get(`http://127.0.0.1:${server.port}/a11`)).status).toBe(426);
  });

  it('refuses connections beyond the limit with 503', async () => {
    const open: WebSocket[] = [];
    const limited = await startServer({
      host: '127.0.0.1',
      port: 0,
      staticDir: dir,
      token: TOKEN,
      limits: { ...DEFAULT_LIMITS, maxConnections: 2 },
      serveConnection: (connection) => {
        let resolve!: (status: Status) => void;
        connection.socket.on('close', () => resolve(Status.OK));
        return { ended: new Promise<Status>((done) => (resolve = done)), shutdown: () => connection.socket.close() };
      },
    });
    try {
      for (let i = 0; i < 2; i++) {
        const socket = new WebSocket(`ws://127.0.0.1:${limited.port}/a11`);
        await new Promise((resolve) => socket.on('open', resolve));
        open.push(socket);
      }
      const third = await upgrade(`ws://127.0.0.1:${limited.port}/a11`);
      expect(third.status).toBe(503);
    } finally {
      for (const socket of open) socket.close();
      await limited.close();
    }
  });
});

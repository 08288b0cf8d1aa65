import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** The query parameter (on the page URL and on `/a11`) that carries the launch token. */
export const TOKEN_PARAMETER = 'token';

/** Who may open the A11 endpoint. */
export interface AccessPolicy {
  /** The per-launch secret a browser must present. */
  token: string;
  /** Origins (scheme://host:port) whose pages may connect, token in hand. */
  allowedOrigins: ReadonlySet<string>;
  /** Host header names the server answers to; empty to accept any (a remote bind with no name known). */
  allowedHosts: ReadonlySet<string>;
}

export type AccessDecision = { ok: true; browser: boolean } | { ok: false; status: 401 | 403; reason: string };

/** A fresh launch token: 128 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(16).toString('base64url');
}

/** Whether two tokens are equal, in time that does not depend on where they differ. */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  // Hashing first gives both sides the same length, which timingSafeEqual requires.
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** 127.0.0.0/8, ::1 and IPv4-mapped loopback; `localhost` for names. */
export function isLoopback(hostOrAddress: string): boolean {
  const host = hostOrAddress.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1') return true;
  const v4 = host.startsWith('::ffff:') ? host.slice(7) : host;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** The token a request presents: `?token=`, `Authorization: Bearer …`, or `x-a11-token`. */
export function presentedToken(request: IncomingMessage): string | undefined {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const fromQuery = url.searchParams.get(TOKEN_PARAMETER);
  if (fromQuery) return fromQuery;
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  const header = request.headers['x-a11-token'];
  return typeof header === 'string' && header ? header : undefined;
}

/** The origins a page served by this server has, for a server reachable at `host:port`. */
export function ownOrigins(host: string, port: number): string[] {
  const names = new Set([host.includes(':') && !host.startsWith('[') ? `[${host}]` : host]);
  if (isLoopback(host) || host === '0.0.0.0' || host === '::') {
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) names.add(name);
  }
  return [...names].flatMap((name) => [`http://${name}:${port}`, `https://${name}:${port}`]);
}

/** Host header values the server answers to (stops DNS-rebinding pages from reaching it by name). */
export function ownHosts(host: string, port: number): string[] {
  return ownOrigins(host, port).map((origin) => new URL(origin).host);
}

/** Whether an HTTP request names this server in its Host header. */
export function hostAllowed(request: IncomingMessage, policy: AccessPolicy): boolean {
  if (policy.allowedHosts.size === 0) return true;
  const host = (request.headers.host ?? '').toLowerCase();
  return policy.allowedHosts.has(host);
}

/**
 * Whether a WebSocket upgrade may proceed. A browser (it sends Origin) must come from an allowed
 * origin and present the token. A client without Origin on loopback is a local program and is
 * served as is (so unmodified A11 clients work); one from elsewhere must present the token. A
 * token that is presented must always be the right one.
 */
export function checkConnection(request: IncomingMessage, policy: AccessPolicy): AccessDecision {
  if (!hostAllowed(request, policy)) {
    return { ok: false, status: 403, reason: `Host '${request.headers.host ?? ''}' is not this server.` };
  }
  const token = presentedToken(request);
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (!policy.allowedOrigins.has(origin.toLowerCase())) {
      return { ok: false, status: 403, reason: `Pages from ${origin} may not connect to this gateway.` };
    }
    if (!tokenMatches(token, policy.token)) {
      return {
        ok: false,
        status: 403,
        reason: token ? 'The token is wrong.' : 'A browser must present the launch token (?token=…) printed by flowplay serve.',
      };
    }
    return { ok: true, browser: true };
  }
  if (token !== undefined && !tokenMatches(token, policy.token)) return { ok: false, status: 403, reason: 'The token is wrong.' };
  if (token === undefined && !isLoopback(request.socket.remoteAddress ?? '')) {
    return { ok: false, status: 401, reason: 'Connections from other machines must present the launch token.' };
  }
  return { ok: true, browser: false };
}

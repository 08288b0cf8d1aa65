import type { IncomingMessage } from 'node:http';
import { checkConnection, presentedToken, tokenMatches, type AccessPolicy } from '../security.js';
import type { HttpAnswer } from '../server.js';

/** Fetch metadata a browser sends with any request; `none` is the reader typing the address. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

function refusal(status: number, message: string, headers: Record<string, string> = {}): HttpAnswer {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...headers }, body: message };
}

/**
 * `GET /status`: the report as JSON, to whoever may open the A11 endpoint (the same rules,
 * security.ts's checkConnection). It carries no CORS header, so no other site's page can read
 * it; and a request a browser makes on another site's behalf without an Origin (a `<script
 * src>`) is refused unless it presents the token too.
 */
export async function answerStatus(request: IncomingMessage, policy: AccessPolicy, report: () => Promise<unknown>): Promise<HttpAnswer> {
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return refusal(405, `${method} is not answered here: GET /status.`, { allow: 'GET, HEAD' });
  const decision = checkConnection(request, policy);
  if (!decision.ok) return refusal(decision.status, decision.reason);
  const site = request.headers['sec-fetch-site'];
  if (request.headers.origin === undefined && typeof site === 'string' && !OWN_FETCH_SITES.has(site) && !tokenMatches(presentedToken(request), policy.token)) {
    return refusal(403, 'A request made by another site must present the launch token.');
  }
  const body = JSON.stringify(await report(), null, 2);
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
    body: method === 'HEAD' ? '' : body,
  };
}

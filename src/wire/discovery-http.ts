import { describeOne, discoverableActions } from './builtins.js';
import type { ActionRegistry } from './registry.js';
import { describeActions, parseSchemaQueryString } from './schema-document.js';
import { Status, StatusCode, StatusError } from './status.js';

/**
 * `GET /actions` and `GET /actions/<name>`: the same answers as `__list_actions__` and
 * `__get_schema__`, over plain HTTP, for people with curl and pages without an A11 client. A pure
 * function of the request and the registry, so any server can mount it.
 */

export const DISCOVERY_PATH = '/actions';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const DISCOVERY_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'content-type, accept, authorization, x-a11-*',
  'access-control-max-age': '600',
};

/**
 * The answer to a discovery request, or undefined when `url`'s path is not `/actions` or below it
 * (so the caller's own routing applies). Query: `name=<regex>` (repeatable), `exact=<name>`,
 * `ports=all`, `reserved=1`, `runnable=1`. Failures answer with the status's HTTP code and its
 * message as text: an unknown action is a 404, a bad pattern a 400.
 */
export function answerDiscovery(method: string, url: string | URL, registry: ActionRegistry, path = DISCOVERY_PATH): HttpAnswer | undefined {
  const parsed = typeof url === 'string' ? new URL(url, 'http://localhost') : url;
  let name: string;
  if (parsed.pathname === path || parsed.pathname === `${path}/`) name = '';
  else if (parsed.pathname.startsWith(`${path}/`)) name = safeDecode(parsed.pathname.slice(path.length + 1));
  else return undefined;
  const headers = { ...DISCOVERY_CORS_HEADERS, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' };
  const verb = method.toUpperCase();
  if (verb === 'OPTIONS') return { status: 204, headers, body: '' };
  if (verb !== 'GET' && verb !== 'HEAD') {
    return text(405, { ...headers, allow: 'GET, HEAD' }, 'Use GET to read action schemas', verb);
  }
  try {
    const document = name === '' ? describeActions(discoverableActions(registry), parseSchemaQueryString(parsed.searchParams)) : describeOne(registry, name);
    const body = JSON.stringify(document);
    return { status: 200, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }, body: verb === 'HEAD' ? '' : body };
  } catch (error) {
    const status = error instanceof StatusError ? error.status : Status.fromError(error);
    return text(httpStatusOf(status.code), headers, status.message, verb);
  }
}

/** The HTTP status a canonical status code maps to (the usual gRPC/HTTP correspondence). */
export function httpStatusOf(code: number): number {
  switch (code) {
    case StatusCode.OK:
      return 200;
    case StatusCode.CANCELLED:
      return 499;
    case StatusCode.INVALID_ARGUMENT:
    case StatusCode.FAILED_PRECONDITION:
    case StatusCode.OUT_OF_RANGE:
      return 400;
    case StatusCode.DEADLINE_EXCEEDED:
      return 504;
    case StatusCode.NOT_FOUND:
      return 404;
    case StatusCode.ALREADY_EXISTS:
    case StatusCode.ABORTED:
      return 409;
    case StatusCode.PERMISSION_DENIED:
      return 403;
    case StatusCode.RESOURCE_EXHAUSTED:
      return 429;
    case StatusCode.UNIMPLEMENTED:
      return 501;
    case StatusCode.UNAVAILABLE:
      return 503;
    case StatusCode.UNAUTHENTICATED:
      return 401;
    default:
      return 500;
  }
}

function text(status: number, headers: Record<string, string>, message: string, verb: string): HttpAnswer {
  return { status, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' }, body: verb === 'HEAD' ? '' : message };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

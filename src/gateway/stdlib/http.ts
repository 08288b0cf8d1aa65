/**
 * `make_http_request`: one HTTP request with every part of the response on a port of its own —
 * the status and headers before the body, so a flow can act on them while the body arrives. A 4xx
 * or 5xx is a response, not a failure. Only hosts (and resolved addresses) the policy allows are
 * reached; loopback, private and link-local addresses stay refused unless allowed.
 */
import { lookup } from 'node:dns/promises';
import type { ActionHandler } from '../../wire/action.js';
import { defineAction } from '../../wire/schema.js';
import { Status, StatusCode, StatusError } from '../../wire/status.js';
import { checkAddress, checkHost, type FlowPolicy } from './policy.js';
import { bytesOfChunk, Outputs, readOptions, readRequiredText, readText } from './ports.js';
import { DEADLINE_HEADERS, JSON_TYPE, OCTET_STREAM, type Registration } from './shared.js';

export const makeHttpRequestSchema = defineAction({
  name: 'make_http_request',
  description:
    'Make one HTTP request, with every part of the response on a port of its own: the status and headers before the ' +
    'body, so a caller can act on them while the body is still arriving. A 4xx or 5xx is a response rather than a ' +
    'failure. Action headers that do not begin with x-a11- are sent as HTTP request headers.',
  inputs: {
    method: { type: 'string', description: 'Request method; GET when omitted.' },
    options: {
      type: JSON_TYPE,
      description:
        'Request settings, all optional: max_redirects (5), timeout (seconds), headers (an object), max_body_bytes, ' +
        'user_agent, and omit -- output port names to close immediately rather than write.',
    },
    request_body: { type: OCTET_STREAM, stream: true, description: 'Request body, in order; read to its end and sent with the request.' },
    url: { type: 'string', required: true, description: 'Absolute http or https URL to request.' },
  },
  outputs: {
    body: { type: OCTET_STREAM, stream: true, description: 'Response body chunks, in order, as they arrive.' },
    connection: { type: JSON_TYPE, description: 'How the exchange was carried: {url (after redirects), http_version, secure, reused}.' },
    fields: { type: JSON_TYPE, stream: true, description: 'Every response header field as a [name, value] pair, in wire order.' },
    headers: { type: JSON_TYPE, description: "Response header fields as an object, lower-cased; repeats joined with ', '." },
    pushes: { type: JSON_TYPE, stream: true, description: 'Server pushes (this host does not accept them, so none).' },
    redirects: { type: JSON_TYPE, stream: true, description: 'One {url, status, location} per redirect followed, in order.' },
    status_code: { type: 'integer', description: "The final response's status code, written before the body." },
    trailers: { type: JSON_TYPE, description: 'The trailer section that followed the body, as an object; empty when none.' },
  },
  headers: DEADLINE_HEADERS('Whichever of it and options.timeout is tighter bounds the request.'),
});

async function checkUrl(policy: FlowPolicy, target: URL): Promise<void> {
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, `'${target.href}' is not an http or https URL`);
  }
  const host = target.hostname.replace(/^\[|\]$/g, '');
  checkHost(policy, host);
  // A name may resolve to an address the policy refuses: checked where the address is known.
  try {
    for (const { address } of await lookup(host, { all: true })) checkAddress(policy, address);
  } catch (error) {
    if (error instanceof StatusError) throw error;
    throw new StatusError(StatusCode.UNAVAILABLE, `cannot resolve '${host}': ${(error as Error).message}`);
  }
}

function makeHttpRequest(policy: FlowPolicy): ActionHandler {
  return async (context) => {
    const url = await readRequiredText(context, 'url');
    const method = ((await readText(context, 'method')) ?? 'GET').toUpperCase();
    const options = await readOptions(context);
    const maxRedirects = options.intInRange('max_redirects', 5, 0, 100);
    const timeoutMs = options.durationMs('timeout', Infinity);
    const maxBody = options.bytes('max_body_bytes', 0);
    const userAgent = options.string('user_agent', 'flowplay');
    const outputs = Outputs.open(context, options);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new StatusError(StatusCode.INVALID_ARGUMENT, `'${url}' is not an absolute URL`);
    }
    const headers = new Headers({ 'user-agent': userAgent });
    for (const [name, value] of context.headers) if (!name.startsWith('x-a11-')) headers.set(name, value);
    for (const [name, value] of Object.entries(options.object('headers').raw)) headers.set(name, String(value));
    const pieces: Uint8Array[] = [];
    const body = context.input('request_body');
    for (let chunk = await body.next(); chunk !== undefined; chunk = await body.next()) if (!chunk.isNull) pieces.push(bytesOfChunk(chunk));
    const requestBody = pieces.length ? Buffer.concat(pieces) : undefined;

    const signals = [context.signal];
    if (Number.isFinite(timeoutMs)) signals.push(AbortSignal.timeout(timeoutMs));
    const signal = AbortSignal.any(signals);
    try {
      let response: Response;
      let redirects = 0;
      for (;;) {
        await checkUrl(policy, target);
        response = await fetch(target, {
          method,
          headers,
          redirect: 'manual',
          signal,
          ...(requestBody && method !== 'GET' && method !== 'HEAD' ? { body: requestBody } : {}),
        });
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location && redirects < maxRedirects) {
          redirects++;
          const next = new URL(location, target);
          await outputs.value('redirects', { url: target.href, status: response.status, location: next.href });
          await response.body?.cancel();
          target = next;
          continue;
        }
        break;
      }
      outputs.close('redirects');
      outputs.close('pushes');
      await outputs.only('status_code', response.status);
      const joined: Record<string, string> = {};
      for (const [name, value] of response.headers) {
        await outputs.value('fields', [name, value]);
        joined[name] = joined[name] === undefined ? value : `${joined[name]}${name === 'set-cookie' ? '\n' : ', '}${value}`;
      }
      outputs.close('fields');
      await outputs.only('headers', joined);
      await outputs.only('connection', { url: target.href, http_version: '1.1', secure: target.protocol === 'https:', reused: false });
      let received = 0;
      if (response.body) {
        for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
          received += piece.length;
          if (maxBody && received > maxBody) {
            throw new StatusError(StatusCode.RESOURCE_EXHAUSTED, `the response body is longer than the ${maxBody} bytes this request allows`);
          }
          await outputs.bytes('body', piece);
        }
      }
      outputs.close('body');
      await outputs.only('trailers', {});
      outputs.finish();
    } catch (error) {
      const status =
        error instanceof StatusError
          ? error.status
          : signal.aborted && !context.signal.aborted
            ? new Status(StatusCode.DEADLINE_EXCEEDED, `the request to '${target.href}' did not finish within options.timeout`)
            : new Status(StatusCode.UNAVAILABLE, `the request to '${target.href}' failed: ${(error as Error).message}`);
      outputs.abort(status);
      throw new StatusError(status);
    }
  };
}

export function httpActions(policy: FlowPolicy): Registration[] {
  return [{ schema: makeHttpRequestSchema, handler: makeHttpRequest(policy) }];
}

/**
 * make_http_request through a flow, against a server of the test's own on a loopback port: the
 * status before the body, redirects followed and reported, headers both ways, and the policy
 * refusing loopback unless it allows local addresses.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileFlow } from '../../flow/compile.js';
import { collectOutputs, runFlow } from '../../flow/runtime/run-flow.js';
import { plainValue } from '../../flow/runtime/values/plain.js';
import { ActionRegistry } from '../../wire/registry.js';
import { StatusCode } from '../../wire/status.js';
import { readOnlyPolicy, registerStandardLibrary, type FlowPolicy } from './index.js';

const source = `
flow fetch {
  in  url: string
  in  method: string
  in  payload: string stream
  out status: integer
  out body: string
  out kind: string
  out hops: integer
  out final: string
  r = run make_http_request(url: url, method: method, request_body: payload, options: {"headers": {"x-test": "yes"}})
  r.status_code -> status
  r.body | text | join -> body
  r.headers | map get(it, "content-type") -> kind
  r.redirects | count -> hops
  r.connection | map it.url -> final
  skip r.fields, r.pushes, r.trailers
}
`;

let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/moved') {
      response.writeHead(302, { location: '/echo' });
      response.end();
      return;
    }
    const pieces: Buffer[] = [];
    request.on('data', (piece: Buffer) => pieces.push(piece));
    request.on('end', () => {
      response.writeHead(request.url === '/missing' ? 404 : 200, { 'content-type': 'text/plain' });
      response.end(`${request.method} ${request.headers['x-test']} ${Buffer.concat(pieces).toString()}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const localNetwork: FlowPolicy = {
  ...readOnlyPolicy([]),
  network: { enabled: true, anyHost: true, hosts: [], allowLoopback: true, allowPrivate: true, allowLinkLocal: true },
};

async function fetchWith(policy: FlowPolicy, inputs: Record<string, unknown[]>) {
  const compiled = compileFlow(source, { sourceName: 'fetch.flow' });
  expect(compiled.diagnostics.filter((one) => one.severity === 'error')).toEqual([]);
  const registry = registerStandardLibrary(new ActionRegistry(), policy);
  const run = runFlow(compiled.program!, { flow: 'fetch', inputs, registry });
  const outputs = collectOutputs(run);
  const status = await run.done;
  return { status, outputs: plainValue(await outputs) as Record<string, unknown> };
}

describe('make_http_request', () => {
  it('follows a redirect and reports the status, headers and body', async () => {
    const { status, outputs } = await fetchWith(localNetwork, { url: [`${base}/moved`], method: ['GET'], payload: [] });
    expect(status.ok, status.message).toBe(true);
    expect(outputs).toEqual({ status: 200, body: 'GET yes ', kind: 'text/plain', hops: 1, final: `${base}/echo` });
  });

  it('sends a streamed request body, and a 404 is an answer rather than a failure', async () => {
    const { status, outputs } = await fetchWith(localNetwork, { url: [`${base}/missing`], method: ['post'], payload: ['a', 'b'] });
    expect(status.ok, status.message).toBe(true);
    expect(outputs).toMatchObject({ status: 404, body: 'POST yes ab', hops: 0 });
  });

  it('refuses loopback unless the policy allows local addresses', async () => {
    const net: FlowPolicy = { ...localNetwork, network: { ...localNetwork.network, allowLoopback: false, allowPrivate: false, allowLinkLocal: false } };
    const { status } = await fetchWith(net, { url: [`${base}/echo`], method: ['GET'], payload: [] });
    expect(status.code).toBe(StatusCode.PERMISSION_DENIED);
    expect(status.message).toContain('loopback');
  });

  it('refuses what is not an http URL', async () => {
    const { status } = await fetchWith(localNetwork, { url: ['file:///etc/hostname'], method: ['GET'], payload: [] });
    expect(status.code).toBe(StatusCode.INVALID_ARGUMENT);
  });

  it('says when nothing answers', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { status } = await fetchWith(localNetwork, { url: [`http://127.0.0.1:${port}/`], method: ['GET'], payload: [] });
    expect(status.code).toBe(StatusCode.UNAVAILABLE);
  });
});

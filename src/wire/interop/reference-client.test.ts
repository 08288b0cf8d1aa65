import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A11_BIN, A11_MISSING } from '../../../test/support/reference.js';
import { discoverableActions } from '../builtins.js';
import { startWireServer, type WireServer } from '../node-ws.js';
import { ActionRegistry } from '../registry.js';
import { defineAction, port } from '../schema.js';
import { describeActions, parseSchemaQueryString } from '../schema-document.js';

/**
 * The other direction: the reference's own client (`a11 discover`) asking our server, over the A11
 * protocol and over HTTP. Its output is compared, not its exit code: a11-kit 0.4.4's client
 * sometimes aborts while shutting down ("exception not rethrown") after printing, against its own
 * gateway as much as against ours.
 */

const available = A11_BIN !== null;

async function discover(args: string[]): Promise<string> {
  let stdout = '';
  // The abort can also come before anything is printed; then the question is simply asked again.
  for (let attempt = 0; attempt < 3 && stdout.trim() === ''; attempt++) {
    stdout = await new Promise((resolve) => execFile(A11_BIN!, ['discover', ...args], { timeout: 30_000 }, (_error, out) => resolve(out)));
  }
  return stdout;
}

describe.skipIf(!available)(`the reference client against our server${available ? '' : ` (skipped: ${A11_MISSING})`}`, () => {
  const echo = defineAction({
    name: 'text_echo',
    description: 'Sends its text back.',
    inputs: { text: port.text({ required: true, description: 'What to send back.' }) },
    outputs: { echoed: port.text() },
  });
  const peerOnly = defineAction({ name: 'peer_only', description: 'Served elsewhere.', inputs: {}, outputs: { out: port.json() } });
  const registry = new ActionRegistry().register(echo, async (ctx) => ctx.write('echoed', await ctx.value('text'))).register(peerOnly);
  let server: WireServer;

  beforeAll(async () => {
    server = await startWireServer(registry);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists our actions over A11 exactly as we describe them', async () => {
    const printed = JSON.parse(await discover([server.url, '--json']));
    expect(printed).toEqual(describeActions(discoverableActions(registry), parseSchemaQueryString('')));
    const runnable = JSON.parse(await discover([server.url, '--json', '--runnable', '--reserved', '--name', 'text_.*|__ping']));
    expect(runnable.actions.map((entry: { name: string }) => entry.name)).toEqual(['__ping', 'text_echo']);
  }, 60_000);

  it('describes one of our actions, and reads GET /actions the same way', async () => {
    const one = JSON.parse(await discover([server.url, 'text_echo', '--json']));
    expect(one.actions).toHaveLength(1);
    expect(one.actions[0]).toMatchObject({ name: 'text_echo', runnable: true, inputs: [{ name: 'text', required: true, description: 'What to send back.' }] });
    const overHttp = JSON.parse(await discover([server.url.replace('ws://', 'http://').replace(/\/a11$/, ''), '--json']));
    expect(overHttp).toEqual(JSON.parse(await discover([server.url, '--json'])));
  }, 60_000);
});

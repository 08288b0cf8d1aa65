import { describe, expect, it } from 'vitest';
import { InlineCompiler } from '../check/compiler';
import { catalogueOf, readComposableActions } from '../gateway/composable';
import { CheckState } from './check.svelte';
import type { Connection } from './connection.svelte';

/** A connection with no gateway: the local compiler alone. */
const offline = { flowTools: false, session: null, offer: null } as unknown as Connection;

const greet = `flow greet {
  in  name: string required
  out greeting: string
  strformat("Hello, %s", name) -> greeting
}
`;

describe('CheckState', () => {
  it('compiles each text once and keeps the answer with the text it was for', async () => {
    const check = new CheckState(offline, new InlineCompiler());
    const first = await check.compile(greet);
    expect(first.source).toBe(greet);
    expect(first.diagnostics).toEqual([]);
    expect(await check.compile(greet)).toBe(first);
    const broken = await check.compile(greet.replace(', name)', ', nmae)'));
    expect(broken.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['flow.name.unknown']);
    expect(check.local).toBe(broken);
  });

  it('offers the runnable flows from the freshest plan, never the entry flow', async () => {
    const check = new CheckState(offline, new InlineCompiler());
    const source = `${greet}\nflow {\n  out exit_code: integer\n  0 -> exit_code\n}\n`;
    await check.compile(source);
    expect(check.flows(source).map((flow) => flow.flow)).toEqual(['greet']);
    expect(check.planFor(source)).toMatchObject({ origin: 'local', stale: false });
    expect(check.planFor(`${source} `)).toMatchObject({ origin: 'local', stale: true });
  });

  it('checks calls against the gateway’s catalogue once it is known, and recompiles when it changes', async () => {
    const check = new CheckState(offline, new InlineCompiler());
    const source = `flow a {\n  out x: string stream\n  s = run nope(q: "1")\n  s.y -> x\n}\n`;
    expect((await check.compile(source)).diagnostics).toEqual([]);
    check.setCatalogue(catalogueOf(readComposableActions([{ action: 'shell_execute', runnable: true, inputs: [], outputs: [] }])));
    expect(check.local).toBeNull();
    const checked = await check.compile(source);
    expect(checked.diagnostics.length).toBeGreaterThan(0);
    expect(checked.diagnostics[0]!.message).toContain('nope');
  });

  it('ignores the gateway until it serves flow_check, and has nothing stale to show from it', () => {
    const check = new CheckState(offline, new InlineCompiler());
    let answered = false;
    check.requestRemote(greet, () => (answered = true));
    expect(answered).toBe(false);
    expect(check.remoteFor(greet)).toBeNull();
    expect(check.remoteProblemFor(greet)).toBeNull();
  });
});

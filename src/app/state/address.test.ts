import { describe, expect, it } from 'vitest';
import { encodeFlowPayload } from '../lib/share-url';
import { AddressSync } from './address.svelte';
import { Workspace } from './workspace.svelte';

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
}

describe('AddressSync', () => {
  it('opens a flow new to the workspace from the address and says so', async () => {
    const workspace = new Workspace({ name: 'hello', source: 'flow hello {}' }, memoryStorage());
    const address = new AddressSync(workspace);
    await address.openFromAddress(`#flow=${await encodeFlowPayload('flow shared {}')}`);
    expect(workspace.active.source).toBe('flow shared {}');
    expect(workspace.documents).toHaveLength(2);
    expect(address.notice?.text).toMatch(/^Opened the flow from this link as “shared”/);
  });

  it('after a reload shows the flow the address names, without claiming it came from a link', async () => {
    const workspace = new Workspace({ name: 'hello', source: 'flow hello {}' }, memoryStorage());
    workspace.open('mine', 'flow mine {}');
    workspace.select(workspace.documents[0]!.id);
    const address = new AddressSync(workspace);
    await address.openFromAddress(`#flow=${await encodeFlowPayload('flow mine {}')}`);
    expect(workspace.active.name).toBe('mine');
    expect(workspace.documents).toHaveLength(2);
    expect(address.notice).toBeNull();
  });
});

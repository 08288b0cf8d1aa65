import { describe, expect, it } from 'vitest';
import { Workspace } from './workspace.svelte';

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
}

describe('Workspace', () => {
  it('starts with the starter document and opens more with unique names', () => {
    const workspace = new Workspace({ name: 'hello', source: 'flow hello {}' }, memoryStorage());
    expect(workspace.active.name).toBe('hello');
    const second = workspace.open('hello', 'flow b {}');
    expect(second.name).toBe('hello (2)');
    expect(workspace.active).toBe(second);
  });

  it('reuses a document that already holds the same source', () => {
    const workspace = new Workspace({ name: 'a', source: 'flow a {}' }, memoryStorage());
    workspace.open('b', 'flow b {}');
    const again = workspace.openOrReuse('a copy', 'flow a {}');
    expect(again.name).toBe('a');
    expect(workspace.documents).toHaveLength(2);
  });

  it('never closes the last document and selects a neighbour when closing the shown one', () => {
    const workspace = new Workspace({ name: 'a', source: '' }, memoryStorage());
    const b = workspace.open('b', '');
    workspace.open('c', '');
    workspace.select(b.id);
    workspace.close(b.id);
    expect(workspace.active.name).toBe('c');
    workspace.close(workspace.active.id);
    workspace.close(workspace.active.id);
    expect(workspace.documents.map((document) => document.name)).toEqual(['a']);
  });

  it('survives a reload through storage, and ignores a damaged save', () => {
    const storage = memoryStorage();
    const first = new Workspace({ name: 'a', source: 'one' }, storage);
    const b = first.open('b', 'two');
    b.source = 'two, edited';
    first.save();
    const reloaded = new Workspace({ name: 'starter', source: '' }, storage);
    expect(reloaded.documents.map((document) => [document.name, document.source])).toEqual([
      ['a', 'one'],
      ['b', 'two, edited'],
    ]);
    expect(reloaded.active.name).toBe('b');
    expect(reloaded.open('c', '').id).not.toBe(b.id);

    storage.setItem('flowplay.workspace.v1', '{not json');
    expect(new Workspace({ name: 'starter', source: '' }, storage).active.name).toBe('starter');
  });

  it('renames a document, numbering a name another document already has', () => {
    const workspace = new Workspace({ name: 'hello', source: 'flow hello {}' }, memoryStorage());
    const other = workspace.open('untitled', 'flow b {}');
    workspace.rename(other.id, '  hello ');
    expect(other.name).toBe('hello (2)');
    workspace.rename(other.id, 'hello (2)');
    expect(other.name).toBe('hello (2)');
    workspace.rename(other.id, '   ');
    expect(other.name).toBe('hello (2)');
    workspace.rename(other.id, 'tick');
    expect(workspace.documents.map((document) => document.name)).toEqual(['hello', 'tick']);
  });
});

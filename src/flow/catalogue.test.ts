import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFERENCE_DIR, REFERENCE_MISSING, referencePath } from '../../test/support/reference.js';
import { mergeCatalogues, readCatalogue } from './catalogue.js';

describe('flow.catalogue/v1', () => {
  it('reads actions with their ports, defaulting what is not said', () => {
    const catalogue = readCatalogue({
      format: 'flow.catalogue/v1',
      actions: [
        { name: 'fetch', description: 'Get a page.', inputs: [{ name: 'url', type: 'string', required: true }], outputs: [{ name: 'body', type: 'text/plain', unary: false }], runnable: false },
        { name: 'quiet' },
      ],
      types: [{ tag: 'a11.sdk.Thing', fields: [{ name: 'x', type: 'int' }] }],
    });
    expect(catalogue.actions[0]).toEqual({
      name: 'fetch',
      description: 'Get a page.',
      inputs: [{ name: 'url', type: 'string', description: '', required: true, unary: true }],
      outputs: [{ name: 'body', type: 'text/plain', description: '', required: false, unary: false }],
      headers: [],
      runnable: false,
    });
    expect(catalogue.actions[1]).not.toHaveProperty('runnable');
    expect(catalogue.types[0]?.fields[0]).toEqual({ name: 'x', type: 'int', description: '', required: false });
  });

  it('skips what does not read rather than refusing the lot', () => {
    const catalogue = readCatalogue({ actions: [7, null, { name: '' }, { name: 'ok', inputs: 'nope', outputs: [{ type: 'x' }, { name: 'y' }] }], types: 'no' });
    expect(catalogue.actions.map((action) => action.name)).toEqual(['ok']);
    expect(catalogue.actions[0]?.inputs).toEqual([]);
    expect(catalogue.actions[0]?.outputs.map((port) => port.name)).toEqual(['y']);
    expect(readCatalogue('not an object').actions).toEqual([]);
  });

  it('lays one catalogue over another, entry by entry', () => {
    const base = readCatalogue({ actions: [{ name: 'a', description: 'old' }, { name: 'b' }] });
    const over = readCatalogue({ actions: [{ name: 'a', description: 'new' }, { name: 'c' }] });
    expect(mergeCatalogues(base, over).actions.map((action) => `${action.name}:${action.description}`)).toEqual(['a:new', 'b:', 'c:']);
  });

  const file = REFERENCE_DIR ? referencePath('testdata/flow__catalogue.json') : null;
  const available = file !== null && existsSync(file);
  it.skipIf(!available)(`reads the reference gateway catalogue${available ? '' : ` (${REFERENCE_MISSING})`}`, () => {
    const catalogue = readCatalogue(JSON.parse(readFileSync(file!, 'utf8')));
    const capture = catalogue.actions.find((action) => action.name === 'capture_audio');
    expect(capture?.inputs.find((port) => port.name === 'control_events')?.unary).toBe(false);
    expect(capture?.inputs.find((port) => port.name === 'options')?.unary).toBe(true);
    expect(catalogue.types.length).toBeGreaterThan(0);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFERENCE_DIR, REFERENCE_MISSING, referencePath } from '../../../test/support/reference';
import type { ActionSchema } from '../../wire/schema';
import { captureAudioSchema, captureTranscriptionSchema } from './schemas';

interface CataloguePort {
  name: string;
  type: string;
  unary?: boolean;
  required?: boolean;
}

const shape = (ports: readonly { name: string; type: string; unary?: boolean; required?: boolean }[]) =>
  ports
    .map((port) => ({ name: port.name, type: port.type, unary: port.unary ?? true, required: port.required ?? false }))
    .sort((a, b) => a.name.localeCompare(b.name));

describe.skipIf(!REFERENCE_DIR)('capture schemas served by the page', () => {
  const catalogue = REFERENCE_DIR
    ? (JSON.parse(readFileSync(referencePath('testdata/flow__catalogue.json'), 'utf8')) as {
        actions: { name: string; inputs?: CataloguePort[]; outputs?: CataloguePort[]; headers?: { name: string }[] }[];
      })
    : { actions: [] };

  it.each([captureAudioSchema, captureTranscriptionSchema])('$name has exactly the gateway catalogue’s ports', (schema: ActionSchema) => {
    const reference = catalogue.actions.find((action) => action.name === schema.name)!;
    expect(reference, `${schema.name} in the catalogue`).toBeDefined();
    expect(shape(schema.inputs)).toEqual(shape(reference.inputs ?? []));
    expect(shape(schema.outputs)).toEqual(shape(reference.outputs ?? []));
    expect(schema.headers.map((header) => header.name)).toEqual((reference.headers ?? []).map((header) => header.name));
  });
});

if (!REFERENCE_DIR) console.warn(`capture schemas: ${REFERENCE_MISSING}`);

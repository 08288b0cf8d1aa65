import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFERENCE_DIR, REFERENCE_MISSING, referencePath } from '../../../../test/support/reference.js';
import {
  chunkValues,
  encodeInteraction,
  interactionText,
  INTERACTION_MIMETYPE,
  makeTextInteraction,
  parseInteraction,
  systemInstructionsText,
} from './interaction.js';

function golden(name: string): { mimetype: string; base64: string; text?: string; system_prompt?: string } {
  return JSON.parse(readFileSync(referencePath('testdata', name), 'utf8'));
}

const decode = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

describe.skipIf(!REFERENCE_DIR)(`a11.sdk.Interaction against the reference's vectors${REFERENCE_DIR ? '' : ` (${REFERENCE_MISSING})`}`, () => {
  it('decodes the fully populated golden interaction and re-encodes the same bytes', () => {
    const vector = golden('interaction_golden.json');
    expect(vector.mimetype).toBe(INTERACTION_MIMETYPE);
    const bytes = decode(vector.base64);
    const interaction = parseInteraction(JSON.parse(bytes));
    expect(interaction.role).toBe('model');
    expect(interaction.model).toBe('golden-model');
    expect(chunkValues(interaction.content)).toEqual([{ t: 1 }, 'plain']);
    expect(systemInstructionsText(interaction)).toEqual(['sys']);
    expect(interaction.usage_metadata?.output_tokens).toBe(7);
    expect(encodeInteraction(interaction)).toBe(bytes);
  });

  it('builds the text message interaction every client sends, field for field', () => {
    const vector = golden('text_message_interaction_golden.json');
    const expected = JSON.parse(decode(vector.base64));
    const built = JSON.parse(encodeInteraction(makeTextInteraction(vector.text!, { systemPrompt: vector.system_prompt! })));
    expect({ ...built, id: expected.id }).toEqual(expected);
    expect(Object.keys(built)).toEqual(Object.keys(expected));
    expect(interactionText(built)).toBe('hey');
  });
});

describe('a11.sdk.Interaction', () => {
  it('fills defaults for a sparse interaction and keeps unknown fields', () => {
    const interaction = parseInteraction({ role: 'user', content: [], extension: { kept: true } });
    expect(interaction.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(interaction.status).toEqual({ code: 0, message: '' });
    expect(interaction.extension).toEqual({ kept: true });
  });

  it('lets a chunk without a media type repeat the one before it', () => {
    const content = [
      { data: Buffer.from('"a"').toString('base64'), metadata: { mimetype: 'application/json' } },
      { data: Buffer.from('{"text":"b"}').toString('base64') },
    ];
    expect(chunkValues(content)).toEqual(['a', { text: 'b' }]);
    expect(interactionText({ content })).toBe('ab');
  });

  it('refuses a role that is not one of user, model and system', () => {
    expect(() => parseInteraction({ role: 'assistant' })).toThrow(/role/);
  });
});

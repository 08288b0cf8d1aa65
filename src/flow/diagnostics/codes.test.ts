import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFERENCE_DIR, REFERENCE_MISSING, referencePath } from '../../../test/support/reference.js';
import { codesEnvelope, familyOf, findCode, knownCodes } from './codes.js';

const file = REFERENCE_DIR ? referencePath('testdata/flow__codes.json') : null;
const available = file !== null && existsSync(file);

/** The codes the reference emits but leaves out of its published list (its README names them). */
const UNLISTED = [
  'flow.form.fold-name',
  'flow.form.fold-start',
  'flow.form.into-without-try',
  'flow.form.stage-not-parallel',
  'flow.form.unordered-without-parallel',
  'flow.form.wait-all-has-no-value',
  'flow.form.wait-of-one',
];

describe.skipIf(!available)(`the code table covers the reference's${available ? '' : ` (skipped: ${REFERENCE_MISSING})`}`, () => {
  const reference = available
    ? (JSON.parse(readFileSync(file, 'utf8')) as { codes: { code: string; family: string; severity: string }[] }).codes
    : [];

  it('has every published code with the same family and severity', () => {
    expect(reference.length).toBe(79);
    for (const entry of reference) {
      const ours = findCode(entry.code);
      expect(ours, entry.code).toBeDefined();
      expect(ours?.family, entry.code).toBe(entry.family);
      expect(ours?.severity, entry.code).toBe(entry.severity);
      expect(ours?.origin, entry.code).toBe('published');
    }
  });

  it('has the seven unlisted codes, and nothing else the reference lacks except catalogue checks', () => {
    const published = new Set(reference.map((entry) => entry.code));
    const extra = knownCodes.filter((info) => !published.has(info.code));
    expect(extra.filter((info) => info.origin === 'unlisted').map((info) => info.code).sort()).toEqual(UNLISTED);
    expect(extra.every((info) => info.origin === 'unlisted' || info.origin === 'catalogue')).toBe(true);
  });
});

describe('the code table', () => {
  it('is sorted, without duplicates, each code in its family', () => {
    const codes = knownCodes.map((info) => info.code);
    expect(codes).toEqual([...codes].sort());
    expect(new Set(codes).size).toBe(codes.length);
    for (const info of knownCodes) {
      expect(info.code).toMatch(/^flow\.[a-z]+\.[a-z-]+$/);
      expect(info.family).toBe(info.code.split('.')[1]);
      expect(info.summary).toMatch(/\.$/);
    }
  });

  it('reads a family off any code', () => {
    expect(familyOf('flow.unused.header')).toBe('unused');
    expect(familyOf('flow.sequence.impossible')).toBe('sequence');
  });

  it('publishes itself as flow.codes/v1', () => {
    const envelope = codesEnvelope();
    expect(envelope.format).toBe('flow.codes/v1');
    expect(envelope.codes).toHaveLength(knownCodes.length);
    expect(Object.keys(envelope.codes[0]!)).toEqual(['code', 'family', 'severity', 'summary']);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFERENCE_DIR, REFERENCE_MISSING, referencePath } from '../../test/support/reference.js';
import { DEFAULT_LOG_LEVEL, LOG_LEVELS, LOG_PORT, logChunk, parseLogLevel, readLogChunk } from './log.js';
import { Media } from './media.js';
import { PlainMediaTypes, SerialTags } from './serial-tags.js';
import { Status } from './status.js';
import { CLOSE_ATTRIBUTE, isCloseMarker, statusChunk, statusOfChunk } from './status-chunk.js';
import { packStatus, unpackStatus } from './status-codec.js';

function vector<T>(name: string): T | null {
  const file = REFERENCE_DIR ? referencePath('testdata', name) : null;
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : null;
}

const skipped = (data: unknown) => (data ? '' : ` (skipped: ${REFERENCE_MISSING})`);

interface StatusVectors {
  mimetype: string;
  close_attribute: string;
  cases: { name: string; code: number; message: string; details: Record<string, unknown>[]; base64: string }[];
}
const statusVectors = vector<StatusVectors>('status_chunk.json');

describe.skipIf(!statusVectors)(`status chunks match status_chunk.json byte for byte${skipped(statusVectors)}`, () => {
  it('uses the same media type and close attribute', () => {
    expect(Media.status).toBe(statusVectors!.mimetype);
    expect(CLOSE_ATTRIBUTE).toBe(statusVectors!.close_attribute);
  });

  it.each(statusVectors?.cases ?? [])('packs $name exactly', (testCase) => {
    const status = new Status(testCase.code, testCase.message, testCase.details);
    expect(Buffer.from(packStatus(status)).toString('base64')).toBe(testCase.base64);
    const chunk = statusChunk(status);
    expect(chunk.mimetype).toBe(statusVectors!.mimetype);
    expect(Buffer.from(chunk.bytes).toString('base64')).toBe(testCase.base64);
    // A close marker's payload is byte-identical; only the attribute differs.
    const marker = statusChunk(status, { close: true });
    expect(Buffer.from(marker.bytes).toString('base64')).toBe(testCase.base64);
    expect(isCloseMarker(marker)).toBe(true);
    expect(isCloseMarker(chunk)).toBe(false);
    const back = unpackStatus(Buffer.from(testCase.base64, 'base64'));
    expect({ code: back.code, message: back.message, details: back.details }).toEqual({
      code: testCase.code,
      message: testCase.message,
      details: testCase.details,
    });
    expect(statusOfChunk(marker).code).toBe(testCase.code);
  });
});

interface LogVectors {
  port: string;
  levels: string[];
  default_level: string;
  level_aliases: Record<string, string>;
  attributes: Record<string, string>;
  internal_true: string;
  internal_false: string;
}
const logVectors = vector<LogVectors>('log_chunk.json');

describe.skipIf(!logVectors)(`log chunks match log_chunk.json${skipped(logVectors)}`, () => {
  it('narrates on the same port, with the same levels, default and aliases', () => {
    expect(LOG_PORT).toBe(logVectors!.port);
    expect([...LOG_LEVELS]).toEqual(logVectors!.levels);
    expect(DEFAULT_LOG_LEVEL).toBe(logVectors!.default_level);
    for (const [alias, level] of Object.entries(logVectors!.level_aliases)) expect(parseLogLevel(alias)).toBe(level);
  });

  it('writes exactly the named attributes, with internal spelled out', () => {
    const chunk = logChunk('hello', { level: 'warning', internal: true, channel: 'flow', file: 'a.flow', line: 12 }, 1_700_000_000_123);
    const names = logVectors!.attributes;
    expect([...chunk.attributes!.keys()].sort()).toEqual(Object.values(names).sort());
    const text = (key: string) => new TextDecoder().decode(chunk.attribute(key));
    expect(text(names.level!)).toBe('warning');
    expect(text(names.internal!)).toBe(logVectors!.internal_true);
    expect(text(names.lineno!)).toBe('12');
    expect(chunk.timestamp).toBe(1_700_000_000_123_000n);
    expect(chunk.mimetype).toBe(Media.text);
    const plain = logChunk({ n: 1 });
    expect(new TextDecoder().decode(plain.attribute(names.internal!))).toBe(logVectors!.internal_false);
    expect(plain.mimetype).toBe(Media.json);
    expect(readLogChunk(chunk)).toMatchObject({ level: 'warning', message: 'hello', internal: true, channel: 'flow', time: 1_700_000_000_123 });
  });
});

interface TagVectors {
  media_types: Record<string, string>;
  core: Record<string, string>;
  sdk: Record<string, string>;
  audio: Record<string, string>;
}
const tagVectors = vector<TagVectors>('serial_tags.json');

describe.skipIf(!tagVectors)(`serialization tags match serial_tags.json${skipped(tagVectors)}`, () => {
  it('has every tag, spelled the same, and nothing else', () => {
    expect(SerialTags.core).toEqual(tagVectors!.core);
    expect(SerialTags.sdk).toEqual(tagVectors!.sdk);
    expect(SerialTags.audio).toEqual(tagVectors!.audio);
  });

  it('uses the same untagged media types', () => {
    expect(PlainMediaTypes).toEqual(tagVectors!.media_types);
  });
});

import { describe, expect, it } from 'vitest';
import { decodeFlowPayload, encodeFlowPayload, flowPayloadFromHash, shareLink } from './share-url';

describe('flow in the page address', () => {
  it('round-trips a source with non-ASCII text through the compressed payload', async () => {
    const source = 'flow hello {\n  in name: string required\n  "Héllo, 世界 " + name -> greeting\n}\n'.repeat(20);
    const payload = await encodeFlowPayload(source);
    expect(payload.startsWith('z')).toBe(true);
    expect(payload).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(payload.length).toBeLessThan(source.length);
    expect(await decodeFlowPayload(payload)).toBe(source);
  });

  it('reads the uncompressed form', async () => {
    expect(await decodeFlowPayload('u' + Buffer.from('flow a {}').toString('base64url'))).toBe('flow a {}');
  });

  it('explains a damaged payload instead of throwing something obscure', async () => {
    await expect(decodeFlowPayload('zAAAA')).rejects.toThrow(/damaged/);
    await expect(decodeFlowPayload('q123')).rejects.toThrow(/unknown encoding 'q'/);
  });

  it('finds the payload among other fragment parameters', () => {
    expect(flowPayloadFromHash('#x=1&flow=zabc')).toBe('zabc');
    expect(flowPayloadFromHash('')).toBeNull();
  });

  it('never puts the query (where the gateway token lives) into a share link', () => {
    expect(shareLink('http://127.0.0.1:8011/?token=secret#old', 'zabc')).toBe('http://127.0.0.1:8011/#flow=zabc');
  });
});

/**
 * A flow carried in the page address, so a link shares it: `#flow=<payload>`.
 *
 * The payload is the source, deflated and base64url-encoded (prefix `z`), or — where the browser
 * has no CompressionStream — just base64url of the UTF-8 (prefix `u`). It lives in the fragment,
 * which never reaches a server, and it never carries the gateway token or anything that runs:
 * opening a shared link only puts the flow in the editor.
 */

const PARAM = 'flow';

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function pipeThrough(bytes: Uint8Array, transform: GenericTransformStream): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(transform as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The fragment payload for `source`. */
export async function encodeFlowPayload(source: string): Promise<string> {
  const utf8 = new TextEncoder().encode(source);
  if (typeof CompressionStream === 'undefined') return `u${toBase64Url(utf8)}`;
  return `z${toBase64Url(await pipeThrough(utf8, new CompressionStream('deflate-raw')))}`;
}

/** The source a payload carries; throws an Error saying what is wrong with a damaged one. */
export async function decodeFlowPayload(payload: string): Promise<string> {
  const kind = payload[0];
  const body = payload.slice(1);
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(body);
  } catch {
    throw new Error('The shared flow in this link is damaged: it is not valid base64url.');
  }
  if (kind === 'u') return new TextDecoder().decode(bytes);
  if (kind !== 'z') throw new Error(`The shared flow in this link has an unknown encoding '${kind ?? ''}'.`);
  try {
    return new TextDecoder().decode(await pipeThrough(bytes, new DecompressionStream('deflate-raw')));
  } catch {
    throw new Error('The shared flow in this link is damaged: it does not decompress.');
  }
}

/** The payload in a location hash (`#flow=…&…`), or null. */
export function flowPayloadFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  return params.get(PARAM);
}

/** `base` with its fragment replaced by the flow payload; query (and so any token) removed. */
export function shareLink(base: string, payload: string): string {
  const url = new URL(base);
  url.search = '';
  url.hash = `${PARAM}=${payload}`;
  return url.toString();
}

/** Media types A11 values travel as, and the `;type=` tag that names a richer value inside one. */
export const Media = {
  json: 'application/json',
  msgpack: 'application/x-msgpack',
  text: 'text/plain',
  bytes: 'application/octet-stream',
  status: 'application/x-a11-status',
} as const;

export interface ParsedMimetype {
  /** The media type without parameters, lower-cased: `application/json`. */
  base: string;
  /** The serialization tag from `;type=…`, when there is one: `a11.sdk.Interaction`. */
  tag?: string;
}

export function parseMimetype(mimetype: string): ParsedMimetype {
  const [head = '', ...params] = mimetype.split(';');
  const base = head.trim().toLowerCase();
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() === 'type') {
      const tag = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
      if (tag) return { base, tag };
    }
  }
  return { base };
}

/** `application/json;type=a11.sdk.Interaction`, or the bare media type when there is no tag. */
export function withTag(base: string, tag?: string): string {
  return tag ? `${base};type=${tag}` : base;
}

/**
 * The media type a value of a port travels as. Ports declare a media type, or — as the reference's
 * standard library does — a flow type name (`integer`, `string`, `list[string]`); those travel as
 * text for strings, raw bytes for bytes, and JSON for everything else.
 */
export function portMediaType(portType: string): string {
  if (portType.includes('/')) return portType;
  const name = portType.trim().toLowerCase();
  if (name === 'string' || name === 'text') return Media.text;
  if (name === 'bytes') return Media.bytes;
  return Media.json;
}

import { readFile } from 'node:fs/promises';
import { readCatalogue, type Catalogue } from '../flow/catalogue.js';

/** A source the command could not read, and why, as `FILE: cannot read: why`. */
export class Unreadable extends Error {}

/**
 * The text of a flow file, or of standard input for `-`. A flow file is UTF-8; anything else is
 * refused with where it stops being UTF-8, since decoding it anyway would silently turn its bytes
 * into U+FFFD (a Latin-1 string) or into pages of diagnostics about control characters (a binary).
 */
export async function readSource(file: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = file === '-' ? await readStdin() : await readFile(file);
  } catch (error) {
    throw new Unreadable(`${file}: cannot read: ${describeError(error)}`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Unreadable(`${file}:${notUtf8(bytes)}`);
  }
}

/** Where the first byte that is not UTF-8 is, and what to do about it. */
function notUtf8(bytes: Uint8Array): string {
  // A lenient decode puts U+FFFD where the bytes go wrong; everything before it is good UTF-8,
  // so re-encoding that prefix gives the bad byte's offset. A U+FFFD the file really contains
  // (EF BF BD) is passed over.
  const text = new TextDecoder().decode(bytes);
  let offset = 0;
  let before = '';
  for (let at = text.indexOf('\uFFFD'); at !== -1; at = text.indexOf('\uFFFD', at + 1)) {
    before = text.slice(0, at);
    offset = new TextEncoder().encode(before).length;
    if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) break;
  }
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
  return (
    `${line}:${column}: not UTF-8 text: byte 0x${byte} here is not UTF-8 (a binary file, or text in another encoding ` +
    'such as Latin-1). Flow files are UTF-8: convert it first, e.g. iconv -f LATIN1 -t UTF-8.'
  );
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Uint8Array);
  return Buffer.concat(chunks);
}

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

/** A `flow.catalogue/v1` file, for `--catalogue`. */
export async function readCatalogueFile(file: string): Promise<Catalogue> {
  const text = await readSource(file);
  try {
    return readCatalogue(JSON.parse(text));
  } catch (error) {
    throw new Unreadable(`${file}: not a flow.catalogue/v1 JSON document: ${describeError(error)}`);
  }
}

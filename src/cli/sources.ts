import { readFile } from 'node:fs/promises';
import { readCatalogue, type Catalogue } from '../flow/catalogue.js';

/** A source the command could not read, and why, as `FILE: cannot read: why`. */
export class Unreadable extends Error {}

/** The text of a flow file, or of standard input for `-`, decoded as UTF-8. */
export async function readSource(file: string): Promise<string> {
  try {
    const bytes = file === '-' ? await readStdin() : await readFile(file);
    return new TextDecoder('utf-8').decode(bytes);
  } catch (error) {
    throw new Unreadable(`${file}: cannot read: ${describeError(error)}`);
  }
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

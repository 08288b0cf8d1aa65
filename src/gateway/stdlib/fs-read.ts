/**
 * The reading half of the filesystem: `read_file` (streamed, with `info` written before any
 * content), `list_directory` (one entry at a time as the walk finds it) and `stat_path`.
 */
import { lstat, open, opendir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ActionHandler } from '../../wire/action.js';
import { defineAction } from '../../wire/schema.js';
import { Status, StatusCode, StatusError } from '../../wire/status.js';
import { errnoStatus, pathInfo, wildcardMatch } from './fs-info.js';
import { resolvePath, type FlowPolicy } from './policy.js';
import { Outputs, readOptions, readRequiredText, StopSignal } from './ports.js';
import { LineSplitter, PortTextDecoder } from './streams.js';
import { DEADLINE_HEADERS, JSON_TYPE, OCTET_STREAM, OMIT_HELP } from './shared.js';

export const readFileSchema = defineAction({
  name: 'read_file',
  description:
    'Read a file, with each way of wanting it on a port of its own: the bytes as they arrive, the whole thing as ' +
    'text, one value per line, and the metadata -- written before any content, so a composition can act on the size ' +
    'while the reading is still going on. Reading streams, so a file larger than memory costs a chunk at a time.',
  inputs: {
    path: { type: 'string', required: true, description: 'Path of the file to read.' },
    options: { type: JSON_TYPE, description: `All optional: chunk_bytes (65536), offset, length, max_bytes, and ${OMIT_HELP}` },
  },
  outputs: {
    info: { type: JSON_TYPE, description: '{path, name, kind, exists, size, modified, mode}, written before any content.' },
    bytes: { type: OCTET_STREAM, stream: true, description: 'The contents, in order, as they are read.' },
    text: { type: 'string', description: 'The whole file as one text value. Held in memory, so `bytes` or `lines` is what a large file wants.' },
    lines: {
      type: 'string',
      stream: true,
      description: 'One value per line, without its line ending. A trailing line with no newline after it is still a line.',
    },
  },
  headers: DEADLINE_HEADERS('The read fails with deadline_exceeded once it is reached, because a partial file is not a shorter file.'),
});

export const listDirectorySchema = defineAction({
  name: 'list_directory',
  description:
    'List a directory, one entry at a time as the walk finds them. `truncated` says whether a limit cut the listing ' +
    'short, because a partial listing that looks complete is worse than no listing.',
  inputs: {
    path: { type: 'string', required: true, description: 'Directory to list.' },
    options: {
      type: JSON_TYPE,
      description:
        'All optional: recursive (false), max_depth, hidden (false -- whether to report dot files), match (one or more ' +
        `\`*\`/\`?\` patterns matched against the name), kinds (file, directory, symlink, ...), max_entries, and ${OMIT_HELP}`,
    },
  },
  outputs: {
    entries: { type: JSON_TYPE, stream: true, description: 'One {path, name, kind, exists, size, modified, mode, depth} per entry, as the walk reaches it.' },
    count: { type: 'integer', description: 'How many entries were reported.' },
    truncated: { type: 'bool', description: 'Whether a limit stopped the listing before the walk finished.' },
  },
  headers: DEADLINE_HEADERS('The listing fails once it is reached.'),
});

export const statPathSchema = defineAction({
  name: 'stat_path',
  description:
    "Read one path's metadata. A path that is not there is an answer -- `exists` is false -- rather than a failure, " +
    'so a composition can ask without wrapping the question in a `try`.',
  inputs: {
    path: { type: 'string', required: true, description: 'Path to look at.' },
    options: { type: JSON_TYPE, description: `Optional: ${OMIT_HELP}` },
  },
  outputs: {
    info: { type: JSON_TYPE, description: '{path, name, kind, exists, size, modified, mode}.' },
    exists: { type: 'bool', description: 'Whether anything is there.' },
  },
  headers: DEADLINE_HEADERS('The lookup fails once it is reached.'),
});

function policyError(error: unknown): never {
  throw error instanceof StatusError ? error : new StatusError(StatusCode.INTERNAL, String(error));
}

export function readFile(policy: FlowPolicy): ActionHandler {
  return async (context) => {
    const options = await readOptions(context);
    const chunkBytes = options.intInRange('chunk_bytes', 64 * 1024, 1, 8 * 1024 * 1024);
    const offset = options.bytes('offset', 0);
    const length = options.bytes('length', 0);
    let maxBytes = options.bytes('max_bytes', policy.maxReadBytes);
    if (policy.maxReadBytes && (maxBytes === 0 || maxBytes > policy.maxReadBytes)) maxBytes = policy.maxReadBytes;
    const path = resolvePath(policy, await readRequiredText(context, 'path'), false);
    const outputs = Outputs.open(context, options);
    const stop = new StopSignal(context);
    try {
      let stats;
      try {
        stats = await lstat(path);
      } catch (error) {
        throw errnoStatus(error, 'read', path);
      }
      if (stats.isDirectory()) throw new StatusError(StatusCode.FAILED_PRECONDITION, `'${path}' is a directory; use list_directory`);
      if (stats.isSymbolicLink()) {
        throw new StatusError(StatusCode.FAILED_PRECONDITION, `'${path}' is a symlink and this host does not follow them`);
      }
      // Before a byte of content, so a flow can decide on the size while the reading goes on.
      await outputs.only('info', await pathInfo(path, true));
      let file;
      try {
        file = await open(path, 'r');
      } catch (error) {
        throw errnoStatus(error, 'open', path);
      }
      const wantsText = outputs.wants('text');
      const wantsLines = outputs.wants('lines');
      const wantsBytes = outputs.wants('bytes');
      const decoder = new PortTextDecoder('lines', 'bytes');
      const lines = new LineSplitter();
      const whole: Uint8Array[] = [];
      let total = 0;
      let position = offset;
      try {
        for (;;) {
          stop.check();
          let want = chunkBytes;
          if (length > 0) {
            const left = length - total;
            if (left <= 0) break;
            want = Math.min(want, left);
          }
          const buffer = new Uint8Array(want);
          let got: number;
          try {
            ({ bytesRead: got } = await file.read(buffer, 0, want, position));
          } catch (error) {
            throw errnoStatus(error, 'read', path);
          }
          if (got === 0) break;
          position += got;
          total += got;
          if (maxBytes !== 0 && total > maxBytes) {
            throw new StatusError(StatusCode.RESOURCE_EXHAUSTED, `'${path}' is larger than the ${maxBytes} bytes this read allows`);
          }
          const piece = got === want ? buffer : buffer.subarray(0, got);
          if (wantsBytes) {
            const written = outputs.bytes('bytes', piece);
            if (written) await written;
          }
          if (wantsText) whole.push(piece);
          if (wantsLines) {
            for (const line of lines.push(decoder.decode(piece, { stream: true }))) {
              const written = outputs.text('lines', line);
              if (written) await written;
            }
          }
        }
      } finally {
        await file.close();
      }
      if (wantsLines) {
        const rest = [...lines.push(decoder.decode()), ...lines.end()];
        for (let index = 0; index < rest.length; index++) await outputs.text('lines', rest[index]!, index === rest.length - 1);
      }
      if (wantsText) await outputs.only('text', new PortTextDecoder('text', 'bytes').decode(Buffer.concat(whole)));
      outputs.finish();
    } catch (error) {
      outputs.abort(Status.fromError(error));
      throw error;
    }
  };
}

export function listDirectory(policy: FlowPolicy): ActionHandler {
  return async (context) => {
    const options = await readOptions(context);
    const recursive = options.bool('recursive', false);
    const maxDepth = options.intInRange('max_depth', 0, 0, 4096);
    const hidden = options.bool('hidden', false);
    let maxEntries = options.bytes('max_entries', policy.maxEntries);
    if (policy.maxEntries && (maxEntries === 0 || maxEntries > policy.maxEntries)) maxEntries = policy.maxEntries;
    const patterns = options.strings('match');
    const kinds = options.strings('kinds');
    const root = resolvePath(policy, await readRequiredText(context, 'path'), false);
    const outputs = Outputs.open(context, options);
    const stop = new StopSignal(context);
    try {
      let rootStats;
      try {
        rootStats = await lstat(root);
      } catch {
        rootStats = undefined;
      }
      if (!rootStats?.isDirectory()) throw new StatusError(StatusCode.FAILED_PRECONDITION, `'${root}' is not a directory`);
      let count = 0;
      let truncated = false;
      // Written as the walk finds them: a tree of a million files costs a flow one entry of memory.
      const walk = async (directory: string, depth: number): Promise<boolean> => {
        let names: string[];
        try {
          const handle = await opendir(directory);
          names = [];
          for await (const entry of handle) names.push(entry.name);
        } catch (error) {
          if (depth === 0) throw errnoStatus(error, 'list', directory);
          return true;
        }
        names.sort();
        for (const name of names) {
          stop.check();
          const path = join(directory, name);
          const info = await pathInfo(path, false);
          const shown = (hidden || !name.startsWith('.')) && (patterns.length === 0 || patterns.some((pattern) => wildcardMatch(name, pattern)));
          if (shown && (kinds.length === 0 || kinds.includes(info.kind))) {
            if (maxEntries !== 0 && count >= maxEntries) {
              truncated = true;
              return false;
            }
            count++;
            const written = outputs.value('entries', { ...info, depth });
            if (written) await written;
          }
          if (recursive && info.kind === 'directory' && (maxDepth === 0 || depth + 1 < maxDepth) && (hidden || !name.startsWith('.'))) {
            if (!(await walk(path, depth + 1))) return false;
          }
        }
        return true;
      };
      await walk(root, 0);
      await outputs.only('count', count);
      await outputs.only('truncated', truncated);
      outputs.finish();
    } catch (error) {
      outputs.abort(Status.fromError(error));
      if (error instanceof StatusError) throw error;
      policyError(error);
    }
  };
}

export function statPath(policy: FlowPolicy): ActionHandler {
  return async (context) => {
    const options = await readOptions(context);
    const path = resolvePath(policy, await readRequiredText(context, 'path'), false);
    const outputs = Outputs.open(context, options);
    const info = await pathInfo(path, false);
    await outputs.only('exists', info.exists);
    await outputs.only('info', info);
    outputs.finish();
  };
}

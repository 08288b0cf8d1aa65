/**
 * The writing half of the filesystem: `write_file` (atomic by default: a temporary beside the
 * destination, renamed into place at the end, removed on every failing path), `make_directory`,
 * `remove_path`, `move_path`, `copy_path`, `make_temp`. All refuse with PERMISSION_DENIED unless
 * the host allowed writing, and only inside its roots.
 */
import { randomUUID } from 'node:crypto';
import { cp, lstat, mkdir, open, rename, rm, stat, writeFile as writeEmptyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { ActionHandler } from '../../wire/action.js';
import { defineAction } from '../../wire/schema.js';
import { Status, StatusCode, StatusError } from '../../wire/status.js';
import { errnoStatus, pathInfo } from './fs-info.js';
import { resolvePath, type FlowPolicy } from './policy.js';
import { bytesOfChunk, Outputs, readOptions, readRequiredText } from './ports.js';
import { DEADLINE_HEADERS, JSON_TYPE, OCTET_STREAM, OMIT_HELP } from './shared.js';

const oneShot = DEADLINE_HEADERS('The call fails once it is reached.');

export const writeFileSchema = defineAction({
  name: 'write_file',
  description:
    'Write a file from a stream, so that what is written need never be held in one piece. Atomic by default: the ' +
    'content goes to a temporary beside the destination and is renamed into place at the end, so a reader sees either ' +
    'the old contents or the new ones, and a cancelled write leaves neither a partial file nor a temporary. Appending ' +
    'cannot be atomic and says so.',
  inputs: {
    path: { type: 'string', required: true, description: 'Path of the file to write.' },
    content: {
      type: OCTET_STREAM,
      stream: true,
      description: 'The contents, in order. Read to its end; the write is the backpressure point.',
    },
    options: {
      type: JSON_TYPE,
      description: `All optional: append (false), atomic (true unless appending), create_parents (false), sync (false), mode (0644), max_bytes, and ${OMIT_HELP}`,
    },
  },
  outputs: {
    resolved: { type: 'string', description: 'The absolute path that was written.' },
    bytes_written: { type: 'integer', description: 'How many bytes were written.' },
    info: { type: JSON_TYPE, description: 'The metadata of the finished file.' },
  },
  headers: DEADLINE_HEADERS('The write fails once it is reached, and leaves the destination as it was.'),
});

export const makeDirectorySchema = defineAction({
  name: 'make_directory',
  description:
    'Create a directory, and by default its parents. Finding it already there is a success with `created` false.',
  inputs: {
    path: { type: 'string', required: true, description: 'Directory to create.' },
    options: { type: JSON_TYPE, description: 'Optional: parents (true).' },
  },
  outputs: {
    resolved: { type: 'string', description: 'The absolute path.' },
    created: { type: 'bool', description: 'Whether this call made it, as opposed to finding it there.' },
  },
  headers: oneShot,
});

export const removePathSchema = defineAction({
  name: 'remove_path',
  description:
    'Remove a path. A directory is refused unless options.recursive says otherwise. A path that is not there is a ' +
    'success by default, since the composition wanted it gone.',
  inputs: {
    path: { type: 'string', required: true, description: 'Path to remove.' },
    options: { type: JSON_TYPE, description: 'Optional: recursive (false), missing_ok (true).' },
  },
  outputs: { removed: { type: 'integer', description: 'How many entries were removed.' } },
  headers: oneShot,
});

export const movePathSchema = defineAction({
  name: 'move_path',
  description: 'Rename a path. Atomic within one filesystem and refused across two -- use copy_path and remove_path for that.',
  inputs: {
    path: { type: 'string', required: true, description: 'Path to move.' },
    to: { type: 'string', required: true, description: 'Where to move it.' },
    options: { type: JSON_TYPE, description: 'Optional: overwrite (false).' },
  },
  outputs: { resolved: { type: 'string', description: 'The absolute destination.' } },
  headers: oneShot,
});

export const copyPathSchema = defineAction({
  name: 'copy_path',
  description: 'Copy a file or, with options.recursive, a tree.',
  inputs: {
    path: { type: 'string', required: true, description: 'What to copy.' },
    to: { type: 'string', required: true, description: 'Where to copy it.' },
    options: { type: JSON_TYPE, description: 'Optional: recursive (false), overwrite (false).' },
  },
  outputs: { resolved: { type: 'string', description: 'The absolute destination.' } },
  headers: oneShot,
});

export const makeTempSchema = defineAction({
  name: 'make_temp',
  description:
    'Make a scratch path nothing else is using, and hand back its name. Where the host restricted the filesystem to ' +
    'a set of roots, the scratch space is inside the first of them rather than in the system temporary directory.',
  inputs: {
    options: {
      type: JSON_TYPE,
      description: 'Optional: directory (true -- a directory rather than a file), prefix ("a11-"), suffix, in (which directory to make it in).',
    },
  },
  outputs: { path: { type: 'string', description: 'The path that was made.' } },
  headers: oneShot,
});

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

export function writeFile(policy: FlowPolicy): ActionHandler {
  return async (context) => {
    const options = await readOptions(context);
    const append = options.bool('append', false);
    const atomic = options.bool('atomic', !append);
    const createParents = options.bool('create_parents', false);
    const sync = options.bool('sync', false);
    const mode = options.intInRange('mode', 0o644, 0, 0o7777);
    let maxBytes = options.bytes('max_bytes', policy.maxWriteBytes);
    if (policy.maxWriteBytes && (maxBytes === 0 || maxBytes > policy.maxWriteBytes)) maxBytes = policy.maxWriteBytes;
    if (append && atomic) {
      throw new StatusError(
        StatusCode.INVALID_ARGUMENT,
        'options.append and options.atomic cannot both be set: appending replaces nothing, so there is no rename that would make it atomic',
      );
    }
    const path = resolvePath(policy, await readRequiredText(context, 'path'), true);
    const outputs = Outputs.open(context, options);
    const content = context.input('content');
    if (createParents) {
      try {
        await mkdir(dirname(path), { recursive: true });
      } catch (error) {
        throw errnoStatus(error, 'create the parent directory of', path);
      }
    }
    const target = atomic ? join(dirname(path), `.${basename(path)}.a11-${randomUUID()}`) : path;
    let file;
    try {
      file = await open(target, append ? 'a' : atomic ? 'wx' : 'w', mode);
    } catch (error) {
      throw errnoStatus(error, 'open', target);
    }
    let written = 0;
    try {
      try {
        for (let chunk = await content.next(); chunk !== undefined; chunk = await content.next()) {
          if (context.signal.aborted) break;
          if (chunk.isNull) continue;
          const bytes = bytesOfChunk(chunk);
          if (bytes.length === 0) continue;
          if (maxBytes !== 0 && written + bytes.length > maxBytes) {
            throw new StatusError(StatusCode.RESOURCE_EXHAUSTED, `this write allows ${maxBytes} bytes and the content is longer`);
          }
          try {
            await file.write(bytes);
          } catch (error) {
            throw errnoStatus(error, 'write to', target);
          }
          written += bytes.length;
        }
        if (sync) await file.sync();
      } finally {
        await file.close();
      }
      if (context.signal.aborted) throw new StatusError(StatusCode.CANCELLED, 'write_file was cancelled.');
      if (atomic) {
        try {
          await rename(target, path);
        } catch (error) {
          throw errnoStatus(error, 'rename into place', path);
        }
      }
    } catch (error) {
      if (atomic) await rm(target, { force: true });
      outputs.abort(Status.fromError(error));
      throw error;
    }
    await outputs.only('resolved', path);
    await outputs.only('bytes_written', written);
    await outputs.only('info', await pathInfo(path, true));
    outputs.finish();
  };
}

export function makeDirectory(policy: FlowPolicy): ActionHandler {
  return async (context) => {
    const options = await readOptions(context);
    const parents = options.bool('parents', true);
    const path = resolvePath(policy, await readRequiredText(context, 'path'), true);
    const outputs = Outputs.open(context, options);
    const already = await exists(path);
    try {
      if (!already) await mkdir(path, { recursive: parents });
    } catch (error) {
      if (!(await stat(path).then((found) => found.isDirectory(), () => false))) throw errnoStatus(error, 'create', path);
    }
    if (already && !(await stat(path).then((found) => found.isDirectory(), () => false))) {
      throw new StatusError(StatusCode.ALREADY_EXISTS, `cannot create '${path}': File exists`);
    }
    await outputs.only('resolved', path);
    await outputs.only('created', !already);
    outputs.finish();
  };
}

async function countEntries(path: string): Promise<number> {
  const { readdir } = await import('node:fs/promises');
  const info = await lstat(path);
  if (!info.isDirectory()) return 1;
  let total = 1;
  for (const name of await readdir(path)) total += await countEntries(join(path, name));
  return total;
}

export function removePath(policy: FlowPolicy): ActionHandler {
  return async (context) => {
    const options = await readOptions(context);
    const recursive = options.bool('recursive', false);
    const missingOk = options.bool('missing_ok', true);
    const path = resolvePath(policy, await readRequiredText(context, 'path'), true);
    const outputs = Outputs.open(context, options);
    if (!(await exists(path))) {
      if (!missingOk) throw new StatusError(StatusCode.NOT_FOUND, `'${path}' is not there to remove`);
      await outputs.only('removed', 0);
      outputs.finish();
      return;
    }
    const directory = (await lstat(path)).isDirectory();
    if (directory && !recursive) {
      throw new StatusError(StatusCode.FAILED_PRECONDITION, `'${path}' is a directory; set options.recursive to remove it`);
    }
    const removed = recursive ? await countEntries(path) : 1;
    try {
      await rm(path, { recursive });
    } catch (error) {
      throw errnoStatus(error, 'remove', path);
    }
    await outputs.only('removed', removed);
    outputs.finish();
  };
}

export function movePath(policy: FlowPolicy): ActionHandler {
  return async (context) => {
    const options = await readOptions(context);
    const overwrite = options.bool('overwrite', false);
    const from = resolvePath(policy, await readRequiredText(context, 'path'), true);
    const to = resolvePath(policy, await readRequiredText(context, 'to'), true);
    const outputs = Outputs.open(context, options);
    if (!overwrite && (await exists(to))) throw new StatusError(StatusCode.ALREADY_EXISTS, `'${to}' is already there; set options.overwrite`);
    try {
      await rename(from, to);
    } catch (error) {
      throw errnoStatus(error, `move to '${to}' from`, from);
    }
    await outputs.only('resolved', to);
    outputs.finish();
  };
}

export function copyPath(policy: FlowPolicy): ActionHandler {
  return async (context) => {
    const options = await readOptions(context);
    const recursive = options.bool('recursive', false);
    const overwrite = options.bool('overwrite', false);
    const from = resolvePath(policy, await readRequiredText(context, 'path'), false);
    const to = resolvePath(policy, await readRequiredText(context, 'to'), true);
    const outputs = Outputs.open(context, options);
    try {
      const source = await lstat(from);
      if (source.isDirectory() && !recursive) {
        throw new StatusError(StatusCode.FAILED_PRECONDITION, `cannot copy to '${to}' from '${from}': Is a directory`);
      }
      await cp(from, to, { recursive, force: overwrite, errorOnExist: false });
    } catch (error) {
      throw errnoStatus(error, `copy to '${to}' from`, from);
    }
    await outputs.only('resolved', to);
    outputs.finish();
  };
}

export function makeTemp(policy: FlowPolicy): ActionHandler {
  return async (context) => {
    const options = await readOptions(context);
    const prefix = options.string('prefix', 'a11-');
    const suffix = options.string('suffix', '');
    const directory = options.bool('directory', true);
    const inside = options.string('in', '');
    const outputs = Outputs.open(context, options);
    let parent: string;
    if (inside) parent = resolvePath(policy, inside, true);
    else if (policy.unrestricted || policy.roots.length === 0) parent = tmpdir();
    else parent = policy.roots[0]!;
    const path = resolvePath(policy, join(parent, `${prefix}${randomUUID()}${suffix}`), true);
    try {
      if (directory) await mkdir(path);
      else await writeEmptyFile(path, '', { flag: 'wx', mode: 0o600 });
    } catch (error) {
      throw errnoStatus(error, 'create', path);
    }
    await outputs.only('path', path);
    outputs.finish();
  };
}



/**
 * What the filesystem actions say about a path (`{path, name, kind, exists, size, modified, mode}`)
 * and how a failed system call becomes a status a flow's `try` can act on: "no such file" is
 * NOT_FOUND, not UNAVAILABLE, so it can be told from the disk going away.
 */
import type { BigIntStats } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { StatusCode, StatusError } from '../../wire/status.js';
import { rfc3339Nanos } from './time.js';

const DESCRIPTIONS: Readonly<Record<string, [number, string]>> = {
  ENOENT: [StatusCode.NOT_FOUND, 'No such file or directory'],
  EACCES: [StatusCode.PERMISSION_DENIED, 'Permission denied'],
  EPERM: [StatusCode.PERMISSION_DENIED, 'Operation not permitted'],
  EEXIST: [StatusCode.ALREADY_EXISTS, 'File exists'],
  EISDIR: [StatusCode.FAILED_PRECONDITION, 'Is a directory'],
  ENOTDIR: [StatusCode.FAILED_PRECONDITION, 'Not a directory'],
  ENOTEMPTY: [StatusCode.FAILED_PRECONDITION, 'Directory not empty'],
  ENOSPC: [StatusCode.RESOURCE_EXHAUSTED, 'No space left on device'],
  EDQUOT: [StatusCode.RESOURCE_EXHAUSTED, 'Disk quota exceeded'],
  EFBIG: [StatusCode.RESOURCE_EXHAUSTED, 'File too large'],
  EMFILE: [StatusCode.RESOURCE_EXHAUSTED, 'Too many open files'],
  ENFILE: [StatusCode.RESOURCE_EXHAUSTED, 'Too many open files in system'],
  EINVAL: [StatusCode.INVALID_ARGUMENT, 'Invalid argument'],
  ENAMETOOLONG: [StatusCode.INVALID_ARGUMENT, 'File name too long'],
  EXDEV: [StatusCode.UNAVAILABLE, 'Invalid cross-device link'],
};

/** The status a failed system call deserves: `cannot open '/x': No such file or directory`. */
export function errnoStatus(error: unknown, what: string, path: string): StatusError {
  if (error instanceof StatusError) return error;
  const code = (error as { code?: string }).code ?? '';
  const [status, text] = DESCRIPTIONS[code] ?? [StatusCode.UNAVAILABLE, (error as Error).message ?? String(error)];
  return new StatusError(status, `cannot ${what} '${path}': ${text}`);
}

function kindOf(stats: BigIntStats): string {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isBlockDevice() || stats.isCharacterDevice()) return 'device';
  return 'other';
}

export interface PathInfo {
  path: string;
  name: string;
  kind: string;
  exists: boolean;
  size?: number;
  modified?: string;
  mode?: string;
  depth?: number;
}

/** One path's metadata; a path that is not there is `{kind: "absent", exists: false}`, not an error. */
export async function pathInfo(path: string, followSymlinks: boolean): Promise<PathInfo> {
  const info: PathInfo = { path, name: basename(path), kind: 'absent', exists: false };
  let stats: BigIntStats;
  try {
    // In nanoseconds as the system keeps them: a double of milliseconds would round the last digits.
    stats = followSymlinks ? await stat(path, { bigint: true }) : await lstat(path, { bigint: true });
  } catch {
    return info;
  }
  info.kind = kindOf(stats);
  info.exists = true;
  if (stats.isFile()) info.size = Number(stats.size);
  info.modified = rfc3339Nanos(stats.mtimeNs);
  info.mode = (Number(stats.mode) & 0o7777).toString(8).padStart(4, '0');
  return info;
}

/** `*` and `?` against a name, without backtracking that a hostile pattern could make slow. */
export function wildcardMatch(name: string, pattern: string): boolean {
  let at = 0;
  let want = 0;
  let star = -1;
  let afterStar = 0;
  while (at < name.length) {
    if (want < pattern.length && (pattern[want] === '?' || pattern[want] === name[at])) {
      at++;
      want++;
    } else if (want < pattern.length && pattern[want] === '*') {
      star = want++;
      afterStar = at;
    } else if (star >= 0) {
      want = star + 1;
      at = ++afterStar;
    } else {
      return false;
    }
  }
  while (pattern[want] === '*') want++;
  return want === pattern.length;
}

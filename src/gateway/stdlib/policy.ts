/**
 * What a host lets the standard library do, decided where it registers and never widened by a
 * flow: `options` may narrow what one call does; nothing a flow says reaches past this. Every
 * field defaults to refusing — no roots, no programs, no network, no environment, read-only.
 * Whatever the policy does not grant is refused with PERMISSION_DENIED.
 */
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isIP } from 'node:net';
import { StatusCode, StatusError } from '../../wire/status.js';

export interface FlowPolicy {
  /** Directories the filesystem actions may reach (resolved before use). */
  roots: string[];
  /** The whole filesystem, roots or not. Named, so a config that drops its roots refuses everything. */
  unrestricted: boolean;
  /** Whether the writing actions may write (inside the roots). */
  writable: boolean;
  /** Largest file `read_file` reads, or 0 for no limit. */
  maxReadBytes: number;
  /** Most one `write_file` writes, or 0 for no limit. */
  maxWriteBytes: number;
  /** Most entries one `list_directory` reports, or 0 for no limit. */
  maxEntries: number;
  /** Whether `spawn_process` may run programs, and which (any when `anyProgram`). */
  processes: { enabled: boolean; anyProgram: boolean; programs: string[]; inheritEnvironment: boolean };
  /** Whether the network actions may connect, where, and to local addresses. */
  network: { enabled: boolean; anyHost: boolean; hosts: string[]; allowLoopback: boolean; allowPrivate: boolean; allowLinkLocal: boolean };
  /** Environment variables `env_get` may read. */
  environment: { names: string[]; anyName: boolean };
  /** A bound on every action the library runs, in milliseconds (besides any `x-a11-deadline`). */
  timeoutMs?: number;
}

/** Reads under `roots` and does nothing else: the default a command line starts from. */
export function readOnlyPolicy(roots: string[]): FlowPolicy {
  return {
    roots,
    unrestricted: false,
    writable: false,
    maxReadBytes: 256 * 1024 * 1024,
    maxWriteBytes: 0,
    maxEntries: 1_000_000,
    processes: { enabled: false, anyProgram: false, programs: [], inheritEnvironment: false },
    network: { enabled: false, anyHost: false, hosts: [], allowLoopback: false, allowPrivate: false, allowLinkLocal: false },
    environment: { names: [], anyName: false },
  };
}

function denied(message: string): StatusError {
  return new StatusError(StatusCode.PERMISSION_DENIED, message);
}

/** The path with symlinks resolved across the part of it that exists (a path being written need not). */
function weaklyCanonical(path: string): string {
  const absolute = resolve(path);
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(existing);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return absolute;
      rest.push(basename(existing));
      existing = parent;
    }
  }
}

function within(path: string, root: string): boolean {
  const between = relative(root, path);
  return between === '' || (!between.startsWith('..') && !isAbsolute(between) && !between.startsWith(`..${sep}`));
}

/**
 * Resolves a path — absolute, `..` and symlinks resolved — and only then checks it against the
 * roots, so neither `/srv/data/../../etc` nor a symlink out of a root gets through.
 */
export function resolvePath(policy: FlowPolicy, path: string, forWrite: boolean): string {
  if (!path) throw new StatusError(StatusCode.INVALID_ARGUMENT, 'a path is required');
  if (forWrite && !policy.writable) {
    throw denied('this host registered the filesystem actions read-only; run with --allow-write to let a flow write');
  }
  const resolved = weaklyCanonical(path);
  if (policy.unrestricted) return resolved;
  if (policy.roots.length === 0) throw denied('this host registered the filesystem actions with no readable roots');
  for (const root of policy.roots) {
    let canonicalRoot: string;
    try {
      canonicalRoot = realpathSync(resolve(root));
      if (!statSync(canonicalRoot).isDirectory()) continue;
    } catch {
      continue;
    }
    if (within(resolved, canonicalRoot)) return resolved;
  }
  throw denied(`'${path}' is outside every allowed root (${policy.roots.join(', ')})`);
}

/** Whether `program` may be run, and as what. */
export function resolveProgram(policy: FlowPolicy, program: string): string {
  if (!program) throw new StatusError(StatusCode.INVALID_ARGUMENT, 'a program is required');
  const processes = policy.processes;
  if (!processes.enabled) throw denied('this host does not let flows run programs; run with --allow-run to allow it');
  if (processes.anyProgram) return program;
  for (const allowed of processes.programs) {
    // Either spelling matches — `/bin/ls` accepts `ls` and the reverse — and nothing looser.
    if (allowed === program || basename(allowed) === basename(program)) return allowed;
  }
  throw denied(`'${program}' is not one of the programs this host allows (${processes.programs.join(', ')})`);
}

export function checkEnvironment(policy: FlowPolicy, name: string): void {
  if (policy.environment.anyName || policy.environment.names.includes(name)) return;
  throw denied(`'${name}' is not one of the environment variables this host exposes; run with --allow-env ${name} to expose it`);
}

function hostMatches(host: string, pattern: string): boolean {
  if (pattern === '*') return true;
  const hostLabels = host.split('.');
  const patternLabels = pattern.split('.');
  return (
    hostLabels.length === patternLabels.length &&
    patternLabels.every((label, index) => label === '*' || label.toLowerCase() === hostLabels[index]!.toLowerCase())
  );
}

/** Whether an address (or a host as written) is one the policy refuses for being local. */
export function checkAddress(policy: FlowPolicy, address: string): void {
  const network = policy.network;
  const refuse = (kind: string) =>
    denied(
      `'${address}' is ${kind}, which this host did not allow. A flow that can reach these can reach services ` +
        `that trust the network they are on.`,
    );
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  if (isIP(bare) === 4) {
    const [a, b] = bare.split('.').map(Number) as [number, number];
    if (a === 127 && !network.allowLoopback) throw refuse('a loopback address');
    if (a === 169 && b === 254 && !network.allowLinkLocal) throw refuse('a link-local address');
    if (!network.allowPrivate && (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168))) {
      throw refuse('a private address');
    }
    if (a === 0 && !network.allowLoopback) throw refuse('an unspecified address');
    return;
  }
  if (bare === 'localhost' && !network.allowLoopback) throw refuse('a loopback name');
  if ((bare === '::1' || bare === '::' || bare.startsWith('::ffff:127.')) && !network.allowLoopback) throw refuse('a loopback address');
  if (bare.startsWith('fe80:') && !network.allowLinkLocal) throw refuse('a link-local address');
  if ((bare.startsWith('fc') || bare.startsWith('fd')) && bare.includes(':') && !network.allowPrivate) throw refuse('a private address');
}

/** Whether `host` may be connected to (its addresses are checked again once resolved). */
export function checkHost(policy: FlowPolicy, host: string): void {
  if (!host) throw new StatusError(StatusCode.INVALID_ARGUMENT, 'a host is required');
  const network = policy.network;
  if (!network.enabled) throw denied('this host does not let flows reach the network; run with --allow-net to allow it');
  if (!network.anyHost && !network.hosts.some((pattern) => hostMatches(host, pattern))) {
    throw denied(`'${host}' is not one of the hosts this host allows (${network.hosts.join(', ')})`);
  }
  checkAddress(policy, host);
}

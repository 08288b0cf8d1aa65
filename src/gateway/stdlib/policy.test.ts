import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StatusCode, StatusError } from '../../wire/status.js';
import { checkAddress, checkEnvironment, checkHost, readOnlyPolicy, resolvePath, resolveProgram, type FlowPolicy } from './policy.js';

const base = mkdtempSync(join(tmpdir(), 'flowplay-policy-'));
const root = join(base, 'root');
const outside = join(base, 'outside');
mkdirSync(root);
mkdirSync(outside);
writeFileSync(join(outside, 'secret'), 'no');
symlinkSync(outside, join(root, 'escape'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function refusal(action: () => unknown): { code: number; message: string } {
  try {
    action();
  } catch (error) {
    if (error instanceof StatusError) return { code: error.status.code, message: error.status.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

function policy(changes: Partial<FlowPolicy> = {}): FlowPolicy {
  return { ...readOnlyPolicy([root]), ...changes };
}

describe('paths', () => {
  it('resolves paths inside a root, written or not', () => {
    expect(resolvePath(policy(), join(root, 'a', '..', 'b.txt'), false)).toBe(join(root, 'b.txt'));
    expect(resolvePath(policy({ writable: true }), join(root, 'new', 'deeper'), true)).toBe(join(root, 'new', 'deeper'));
  });

  it('refuses paths that leave the roots by .. or by a symlink', () => {
    for (const path of [join(root, '..', 'outside', 'secret'), join(root, 'escape', 'secret'), '/etc/hostname']) {
      const refused = refusal(() => resolvePath(policy(), path, false));
      expect(refused.code).toBe(StatusCode.PERMISSION_DENIED);
      expect(refused.message).toContain('outside every allowed root');
    }
  });

  it('refuses every write on a read-only policy, naming the flag', () => {
    const refused = refusal(() => resolvePath(policy(), join(root, 'x'), true));
    expect(refused.code).toBe(StatusCode.PERMISSION_DENIED);
    expect(refused.message).toContain('--allow-write');
  });

  it('refuses everything when there are no roots, and nothing when unrestricted', () => {
    expect(refusal(() => resolvePath(policy({ roots: [] }), root, false)).code).toBe(StatusCode.PERMISSION_DENIED);
    expect(resolvePath(policy({ roots: [], unrestricted: true }), join(outside, 'secret'), false)).toBe(join(outside, 'secret'));
  });

  it('says a path is required', () => {
    expect(refusal(() => resolvePath(policy(), '', false)).code).toBe(StatusCode.INVALID_ARGUMENT);
  });
});

describe('programs, variables and hosts', () => {
  it('runs programs only when allowed, and only those listed', () => {
    expect(refusal(() => resolveProgram(policy(), 'ls')).message).toContain('--allow-run');
    const some = policy({ processes: { enabled: true, anyProgram: false, programs: ['/bin/ls'], inheritEnvironment: false } });
    expect(resolveProgram(some, 'ls')).toBe('/bin/ls');
    expect(refusal(() => resolveProgram(some, 'rm')).code).toBe(StatusCode.PERMISSION_DENIED);
  });

  it('exposes only the named environment variables', () => {
    expect(refusal(() => checkEnvironment(policy(), 'HOME')).message).toContain('--allow-env HOME');
    expect(() => checkEnvironment(policy({ environment: { names: ['HOME'], anyName: false } }), 'HOME')).not.toThrow();
  });

  it('refuses the network unless allowed, and local addresses unless those are too', () => {
    expect(refusal(() => checkHost(policy(), 'example.com')).message).toContain('--allow-net');
    const net = policy({ network: { enabled: true, anyHost: true, hosts: [], allowLoopback: false, allowPrivate: false, allowLinkLocal: false } });
    expect(() => checkHost(net, 'example.com')).not.toThrow();
    for (const address of ['127.0.0.1', 'localhost', '::1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.1.1', 'fe80::1', 'fd00::1', '[::1]']) {
      expect(refusal(() => checkAddress(net, address)).code, address).toBe(StatusCode.PERMISSION_DENIED);
    }
    expect(() => checkAddress(net, '93.184.216.34')).not.toThrow();
    const local = policy({ network: { enabled: true, anyHost: true, hosts: [], allowLoopback: true, allowPrivate: true, allowLinkLocal: true } });
    expect(() => checkAddress(local, '127.0.0.1')).not.toThrow();
  });

  it('matches host patterns label by label', () => {
    const some = policy({ network: { enabled: true, anyHost: false, hosts: ['*.example.com'], allowLoopback: false, allowPrivate: false, allowLinkLocal: false } });
    expect(() => checkHost(some, 'api.example.com')).not.toThrow();
    expect(refusal(() => checkHost(some, 'example.com')).code).toBe(StatusCode.PERMISSION_DENIED);
    expect(refusal(() => checkHost(some, 'a.b.example.com')).code).toBe(StatusCode.PERMISSION_DENIED);
  });
});

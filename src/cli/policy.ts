/**
 * What the standard library may do for a flow, as `flowplay run` and `flowplay serve` both take it
 * on the command line: the flags, and the `FlowPolicy` they grant. Decided by whoever starts the
 * command, never widened from inside a flow.
 */
import { readOnlyPolicy, type FlowPolicy } from '../gateway/stdlib/index.js';
import type { Command, ParsedArgs } from './command.js';

export function list(value: ParsedArgs['values'][string]): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

export const policyOptions: Command['options'] = {
  root: { type: 'string', multiple: true },
  'allow-write': { type: 'boolean' },
  'allow-run': { type: 'boolean' },
  'allow-net': { type: 'boolean' },
  'allow-local-net': { type: 'boolean' },
  'allow-env': { type: 'string', multiple: true },
  unrestricted: { type: 'boolean' },
};

/** The policy the flags grant; with no `--root` (and not `--unrestricted`) it reads the working directory. */
export function policyFrom(values: ParsedArgs['values']): FlowPolicy {
  const roots = list(values.root);
  const unrestricted = values.unrestricted === true;
  const policy = readOnlyPolicy(roots.length || unrestricted ? roots : ['.']);
  policy.unrestricted = unrestricted;
  policy.writable = values['allow-write'] === true;
  const run = values['allow-run'] === true;
  policy.processes = { enabled: run, anyProgram: run, programs: [], inheritEnvironment: run };
  const local = values['allow-local-net'] === true;
  const net = values['allow-net'] === true || local;
  policy.network = { enabled: net, anyHost: net, hosts: [], allowLoopback: local, allowPrivate: local, allowLinkLocal: local };
  policy.environment = { names: list(values['allow-env']), anyName: false };
  return policy;
}

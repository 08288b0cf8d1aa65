/**
 * `env_get`, `random_bytes`, `new_uuid`: what a flow cannot compute for itself — the environment
 * (only the names the host exposes, and only by name) and nondeterminism, kept where it is visible
 * in the source and refusable by policy.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ActionHandler } from '../../wire/action.js';
import { defineAction } from '../../wire/schema.js';
import { StatusCode, StatusError } from '../../wire/status.js';
import { base64Encode } from '../../flow/runtime/values/base64.js';
import { checkEnvironment, type FlowPolicy } from './policy.js';
import { Outputs, readOptions, readValue } from './ports.js';
import { DEADLINE_HEADERS, JSON_TYPE, OCTET_STREAM, OMIT_HELP, type Registration } from './shared.js';

export const envGetSchema = defineAction({
  name: 'env_get',
  description:
    'Read named environment variables, and only the ones this host allows. There is deliberately no way to ask for ' +
    'the whole environment: a composition that names what it wants is one a reader can audit.',
  inputs: {
    names: { type: JSON_TYPE, required: true, description: 'The variable names to read, as a string or a list of strings.' },
    options: { type: JSON_TYPE, description: `Optional: ${OMIT_HELP}` },
  },
  outputs: {
    values: { type: JSON_TYPE, description: 'An object of the names that were set to their values.' },
    missing: {
      type: JSON_TYPE,
      description: 'The names that were not set at all -- which is a different thing from being set to an empty string.',
    },
  },
  headers: DEADLINE_HEADERS('The call fails once it is reached.'),
});

export const randomBytesSchema = defineAction({
  name: 'random_bytes',
  description:
    "Draw bytes from the system's random source. Flow has no random number generator -- a composition whose output " +
    'depends only on its input is one whose failures reproduce -- so nondeterminism lives here, where it is visible ' +
    'in the source. These bytes are fit for a token or a nonce, which the ones new_uuid uses are not.',
  inputs: {
    options: {
      type: JSON_TYPE,
      description:
        'Optional: count (32 bytes) and format (hex, base64, base64url or raw -- raw writes only `bytes`). Named ' +
        '`format` because `encoding` already means json-or-msgpack on every action here.',
    },
  },
  outputs: {
    bytes: { type: OCTET_STREAM, stream: true, description: 'The bytes themselves.' },
    text: { type: 'string', description: 'The bytes in the requested format, or nothing when raw.' },
  },
  headers: DEADLINE_HEADERS('The call fails once it is reached.'),
});

export const newUuidSchema = defineAction({
  name: 'new_uuid',
  description: "Make identifiers -- unique but not unguessable. Use random_bytes where the value has to be a secret.",
  inputs: { options: { type: JSON_TYPE, description: 'Optional: count (1).' } },
  outputs: { ids: { type: 'string', stream: true, description: 'The identifiers, one per value.' } },
  headers: DEADLINE_HEADERS('The call fails once it is reached.'),
});

function envGet(policy: FlowPolicy, environment: Readonly<Record<string, string | undefined>>): ActionHandler {
  return async (context) => {
    const rawNames = await readValue(context, 'names');
    const options = await readOptions(context);
    const outputs = Outputs.open(context, options);
    let names: string[];
    if (typeof rawNames === 'string') names = [rawNames];
    else if (Array.isArray(rawNames)) {
      if (!rawNames.every((name) => typeof name === 'string')) {
        throw new StatusError(StatusCode.INVALID_ARGUMENT, 'names must be a string or a list of strings');
      }
      names = rawNames as string[];
    } else {
      throw new StatusError(StatusCode.INVALID_ARGUMENT, 'env_get needs the names to read; there is no way to ask for the whole environment');
    }
    const values: Record<string, string> = {};
    const missing: string[] = [];
    for (const name of names) {
      checkEnvironment(policy, name);
      const value = Object.hasOwn(environment, name) ? environment[name] : undefined;
      if (value === undefined) missing.push(name);
      else values[name] = value;
    }
    await outputs.only('values', values);
    await outputs.only('missing', missing);
    outputs.finish();
  };
}

const randomHandler: ActionHandler = async (context) => {
  const options = await readOptions(context);
  const count = options.intInRange('count', 32, 1, 1024 * 1024);
  const format = options.oneOf('format', 'hex', ['hex', 'base64', 'base64url', 'raw']);
  const outputs = Outputs.open(context, options);
  const drawn = new Uint8Array(randomBytes(count));
  await outputs.bytes('bytes', drawn, true);
  outputs.close('bytes');
  if (format === 'raw') await outputs.only('text', null);
  else if (format === 'hex') await outputs.only('text', [...drawn].map((byte) => byte.toString(16).padStart(2, '0')).join(''));
  else await outputs.only('text', base64Encode(drawn, format === 'base64url'));
  outputs.finish();
};

const uuidHandler: ActionHandler = async (context) => {
  const options = await readOptions(context);
  const count = options.intInRange('count', 1, 1, 100_000);
  const outputs = Outputs.open(context, options);
  for (let index = 0; index < count; index++) await outputs.text('ids', randomUUID(), index + 1 === count);
  outputs.finish();
};

export function systemActions(policy: FlowPolicy, environment: Readonly<Record<string, string | undefined>>): Registration[] {
  return [
    { schema: envGetSchema, handler: envGet(policy, environment) },
    { schema: randomBytesSchema, handler: randomHandler },
    { schema: newUuidSchema, handler: uuidHandler },
  ];
}

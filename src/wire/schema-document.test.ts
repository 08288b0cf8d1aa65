import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REFERENCE_DIR, REFERENCE_MISSING, referencePath } from '../../test/support/reference.js';
import { discoverableActions } from './builtins.js';
import { answerDiscovery } from './discovery-http.js';
import { ActionRegistry } from './registry.js';
import { defineAction, port } from './schema.js';
import {
  describeActions,
  parseSchemaQueryString,
  parseSchemaRequest,
  registryEntries,
  schemaEntry,
  schemaFromEntry,
  documentEntries,
} from './schema-document.js';

/** shell_execute as the reference declares it, registered for its schema alone. */
const shellExecute = defineAction({
  name: 'shell_execute',
  description: 'Run a shell command.',
  inputs: {
    command: port.text({ required: true, description: 'The command to run.' }),
    parameters: port.json(z.record(z.string(), z.unknown()), { jsonSchema: { type: 'object' } }),
  },
  outputs: {
    output_lines: port.text({ stream: true }),
    status: port.json(undefined, { jsonSchema: { type: 'object' } }),
  },
  outputToJsonField: { status: '$' },
});

const file = REFERENCE_DIR ? referencePath('testdata/actions__schema_document.json') : null;
const fixture = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : null;

describe.skipIf(!fixture)(`the a11.actions/v1 document matches actions__schema_document.json${fixture ? '' : ` (skipped: ${REFERENCE_MISSING})`}`, () => {
  const registry = new ActionRegistry().register(shellExecute);

  it('writes the callable view byte for byte (sorted keys, explicit unary, runnable)', () => {
    expect(JSON.stringify(describeActions(registryEntries(registry)))).toBe(JSON.stringify(fixture!.callable));
  });

  it('writes the all-ports view byte for byte', () => {
    expect(JSON.stringify(describeActions(registryEntries(registry), { ...parseSchemaRequest(''), ports: 'all' }))).toBe(JSON.stringify(fixture!.all_ports));
  });

  it('reads the document back into the same schema', () => {
    const [entry] = documentEntries(fixture!.callable);
    const schema = schemaFromEntry(entry!);
    expect(JSON.stringify(schemaEntry(schema, false))).toBe(JSON.stringify(entry));
  });
});

describe('schema documents', () => {
  const autofilled = defineAction({
    name: 'with_autofill',
    description: '',
    inputs: { visible: port.text(), hidden: port.text({ autofill: true }) },
    outputs: {},
    headers: { 'X-A11-Shell-Id': { description: 'Which shell.', default: 'main' } },
  });

  it('hides autofilled inputs from callers and flags them for inspectors; headers keep their defaults', () => {
    const callable = schemaEntry(autofilled, true, 'callable');
    expect(callable.inputs!.map((p) => p.name)).toEqual(['visible']);
    const all = schemaEntry(autofilled, true, 'all');
    expect(all.inputs!.find((p) => p.name === 'hidden')).toMatchObject({ autofilled: true });
    expect(all.headers).toEqual([{ default: 'main', description: 'Which shell.', has_default: true, name: 'x-a11-shell-id' }]);
  });

  it('parses requests: objects, bare arrays, nothing; refuses other shapes and bad patterns', () => {
    expect(parseSchemaRequest('')).toMatchObject({ names: [], ports: 'callable' });
    expect(parseSchemaRequest('null')).toMatchObject({ names: [] });
    expect(parseSchemaRequest('["a.*"]')).toMatchObject({ names: ['a.*'] });
    expect(parseSchemaRequest('{"names":"x","exact":["y"],"ports":"all","include_reserved":true,"runnable_only":true}')).toEqual({
      names: ['x'],
      exact: ['y'],
      ports: 'all',
      includeReserved: true,
      runnableOnly: true,
    });
    expect(() => parseSchemaRequest('42')).toThrow(/object .* array of name patterns/);
    expect(() => parseSchemaRequest('{"names":["("]}')).toThrow(/'\(' is not a valid name pattern/);
    expect(() => parseSchemaRequest('{nope')).toThrow(/not JSON/);
    expect(parseSchemaQueryString('?name=shell_.*&name=flow_run&exact=__ping&ports=all&reserved=1&runnable=0')).toEqual({
      names: ['shell_.*', 'flow_run'],
      exact: ['__ping'],
      ports: 'all',
      includeReserved: true,
      runnableOnly: false,
    });
  });

  it('matches names in full, and lists reserved names only when asked or named', () => {
    const registry = new ActionRegistry().register(shellExecute).register(autofilled, async () => {});
    const names = (query: string) => describeActions(discoverableActions(registry), parseSchemaQueryString(query)).actions.map((a) => a.name);
    expect(names('')).toEqual(['shell_execute', 'with_autofill']);
    expect(names('name=shell')).toEqual([]);
    expect(names('name=shell.*')).toEqual(['shell_execute']);
    expect(names('runnable=1')).toEqual(['with_autofill']);
    expect(names('reserved=1')).toEqual(['__get_schema__', '__list_actions__', '__ping', 'shell_execute', 'with_autofill']);
    expect(names('exact=__ping')).toEqual(['__ping']);
  });
});

describe('GET /actions', () => {
  const registry = new ActionRegistry().register(shellExecute);

  it('answers the collection and one action, with CORS', () => {
    const list = answerDiscovery('GET', '/actions?name=shell_.*', registry)!;
    expect(list.status).toBe(200);
    expect(list.headers).toMatchObject({ 'access-control-allow-origin': '*', 'content-type': 'application/json; charset=utf-8' });
    expect(JSON.parse(list.body).actions.map((a: { name: string }) => a.name)).toEqual(['shell_execute']);
    const one = answerDiscovery('GET', 'http://host/actions/shell_execute', registry)!;
    expect(JSON.parse(one.body)).toMatchObject({ format: 'a11.actions/v1', actions: [{ name: 'shell_execute', runnable: false }] });
    expect(answerDiscovery('GET', '/actions/', registry)!.status).toBe(200);
    expect(JSON.parse(answerDiscovery('GET', '/actions/__ping', registry)!.body).actions[0].name).toBe('__ping');
  });

  it('maps failures to HTTP statuses with the reason as text', () => {
    expect(answerDiscovery('GET', '/actions/nope', registry)).toMatchObject({ status: 404, body: "Action 'nope' is not registered" });
    expect(answerDiscovery('GET', '/actions?name=(', registry)).toMatchObject({ status: 400, body: expect.stringMatching(/not a valid name pattern/) });
    expect(answerDiscovery('POST', '/actions', registry)).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD' } });
    expect(answerDiscovery('OPTIONS', '/actions', registry)).toMatchObject({ status: 204 });
    expect(answerDiscovery('HEAD', '/actions', registry)).toMatchObject({ status: 200, body: '' });
    expect(answerDiscovery('GET', '/elsewhere', registry)).toBeUndefined();
    expect(answerDiscovery('GET', '/actionsfoo', registry)).toBeUndefined();
  });
});

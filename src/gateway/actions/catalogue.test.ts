import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFERENCE_DIR, REFERENCE_MISSING, referencePath } from '../../../test/support/reference.js';
import { ActionRegistry } from '../../wire/registry.js';
import type { ActionSchema, PortSchema } from '../../wire/schema.js';
import { GLOBAL_SCOPE } from '../scope.js';
import { AlsaMicrophone } from './audio/microphone.js';
import { PocketsphinxBackend } from './audio/pocketsphinx.js';
import { ConversationStore } from './conversations/store.js';
import { registerGatewayActions } from './index.js';
import { registerFlowTools } from '../flow-tools/index.js';
import { runFlowWithRuntime } from '../flow-tools/run.js';
import { ShellManager } from './shell/shell-manager.js';

interface CataloguePort {
  name: string;
  type: string;
  unary?: boolean;
  required?: boolean;
  description?: string;
}
interface CatalogueAction {
  name: string;
  description?: string;
  inputs?: CataloguePort[];
  outputs?: CataloguePort[];
  headers?: { name: string; description?: string }[];
}

/** Headers whose description here says more than the reference's (our provider list is longer). */
const REWORDED_HEADERS = new Set(['interact_with_llm x-a11-llm-provider', 'interact_with_llm x-a11-llm-api-key']);

function shape(port: PortSchema | CataloguePort, withDescription: boolean) {
  return {
    name: port.name,
    type: port.type,
    // The catalogue writes `unary: false` for a stream and leaves it out for a single value.
    unary: port.unary !== false,
    required: port.required === true,
    ...(withDescription && port.description ? { description: port.description } : {}),
  };
}

describe.skipIf(!REFERENCE_DIR)(`the gateway's actions against the reference catalogue${REFERENCE_DIR ? '' : ` (${REFERENCE_MISSING})`}`, () => {
  const catalogue = REFERENCE_DIR
    ? (JSON.parse(readFileSync(referencePath('testdata', 'flow__catalogue.json'), 'utf8')) as { actions: CatalogueAction[] })
    : { actions: [] };
  const registry = registerGatewayActions(new ActionRegistry(), {
    shellTools: true,
    audio: true,
    shells: new ShellManager(),
    scope: GLOBAL_SCOPE,
    speech: new PocketsphinxBackend(),
    microphone: new AlsaMicrophone(),
    conversations: new ConversationStore(':memory:'),
    env: {},
  });
  registerFlowTools(registry, runFlowWithRuntime);
  const ours = (name: string): ActionSchema => registry.require(name).schema;

  const served = catalogue.actions.filter((action) => registry.has(action.name));

  it('serves every action of the reference gateway that is not a standard-library action', () => {
    expect(served.map((action) => action.name).sort()).toEqual(
      [
        'capture_audio',
        'capture_transcription',
        'flow_actions',
        'flow_check',
        'flow_run',
        'interact_with_llm',
        'list_audio_inputs',
        'shell_execute',
        'shell_exit',
        'shell_list',
        'shell_start',
        'transcribe_audio',
      ].sort(),
    );
  });

  it.each(served.map((action) => [action.name, action] as const))('%s has the reference ports, types and descriptions', (name, reference) => {
    const schema = ours(name);
    if (reference.description) expect(schema.description).toBe(reference.description);
    for (const direction of ['inputs', 'outputs'] as const) {
      const expected = (reference[direction] ?? []).map((port) => {
        const described = port.description !== undefined;
        return shape(port, described);
      });
      const actual = (reference[direction] ?? []).map((port) => {
        const mine = schema[direction].find((candidate) => candidate.name === port.name);
        expect(mine, `${name} ${direction} ${port.name}`).toBeDefined();
        return shape(mine!, port.description !== undefined);
      });
      expect(actual).toEqual(expected);
      expect(schema[direction].map((port) => port.name).sort()).toEqual(expected.map((port) => port.name).sort());
    }
    for (const header of reference.headers ?? []) {
      const mine = schema.headers.find((candidate) => candidate.name === header.name);
      expect(mine, `${name} header ${header.name}`).toBeDefined();
      if (!REWORDED_HEADERS.has(`${name} ${header.name}`)) expect(mine!.description).toBe(header.description);
    }
  });
});

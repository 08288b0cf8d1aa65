import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFERENCE_DIR, REFERENCE_MISSING, referencePath } from '../../test/support/reference.js';
import { PresentationReducer, portableBlock, presentConversation, type InteractionView, type PresentationBlock } from './presentation.js';
import { Status, StatusCode } from './status.js';

interface Golden {
  cases: { name: string; interactions: string[]; blocks: Record<string, unknown>[] }[];
}
const file = REFERENCE_DIR ? referencePath('testdata/presentation_events.json') : null;
const golden = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Golden) : null;

describe.skipIf(!golden)(`conversations are drawn as presentation_events.json says${golden ? '' : ` (skipped: ${REFERENCE_MISSING})`}`, () => {
  it.each(golden?.cases ?? [])('$name', (testCase) => {
    const interactions = testCase.interactions.map((text) => JSON.parse(text) as InteractionView);
    expect(presentConversation(interactions).map(portableBlock)).toEqual(testCase.blocks);
  });

  it('gives the same blocks when the stored turns are fed to the live reducer', () => {
    for (const testCase of golden!.cases) {
      const interactions = testCase.interactions.map((text) => JSON.parse(text) as InteractionView);
      const reducer = new PresentationReducer();
      for (const interaction of interactions) reducer.interaction(interaction);
      reducer.end();
      expect(reducer.blocks.map(portableBlock)).toEqual(testCase.blocks);
    }
  });
});

describe('a live turn', () => {
  const base64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
  const said = (text: string) => ({ data: base64({ role: 'model', content: [{ type: 'text', text }] }), metadata: { mimetype: 'application/json' } });

  it('grows one block per run of deltas, thoughts apart from text, and closes them', () => {
    const events: string[] = [];
    const reducer = new PresentationReducer({
      opened: (block) => events.push(`open ${block.kind}`),
      appended: (_block, delta) => events.push(`+${delta}`),
      closed: (block) => events.push(`close ${block.kind}`),
    });
    reducer.thought('hmm');
    reducer.text('Hel');
    reducer.text('lo');
    expect(reducer.blocks.at(-1)).toMatchObject({ kind: 'text', text: 'Hello', partial: true });
    reducer.end();
    expect(reducer.blocks.map((block: PresentationBlock) => [block.kind, block.text, block.partial])).toEqual([
      ['thought', 'hmm', false],
      ['text', 'Hello', false],
    ]);
    expect(events).toEqual(['open thought', '+hmm', 'close thought', 'open text', '+Hel', '+lo', 'close text']);
  });

  it('does not repeat streamed text when the interaction lands, but adds its tool runs and the log that follows', () => {
    const reducer = new PresentationReducer();
    reducer.text('Checking.');
    reducer.interaction({ id: 'i1', role: 'model', content: [said('Checking.')], action_calls: [{ id: 'call-9', name: 'shell_execute' }] });
    reducer.interaction({ id: 'i2', role: 'user', content: [], action_outputs: { 'call-9': [] }, backend_specific_metadata: { tool_logs: base64({ 'call-9': '$ ls' }) } });
    reducer.error(new Status(StatusCode.UNAVAILABLE, 'model went away'));
    expect(reducer.blocks.map(portableBlock)).toEqual([
      { kind: 'text', role: 'model', text: 'Checking.' },
      { kind: 'tool_run', role: 'model', text: '$ ls', id: 'call-9', tool_name: 'shell_execute' },
      { kind: 'error', role: 'model', text: '', status_code: 'UNAVAILABLE' },
    ]);
  });

  it('reads every content shape, and skips chunks it cannot decode', () => {
    const blocks = presentConversation([
      {
        role: 'user',
        content: [
          { data: Buffer.from('plain ').toString('base64'), metadata: { mimetype: 'text/plain' } },
          { data: base64({ text: 'object ' }), metadata: { mimetype: 'application/json' } },
          { data: base64({ content: 'string content' }), metadata: { mimetype: 'application/json' } },
          { data: Buffer.from('{broken').toString('base64'), metadata: { mimetype: 'application/json' } },
          { data: 'not base64!!', metadata: { mimetype: 'application/json' } },
        ],
      },
    ]);
    expect(blocks.map((block) => block.text)).toEqual(['plain object string content']);
  });
});

import { CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { readComposableActions } from '../gateway/composable';
import { flowCompletions } from './complete';

const actions = readComposableActions([
  {
    action: 'shell_execute',
    description: 'Run a shell command.',
    runnable: true,
    inputs: [
      { port: 'command', type: 'text/plain', required: true, description: 'The command to run.' },
      { port: 'parameters', type: 'application/json' },
    ],
    outputs: [{ port: 'output_lines', type: 'text/plain', stream: true }],
  },
  {
    action: 'capture_audio',
    description: 'Record.',
    runnable: false,
    inputs: [{ port: 'options', type: 'application/json;type=a11.sdk.AudioInputOptions', required: true }],
    outputs: [{ port: 'audio', type: 'application/x-msgpack;type=a11.sdk.AudioBuffer', stream: true }],
  },
]);

const source = `flow count {
  in  text: string required "Words to count."
  out total: integer
  sh = run shell_execute(command: "wc -w")
  helper = run shout(word: text)
  CURSOR
}

flow shout {
  in  word: string required
  out loud: string
  upper(word) -> loud
}
`;

function complete(text: string, explicit = false): CompletionResult | null {
  const at = source.indexOf('CURSOR');
  const doc = source.slice(0, at) + text + source.slice(at + 'CURSOR'.length);
  const state = EditorState.create({ doc });
  return flowCompletions({ actions: () => actions })(new CompletionContext(state, at + text.length, explicit)) as CompletionResult | null;
}

const labels = (result: CompletionResult | null) => result?.options.map((option) => option.label) ?? [];

describe('Flow completion', () => {
  it('offers an action’s ports after `step.`, outputs first', () => {
    const result = complete('sh.');
    expect(labels(result)).toEqual(['output_lines', 'command', 'parameters']);
    expect(result!.options[0]!.detail).toBe('output · text/plain stream');
    expect(result!.options[1]!.info).toBe('The command to run.');
  });

  it('offers a sibling flow’s ports too', () => {
    expect(labels(complete('helper.lo'))).toEqual(['loud', 'word']);
    expect(complete('helper.lo')!.from).toBe(source.indexOf('CURSOR') + 'helper.'.length);
  });

  it('offers the gateway’s actions and the file’s flows after run/call', () => {
    expect(labels(complete('x = call '))).toEqual(['count', 'shout', 'capture_audio', 'shell_execute']);
    expect(complete('x = call ')!.options.find((option) => option.label === 'capture_audio')!.detail).toBe('call');
  });

  it('offers the input ports not yet given inside action(', () => {
    const result = complete('y = run shell_execute(command: "ls", ');
    expect(labels(result)).toEqual(['parameters']);
    expect(result!.options[0]!.apply).toBe('parameters: ');
  });

  it('offers the 33 stages after a pipe, and types after a port colon', () => {
    expect(labels(complete('text | '))).toHaveLength(33);
    expect(labels(complete('text | ')).slice(0, 3)).toEqual(['first', 'last', 'drop']);
    expect(labels(complete('in audio: a11.'))).toContain('a11.sdk.AudioBuffer');
    expect(labels(complete('in n: '))).toContain('integer');
  });

  it('offers names in scope, builtins and keywords where a value goes', () => {
    const expression = labels(complete('"x" + te'));
    expect(expression).toEqual(expect.arrayContaining(['text', 'total', 'sh', 'helper', 'len', 'starts-with', 'true']));
    const statement = labels(complete('sk'));
    expect(statement).toEqual(expect.arrayContaining(['skip', 'for', 'sh']));
    expect(complete('', false)).toBeNull();
    expect(complete('# sh.')).toBeNull();
  });
});

import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { flow } from '../../../grammar/language';
import { readComposableActions } from '../gateway/composable';
import { hoverDocAt } from './hover';

const actions = readComposableActions([
  {
    action: 'shell_execute',
    description: 'Run a shell command.',
    runnable: true,
    inputs: [{ port: 'command', type: 'text/plain', required: true, description: 'The command to run.' }],
    outputs: [{ port: 'output_lines', type: 'text/plain', stream: true, description: 'Each line.' }],
  },
]);

const source = `flow a {
  in  q: string required "The question."
  out lines: string stream
  sh = run shell_execute(command: q) timeout 3s
  sh.output_lines | where len(it) > 0 | first 1 -> lines
}
`;

function hover(word: string, occurrence = 0): ReturnType<typeof hoverDocAt> {
  const state = EditorState.create({ doc: source, extensions: [flow()] });
  const at = [...source.matchAll(new RegExp(`\\b${word}\\b`, 'g'))][occurrence]!.index;
  return hoverDocAt(state, at, 1, { actions: () => actions });
}

describe('Flow hover', () => {
  it('documents actions with their ports, and ports with their types', () => {
    expect(hover('shell_execute')?.doc).toMatchObject({ title: 'shell_execute', kind: 'action · run', text: 'Run a shell command.' });
    expect(hover('shell_execute')?.doc.ports?.[1]?.ports[0]?.port).toBe('output_lines');
    expect(hover('output_lines')?.doc).toEqual({ title: 'shell_execute.output_lines', kind: 'output · text/plain stream', text: 'Each line.' });
    expect(hover('command')?.doc).toMatchObject({ title: 'shell_execute.command', kind: 'input · text/plain required' });
  });

  it('documents stages, builtins, keywords and types from the vocabulary', () => {
    expect(hover('where')?.doc).toMatchObject({ title: 'where', kind: 'stage · takes expr' });
    expect(hover('len')?.doc).toMatchObject({ title: 'len(value)', kind: 'builtin' });
    expect(hover('timeout')?.doc).toMatchObject({ title: 'timeout', kind: 'keyword' });
    expect(hover('run')?.doc.kind).toBe('keyword');
    expect(hover('string')?.doc).toMatchObject({ title: 'string', kind: 'type' });
  });

  it('documents names in scope', () => {
    expect(hover('q', 1)?.doc).toEqual({ title: 'q', kind: 'input · in string required', text: 'The question.' });
    expect(hover('sh', 1)?.doc).toMatchObject({ title: 'sh', kind: 'step · run shell_execute', text: 'Run a shell command.' });
  });
});

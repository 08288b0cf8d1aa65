import { EditorState } from '@codemirror/state';
import { ensureSyntaxTree, foldable, getIndentation, syntaxTree } from '@codemirror/language';
import { highlightTree, tagHighlighter, tags } from '@lezer/highlight';
import { describe, expect, test } from 'vitest';
import { parser } from './index';
import { flow } from './language';

/** What each highlighted span of `source` is coloured as, by its text and where it starts. */
function highlighted(source: string): Map<string, string> {
  const classes = tagHighlighter([
    { tag: tags.keyword, class: 'keyword' },
    { tag: tags.controlKeyword, class: 'control' },
    { tag: tags.definitionKeyword, class: 'definition' },
    { tag: tags.variableName, class: 'variable' },
    { tag: tags.function(tags.keyword), class: 'stage' },
    { tag: tags.invalid, class: 'invalid' },
    { tag: tags.string, class: 'string' },
    { tag: tags.docString, class: 'doc' },
    { tag: tags.lineComment, class: 'comment' },
    { tag: tags.unit, class: 'duration' },
    { tag: tags.typeName, class: 'type' },
  ]);
  const found = new Map<string, string>();
  highlightTree(parser.parse(source), classes, (from, to, style) => {
    found.set(source.slice(from, to), style);
    found.set(`${source.slice(from, to)}@${from}`, style);
  });
  return found;
}

describe('highlighting', () => {
  test('a word is coloured by the role it plays where it stands', () => {
    const source = 'flow f {\n  skip x.y\n  skip -> out\n  a | map it | wat -> b\n}\n';
    const words = highlighted(source);
    expect(words.get('flow')).toBe('definition');
    expect(words.get(`skip@${source.indexOf('skip x')}`)).toBe('keyword');
    expect(words.get(`skip@${source.indexOf('skip ->')}`)).toBe('variable');
    expect(words.get('map')).toBe('stage');
    expect(words.get('wat')).toBe('invalid');
    expect(words.get('out')).toBe('variable');
  });

  test('strings, descriptions, comments, durations and types have their own colours', () => {
    const words = highlighted('flow f {\n  in a: string "A port."\n  # note\n  x = run t(a: "v") timeout 5s\n}\n');
    expect(words.get('"A port."')).toBe('doc');
    expect(words.get('"v"')).toBe('string');
    expect(words.get('# note')).toBe('comment');
    expect(words.get('5s')).toBe('duration');
    expect(words.get('string')).toBe('type');
  });
});

describe('the editor language', () => {
  const source = 'flow f {\n  if x {\n    a -> b\n  }\n}\n';
  const state = EditorState.create({ doc: source, extensions: [flow()] });

  test('bodies fold', () => {
    expect(syntaxTree(state).length).toBe(source.length);
    expect(foldable(state, 0, source.indexOf('\n'))).toEqual({ from: source.indexOf('{') + 1, to: source.lastIndexOf('}') });
  });

  test('ten thousand nested brackets do not break the editor', () => {
    for (const open of ['{', '[', '(']) {
      const deep = EditorState.create({ doc: `flow f {\n  x = ${open.repeat(10_000)}\n}\n`, extensions: [flow()] });
      expect(() => ensureSyntaxTree(deep, deep.doc.length, 10_000)).not.toThrow();
    }
  });

  test('a body indents its statements', () => {
    expect(getIndentation(state, source.indexOf('a ->'))).toBe(4);
    expect(getIndentation(state, source.indexOf('  if'))).toBe(2);
  });
});

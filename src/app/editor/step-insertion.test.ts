import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { flow } from '../../../grammar/language';
import { stepInsertion } from './step-insertion';

/** `source` with the cursor at `|`, and the STEP line put where stepInsertion says. */
function insertAtCursor(source: string): string {
  const head = source.indexOf('|');
  const doc = source.slice(0, head) + source.slice(head + 1);
  const state = EditorState.create({ doc, selection: { anchor: head }, extensions: [flow()] });
  const spot = stepInsertion(state);
  return spot.kind === 'blank-line'
    ? doc.slice(0, spot.from) + spot.indent + 'STEP' + doc.slice(spot.to)
    : doc.slice(0, spot.at) + `\n${spot.indent}STEP` + doc.slice(spot.at);
}

const HELLO = `# A comment
flow hello {
  in  name: string required "Who."
  out greeting: string "Hi."
  strformat("Hello, %s!", name) -> greeting
}
`;

describe('where an inserted step goes', () => {
  it('after the statement the cursor is in, at the statements’ indentation', () => {
    expect(insertAtCursor(HELLO.replace('in  name', 'in | name'))).toBe(
      HELLO.replace('"Who."\n', '"Who."\n  STEP\n'),
    );
  });

  it('at the end of the flow when the cursor is on the comment above it or after its closing brace', () => {
    const expected = HELLO.replace('-> greeting\n', '-> greeting\n  STEP\n');
    expect(insertAtCursor(`|${HELLO}`)).toBe(expected);
    expect(insertAtCursor(`${HELLO.trimEnd()}|\n`)).toBe(expected);
    expect(insertAtCursor(`${HELLO}|`)).toBe(expected);
  });

  it('after a statement spread over several lines, not inside its argument list', () => {
    const source = `flow f {
  out lines: string stream
  sh = run shell_execute(
    command: "ls",|
    parameters: {}
  )
  sh.output_lines -> lines
}
`;
    expect(insertAtCursor(source)).toBe(source.replace('|', '').replace('  )\n', '  )\n  STEP\n'));
  });

  it('on the cursor’s blank line inside a body, and inside a nested block at its indentation', () => {
    expect(insertAtCursor(HELLO.replace('"Hi."\n', '"Hi."\n|\n'))).toBe(HELLO.replace('"Hi."\n', '"Hi."\n  STEP\n'));
    const nested = `flow f {
  in  paths: string stream
  out seen: string stream
  nodes reading {
    for path in paths parallel 2 {
      path -> seen|
    }
  }
}
`;
    expect(insertAtCursor(nested)).toBe(nested.replace('|', '').replace('path -> seen\n', 'path -> seen\n      STEP\n'));
  });

  it('on the line of a flow’s opening brace: first in that body', () => {
    expect(insertAtCursor(HELLO.replace('hello {', 'hello {|'))).toBe(HELLO.replace('hello {\n', 'hello {\n  STEP\n'));
    expect(insertAtCursor(HELLO.replace('flow hello', '|flow hello'))).toBe(HELLO.replace('hello {\n', 'hello {\n  STEP\n'));
  });

  it('in the flow before the cursor when there are several, or the one after it', () => {
    const two = `flow a {\n  out x: string\n  "a" -> x\n}\n\nflow b {\n  out y: string\n  "b" -> y\n}\n`;
    expect(insertAtCursor(two.replace('\n\nflow b', '\n|\nflow b'))).toBe(two.replace('"a" -> x\n', '"a" -> x\n  STEP\n'));
    expect(insertAtCursor(`# two flows|\n${two}`)).toBe(`# two flows\n${two.replace('"a" -> x\n', '"a" -> x\n  STEP\n')}`);
  });

  it('where the cursor is when there is no flow at all', () => {
    expect(insertAtCursor('|')).toBe('STEP');
    expect(insertAtCursor('# notes|')).toBe('# notes\nSTEP');
  });
});

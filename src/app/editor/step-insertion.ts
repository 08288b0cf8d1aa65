/**
 * Where a step inserted from the discovery panel goes: a statement only means something inside a
 * flow's body (or a nested block), between whole statements. With the cursor inside a body, the
 * step goes after the statement the cursor is in (not into the middle of a call's argument list
 * spread over several lines); with the cursor outside every flow (on the comment above it, after
 * its closing brace — where the cursor sits when the page opens), it goes at the end of the
 * nearest flow's body.
 */
import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import type { EditorState } from '@codemirror/state';
import type { SyntaxNode } from '@lezer/common';

export type StepInsertion =
  /** Make a new line after the line ending at `at`, indented by `indent`. */
  | { kind: 'after-line'; at: number; indent: string }
  /** The cursor's line is blank: write there, indented by `indent`. */
  | { kind: 'blank-line'; from: number; to: number; indent: string };

const BODIES = new Set(['FlowBody', 'Block']);
const INDENT_STEP = '  ';

function indentOf(state: EditorState, position: number): string {
  return /^\s*/.exec(state.doc.lineAt(position).text)?.[0] ?? '';
}

/** The statements of a body: its children other than the braces and line breaks. */
function statementsOf(body: SyntaxNode): SyntaxNode[] {
  const statements: SyntaxNode[] = [];
  for (let child = body.firstChild; child; child = child.nextSibling) {
    if (child.name !== 'BlockOpen' && child.name !== '}' && child.name !== 'Newline' && !child.type.isError) statements.push(child);
  }
  return statements;
}

function closed(state: EditorState, body: SyntaxNode): boolean {
  return body.lastChild?.name === '}' && state.sliceDoc(body.to - 1, body.to) === '}';
}

/** The indentation of a body's statements: its first statement's, or one step in from its opening line. */
function bodyIndent(state: EditorState, body: SyntaxNode): string {
  const first = statementsOf(body)[0];
  return first ? indentOf(state, first.from) : indentOf(state, body.from) + INDENT_STEP;
}

/** The innermost flow body or block whose lines hold `line` (from its opening line to the one before its closing brace). */
function enclosingBody(state: EditorState, tree: ReturnType<typeof syntaxTree>, head: number): SyntaxNode | null {
  const line = state.doc.lineAt(head);
  for (let node: SyntaxNode | null = tree.resolveInner(head, 1); node; node = node.parent) {
    if (!BODIES.has(node.name)) continue;
    const closing = closed(state, node) ? state.doc.lineAt(node.to - 1) : null;
    // On the line of the closing brace, a new line after it would be outside: not this body.
    if (closing && closing.number === line.number && head >= node.to - 1) continue;
    if (node.from <= line.to && (!closing || line.number <= closing.number)) return node;
  }
  // Anywhere on a body's opening line (`flow hello {`): the end of that line is in the body.
  for (let node: SyntaxNode | null = tree.resolveInner(line.to, -1); node; node = node.parent) {
    if (BODIES.has(node.name) && node.from <= line.to && line.to < node.to) return node;
  }
  return null;
}

/** The flow nearest the cursor: the last one ending before it, else the first one after it. */
function nearestFlowBody(state: EditorState, tree: ReturnType<typeof syntaxTree>, head: number): SyntaxNode | null {
  let before: SyntaxNode | null = null;
  let after: SyntaxNode | null = null;
  for (let flow = tree.topNode.firstChild; flow; flow = flow.nextSibling) {
    const body = flow.name === 'FlowDeclaration' ? flow.getChild('FlowBody') : null;
    if (!body || !closed(state, body)) continue;
    if (body.to <= head) before = body;
    else if (!after) after = body;
  }
  return before ?? after;
}

/** Where to put a new step, for the cursor at `state.selection.main.head`. */
export function stepInsertion(state: EditorState): StepInsertion {
  const head = state.selection.main.head;
  const line = state.doc.lineAt(head);
  const tree = ensureSyntaxTree(state, state.doc.length, 200) ?? syntaxTree(state);

  const body = enclosingBody(state, tree, head);
  if (body) {
    const indent = bodyIndent(state, body);
    if (line.text.trim() === '') return { kind: 'blank-line', from: line.from, to: line.to, indent };
    const statement = statementsOf(body).find((node) => node.from <= line.to && node.to >= line.from);
    const end = statement ? state.doc.lineAt(statement.to) : line;
    return { kind: 'after-line', at: end.to, indent };
  }

  const flow = nearestFlowBody(state, tree, head);
  if (flow) {
    const statements = statementsOf(flow);
    const last = statements[statements.length - 1];
    const closingLine = state.doc.lineAt(flow.to - 1);
    // After the last statement, or — for an empty body — after the opening brace's line.
    const at = last ? state.doc.lineAt(last.to).to : state.doc.lineAt(flow.from).to;
    if (at < closingLine.from || last) return { kind: 'after-line', at, indent: bodyIndent(state, flow) };
  }

  // No flow to put it in: where the cursor is.
  const indent = line.text.trim() === '' ? '' : indentOf(state, head);
  return line.text.trim() === '' ? { kind: 'blank-line', from: line.from, to: line.to, indent } : { kind: 'after-line', at: line.to, indent };
}

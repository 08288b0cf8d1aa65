/**
 * Hover docs for Flow: what a keyword, stage or builtin does (from the vocabulary), what an action
 * is and which ports it has, what a port carries, and what a name in scope stands for.
 */
import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import type { EditorState } from '@codemirror/state';
import { hoverTooltip, type Tooltip } from '@codemirror/view';
import type { SyntaxNode } from '@lezer/common';
import { builtinNamed, builtinTypeNamed, stageNamed } from '../../flow/vocabulary';
import { parseMimetype } from '../../wire/media';
import type { ComposableAction, ComposablePort } from '../gateway/composable';
import type { CompletionWorld } from './complete';
import { keywordDoc } from './keyword-docs';
import { knownActions, namesAt, syntaxOf } from './knowledge';

/** What a hover shows: a heading in code, a kind, and paragraphs or port lists below. */
export interface HoverDoc {
  title: string;
  kind: string;
  text: string;
  ports?: { direction: 'input' | 'output'; ports: ComposablePort[] }[];
}

function typeText(port: ComposablePort): string {
  const { base, tag } = parseMimetype(port.type);
  return `${tag ?? base}${port.stream ? ' stream' : ''}${port.required ? ' required' : ''}`;
}

function actionDoc(action: ComposableAction): HoverDoc {
  return {
    title: action.action,
    kind: action.runnable ? 'action · run' : 'action · call (served by the peer)',
    text: action.description,
    ports: [
      { direction: 'input', ports: action.inputs },
      { direction: 'output', ports: action.outputs },
    ],
  };
}

function portDoc(action: ComposableAction, name: string): HoverDoc | null {
  const output = action.outputs.find((port) => port.port === name);
  const input = action.inputs.find((port) => port.port === name);
  const port = output ?? input;
  if (!port) return null;
  return { title: `${action.action}.${port.port}`, kind: `${output ? 'output' : 'input'} · ${typeText(port)}`, text: port.description };
}

/** The doc for whatever is at `pos`, or null. Exported for tests. */
export function hoverDocAt(state: EditorState, pos: number, side: -1 | 1, world: CompletionWorld): { from: number; to: number; doc: HoverDoc } | null {
  // The editor parses in the background; a hover must see the tree at least up to where it points.
  const tree = ensureSyntaxTree(state, Math.min(state.doc.length, pos + 200), 50) ?? syntaxTree(state);
  const node: SyntaxNode = tree.resolveInner(pos, side);
  const text = state.sliceDoc(node.from, node.to);
  if (!text.trim() || node.firstChild) return null;
  const parent = node.parent;
  const file = syntaxOf(state.doc.toString());
  const actions = knownActions(file, world.actions());
  const found = (doc: HoverDoc | null) => (doc ? { from: node.from, to: node.to, doc } : null);

  if (node.name.startsWith('Stage') || node.name === 'BareThen' || node.name === 'BareWhere') {
    const stage = stageNamed(text);
    if (stage) return found({ title: stage.name, kind: `stage · takes ${stage.takes}`, text: stage.summary });
  }
  if (node.name === 'FunctionName') {
    const builtin = builtinNamed(text);
    if (builtin) return found({ title: builtin.signature, kind: 'builtin', text: builtin.summary });
  }
  if (parent?.name === 'ActionName') {
    const name = state.sliceDoc(parent.from, parent.to).replace(/^"|"$/g, '');
    const action = actions.find((candidate) => candidate.action === name);
    return action ? { from: parent.from, to: parent.to, doc: actionDoc(action) } : found({ title: name, kind: 'action', text: 'Not an action the gateway offers, nor a flow of this file.' });
  }
  if (node.name === 'Identifier' && parent?.name === 'MemberExpression' && parent.lastChild?.from === node.from) {
    const base = parent.firstChild;
    const baseName = base?.name === 'Identifier' ? state.sliceDoc(base.from, base.to) : '';
    const step = namesAt(file, pos).find((name) => name.name === baseName);
    const action = step?.action ? actions.find((candidate) => candidate.action === step.action) : undefined;
    return action ? found(portDoc(action, text)) : null;
  }
  if (node.name === 'Identifier' && parent?.name === 'Argument' && parent.firstChild?.from === node.from) {
    const call = parent.parent?.parent;
    const actionName = call?.getChild('ActionName');
    const name = actionName ? state.sliceDoc(actionName.from, actionName.to).replace(/^"|"$/g, '') : '';
    const action = actions.find((candidate) => candidate.action === name);
    return action ? found(portDoc(action, text)) : null;
  }
  if (node.name === 'Identifier' && parent?.name === 'TypeName') {
    const written = state.sliceDoc(parent.from, parent.to);
    const builtin = builtinTypeNamed(written);
    if (builtin) return { from: parent.from, to: parent.to, doc: { title: builtin.name, kind: 'type', text: 'A built-in type.' } };
    const struct = file.structs.find((candidate) => candidate.name.text === written);
    if (struct) {
      return { from: parent.from, to: parent.to, doc: { title: written, kind: 'struct', text: [struct.description, struct.fields.map((field) => `${field.name.text}: ${field.type.written}`).join(', ')].filter(Boolean).join('\n') } };
    }
    if (written.includes('.')) return { from: parent.from, to: parent.to, doc: { title: written, kind: 'registry type', text: 'A type the registry defines; values travel with this tag.' } };
    return null;
  }
  if (node.name !== 'Identifier') {
    const doc = keywordDoc(text);
    if (doc) return found({ title: text.toLowerCase(), kind: 'keyword', text: doc });
    return null;
  }
  const name = namesAt(file, pos).find((candidate) => candidate.name === text);
  if (name) {
    if (name.action) {
      const action = actions.find((candidate) => candidate.action === name.action);
      return found({ title: name.name, kind: `step · ${name.detail}`, text: action?.description ?? '', ...(action ? { ports: actionDoc(action).ports } : {}) });
    }
    return found({ title: name.name, kind: `${name.kind} · ${name.detail}`, text: name.description });
  }
  return null;
}

function render(doc: HoverDoc): HTMLElement {
  const box = document.createElement('div');
  box.className = 'flow-hover';
  const head = document.createElement('div');
  head.className = 'flow-hover-head';
  const title = document.createElement('code');
  title.textContent = doc.title;
  const kind = document.createElement('span');
  kind.className = 'flow-hover-kind';
  kind.textContent = doc.kind;
  head.append(title, kind);
  box.append(head);
  if (doc.text) {
    const text = document.createElement('p');
    text.textContent = doc.text;
    box.append(text);
  }
  for (const group of doc.ports ?? []) {
    if (!group.ports.length) continue;
    const list = document.createElement('ul');
    list.className = `flow-hover-ports ${group.direction}`;
    for (const port of group.ports) {
      const item = document.createElement('li');
      const name = document.createElement('code');
      name.textContent = port.port;
      item.append(`${group.direction === 'input' ? 'in ' : 'out '}`, name, ` ${typeText(port)}`);
      if (port.description) item.title = port.description;
      list.append(item);
    }
    box.append(list);
  }
  return box;
}

export function flowHover(world: CompletionWorld) {
  return hoverTooltip(
    (view, pos, side): Tooltip | null => {
      const hit = hoverDocAt(view.state, pos, side, world);
      if (!hit) return null;
      return { pos: hit.from, end: hit.to, above: true, create: () => ({ dom: render(hit.doc) }) };
    },
    { hideOnChange: true },
  );
}

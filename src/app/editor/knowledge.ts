/**
 * What the editor knows about a source at a position: which flow the cursor is in, the names in
 * scope there (ports, headers, steps, nodes, `let` values, loop variables), which action each
 * step runs, and every action a step may name — the gateway's (from discovery) and the file's own
 * sibling flows. Built from the typed syntax tree; parses are cached by source text.
 */
import type {
  FlowDeclaration,
  SourceFile,
  Span,
  Statement,
} from '../../flow/syntax/ast';
import { parseFlow } from '../../flow/syntax/parse';
import type { ComposableAction, ComposablePort } from '../gateway/composable';

export type NameKind = 'input' | 'output' | 'header' | 'step' | 'node' | 'let' | 'loop' | 'repeat' | 'node map';

export interface ScopeName {
  name: string;
  kind: NameKind;
  /** One line: a port's type, a step's action, … */
  detail: string;
  description: string;
  at: Span;
  /** For a step: the action (or sibling flow) it runs. */
  action?: string;
}

let cached: { source: string; file: SourceFile } | null = null;

/** The typed syntax tree of `source` (the last one is cached: completion and hover ask often). */
export function syntaxOf(source: string): SourceFile {
  if (cached?.source !== source) cached = { source, file: parseFlow(source).ast };
  return cached.file;
}

function within(span: Span, pos: number): boolean {
  return pos >= span.from && pos <= span.to;
}

/** The flow whose text holds `pos`. */
export function flowAt(file: SourceFile, pos: number): FlowDeclaration | undefined {
  return file.flows.find((flow) => within(flow.range, pos));
}

function bodiesOf(statement: Statement): readonly (readonly Statement[])[] {
  switch (statement.kind) {
    case 'block':
    case 'for-each':
    case 'repeat':
    case 'nodes':
      return [statement.body];
    case 'if':
      return [statement.thenBody, statement.elseBody];
    case 'bind':
      return statement.value.kind === 'call' || statement.value.kind === 'node' ? [] : bodiesOf(statement.value);
    default:
      return [];
  }
}

/** Every name visible at `pos` in its flow: ports, headers, and what statements bind. */
export function namesAt(file: SourceFile, pos: number): ScopeName[] {
  const flow = flowAt(file, pos);
  if (!flow) return [];
  const names: ScopeName[] = [];
  for (const port of flow.ports) {
    names.push({
      name: port.name.text,
      kind: port.direction === 'inputs' ? 'input' : 'output',
      detail: `${port.direction === 'inputs' ? 'in' : 'out'} ${port.type.written}${port.unary ? '' : ' stream'}${port.required ? ' required' : ''}`,
      description: port.description,
      at: port.name.at,
    });
  }
  for (const header of flow.headers) {
    names.push({ name: header.alias.text, kind: 'header', detail: `header "${header.name}"`, description: header.description, at: header.alias.at });
  }
  const visit = (statements: readonly Statement[]) => {
    for (const statement of statements) {
      if (statement.kind === 'bind') {
        const value = statement.value;
        if (value.kind === 'call') {
          names.push({ name: statement.name.text, kind: 'step', detail: `${value.mode ?? 'run'} ${value.action}`, description: '', at: statement.name.at, action: value.action });
        } else if (value.kind === 'node') {
          names.push({ name: statement.name.text, kind: 'node', detail: value.id ? 'node(…)' : 'node()', description: '', at: statement.name.at });
        } else {
          names.push({ name: statement.name.text, kind: 'step', detail: value.kind, description: '', at: statement.name.at });
        }
      } else if (statement.kind === 'let') {
        for (const word of statement.names) names.push({ name: word.text, kind: 'let', detail: 'let', description: '', at: word.at });
      } else if (statement.kind === 'nodes') {
        names.push({ name: statement.name.text, kind: 'node map', detail: 'nodes', description: '', at: statement.name.at });
      } else if (statement.kind === 'pipe') {
        // A pipe into a bare name writes a node of that name.
        for (const target of statement.targets) {
          if (target.kind === 'name' && !names.some((known) => known.name === target.name)) {
            names.push({ name: target.name, kind: 'node', detail: 'node', description: '', at: target.at });
          }
        }
      }
      const loop = statement.kind === 'bind' && statement.value.kind !== 'call' && statement.value.kind !== 'node' ? statement.value : statement;
      const here = within(loop.range, pos);
      if (loop.kind === 'for-each' && here) {
        for (const word of loop.variables) names.push({ name: word.text, kind: 'loop', detail: 'for … in', description: '', at: word.at });
        names.push({ name: 'index', kind: 'loop', detail: 'pass number, from 0', description: '', at: loop.at });
      }
      if (loop.kind === 'repeat' && here) {
        if (loop.variable) names.push({ name: loop.variable.text, kind: 'repeat', detail: 'repeat state', description: '', at: loop.variable.at });
        names.push({ name: 'index', kind: 'loop', detail: 'pass number, from 0', description: '', at: loop.at });
      }
      for (const body of bodiesOf(statement)) visit(body);
    }
  };
  visit(flow.body);
  // First declaration wins (a later `x -> y` does not redeclare y).
  const seen = new Set<string>();
  return names.filter((entry) => (seen.has(entry.name) ? false : (seen.add(entry.name), true)));
}

/** The file's named flows as actions a step may run (a flow is an action). */
export function siblingFlows(file: SourceFile): ComposableAction[] {
  const port = (declared: FlowDeclaration['ports'][number]): ComposablePort => ({
    port: declared.name.text,
    type: declared.type.written,
    stream: !declared.unary,
    required: declared.required,
    description: declared.description,
  });
  return file.flows
    .filter((flow) => !flow.entry && flow.name.text)
    .map((flow) => ({
      action: flow.name.text,
      description: flow.description,
      runnable: true,
      inputs: flow.ports.filter((declared) => declared.direction === 'inputs').map(port),
      outputs: flow.ports.filter((declared) => declared.direction === 'outputs').map(port),
    }));
}

/** Every action a step in this source may name: its own flows first, then the gateway's. */
export function knownActions(file: SourceFile, discovered: readonly ComposableAction[]): ComposableAction[] {
  const own = siblingFlows(file);
  return [...own, ...discovered.filter((action) => !own.some((flow) => flow.action === action.action))];
}

/**
 * A flow's plan (`flow.plan/v1`, as `flow_check` returns it) as a graph to draw: the flow's ports,
 * its action steps, the nodes it names and its control steps as vertices; its pipes, `after`
 * orderings and loop/branch bodies as edges.
 *
 * A plan step says where data comes from only as text (`from: "mic.audio | packb"`), so sources
 * are read back out of that text: every name in it (outside string literals) that names
 * something in the flow is a source. A name bound inside a loop body that the plan never
 * declares (a loop variable) is taken to come from the loop itself.
 */

import type { PlanFlow, PlanPort, PlanStep } from '../../flow/plan';
import { canonical, clauseWords, constantWords, operatorWords, sourceWords } from '../../flow/vocabulary';

/** A plan step: the checker's own type (a gateway's answer is read as one). */
export type PlanStepLike = PlanStep;

/**
 * The parts of a plan flow the page reads. A real A11 gateway's `flow_check` may leave out what
 * the page does not need, so only these are relied on.
 */
export interface PlanFlowLike extends Pick<PlanFlow, 'flow' | 'steps'> {
  inputs: Record<string, PlanPortLike>;
  outputs: Record<string, PlanPortLike>;
}

export type PlanPortLike = Pick<PlanPort, 'type' | 'unary' | 'required'>;

export type VertexKind = 'input' | 'output' | 'action' | 'node' | 'constant' | 'control';

export interface Vertex {
  id: string;
  kind: VertexKind;
  /** The main line: a port, step or node name, a constant's text. */
  title: string;
  /** The second line: an action and how it is reached, a port's type. */
  detail: string;
  /** Outputs of an action the flow explicitly skips. */
  skipped: string[];
  /** Where the step sits in the plan (indexes through bodies), for linking to its source. */
  path: number[] | null;
}

export type EdgeKind = 'pipe' | 'after' | 'body';

export interface Edge {
  id: string;
  from: string;
  to: string;
  kind: EdgeKind;
  label: string;
}

export interface PlanGraph {
  vertices: Vertex[];
  edges: Edge[];
}

const CONTAINERS = ['body', 'then', 'else'] as const;

const notNames = new Set([...constantWords, ...operatorWords, ...sourceWords, ...clauseWords, 'as', 'in', 'by']);

/**
 * The references in an expression's text: `mic.audio | packb` → `mic.audio`; `a | then b` → `a`,
 * `b`. Skipped: string literals, the stage name after a `|`, function and typed-value names
 * (followed by `(` or `{`), and the language's own words (`it`, `and`, `true`…).
 */
export function namesIn(text: string): string[] {
  const withoutStrings = text.replace(/"(?:[^"\\]|\\.)*"?/g, ' ');
  const names: string[] = [];
  for (const match of withoutStrings.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]*(?:-[A-Za-z_$\d][\w$]*)*(?:\.[A-Za-z_$][\w$]*)*/g)) {
    const name = match[0];
    const before = withoutStrings.slice(0, match.index).trimEnd();
    const after = withoutStrings.slice(match.index + name.length).trimStart();
    if (before.endsWith('|') || after.startsWith('(') || after.startsWith('{')) continue;
    if (notNames.has(canonical(name))) continue;
    names.push(name);
  }
  return names;
}

function head(reference: string): string {
  return reference.split('.')[0] ?? reference;
}

function tail(reference: string): string {
  const dot = reference.indexOf('.');
  return dot < 0 ? '' : reference.slice(dot + 1);
}

function portLabel(type: string, unary: boolean): string {
  return unary ? type : `${type} stream`;
}

/** Builds the graph of one flow of a plan. */
export function planGraph(flow: PlanFlowLike): PlanGraph {
  const vertices = new Map<string, Vertex>();
  const edges: Edge[] = [];
  /** What a name in an expression refers to: a vertex id. */
  const named = new Map<string, string>();

  const add = (vertex: Omit<Vertex, 'skipped'>): Vertex => {
    const full = { ...vertex, skipped: [] };
    vertices.set(vertex.id, full);
    return full;
  };
  const addEdge = (from: string, to: string, kind: EdgeKind, label: string) => {
    if (from === to && kind !== 'pipe') return;
    edges.push({ id: `e${edges.length}`, from, to, kind, label });
  };

  for (const [name, port] of Object.entries(flow.inputs)) {
    add({ id: `in:${name}`, kind: 'input', title: name, detail: portLabel(port.type, port.unary), path: null });
    named.set(name, `in:${name}`);
  }
  for (const [name, port] of Object.entries(flow.outputs)) {
    add({ id: `out:${name}`, kind: 'output', title: name, detail: portLabel(port.type, port.unary), path: null });
  }

  // First pass: every action step and every bare pipe target (a node the flow writes) gets a
  // vertex, so a pipe can read from something declared after it.
  const visit = (steps: PlanStepLike[], prefix: number[], each: (step: PlanStepLike, path: number[]) => void) => {
    steps.forEach((step, index) => {
      const path = [...prefix, index];
      each(step, path);
      CONTAINERS.forEach((key, which) => {
        const body = step[key];
        if (body) visit(body, [...path, which], each);
      });
    });
  };
  visit(flow.steps, [], (step, path) => {
    const id = `step:${path.join('.')}`;
    if (step.action) {
      const how = [step.mode ?? 'run', step.try ? 'try' : '', step.via ? `via ${step.via}` : ''].filter(Boolean).join(' · ');
      add({ id, kind: 'action', title: step.label, detail: `${step.action} (${how})`, path });
      named.set(step.label, id);
    } else if (step.step !== 'pipe' && step.step !== 'skip') {
      const subject = step.of ?? step.from ?? '';
      add({ id, kind: 'control', title: step.step, detail: subject && subject !== step.label ? subject : step.label === step.step ? '' : step.label, path });
      if (step.step === 'let' || step.step === 'capture') named.set(step.label, id);
    }
    if (step.step === 'pipe' && step.to && !step.to.includes('.') && !(step.to in flow.outputs) && !named.has(step.to)) {
      add({ id: `node:${step.to}`, kind: 'node', title: step.to, detail: 'node', path: null });
      named.set(step.to, `node:${step.to}`);
    }
  });

  // Second pass: pipes, skips, `after` orderings and bodies.
  const containerOf = new Map<string, string>();
  let constants = 0;
  visit(flow.steps, [], (step, path) => {
    const id = `step:${path.join('.')}`;
    const container = path.length > 1 ? `step:${path.slice(0, -2).join('.')}` : null;
    if (container && vertices.has(id)) containerOf.set(id, container);
    if (container && vertices.has(container) && vertices.has(id)) addEdge(container, id, 'body', '');

    if (step.step === 'skip') {
      const of = step.of ?? step.label;
      const owner = named.get(head(of));
      const vertex = owner ? vertices.get(owner) : undefined;
      if (vertex && tail(of)) vertex.skipped.push(tail(of));
      return;
    }
    if (step.step === 'pipe' && step.to) {
      const target = step.to in flow.outputs ? `out:${step.to}` : named.get(head(step.to));
      if (!target) return;
      const from = step.from ?? '';
      // Inside a body, a name the plan never declared is the loop's own variable.
      const sources = [...new Set(namesIn(from).map((name) => named.get(head(name)) ?? container ?? undefined))].filter(
        (source): source is string => !!source && vertices.has(source),
      );
      const toPort = tail(step.to);
      if (sources.length === 0) {
        const constant = add({ id: `const:${constants++}`, kind: 'constant', title: shorten(from, 28), detail: 'value', path });
        sources.push(constant.id);
      }
      const [first] = namesIn(from);
      const fromPort = first && named.get(head(first)) === sources[0] ? tail(first) : '';
      const stages = from.includes('|') ? from.slice(from.indexOf('|')).trim() : '';
      const label = [fromPort, shorten(stages, 32), toPort ? `→ ${toPort}` : ''].filter(Boolean).join(' ');
      for (const source of sources) addEdge(source, target, 'pipe', source === sources[0] ? label : toPort ? `→ ${toPort}` : '');
      for (const after of step.after ?? []) {
        const waited = named.get(head(after));
        if (waited) addEdge(waited, target, 'after', 'after');
      }
      return;
    }
    if (vertices.has(id)) {
      for (const after of step.after ?? []) {
        const waited = named.get(head(after));
        if (waited) addEdge(waited, id, 'after', 'after');
      }
      const subject = step.of ?? step.from;
      if (subject && step.step !== 'let') {
        for (const name of namesIn(subject)) {
          const source = named.get(head(name));
          if (source && source !== id) addEdge(source, id, 'pipe', tail(name));
        }
      }
    }
  });

  return { vertices: [...vertices.values()], edges };
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

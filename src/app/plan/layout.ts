/**
 * A layered drawing of a plan graph, left to right: the flow's inputs in the first column, its
 * outputs in the last, every other vertex one column after the furthest thing it reads from.
 * Within a column, vertices are ordered to keep edges short and uncrossed (barycentre sweeps)
 * and then pulled level with what they read from. Edges that point backwards (a loop body
 * feeding what started it) are drawn as arcs below the graph.
 */
import type { Edge, PlanGraph, Vertex } from './graph';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedVertex extends Vertex, Box {
  column: number;
}

export interface PlacedEdge extends Edge {
  /** SVG path data. */
  path: string;
  labelX: number;
  labelY: number;
  backwards: boolean;
}

export interface PlanLayout {
  vertices: PlacedVertex[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

export interface LayoutOptions {
  /** Width in pixels of one character of vertex text (an estimate; the renderer clips). */
  charWidth: number;
  columnGap: number;
  rowGap: number;
  margin: number;
}

const DEFAULTS: LayoutOptions = { charWidth: 7.2, columnGap: 96, rowGap: 18, margin: 16 };
const VERTEX_HEIGHT = 44;
const MIN_WIDTH = 88;
const MAX_WIDTH = 260;

function sizeOf(vertex: Vertex, options: LayoutOptions): { width: number; height: number } {
  const characters = Math.max(vertex.title.length, vertex.detail.length * 0.9, vertex.skipped.length ? 12 : 0);
  const width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.ceil(characters * options.charWidth) + 24));
  return { width, height: VERTEX_HEIGHT + (vertex.skipped.length ? 14 : 0) };
}

/** Edges that close a cycle, found by depth-first search in vertex order. */
function backEdges(graph: PlanGraph): Set<Edge> {
  const outgoing = new Map<string, Edge[]>();
  for (const edge of graph.edges) outgoing.set(edge.from, [...(outgoing.get(edge.from) ?? []), edge]);
  const state = new Map<string, 'active' | 'done'>();
  const back = new Set<Edge>();
  const visit = (id: string) => {
    state.set(id, 'active');
    for (const edge of outgoing.get(id) ?? []) {
      const seen = state.get(edge.to);
      if (seen === 'active') back.add(edge);
      else if (!seen) visit(edge.to);
    }
    state.set(id, 'done');
  };
  for (const vertex of graph.vertices) if (!state.has(vertex.id)) visit(vertex.id);
  return back;
}

function assignColumns(graph: PlanGraph, back: Set<Edge>): Map<string, number> {
  const forward = graph.edges.filter((edge) => !back.has(edge) && edge.from !== edge.to);
  const incoming = new Map<string, Edge[]>();
  for (const edge of forward) incoming.set(edge.to, [...(incoming.get(edge.to) ?? []), edge]);
  const column = new Map<string, number>();
  const columnOf = (id: string, depth = 0): number => {
    const known = column.get(id);
    if (known !== undefined) return known;
    if (depth > graph.vertices.length) return 0;
    const value = Math.max(0, ...(incoming.get(id) ?? []).map((edge) => columnOf(edge.from, depth + 1) + 1));
    column.set(id, value);
    return value;
  };
  for (const vertex of graph.vertices) columnOf(vertex.id);

  // Constants sit just before what they feed rather than all the way left.
  for (const vertex of graph.vertices.filter((candidate) => candidate.kind === 'constant')) {
    const targets = forward.filter((edge) => edge.from === vertex.id).map((edge) => column.get(edge.to) ?? 1);
    if (targets.length) column.set(vertex.id, Math.max(0, Math.min(...targets) - 1));
  }
  // Outputs share the last column, inputs the first.
  const inner = graph.vertices.filter((vertex) => vertex.kind !== 'output').map((vertex) => column.get(vertex.id) ?? 0);
  const last = Math.max(0, ...inner) + 1;
  for (const vertex of graph.vertices) {
    if (vertex.kind === 'output') column.set(vertex.id, last);
    if (vertex.kind === 'input') column.set(vertex.id, 0);
  }
  return column;
}

function orderColumns(graph: PlanGraph, column: Map<string, number>): string[][] {
  const count = Math.max(0, ...column.values()) + 1;
  const columns: string[][] = Array.from({ length: count }, () => []);
  for (const vertex of graph.vertices) columns[column.get(vertex.id) ?? 0]!.push(vertex.id);
  const neighbours = new Map<string, string[]>();
  for (const edge of graph.edges) {
    neighbours.set(edge.from, [...(neighbours.get(edge.from) ?? []), edge.to]);
    neighbours.set(edge.to, [...(neighbours.get(edge.to) ?? []), edge.from]);
  }
  const position = new Map<string, number>();
  const remember = () => columns.forEach((ids) => ids.forEach((id, index) => position.set(id, index)));
  remember();
  for (let sweep = 0; sweep < 6; sweep++) {
    const order = sweep % 2 === 0 ? columns.keys() : [...columns.keys()].reverse().values();
    for (const index of order) {
      const ids = columns[index]!;
      const centre = (id: string) => {
        const near = (neighbours.get(id) ?? []).filter((other) => column.get(other) !== index);
        if (near.length === 0) return position.get(id)!;
        return near.reduce((sum, other) => sum + position.get(other)!, 0) / near.length;
      };
      const keyed = ids.map((id) => [id, centre(id)] as const);
      keyed.sort((a, b) => a[1] - b[1]);
      columns[index] = keyed.map(([id]) => id);
      remember();
    }
  }
  return columns;
}

export function layoutPlan(graph: PlanGraph, overrides: Partial<LayoutOptions> = {}): PlanLayout {
  const options = { ...DEFAULTS, ...overrides };
  if (graph.vertices.length === 0) return { vertices: [], edges: [], width: 0, height: 0 };
  const back = backEdges(graph);
  const column = assignColumns(graph, back);
  const columns = orderColumns(graph, column);
  const byId = new Map(graph.vertices.map((vertex) => [vertex.id, vertex]));
  const placed = new Map<string, PlacedVertex>();

  const widths = columns.map((ids) => Math.max(MIN_WIDTH, ...ids.map((id) => sizeOf(byId.get(id)!, options).width)));
  let x = options.margin;
  columns.forEach((ids, index) => {
    let y = options.margin;
    for (const id of ids) {
      const vertex = byId.get(id)!;
      const size = sizeOf(vertex, options);
      placed.set(id, { ...vertex, ...size, x: x + (widths[index]! - size.width) / 2, y, column: index });
      y += size.height + options.rowGap;
    }
    x += widths[index]! + options.columnGap;
  });

  // Pull each column level with what feeds it, keeping order and spacing.
  const feeders = new Map<string, string[]>();
  for (const edge of graph.edges) if (!back.has(edge)) feeders.set(edge.to, [...(feeders.get(edge.to) ?? []), edge.from]);
  for (const ids of columns.slice(1)) {
    let floor = options.margin;
    for (const id of ids) {
      const vertex = placed.get(id)!;
      const from = (feeders.get(id) ?? []).map((other) => placed.get(other)!).filter((other) => other.column < vertex.column);
      const wanted = from.length ? from.reduce((sum, other) => sum + other.y + other.height / 2, 0) / from.length - vertex.height / 2 : vertex.y;
      vertex.y = Math.max(floor, wanted);
      floor = vertex.y + vertex.height + options.rowGap;
    }
  }

  const vertices = [...placed.values()];
  const bottom = Math.max(...vertices.map((vertex) => vertex.y + vertex.height));
  let arcs = 0;
  const edges: PlacedEdge[] = graph.edges.map((edge) => {
    const from = placed.get(edge.from)!;
    const to = placed.get(edge.to)!;
    const backwards = back.has(edge) || to.column <= from.column;
    if (!backwards) {
      const x1 = from.x + from.width;
      const y1 = from.y + from.height / 2;
      const x2 = to.x;
      const y2 = to.y + to.height / 2;
      const bend = Math.max(24, (x2 - x1) / 2);
      return {
        ...edge,
        path: `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`,
        labelX: (x1 + x2) / 2,
        labelY: (y1 + y2) / 2 - 4,
        backwards,
      };
    }
    arcs++;
    const x1 = from.x + from.width / 2;
    const y1 = from.y + from.height;
    const x2 = to.x + to.width / 2;
    const y2 = to.y + to.height;
    const dip = bottom + 18 + arcs * 12;
    return {
      ...edge,
      path: `M${x1},${y1} C${x1},${dip} ${x2},${dip} ${x2},${y2}`,
      labelX: (x1 + x2) / 2,
      labelY: dip - 6,
      backwards,
    };
  });

  const width = Math.max(...vertices.map((vertex) => vertex.x + vertex.width)) + options.margin;
  const height = Math.max(bottom + (arcs ? 30 + arcs * 12 : 0), ...vertices.map((vertex) => vertex.y + vertex.height)) + options.margin;
  return { vertices, edges, width, height };
}

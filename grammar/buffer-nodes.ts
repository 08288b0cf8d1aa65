/**
 * The nodes of a table-driven parse read straight from its node buffer, without building Lezer's
 * `Tree` first.
 *
 * Why: the checker reads a whole file's tree once, top to bottom, and throws it away; building
 * Lezer's tree for that (`Tree.build`: the buffer split, copied into node buffers and balanced)
 * is work nobody uses. Here the buffer the parse wrote is linked up in one pass (four ints a
 * node), and a node object is a small view made as the reader steps onto it.
 *
 * What stays the same: the nodes are the ones Lezer's `SyntaxNode` navigation shows for the tree
 * `Tree.build` makes of the same buffer — anonymous nodes (repetitions) are see-through, their
 * children stand in their parent — with the same names, positions, order and parents.
 * `buffer-nodes.test.ts` holds the two to that on every input the table-driven parse takes.
 */
import type { NodeType } from '@lezer/common';

/**
 * What the syntax layer reads of a node: the part of Lezer's `SyntaxNode` it navigates by. A
 * Lezer node is one (the editor's tree, a tree Lezer recovered), and so is a {@link BufferNode}.
 */
export interface NodeView {
  readonly type: NodeType;
  readonly name: string;
  readonly from: number;
  readonly to: number;
  readonly parent: NodeView | null;
  readonly firstChild: NodeView | null;
  readonly lastChild: NodeView | null;
  readonly nextSibling: NodeView | null;
  readonly prevSibling: NodeView | null;
}

/** Where the parse wrote its nodes: 4 ints a record (type, start, end, size), children before
 * their parent, as Lezer's `Stack` writes them; records with a negative size are not nodes. */
export interface NodeRecords {
  readonly buffer: Int32Array;
  readonly length: number;
}

/**
 * Every node of one parse, linked: its record, its parent, its first child and its next sibling
 * (the rarer ways, last child and previous sibling, are found from those). Links are stored as
 * index + 1, so the arrays' zeros mean "none" without being filled.
 */
export class BufferNodes {
  private readonly buffer: Int32Array;
  private readonly records: Int32Array;
  private readonly parents: Int32Array;
  private readonly firstChildren: Int32Array;
  private readonly nextSiblings: Int32Array;
  /** The index of the top node. */
  readonly top: number;
  /** How many levels of nodes the tree has below its top. */
  readonly depth: number;

  constructor(
    records: NodeRecords,
    private readonly types: readonly NodeType[],
    private readonly topType: number,
    private readonly textLength: number,
    minRepeatType: number,
  ) {
    const { buffer, length } = records;
    this.buffer = buffer;
    // One slot per record, and one for the top node (more than the visible nodes need).
    const slots = (length >> 2) + 1;
    this.records = new Int32Array(slots);
    this.parents = new Int32Array(slots);
    this.firstChildren = new Int32Array(slots);
    this.nextSiblings = new Int32Array(slots);

    // Completed nodes not yet given a parent, in buffer order, with where each one's records
    // begin and how tall it is. A record's children are the pending nodes whose records lie
    // inside its own. An anonymous record takes no node: its children stay pending and go to
    // the next real parent.
    const pending: number[] = [];
    const pendingFrom: number[] = [];
    const pendingHeight: number[] = [];
    let count = 0;
    for (let at = 0; at < length; at += 4) {
      const size = buffer[at + 3]!;
      if (size < 0) continue;
      const id = buffer[at]!;
      if (id >= minRepeatType || id >= types.length || types[id]!.isAnonymous) continue;
      const recordsFrom = at + 4 - size;
      const node = count++;
      this.records[node] = at;
      pendingHeight.push(this.adopt(node, pending, pendingFrom, pendingHeight, recordsFrom));
      pending.push(node);
      pendingFrom.push(recordsFrom);
    }
    this.top = count;
    this.records[count] = -1;
    this.depth = this.adopt(count, pending, pendingFrom, pendingHeight, 0);
  }

  /** Makes the pending nodes whose records start at or after `from` the children of `parent`;
   * returns the parent's height. */
  private adopt(parent: number, pending: number[], pendingFrom: number[], pendingHeight: number[], from: number): number {
    let next = 0;
    let height = 0;
    while (pending.length > 0 && pendingFrom[pendingFrom.length - 1]! >= from) {
      const child = pending.pop()!;
      pendingFrom.pop();
      height = Math.max(height, pendingHeight.pop()! + 1);
      this.parents[child] = parent + 1;
      this.nextSiblings[child] = next;
      next = child + 1;
    }
    this.firstChildren[parent] = next;
    return height;
  }

  /** The node at `index`, or null for none. */
  node(index: number): BufferNode | null {
    if (index < 0) return null;
    const at = this.records[index]!;
    return at < 0
      ? new BufferNode(this, index, this.types[this.topType]!, 0, this.textLength)
      : new BufferNode(this, index, this.types[this.buffer[at]!]!, this.buffer[at + 1]!, this.buffer[at + 2]!);
  }

  get topNode(): BufferNode {
    return this.node(this.top)!;
  }

  parentOf(index: number): BufferNode | null {
    return this.node(this.parents[index]! - 1);
  }

  firstChildOf(index: number): BufferNode | null {
    return this.node(this.firstChildren[index]! - 1);
  }

  nextSiblingOf(index: number): BufferNode | null {
    return this.node(this.nextSiblings[index]! - 1);
  }

  lastChildOf(index: number): BufferNode | null {
    let last = this.firstChildren[index]! - 1;
    if (last < 0) return null;
    while (this.nextSiblings[last]! > 0) last = this.nextSiblings[last]! - 1;
    return this.node(last);
  }

  prevSiblingOf(index: number): BufferNode | null {
    const parent = this.parents[index]! - 1;
    if (parent < 0) return null;
    let previous = -1;
    for (let child = this.firstChildren[parent]! - 1; child !== index; child = this.nextSiblings[child]! - 1) previous = child;
    return this.node(previous);
  }
}

/** One node of a {@link BufferNodes}. */
export class BufferNode implements NodeView {
  readonly name: string;

  constructor(
    private readonly nodes: BufferNodes,
    private readonly index: number,
    readonly type: NodeType,
    readonly from: number,
    readonly to: number,
  ) {
    this.name = type.name;
  }

  get parent(): BufferNode | null {
    return this.nodes.parentOf(this.index);
  }

  get firstChild(): BufferNode | null {
    return this.nodes.firstChildOf(this.index);
  }

  get lastChild(): BufferNode | null {
    return this.nodes.lastChildOf(this.index);
  }

  get nextSibling(): BufferNode | null {
    return this.nodes.nextSiblingOf(this.index);
  }

  get prevSibling(): BufferNode | null {
    return this.nodes.prevSiblingOf(this.index);
  }
}

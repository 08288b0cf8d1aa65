/**
 * The parse stack of the table-driven parse: Lezer's `Stack`, reduced to what one stack that
 * never recovers does — shift, reduce, track the context, record lookahead — writing the node
 * buffer `Tree.build` reads into a typed array. Every step writes exactly what Lezer's `Stack`
 * would (its reduce position, the sinking of skipped tokens out of a reduced node, context hash
 * and lookahead records); `table-parse.test.ts` compares the trees node for node and buffer for
 * buffer. It is also the stack the tokenizers see: `canShift` and `context`.
 */
import type { InputStream } from '@lezer/lr';
import type { NodeRecords } from './buffer-nodes';
import {
  FLAG_SKIPPED,
  GOTO_FLAG,
  LOOKAHEAD_MARGIN,
  REDUCE_DEPTH_SHIFT,
  REDUCE_FLAG,
  REPEAT_FLAG,
  SLOT_DEFAULT_REDUCE,
  SLOT_FLAGS,
  STATE_SIZE,
  STAY_FLAG,
  VALUE_MASK,
  type ActionTables,
  type ParserTables,
  type TrackerSpec,
} from './table-actions';

/** A reduction this big (in characters) from the start of the previous big one counts towards
 * Lezer's left-associative chain limit. */
const BIG_REDUCTION = 2000;
const CONTEXT_RECORD = -3;
const LOOKAHEAD_RECORD = -4;

export class TableStack {
  /** The parse state. */
  state: number;
  /** How far the stack has read. */
  pos = 0;
  /** Where the next reduced node ends: before skipped tokens read since the last real one. */
  private reducePos = 0;
  /** (state, start, buffer index) for every frame below the current state. */
  readonly frames: number[] = [];
  private buffer = new Int32Array(1024);
  private length = 0;
  private lookAhead = 0;
  /** The context tracker's value (the tokenizers read it as `stack.context`). */
  context: unknown;
  private contextHash: number;
  private readonly scratch: number[] = [];
  /** Lezer's left-associative chain bookkeeping (the start and size of the last big reduction). */
  private bigStart = -1;
  private bigSize = 0;
  bigReductions = 0;
  /** What Lezer's token groups read through `stack.p`. */
  readonly p: { parser: unknown };
  private readonly anonymous: Uint8Array;

  constructor(
    private readonly tables: ParserTables,
    private readonly actions: ActionTables,
    private readonly tracker: TrackerSpec | null,
    private readonly stream: InputStream,
    start: number,
  ) {
    this.state = start;
    this.p = { parser: tables };
    this.context = tracker ? tracker.start : null;
    this.contextHash = tracker && tracker.strict ? tracker.hash(this.context) : 0;
    this.anonymous = anonymousTypes(tables);
  }

  private push(term: number, start: number, end: number, size: number): void {
    this.store(this.length, term, start, end, size);
    this.length += 4;
  }

  private store(at: number, term: number, start: number, end: number, size: number): void {
    if (at + 4 > this.buffer.length) {
      const grown = new Int32Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    const buffer = this.buffer;
    buffer[at] = term;
    buffer[at + 1] = start;
    buffer[at + 2] = end;
    buffer[at + 3] = size;
  }

  private pushState(state: number, start: number): void {
    this.frames.push(this.state, start, this.length);
    this.state = state;
  }

  /** Lezer's `storeNode` for a node that must sink: skipped tokens read after `end` move after it. */
  private storeNode(term: number, start: number, end: number, size: number): void {
    if (this.pos === end) {
      this.push(term, start, end, size);
      return;
    }
    const buffer = this.buffer;
    let index = this.length;
    // (The table path never stores error nodes, so the records before may always move.)
    let mustMove = false;
    for (let scan = index; scan > 0 && buffer[scan - 2]! > end; scan -= 4) {
      if (buffer[scan - 1]! >= 0) {
        mustMove = true;
        break;
      }
    }
    if (mustMove) {
      while (index > 0 && buffer[index - 2]! > end) {
        this.store(index, buffer[index - 4]!, buffer[index - 3]!, buffer[index - 2]!, buffer[index - 1]!);
        index -= 4;
        if (size > 4) size -= 4;
      }
    }
    this.store(index, term, start, end, size);
    this.length += 4;
  }

  shift(action: number, type: number, start: number, end: number): void {
    const { tables } = this;
    if (action & GOTO_FLAG) {
      this.pushState(action & VALUE_MASK, this.pos);
    } else if ((action & STAY_FLAG) === 0) {
      this.pos = end;
      const skipped = (tables.states[action * STATE_SIZE + SLOT_FLAGS]! & FLAG_SKIPPED) !== 0;
      if (!skipped && (end > start || type <= tables.maxNode)) this.reducePos = end;
      this.pushState(action, skipped ? start : Math.min(start, this.reducePos));
      this.shiftContext(type, start);
      if (type <= tables.maxNode) this.push(type, start, end, 4);
    } else {
      this.pos = end;
      this.shiftContext(type, start);
      if (type <= tables.maxNode) this.push(type, start, end, 4);
    }
  }

  reduce(action: number): void {
    const { tables, frames } = this;
    const depth = action >> REDUCE_DEPTH_SHIFT;
    const type = action & VALUE_MASK;
    const lookaheadRecord = this.reducePos < this.pos - LOOKAHEAD_MARGIN && this.setLookAhead(this.pos);
    if (depth === 0) {
      if (type < tables.minRepeatTerm && this.reducePos < this.pos) this.reducePos = this.pos;
      this.pushState(this.actions.goto(this.state, type), this.reducePos);
      if (type < tables.minRepeatTerm) this.storeNode(type, this.reducePos, this.reducePos, lookaheadRecord ? 8 : 4);
      this.reduceContext(type, this.reducePos);
      return;
    }
    const base = frames.length - (depth - 1) * 3 - (action & STAY_FLAG ? 6 : 0);
    const start = base ? frames[base - 2]! : 0;
    if (type < tables.minRepeatTerm && start === this.reducePos && this.reducePos < this.pos) this.reducePos = this.pos;
    const size = this.reducePos - start;
    if (size >= BIG_REDUCTION && !this.anonymous[type]) {
      if (start === this.bigStart) {
        this.bigReductions += 1;
        this.bigSize = size;
      } else if (this.bigSize < size) {
        this.bigReductions = 1;
        this.bigStart = start;
        this.bigSize = size;
      }
    }
    const bufferBase = base ? frames[base - 1]! : 0;
    const count = this.length - bufferBase;
    if (type < tables.minRepeatTerm || action & REPEAT_FLAG) {
      const end = tables.states[this.state * STATE_SIZE + SLOT_FLAGS]! & FLAG_SKIPPED ? this.pos : this.reducePos;
      this.storeNode(type, start, end, count + 4);
    }
    if (action & STAY_FLAG) this.state = frames[base]!;
    else this.state = this.actions.goto(frames[base - 3]!, type);
    // (Popping: setting `length` is a slow path in V8.)
    while (frames.length > base) frames.pop();
    this.reduceContext(type, start);
  }

  apply(action: number, type: number, start: number, end: number): void {
    if (action & REDUCE_FLAG) this.reduce(action);
    else this.shift(action, type, start, end);
  }

  private shiftContext(term: number, start: number): void {
    if (this.tracker) this.updateContext(this.tracker.shift(this.context, term, this, this.resetStream(start)));
  }

  private reduceContext(term: number, start: number): void {
    if (this.tracker) this.updateContext(this.tracker.reduce(this.context, term, this, this.resetStream(start)));
  }

  private resetStream(pos: number): InputStream {
    return (this.stream as unknown as { reset(pos: number): InputStream }).reset(pos);
  }

  private updateContext(context: unknown): void {
    if (context === this.context) return;
    const hash = this.tracker!.strict ? this.tracker!.hash(context) : 0;
    if (hash !== this.contextHash) this.emitContext();
    this.context = context;
    this.contextHash = hash;
  }

  private emitContext(): void {
    const last = this.length - 1;
    if (last < 0 || this.buffer[last] !== CONTEXT_RECORD) this.storeNode(this.contextHash, this.reducePos, this.reducePos, CONTEXT_RECORD);
  }

  private emitLookAhead(): void {
    const last = this.length - 1;
    if (last < 0 || this.buffer[last] !== LOOKAHEAD_RECORD) this.push(this.lookAhead, this.pos, this.pos, LOOKAHEAD_RECORD);
  }

  setLookAhead(lookAhead: number): boolean {
    if (lookAhead <= this.lookAhead) return false;
    this.emitLookAhead();
    this.lookAhead = lookAhead;
    return true;
  }

  /** Finishes the buffer (the last context and lookahead) and hands it out. */
  close(): NodeRecords {
    if (this.tracker && this.tracker.strict) this.emitContext();
    if (this.lookAhead > 0) this.emitLookAhead();
    return { buffer: this.buffer, length: this.length };
  }

  /** `Stack.canShift`: whether `term` is shifted here, perhaps after reductions. */
  canShift(term: number): boolean {
    return simulateShift(this.tables, this.actions, this.frames, this.state, term, this.scratch);
  }
}

/**
 * Lezer's `Stack.canShift`, frame for frame, on any stack's frames: a zero-depth reduction
 * appends a frame after the real ones, a deeper one moves the base down, and the state below the
 * base is where `goto` starts. Lezer's own copies the whole stack on a zero-depth reduction, so
 * a deep stack (thousands of unbracketed levels) made every ask slow; this appends to `scratch`.
 */
export function simulateShift(tables: ParserTables, actions: ActionTables, frames: readonly number[], top: number, term: number, scratch: number[]): boolean {
  const { states } = tables;
  const real = frames.length;
  let appended = 0;
  let base = real;
  let state = top;
  for (;;) {
    const action = states[state * STATE_SIZE + SLOT_DEFAULT_REDUCE]! || actions.shiftable(state, term);
    if (action === 0) return false;
    if ((action & REDUCE_FLAG) === 0) return true;
    const depth = action >> REDUCE_DEPTH_SHIFT;
    if (depth === 0) {
      scratch[appended++] = state;
      base += 3;
    } else {
      base -= (depth - 1) * 3;
    }
    const at = base - 3;
    const below = at < real ? frames[at]! : scratch[(at - real) / 3]!;
    state = actions.goto(below, action & VALUE_MASK);
  }
}

const anonymousOf = new WeakMap<object, Uint8Array>();

function anonymousTypes(tables: ParserTables): Uint8Array {
  let flags = anonymousOf.get(tables);
  if (!flags) {
    flags = new Uint8Array(tables.nodeSet.types.length);
    tables.nodeSet.types.forEach((type, id) => (flags![id] = type.isAnonymous ? 1 : 0));
    anonymousOf.set(tables, flags);
  }
  return flags;
}

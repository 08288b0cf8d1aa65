/**
 * A whole-file parse that runs Lezer's own tables, tokenizers and stack faster than Lezer's
 * general driver can, for text that needs neither of the two things that driver is built for:
 * several parse stacks at once (GLR) and error recovery.
 *
 * Why: checking a file from scratch spent most of its time in Lezer's driver rather than in the
 * language. For every action, the driver scans the state's action list for the token (a Flow
 * state can have dozens of entries, one per keyword), re-runs the contextual tokenizer after every
 * reduction, and keeps machinery for stacks and recovery that a well-formed file never uses.
 *
 * What stays the same: the grammar is still `flow.grammar` and nothing else — this reads the very
 * tables Lezer generated from it (`parser.states`, `parser.data`, `parser.goto`), runs the same
 * tokenizers in the same order, and applies every action the way Lezer's `Stack` does (so nodes,
 * context hashes and lookahead records go into the buffer exactly as Lezer writes them, and
 * `Tree.build` makes the same tree). What differs is how an action is found — a per-state row
 * indexed by term (`table-actions.ts`), one tokenizer run per position — and that the stack
 * (`table-stack.ts`) has nothing for splitting or recovering and writes into a typed array.
 *
 * When the text needs more — no action for a token (a syntax error), more than one (a GLR split),
 * or one of Lezer's guards against over-deep trees — this gives up and answers `null`, and the
 * caller runs Lezer's parser, whose recovery decides what the mistake was. `table-parse.test.ts`
 * holds the two to the same tree on every input they both parse.
 */
import { Tree, type BufferCursor, type Input } from '@lezer/common';
import { InputStream, type LRParser } from '@lezer/lr';
import {
  AMBIGUOUS,
  FLAG_ACCEPTING,
  LOOKAHEAD_MARGIN,
  NONE,
  SLOT_DEFAULT_REDUCE,
  SLOT_FLAGS,
  SLOT_TOKENIZER_MASK,
  STATE_SIZE,
  TERM_ERR,
  actionTablesOf,
  type ParserTables,
} from './table-actions';
import { TableStack } from './table-stack';
import { BufferNodes, type NodeRecords } from './buffer-nodes';

/** Lezer's `CachedToken`: what a tokenizer run leaves behind (InputStream writes into it). */
class TokenSlot {
  start = -1;
  value = -1;
  end = -1;
  extended = -1;
  lookAhead = 0;
  mask = 0;
  context = 0;
}

/**
 * Lezer forces its way out of a left-associative chain after 300 large reductions from one start
 * (about 800 operators), to keep trees shallow; the text after that point then reads as a
 * mistake, so `a + a + … + a` with a thousand operators was reported as broken. The chain's tree
 * is no problem for anything that reads it (checked past 50 000 operators; the reference itself
 * crashes at 12 000), so this path follows the grammar much further before handing over.
 */
const MAX_BIG_REDUCTIONS = 20_000;

/** A string as Lezer's `Input`. */
function stringInput(text: string): Input {
  return {
    length: text.length,
    chunk: (from) => text.slice(from),
    lineChunks: false,
    read: (from, to) => text.slice(from, to),
  };
}

/** Reads a node buffer backwards, as `Tree.build` wants it (Lezer's `FlatBufferCursor`). */
class BufferReader implements BufferCursor {
  constructor(
    private readonly buffer: Int32Array,
    private index: number,
  ) {}
  get id(): number {
    return this.buffer[this.index - 4]!;
  }
  get start(): number {
    return this.buffer[this.index - 3]!;
  }
  get end(): number {
    return this.buffer[this.index - 2]!;
  }
  get size(): number {
    return this.buffer[this.index - 1]!;
  }
  get pos(): number {
    return this.index;
  }
  next(): void {
    this.index -= 4;
  }
  fork(): BufferCursor {
    return new BufferReader(this.buffer, this.index);
  }
}

/**
 * What a table-driven parse wrote, read two ways: as the tree Lezer's parser would give (for
 * whoever keeps the tree), or as nodes read straight from the buffer (`buffer-nodes.ts`: for a
 * reader that walks the tree once; building Lezer's tree is then work nobody uses).
 */
export class TableParse {
  private tree: Tree | undefined;
  private nodes: BufferNodes | undefined;

  constructor(
    private readonly tables: ParserTables,
    private readonly records: NodeRecords,
    /** How far the parse read: the length of the text. */
    readonly length: number,
  ) {}

  toTree(): Tree {
    return (this.tree ??= Tree.build({
      buffer: new BufferReader(this.records.buffer, this.records.length),
      nodeSet: this.tables.nodeSet,
      topID: this.tables.top[1],
      maxBufferLength: this.tables.bufferLength,
      reused: [],
      start: 0,
      length: this.length,
      minRepeatType: this.tables.minRepeatTerm,
    }));
  }

  toNodes(): BufferNodes {
    return (this.nodes ??= new BufferNodes(this.records, this.tables.nodeSet.types, this.tables.top[1], this.length, this.tables.minRepeatTerm));
  }
}

/**
 * The tree Lezer's parser would give `source`, or `null` when the source needs Lezer's GLR or
 * error recovery (then call `parser.parse`).
 */
export function parseWithoutRecovery(parser: LRParser, source: string): Tree | null {
  return readWithoutRecovery(parser, source)?.toTree() ?? null;
}

/** The table-driven parse of `source`, or `null` when it needs Lezer's GLR or error recovery. */
export function readWithoutRecovery(parser: LRParser, source: string): TableParse | null {
  const tables = parser as unknown as ParserTables;
  // Lezer's internals as this reads them; a Lezer that changed them gets its own parse instead.
  if (!(tables.states instanceof Uint32Array) || !tables.data || typeof tables.getGoto !== 'function') return null;
  if (!tables.wrappers || tables.wrappers.length > 0 || !tables.specialized || tables.specialized.length > 0) return null;
  const actions = actionTablesOf(tables);
  const { states, tokenizers, eofTerm } = tables;
  for (const tokenizer of tokenizers) if (tokenizer.fallback || tokenizer.extend) return null;

  const ranges = [{ from: 0, to: source.length }];
  const stream = new (InputStream as unknown as new (input: Input, ranges: { from: number; to: number }[]) => InputStream)(stringInput(source), ranges);
  const stack = new TableStack(tables, actions, tables.context, stream, tables.top[0]);
  const resetStream = stream as unknown as { reset(pos: number, token?: TokenSlot): InputStream };
  const slots = tokenizers.map(() => new TokenSlot());
  const end = source.length;

  // The token at the current position (kept until the stack moves past it).
  let tokenPos = -1;
  let tokenMask = -1;
  let tokenValue = 0;
  let tokenStart = 0;
  let tokenEnd = 0;

  for (;;) {
    const state = stack.state;
    const defaultReduce = states[state * STATE_SIZE + SLOT_DEFAULT_REDUCE]!;
    if (defaultReduce > 0) {
      stack.reduce(defaultReduce);
      if (stack.bigReductions > MAX_BIG_REDUCTIONS) return null;
      continue;
    }
    // (Lezer's driver forces reductions past 2800 levels of stack, to keep its tree shallow. A
    // deep tree — 20 000 `not`s, an `else if` chain of thousands — builds and reads fine, and
    // Lezer's `canShift` copies the whole stack on each ask, so it is followed here instead;
    // the caller falls back to Lezer should building it overflow the call stack.)
    const pos = stack.pos;
    const mask = states[state * STATE_SIZE + SLOT_TOKENIZER_MASK]!;
    if (pos !== tokenPos || mask !== tokenMask) {
      // As Lezer's `getActions`: the tokenizers in order, the first that reads a token wins.
      tokenPos = pos;
      tokenMask = mask;
      tokenValue = -1;
      let lookAhead = 0;
      for (let index = 0; index < tokenizers.length; index++) {
        if (((1 << index) & mask) === 0) continue;
        const slot = slots[index]!;
        tokenizers[index]!.token(resetStream.reset(pos, slot), stack);
        if (slot.lookAhead > slot.end + LOOKAHEAD_MARGIN) lookAhead = Math.max(slot.lookAhead, lookAhead);
        if (slot.value > TERM_ERR) {
          tokenValue = slot.value;
          tokenStart = slot.start;
          tokenEnd = slot.end;
          break;
        }
      }
      if (lookAhead) stack.setLookAhead(lookAhead);
      if (tokenValue < 0) {
        if (pos !== end) return null;
        tokenValue = eofTerm;
        tokenStart = tokenEnd = pos;
      }
    }
    const action = actions.action(state, tokenValue);
    if (action === NONE) {
      const accepting = (states[state * STATE_SIZE + SLOT_FLAGS]! & FLAG_ACCEPTING) !== 0;
      if (pos === end && tokenValue === eofTerm && accepting) break;
      return null;
    }
    if (action === AMBIGUOUS) return null;
    stack.apply(action, tokenValue, tokenStart, tokenEnd);
    if (stack.bigReductions > MAX_BIG_REDUCTIONS) return null;
  }

  return new TableParse(tables, stack.close(), stack.pos);
}

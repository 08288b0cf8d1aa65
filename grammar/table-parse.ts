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
 * tokenizers in the same order, and applies every action through Lezer's own `Stack` (so nodes,
 * context hashes and lookahead records go into the buffer exactly as Lezer writes them, and
 * `Tree.build` makes the same tree). What differs is only how an action is found: a per-state
 * table indexed by term, filled the first time a state is met, and one tokenizer run per position.
 *
 * When the text needs more — no action for a token (a syntax error), more than one (a GLR split),
 * or one of Lezer's guards against over-deep trees — this gives up and answers `null`, and the
 * caller runs Lezer's parser, whose recovery decides what the mistake was. `table-parse.test.ts`
 * holds the two to the same tree on every input they both parse.
 */
import { Tree, type Input, type NodeSet } from '@lezer/common';
import { InputStream, Stack, type LRParser } from '@lezer/lr';

/** The parts of an `LRParser` this reads. They are Lezer's internals (`@internal` in its types),
 * pinned by the exact version in package.json and checked by the differential test. */
interface ParserTables {
  states: Uint32Array;
  data: Readonly<Uint16Array>;
  tokenizers: readonly TokenizerSpec[];
  maxTerm: number;
  maxNode: number;
  minRepeatTerm: number;
  bufferLength: number;
  eofTerm: number;
  top: readonly [number, number];
  specialized: Uint16Array;
  wrappers: readonly unknown[];
  nodeSet: NodeSet;
  getGoto(state: number, term: number, loose?: boolean): number;
}

interface TokenizerSpec {
  token(input: InputStream, stack: unknown): void;
  contextual: boolean;
  fallback: boolean;
  extend: boolean;
}

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

/** The internal `Stack` fields and methods this drives. */
interface DrivenStack {
  state: number;
  pos: number;
  stack: number[];
  buffer: number[];
  curContext: { hash: number; context: unknown } | null;
  apply(action: number, term: number, start: number, end: number): void;
  reduce(action: number): void;
  setLookAhead(lookAhead: number): void;
  close(): void;
  readonly context: unknown;
}

// Lezer's encoding of states and actions (see @lezer/lr's constants).
const STATE_SIZE = 6;
const SLOT_FLAGS = 0;
const SLOT_ACTIONS = 1;
const SLOT_SKIP = 2;
const SLOT_TOKENIZER_MASK = 3;
const SLOT_DEFAULT_REDUCE = 4;
const FLAG_ACCEPTING = 2;
const SEQ_END = 0xffff;
const SEQ_NEXT = 1;
const SEQ_OTHER = 2;
const REDUCE_FLAG = 0x10000;
const REDUCE_DEPTH_SHIFT = 19;
const VALUE_MASK = 0xffff;
const TERM_ERR = 0;
const LOOKAHEAD_MARGIN = 25;
/** Lezer's stack-depth limit: past it its driver forces reductions, which only its path does. */
const CUT_DEPTH = 8400;
/**
 * Lezer forces its way out of a left-associative chain after 300 large reductions from one start
 * (about 800 operators), to keep trees shallow; the text after that point then reads as a
 * mistake, so `a + a + … + a` with a thousand operators was reported as broken. The chain's tree
 * is no problem for anything that reads it (checked past 50 000 operators; the reference itself
 * crashes at 12 000), so this path follows the grammar much further before handing over.
 */
const MAX_BIG_REDUCTIONS = 20_000;

/** No action for this term in this state. */
const NONE = 0;
/** More than one action: the grammar is ambiguous here and Lezer would split the stack. */
const AMBIGUOUS = -1;

function pair(data: Readonly<Uint16Array>, at: number): number {
  return data[at]! | (data[at + 1]! << 16);
}

/**
 * Per-state action tables, indexed by term: `action(state, term)` is what Lezer's driver would
 * do with that token (its `addActions`), `shiftable(state, term)` what `Stack.canShift` looks up
 * (its `hasAction`, where an `Err` entry matches any term).
 */
class ActionTables {
  private readonly terms: number;
  private readonly byState: (Int32Array | undefined)[];

  constructor(private readonly tables: ParserTables) {
    this.terms = tables.maxTerm + 1;
    this.byState = new Array(tables.states.length / STATE_SIZE);
  }

  private row(state: number): Int32Array {
    return (this.byState[state] ??= this.build(state));
  }

  action(state: number, term: number): number {
    return this.row(state)[term]!;
  }

  shiftable(state: number, term: number): number {
    return this.row(state)[this.terms + term]!;
  }

  private build(state: number): Int32Array {
    const { data, states } = this.tables;
    const terms = this.terms;
    const row = new Int32Array(terms * 2);
    // `addActions`: every entry for the term, the action set before the skip set; a set's
    // `Seq.Other` entry applies when nothing has matched so far.
    const found: number[][] = Array.from({ length: terms }, () => []);
    // `hasAction`: the first entry, in scan order, for the term or for `Err` (any term); a set's
    // `Seq.Other` ends the scan with its action.
    const first = new Int32Array(terms);
    let wildcard = 0;
    let other = 0;
    for (let set = 0; set < 2; set++) {
      let setOther = 0;
      for (let at = states[state * STATE_SIZE + (set ? SLOT_SKIP : SLOT_ACTIONS)]!; ; at += 3) {
        if (data[at] === SEQ_END) {
          if (data[at + 1] === SEQ_NEXT) {
            at = pair(data, at + 2);
          } else {
            if (data[at + 1] === SEQ_OTHER) setOther = pair(data, at + 2);
            break;
          }
        }
        const term = data[at]!;
        const action = pair(data, at + 1);
        const decided = wildcard !== 0 || other !== 0;
        if (term === TERM_ERR) {
          if (!decided) wildcard = action;
        } else if (term < terms) {
          if (!found[term]!.includes(action)) found[term]!.push(action);
          if (!decided && !first[term]) first[term] = action;
        }
      }
      if (setOther) {
        for (const actions of found) if (actions.length === 0) actions.push(setOther);
        if (!wildcard && !other) other = setOther;
      }
    }
    for (let term = 0; term < terms; term++) {
      const actions = found[term]!;
      row[term] = actions.length === 0 ? NONE : actions.length === 1 ? actions[0]! : AMBIGUOUS;
      row[terms + term] = first[term] || wildcard || other;
    }
    return row;
  }
}

/**
 * What the tokenizers see as the stack: `canShift` answered from the tables without allocating,
 * the context tracker's value, and the parser (Lezer's own token groups read `stack.p.parser`).
 */
class StackView {
  private scratch: number[] = [];

  constructor(
    readonly stack: DrivenStack,
    private readonly tables: ParserTables,
    private readonly actions: ActionTables,
    readonly p: unknown,
  ) {}

  get context(): unknown {
    return this.stack.context;
  }

  /** `Stack.canShift`: whether `term` is shifted here, perhaps after reductions. Lezer's
   * simulation, frame for frame: a zero-depth reduction appends a frame after the real ones,
   * a deeper one moves the base down, and the state below the base is where `goto` starts. */
  canShift(term: number): boolean {
    const { states } = this.tables;
    const frames = this.stack.stack;
    const real = frames.length;
    const pushed = this.scratch;
    let appended = 0;
    let base = real;
    let state = this.stack.state;
    for (;;) {
      const action = states[state * STATE_SIZE + SLOT_DEFAULT_REDUCE]! || this.actions.shiftable(state, term);
      if (action === 0) return false;
      if ((action & REDUCE_FLAG) === 0) return true;
      const depth = action >> REDUCE_DEPTH_SHIFT;
      if (depth === 0) {
        pushed[appended++] = state;
        base += 3;
      } else {
        base -= (depth - 1) * 3;
      }
      const at = base - 3;
      const below = at < real ? frames[at]! : pushed[(at - real) / 3]!;
      state = this.tables.getGoto(below, action & VALUE_MASK, true);
    }
  }
}

/** A string as Lezer's `Input`. */
function stringInput(text: string): Input {
  return {
    length: text.length,
    chunk: (from) => text.slice(from),
    lineChunks: false,
    read: (from, to) => text.slice(from, to),
  };
}

/** The `Parse` fields `Stack` and the token groups reach through `stack.p`. */
interface ParseShell {
  parser: LRParser;
  ranges: { from: number; to: number }[];
  stream: InputStream;
  reused: Tree[];
  lastBigReductionStart: number;
  lastBigReductionSize: number;
  bigReductionCount: number;
  stoppedAt: number | null;
  recovering: number;
}

const tablesOf = new WeakMap<LRParser, ActionTables>();

/**
 * The tree Lezer's parser would give `source`, or `null` when the source needs Lezer's GLR or
 * error recovery (then call `parser.parse`).
 */
export function parseWithoutRecovery(parser: LRParser, source: string): Tree | null {
  const tables = parser as unknown as ParserTables;
  if (tables.wrappers.length > 0 || tables.specialized.length > 0) return null;
  let actions = tablesOf.get(parser);
  if (!actions) tablesOf.set(parser, (actions = new ActionTables(tables)));
  const { states, tokenizers, eofTerm } = tables;

  const ranges = [{ from: 0, to: source.length }];
  const stream = new (InputStream as unknown as new (input: Input, ranges: { from: number; to: number }[]) => InputStream)(stringInput(source), ranges);
  const shell: ParseShell = {
    parser,
    ranges,
    stream,
    reused: [],
    lastBigReductionStart: -1,
    lastBigReductionSize: 0,
    bigReductionCount: 0,
    stoppedAt: null,
    recovering: 0,
  };
  const stack = (Stack as unknown as { start(p: ParseShell, state: number, pos: number): DrivenStack }).start(shell, tables.top[0], 0);
  const view = new StackView(stack, tables, actions, shell);
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
      if (shell.bigReductionCount > MAX_BIG_REDUCTIONS) return null;
      continue;
    }
    if (stack.stack.length >= CUT_DEPTH) return null;
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
        const tokenizer = tokenizers[index]!;
        if (tokenizer.fallback || tokenizer.extend) return null;
        const slot = slots[index]!;
        tokenizer.token(resetStream.reset(pos, slot), view);
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
    if (shell.bigReductionCount > MAX_BIG_REDUCTIONS) return null;
  }

  stack.close();
  return Tree.build({
    buffer: stack.buffer,
    nodeSet: tables.nodeSet,
    topID: tables.top[1],
    maxBufferLength: tables.bufferLength,
    reused: shell.reused,
    start: 0,
    length: stack.pos,
    minRepeatType: tables.minRepeatTerm,
  });
}

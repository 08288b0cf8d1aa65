/**
 * Lezer's generated parse tables, read for the table-driven parse (`table-parse.ts`): the
 * encoding constants, the parts of an `LRParser` it reads, and per-state action rows indexed by
 * term, so finding what to do with a token is one array read instead of a scan of the state's
 * action list.
 */
import type { NodeSet } from '@lezer/common';
import type { InputStream } from '@lezer/lr';

/** The parts of an `LRParser` read here. They are Lezer's internals (`@internal` in its types),
 * pinned by the exact version in package.json and checked by `table-parse.test.ts`. */
export interface ParserTables {
  states: Uint32Array;
  data: Readonly<Uint16Array>;
  tokenizers: readonly TokenizerSpec[];
  context: TrackerSpec | null;
  maxTerm: number;
  maxNode: number;
  minRepeatTerm: number;
  bufferLength: number;
  eofTerm: number;
  top: readonly [number, number];
  specialized: Uint16Array;
  wrappers: readonly unknown[];
  dynamicPrecedences: unknown;
  nodeSet: NodeSet;
  getGoto(state: number, term: number, loose?: boolean): number;
}

export interface TokenizerSpec {
  token(input: InputStream, stack: unknown): void;
  contextual: boolean;
  fallback: boolean;
  extend: boolean;
}

/** A `ContextTracker`'s fields. */
export interface TrackerSpec {
  start: unknown;
  shift(context: unknown, term: number, stack: unknown, input: InputStream): unknown;
  reduce(context: unknown, term: number, stack: unknown, input: InputStream): unknown;
  hash(context: unknown): number;
  strict: boolean;
}

// Lezer's encoding of states and actions (see @lezer/lr's constants).
export const STATE_SIZE = 6;
export const SLOT_FLAGS = 0;
export const SLOT_ACTIONS = 1;
export const SLOT_SKIP = 2;
export const SLOT_TOKENIZER_MASK = 3;
export const SLOT_DEFAULT_REDUCE = 4;
export const FLAG_SKIPPED = 1;
export const FLAG_ACCEPTING = 2;
export const SEQ_END = 0xffff;
const SEQ_NEXT = 1;
const SEQ_OTHER = 2;
export const REDUCE_FLAG = 0x10000;
/** On a shift: push a goto state (a skipped rule with structure). On a reduce: a repeat. */
export const GOTO_FLAG = 0x20000;
export const REPEAT_FLAG = 0x20000;
export const STAY_FLAG = 0x40000;
export const REDUCE_DEPTH_SHIFT = 19;
export const VALUE_MASK = 0xffff;
export const TERM_ERR = 0;
export const LOOKAHEAD_MARGIN = 25;

/** No action for this term in this state. */
export const NONE = 0;
/** More than one action: the grammar is ambiguous here and Lezer would split the stack. */
export const AMBIGUOUS = -1;

function pair(data: Readonly<Uint16Array>, at: number): number {
  return data[at]! | (data[at + 1]! << 16);
}

/**
 * Per-state action rows, indexed by term, filled the first time a state is met: `action(state,
 * term)` is what Lezer's driver does with that token (its `addActions`), `shiftable(state, term)`
 * what `Stack.canShift` looks up (its `hasAction`, where an `Err` entry matches any term).
 */
export class ActionTables {
  private readonly terms: number;
  private readonly byState: (Int32Array | undefined)[];
  /** `getGoto(state, term, true)` by term, then state; -2 until asked. */
  private readonly gotoByTerm: (Int32Array | undefined)[];

  constructor(private readonly tables: ParserTables) {
    this.terms = tables.maxTerm + 1;
    this.byState = new Array(tables.states.length / STATE_SIZE);
    this.gotoByTerm = new Array(this.terms);
  }

  /** The state after reducing to `term` on top of `state` (Lezer's `getGoto`, loose). */
  goto(state: number, term: number): number {
    if (!(state >= 0 && state < this.byState.length)) return this.tables.getGoto(state, term, true);
    const row = (this.gotoByTerm[term] ??= new Int32Array(this.byState.length).fill(-2));
    const known = row[state]!;
    return known !== -2 ? known : (row[state] = this.tables.getGoto(state, term, true));
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

const tablesOf = new WeakMap<object, ActionTables>();

/** The action rows of a parser, made once per parser. */
export function actionTablesOf(tables: ParserTables): ActionTables {
  let actions = tablesOf.get(tables);
  if (!actions) tablesOf.set(tables, (actions = new ActionTables(tables)));
  return actions;
}

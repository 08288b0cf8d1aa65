/**
 * What the parser is inside of, tracked as it shifts and reduces: which brackets are open (inside
 * `(`, `[` and a record's `{` a line break is whitespace) and whether the last real token was a
 * line break (so a run of them is one).
 */
import { ContextTracker } from '@lezer/lr';
import { isBlank } from './scan';
import { term } from './terms';

/**
 * What the parser is inside of. `bracket` frames (`(`, `[`, a record's `{`) make line breaks
 * whitespace; `block` frames (a body's `{`) make them statement ends. `lineStart` says the last
 * real token was a line break, so the next one is part of the same run (runs collapse).
 *
 * A frame closes when its closing token is shifted, or — when recovery never shifts one — when
 * the parser reduces a node that starts at or before the opening token, which is then complete.
 */
export class BracketContext {
  private afterBreak: BracketContext | null = null;
  private afterToken: BracketContext | null = null;
  readonly hash: number;

  constructor(
    readonly parent: BracketContext | null,
    readonly bracket: boolean,
    readonly lineStart: boolean,
    readonly depth: number,
    /** Where the opening token is (-1 for the file). Not part of the hash: it moves with edits. */
    readonly openedAt: number,
  ) {
    // What a reused node depends on is which brackets it sits in (that decides what its line
    // breaks are); a node never starts with a line break, so `lineStart` is left out.
    this.hash = parent ? (depth * 2 + (bracket ? 1 : 0) + parent.hash * 7919) | 0 : 0;
  }

  withLineStart(lineStart: boolean): BracketContext {
    if (lineStart === this.lineStart) return this;
    if (lineStart) {
      this.afterBreak ??= new BracketContext(this.parent, this.bracket, true, this.depth, this.openedAt);
      return this.afterBreak;
    }
    this.afterToken ??= new BracketContext(this.parent, this.bracket, false, this.depth, this.openedAt);
    return this.afterToken;
  }

  push(bracket: boolean, openedAt: number): BracketContext {
    return new BracketContext(this, bracket, false, this.depth + 1, openedAt);
  }

  pop(): BracketContext {
    return (this.parent ?? this).withLineStart(false);
  }

  /** This context without the frames a node starting at `start` has completed. */
  closedFrom(start: number): BracketContext {
    let context: BracketContext = this;
    while (context.parent && context.openedAt >= start) context = context.parent.withLineStart(false);
    return context;
  }
}

const topContext = new BracketContext(null, false, true, 0, -1);

const openingBrackets = new Set([term.parenOpen, term.bracketOpen, term.RecordOpen, term.OutputGroupOpen]);
/** Brackets inside which the reference still reads a line break as one: `node(…)`, `x[…]`, `T[…]`. */
const tightBrackets = new Set([term.nodeOpen, term.indexOpen, term.typeOpen]);
const closingBrackets = new Set([term.parenClose, term.bracketClose, term.braceClose]);
const skippedTerms = new Set([term.softBreak, term.Comment]);

export const bracketContext = new ContextTracker<BracketContext>({
  start: topContext,
  shift(context, shifted, _stack, input) {
    // Recovery may insert an opening bracket that is not in the text; it opens nothing there.
    const written = input.next === 40 || input.next === 91 || input.next === 123;
    if (openingBrackets.has(shifted)) return written ? context.push(true, input.pos) : context;
    if (shifted === term.BlockOpen || tightBrackets.has(shifted)) return written ? context.push(false, input.pos) : context;
    if (closingBrackets.has(shifted)) return context.pop();
    if (shifted === term.Newline) return context.withLineStart(true);
    // Skipped tokens (whitespace has no exported term, so it is told by its first character)
    // leave the line as it was.
    if (skippedTerms.has(shifted) || isBlank(input.next)) return context;
    return context.withLineStart(false);
  },
  reduce(context, _reduced, _stack, input) {
    return context.openedAt >= input.pos ? context.closedFrom(input.pos) : context;
  },
  reuse(context) {
    // A reused node ends with a real token and holds balanced brackets.
    return context.withLineStart(false);
  },
  hash: (context) => context.hash,
});


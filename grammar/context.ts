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

function opensHere(code: number): boolean {
  return code === 40 || code === 91 || code === 123;
}

/** What shifting a term does to the frames, by term id (a table: this runs for every token). */
const enum Shifted {
  Other = 0,
  /** `(`, `[`, a record's `{`, `(o1, o2) of`: line breaks inside are whitespace. */
  OpensBracket,
  /** A body's `{`, and the brackets inside which the reference still reads a line break as one:
   * `node(…)`, `x[…]`, `T[…]`. */
  OpensBlock,
  Closes,
  LineBreak,
  /** Skipped tokens leave the line as it was. */
  Skipped,
}

const shiftedKind = new Uint8Array(Math.max(...Object.values(term)) + 1);
for (const id of [term.parenOpen, term.bracketOpen, term.RecordOpen, term.OutputGroupOpen]) shiftedKind[id] = Shifted.OpensBracket;
for (const id of [term.BlockOpen, term.nodeOpen, term.indexOpen, term.typeOpen]) shiftedKind[id] = Shifted.OpensBlock;
for (const id of [term.parenClose, term.bracketClose, term.braceClose]) shiftedKind[id] = Shifted.Closes;
shiftedKind[term.Newline] = Shifted.LineBreak;
for (const id of [term.softBreak, term.Comment]) shiftedKind[id] = Shifted.Skipped;

export const bracketContext = new ContextTracker<BracketContext>({
  start: topContext,
  shift(context, shifted, _stack, input) {
    // Recovery may insert an opening bracket that is not in the text; it opens nothing there.
    switch (shifted < shiftedKind.length ? shiftedKind[shifted] : Shifted.Other) {
      case Shifted.OpensBracket:
        return opensHere(input.next) ? context.push(true, input.pos) : context;
      case Shifted.OpensBlock:
        return opensHere(input.next) ? context.push(false, input.pos) : context;
      case Shifted.Closes:
        return context.pop();
      case Shifted.LineBreak:
        return context.withLineStart(true);
      case Shifted.Skipped:
        return context;
      default:
        // Whitespace has no exported term, so it is told by its first character.
        return isBlank(input.next) ? context : context.withLineStart(false);
    }
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


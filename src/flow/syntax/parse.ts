/**
 * `parseFlow`: Flow source in, the Lezer tree, the typed syntax tree and the syntax problems out.
 */
import type { Tree } from '@lezer/common';
import { nameLength, peekToken, readString, stringSource, type CharSource } from '../../../grammar/scan';
import { canonical } from '../vocabulary';
import { wholeFileParser as parser } from '../../../grammar/index';
import type { NodeView } from '../../../grammar/buffer-nodes';
import { readWithoutRecovery } from '../../../grammar/table-parse';
import { tokenizerWork } from '../../../grammar/tokens';
import type { SourceFile, Span } from './ast';
import { Builder } from './builder';
import { buildSourceFile } from './build';
import { MAX_TREE_ERRORS, reportTreeErrors } from './errors';
import { reportLexicalProblems } from './lexical';
import type { SyntaxProblem } from './problem';

export interface ParsedFlow {
  /** The Lezer tree (what the editor highlights, folds and reparses incrementally). */
  readonly tree: Tree;
  /** The typed syntax tree: the contract the checker reads. */
  readonly ast: SourceFile;
  /** Every lexical and syntax problem, in presentation order (position, then code, then message). */
  readonly diagnostics: SyntaxProblem[];
}

/** Byte order, as the reference sorts. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortProblems(problems: readonly SyntaxProblem[]): SyntaxProblem[] {
  return [...problems].sort((a, b) => a.from - b.from || compare(a.code, b.code) || compare(a.message, b.message));
}

/**
 * The tokenizer runs a clean parse needs per character is about one half; recovering from
 * mistake after mistake takes many more. Past this budget the parse stops where it has got to:
 * the first problems are what a reader acts on, and a file that is mostly mistakes (megabytes of
 * punctuation, say) is still answered in linear time.
 */
const WORK_PER_CHARACTER = 1.5;
const WORK_ALLOWANCE = 100_000;

/**
 * Past this many separate recoveries the parse stops too: only the first `MAX_TREE_ERRORS` error
 * nodes are ever reported, so reading on through a file that is mostly mistakes (10 MB of prose
 * in a flow took seconds) would find nothing a reader is shown.
 */
const MAX_RECOVERIES = 2 * MAX_TREE_ERRORS;

/**
 * Past this many levels Lezer's `Tree.build` stops nesting nodes (it lays the deeper ones out
 * flat), so a tree read straight from the parse's buffer would no longer be the tree Lezer gives.
 */
const LEZER_TREE_DEPTH = 2500;

/** A parse: the top node to read, the Lezer tree (made when first asked for, for a clean file),
 * and where the parse stopped when the work budget ran out (-1 when it did not). */
interface ReadTree {
  top: NodeView;
  tree: () => Tree;
  stoppedAt: number;
  clean: boolean;
}

function lezerParse(source: string): ReadTree {
  const budget = WORK_PER_CHARACTER * source.length + WORK_ALLOWANCE;
  const start = tokenizerWork.calls;
  const parse = parser.startParse(source);
  // Lezer's parse says when it is recovering (not in its published types); each stretch of
  // recovery leaves at least one error node.
  const state = parse as unknown as { recovering?: number };
  let recoveries = 0;
  let recovering = false;
  let stoppedAt = -1;
  for (;;) {
    const tree = parse.advance();
    if (tree) return { top: tree.topNode, tree: () => tree, stoppedAt, clean: false };
    const nowRecovering = (state.recovering ?? 0) > 0;
    if (nowRecovering && !recovering) recoveries += 1;
    recovering = nowRecovering;
    if (stoppedAt < 0 && (tokenizerWork.calls - start > budget || recoveries > MAX_RECOVERIES)) {
      stoppedAt = parse.parsedPos;
      parse.stopAt(stoppedAt);
    }
  }
}

function lezerTree(source: string): ReadTree {
  // A file without mistakes is read by the table-driven parse (the same grammar's tables, without
  // Lezer's recovery machinery: about twice as fast); one with a mistake by Lezer, which recovers.
  // The clean file's nodes are read straight from the parse's buffer; its Lezer tree is built
  // only if someone asks for it.
  try {
    const table = readWithoutRecovery(parser, source);
    if (table) {
      const nodes = table.toNodes();
      if (nodes.depth <= LEZER_TREE_DEPTH) {
        let built: Tree | undefined;
        const tree = (): Tree => {
          if (built) return built;
          try {
            built = table.toTree();
          } catch {
            built = parser.parse(source);
          }
          return built;
        };
        return { top: nodes.topNode, tree, stoppedAt: -1, clean: true };
      }
      const tree = table.toTree();
      return { top: tree.topNode, tree: () => tree, stoppedAt: -1, clean: true };
    }
  } catch {
    // A tree too deep to build recursively (the call stack overflows): Lezer's parse, which
    // caps depth, reads it instead.
  }
  return lezerParse(source);
}

/**
 * Stretches of text outside every flow that do not start a declaration: each runs from its
 * first token to the end of its line (or is a lone `}`), which is what the reference reports once
 * and skips. They are found by a scan that balances braces (strings and comments aside), so a
 * file of anything else — megabytes of it — is not read token by token by the parser's recovery.
 */
function strayLines(source: string): { strays: Span[]; openings: number[] } {
  const chars = stringSource(source);
  const strays: Span[] = [];
  // Where a declaration's line ends without the `{` its body opens with.
  const openings: number[] = [];
  let header = false;
  let depth = 0;
  let at = 0;
  let lineStart = true;
  while (at < source.length) {
    if (depth > 0) {
      // Inside a declaration's braces only braces, strings and comments matter (line starts
      // count again once the braces close), so the scan runs on to the next of those.
      at = nextBraceStringOrComment(source, at);
      if (at >= source.length) break;
    }
    const code = source.charCodeAt(at);
    if (code === 10) {
      if (header && depth === 0) openings.push(at);
      header = false;
      lineStart = true;
      at += 1;
      continue;
    }
    if (code === 32 || code === 9 || code === 13) {
      at += 1;
      continue;
    }
    if (code === 35 /* # */) {
      const end = source.indexOf('\n', at);
      at = end < 0 ? source.length : end;
      continue;
    }
    if (depth === 0 && (lineStart || code === 125) && !header) {
      if (startsDeclaration(source, chars, at)) {
        header = true;
      } else {
        const stray = strayFrom(chars, at);
        strays.push(stray);
        at = stray.to;
        lineStart = false;
        continue;
      }
    }
    lineStart = false;
    if (code === 34 /* " */) {
      at += readString(chars, at).length;
      continue;
    }
    if (code === 123) {
      depth += 1;
      header = false;
    } else if (code === 125 && depth > 0) {
      depth -= 1;
    }
    at += 1;
  }
  if (header && depth === 0) openings.push(source.length);
  return { strays, openings };
}

function nextBraceStringOrComment(source: string, from: number): number {
  let at = from;
  for (; at < source.length; at++) {
    const code = source.charCodeAt(at);
    if (code === 123 || code === 125 || code === 34 || code === 35) break;
  }
  return at;
}

function startsDeclaration(source: string, chars: CharSource, at: number): boolean {
  const length = nameLength(chars, at);
  if (length === 0) return false;
  const word = canonical(source.slice(at, at + length));
  return word === 'flow' || (word === 'struct' && peekToken(chars, at + length).kind === 'word');
}

/** One stray: a lone `}`, or the tokens from `at` up to the end of the line or a `}`. */
function strayFrom(chars: CharSource, at: number): Span {
  if (chars.peek(at) === 125) return { from: at, to: at + 1 };
  let end = at;
  for (;;) {
    const token = peekToken(chars, end);
    if (token.kind === 'newline' || token.kind === 'end' || (token.kind === 'punctuation' && chars.peek(token.from) === 125)) {
      return { from: at, to: end };
    }
    end = token.to;
  }
}

/** The text with the strays blanked out (line breaks kept, so every offset stays where it was). */
function withoutStrays(source: string, strays: readonly Span[]): string {
  if (strays.length === 0) return source;
  let text = '';
  let at = 0;
  for (const stray of strays) {
    text += source.slice(at, stray.from) + source.slice(stray.from, stray.to).replace(/[^\n]/g, ' ');
    at = stray.to;
  }
  return text + source.slice(at);
}

/**
 * Reads Flow source. Never throws; any input gives a tree and diagnostics. `tree` is the Lezer
 * tree when the caller already has it (an editor's incremental parse).
 */
export function parseFlow(source: string, given?: Tree): ParsedFlow {
  const { strays, openings } = given ? { strays: [], openings: [] } : strayLines(source);
  const read = given ? { top: given.topNode, tree: () => given, stoppedAt: -1, clean: false } : lezerTree(withoutStrays(source, strays));
  const { top, stoppedAt, clean } = read;
  const builder = new Builder(source);
  reportLexicalProblems(builder);
  // `flow name` with its `{` not on the line: the reference wanted it at the line break.
  for (const opening of strays.length > 0 ? openings : []) {
    builder.reportAt('flow.syntax.unexpected', `Expected {, found ${builder.found(opening)}.`, opening);
  }
  for (const stray of strays) {
    builder.reportAt('flow.syntax.unexpected', `Expected 'flow', found ${builder.found(stray.from)}.`, stray.from);
  }
  const ast = buildSourceFile(builder, top);
  // A tree the table-driven parse built has no error nodes (only recovery makes them).
  if (!clean) reportTreeErrors(builder, read.tree(), stoppedAt);
  if (stoppedAt >= 0) {
    builder.reportAt(
      'flow.syntax.unexpected',
      `Reading stopped here, after more problems than a file can usefully have; fix the ones above and the rest will be read. Found ${builder.found(stoppedAt)}.`,
      stoppedAt,
    );
  }
  const diagnostics = sortProblems(builder.problems);
  return {
    get tree() {
      return read.tree();
    },
    ast,
    diagnostics,
  };
}

/**
 * `parseFlow`: Flow source in, the Lezer tree, the typed syntax tree and the syntax problems out.
 */
import type { Tree } from '@lezer/common';
import { readString, stringSource } from '../../../grammar/scan';
import { parser } from '../../../grammar/index';
import type { SourceFile } from './ast';
import { Builder } from './builder';
import { buildSourceFile } from './build';
import { reportTreeErrors } from './errors';
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
 * How deep brackets may nest before the Lezer parser is given only the text up to there. Lezer
 * builds its tree recursively, so thousands of levels would exhaust the stack; the language reads
 * only 128 (`flow.syntax.nesting-too-deep`), so nothing past this limit changes the answer.
 */
const LEZER_NESTING_LIMIT = 1000;

/** Where bracket nesting first passes `limit` (strings and comments aside), or -1. */
function nestingCut(source: string, limit: number): number {
  const chars = stringSource(source);
  let depth = 0;
  for (let at = 0; at < source.length; ) {
    const code = source.charCodeAt(at);
    if (code === 34 /* " */) {
      at += readString(chars, at).length;
      continue;
    }
    if (code === 35 /* # */) {
      const end = source.indexOf('\n', at);
      at = end < 0 ? source.length : end;
      continue;
    }
    if (code === 40 || code === 91 || code === 123) {
      depth += 1;
      if (depth > limit) return at;
    } else if ((code === 41 || code === 93 || code === 125) && depth > 0) {
      depth -= 1;
    }
    at += 1;
  }
  return -1;
}

/** The Lezer tree of `source`, or of as much of it as nests no deeper than the tree can be built. */
function lezerTree(source: string): Tree {
  const cut = nestingCut(source, LEZER_NESTING_LIMIT);
  return parser.parse(cut < 0 ? source : source.slice(0, cut));
}

/** Reads Flow source. Never throws; any input gives a tree and diagnostics. */
export function parseFlow(source: string, tree: Tree = lezerTree(source)): ParsedFlow {
  const builder = new Builder(source);
  reportLexicalProblems(builder);
  const ast = buildSourceFile(builder, tree);
  reportTreeErrors(builder, tree);
  return { tree, ast, diagnostics: sortProblems(builder.problems) };
}

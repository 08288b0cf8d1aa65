/**
 * `parseFlow`: Flow source in, the Lezer tree, the typed syntax tree and the syntax problems out.
 */
import type { Tree } from '@lezer/common';
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

/** Reads Flow source. Never throws; any input gives a tree and diagnostics. */
export function parseFlow(source: string, tree: Tree = parser.parse(source)): ParsedFlow {
  const builder = new Builder(source);
  reportLexicalProblems(builder);
  const ast = buildSourceFile(builder, tree);
  reportTreeErrors(builder, tree);
  return { tree, ast, diagnostics: sortProblems(builder.problems) };
}

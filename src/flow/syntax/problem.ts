/**
 * What the syntax layer reports: one problem the lexer or parser found, in the reference's terms.
 *
 * `parseFlow` reports every diagnostic the reference's lexer and parser report (`a11 flow parse`):
 * all `flow.syntax.*` codes, and the `flow.form.*` codes the reference decides while parsing
 * (`duration-unit`, `bad-number`, `unknown-stage`, `unknown-builtin`, `stage-argument`, `fold-start`,
 * `fold-name`, `stage-not-parallel`, `unordered-without-parallel`, `into-without-try`,
 * `count-not-positive`, `node-parentheses`, `port-modifier-order`, `forward-headers`, `log-format`,
 * `log-value`, `wait-of-one`, `zip-empty`, `field-modifier-order`, `empty-range`,
 * `repeated-modifier`, `one-of-not-a-list`, `one-of-empty`). Everything the reference's resolver
 * reports is the checker's.
 *
 * Offsets are UTF-16 offsets into the source, half-open; the diagnostics module converts them to
 * the `flow.diagnostics/v1` positions (1-based line, column in code points, UTF-8 byte offset).
 */

export type SyntaxSeverity = 'error' | 'warning';

/** One replacement of the source text; offsets as in {@link SyntaxProblem}. */
export interface SyntaxEdit {
  readonly from: number;
  readonly to: number;
  readonly text: string;
}

/** A repair an editor can offer. */
export interface SyntaxFix {
  readonly label: string;
  readonly edits: readonly SyntaxEdit[];
}

export interface SyntaxProblem {
  /** The reference's code, e.g. `flow.syntax.unexpected`. */
  readonly code: string;
  readonly severity: SyntaxSeverity;
  /** What is wrong and how to fix it, in the reference's words ("Expected X, found 'Y'."). */
  readonly message: string;
  readonly from: number;
  readonly to: number;
  /** The flow (or struct) the problem is in, by name; absent outside one and in the entry flow. */
  readonly flow?: string;
  readonly fixes: readonly SyntaxFix[];
}

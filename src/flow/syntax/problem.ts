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
 * A problem is the diagnostics module's {@link Problem} (UTF-16 offsets, half-open), plus the
 * severity the reference's parser gave it — which differs from the code table's for one code:
 * the parser reports `flow.form.count-not-positive` as an error.
 */
import type { Problem, Severity } from '../diagnostics';

export interface SyntaxProblem extends Problem {
  readonly severity: Severity;
}

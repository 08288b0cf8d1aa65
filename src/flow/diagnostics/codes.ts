/**
 * Every diagnostic code Flow Playground can report — the one table.
 *
 * A code is `flow.<family>.<name>`; the family is always its middle segment, so it needs no
 * column of its own. A toolchain may match on a code (codes are stable, messages are not), so
 * a check that goes away keeps its code reserved rather than handing it to something else.
 *
 * The table holds every code of the reference's published list (`flow.codes/v1`), the seven the
 * reference emits without listing them, and the few only this checker produces — the ones that
 * need a catalogue of actions, marked `catalogue` below. `codes.test.ts` holds it to the
 * reference's list.
 */

export type Severity = 'error' | 'warning' | 'weak-warning' | 'information';

/** The grouping a reader thinks in; an editor makes each one a switchable inspection. */
export type Family = 'syntax' | 'form' | 'name' | 'sequence' | 'barrier' | 'unused';

export const families: readonly Family[] = ['syntax', 'form', 'name', 'sequence', 'barrier', 'unused'];

/** Where a code comes from: the reference's published list, its unlisted ones, or ours alone. */
export type CodeOrigin = 'published' | 'unlisted' | 'catalogue';

export interface CodeInfo {
  readonly code: DiagnosticCode;
  readonly family: Family;
  /** The severity a diagnostic of this code always has. */
  readonly severity: Severity;
  /** One line on what is wrong, for a listing of the codes. */
  readonly summary: string;
  readonly origin: CodeOrigin;
}

const table = [
  ['flow.barrier.after-order', 'warning', "An 'after' waits for a step written later in the flow, or for its own statement."],
  ['flow.barrier.cancel-after-wait', 'warning', 'A call is cancelled after the same body has already waited for it to finish.'],
  ['flow.barrier.carry-outside-repeat', 'error', "A '<-' appears where no enclosing 'repeat' could receive the value."],
  ['flow.barrier.duplicate', 'weak-warning', "A 'wait' or 'drain' repeats one this body already holds for."],
  ['flow.barrier.duplicate-carry', 'error', "One pass of a 'repeat' carries its value twice."],
  ['flow.barrier.duplicate-until', 'error', "A loop has more than one 'until'/'while'."],
  ['flow.barrier.until-outside-repeat', 'error', "An 'until' or 'while' stands outside every 'repeat' and 'for'."],
  ['flow.barrier.until-parallel', 'error', "An 'until' on a 'for … parallel' loop, whose passes have no single latest one to ask."],
  ['flow.barrier.wrong-carry', 'error', "A '<-' names something other than the value its 'repeat' carries."],
  ['flow.form.advance-in-loop', 'error', "An 'advance' inside a loop names a value bound outside it, so every pass would see the same value."],
  ['flow.form.bad-number', 'error', 'A number that cannot be read.'],
  ['flow.form.bad-pattern', 'error', "A 'match' pattern that cannot be read: an unclosed hole, an unknown kind, or a name used twice."],
  ['flow.form.bind-many-targets', 'error', 'A name is given to a pipe with several destinations, which is several steps.'],
  ['flow.form.count-not-positive', 'warning', "A count below one, such as 'parallel 0' or 'skip -1'."],
  ['flow.form.default-on-required', 'warning', 'A required field also has a default, which can never apply.'],
  ['flow.form.duplicate-field', 'error', 'A struct declares the same field twice.'],
  ['flow.form.duplicate-flow', 'error', 'A file declares two flows with one name, or two entry flows.'],
  ['flow.form.duplicate-port', 'error', 'A flow declares the same port twice in one direction.'],
  ['flow.form.duplicate-struct', 'error', 'A file declares two structs with one name.'],
  ['flow.form.duration-unit', 'error', 'A number followed by a suffix that is not a duration unit.'],
  ['flow.form.empty-range', 'error', 'A field range with no bounds, or with its bounds reversed.'],
  ['flow.form.field-constraint', 'error', "A field constraint that cannot apply to the field's type, such as 'matching' on a number."],
  ['flow.form.field-modifier-order', 'warning', "A field's modifiers are out of their reading order."],
  ['flow.form.field-type-mismatch', 'error', "A field's default or allowed value is not a value of the field's type."],
  ['flow.form.fold-name', 'error', "A 'fold' or 'scan' without 'as NAME' for the value it carries."],
  ['flow.form.fold-start', 'error', "A 'fold' or 'scan' whose starting value is not a constant."],
  ['flow.form.forward-headers', 'error', "'headers' written without the 'forward' it belongs to."],
  ['flow.form.into-without-try', 'error', "An 'into' on a stage that is not a 'try' stage."],
  ['flow.form.log-format', 'error', "A 'logf' with no format string."],
  ['flow.form.log-value', 'error', "A 'log' with nothing to write."],
  ['flow.form.missing-field', 'error', 'A value of a declared struct leaves out a required field that has no default.'],
  ['flow.form.node-parentheses', 'error', "'node' without its parentheses: 'node()' or 'node(id)'."],
  ['flow.form.not-json-representable', 'error', "'| json' on values that hold bytes; only '| packb' can carry them."],
  ['flow.form.one-of-empty', 'error', "'one of []' allows no value at all."],
  ['flow.form.one-of-not-a-list', 'error', "'one of' followed by something other than a list of constants."],
  ['flow.form.port-modifier-order', 'error', "'stream' or 'required' before a port's type instead of after it."],
  ['flow.form.repeated-modifier', 'error', 'A modifier that can only be said once is written twice.'],
  ['flow.form.stage-argument', 'error', 'A stage without the argument it takes, or with one of the wrong kind.'],
  ['flow.form.stage-not-parallel', 'error', "'parallel' on a stage that gathers or orders the stream."],
  ['flow.form.struct-shadows-builtin', 'error', 'A struct named like a built-in type.'],
  ['flow.form.unbounded-repeat', 'error', "A 'repeat' with no 'until', 'while' or 'max' to end it."],
  ['flow.form.unconditional-abort', 'error', "An 'abort' at the top of a body with no 'after', so it runs immediately."],
  ['flow.form.unconditional-cancel', 'error', "A 'cancel' at the top of a body with no 'after', so it runs immediately."],
  ['flow.form.unconditional-fail', 'error', "A 'fail' at the top of a body with no 'after', so it runs immediately."],
  ['flow.form.unconditional-log', 'error', "A 'log' at the top of a body with no 'after', so it runs immediately."],
  ['flow.form.unconditional-logf', 'error', "A 'logf' at the top of a body with no 'after', so it runs immediately."],
  ['flow.form.unknown-builtin', 'error', 'A function call to something that is not a built-in function.'],
  ['flow.form.unknown-field', 'error', 'A field the struct or pattern describing the value does not have.'],
  ['flow.form.unknown-log-level', 'error', 'A log level that is not one of debug, info, warning, error, critical.'],
  ['flow.form.unknown-stage', 'error', 'A pipeline stage the language does not have.'],
  ['flow.form.unknown-status-code', 'error', "A 'fail' or 'abort' code that is not a canonical status code, a number or a value."],
  ['flow.form.unknown-type', 'error', 'A type that is not built in, not a struct of the file, not a dotted registry tag and not a quoted mimetype.'],
  ['flow.form.unordered-without-parallel', 'warning', "'unordered' on a stage that has no 'parallel'."],
  ['flow.form.wait-all-has-no-value', 'error', "'wait all of' used as a value; only 'wait first of' has one."],
  ['flow.form.wait-of-one', 'warning', "'wait first of' or 'wait all of' with a single subject."],
  ['flow.form.zip-empty', 'error', "'zip' or 'interleave' with no streams."],
  ['flow.name.call-as-stream', 'error', 'A call used where one of its ports was meant.'],
  ['flow.name.it-outside-stage', 'error', "'it' outside a stage that gives it a value."],
  ['flow.name.no-status', 'error', 'A status asked of something that has none.'],
  ['flow.name.not-a-call', 'error', 'Something that is not a call named where a call is required.'],
  ['flow.name.not-a-stream', 'error', 'Something that cannot be read used as a pipeline source.'],
  ['flow.name.not-advanceable', 'error', "'advance' on something other than a value a 'let' bound."],
  ['flow.name.not-runnable', 'error', "'run' of an action that has no handler where the flow runs; it has to be 'call'ed."],
  ['flow.name.not-writable', 'error', "A write to something that cannot be written: an 'in' port, a call's output, a barrier."],
  ['flow.name.taken', 'error', 'A name bound twice in one scope.'],
  ['flow.name.unknown', 'error', 'A name nothing has bound yet; a flow reads in order.'],
  ['flow.name.unknown-action', 'error', 'An action that is neither in the catalogue nor a flow of the same file.'],
  ['flow.name.unknown-node-map', 'error', "A node map used before a 'nodes' declares it."],
  ['flow.name.unknown-port', 'error', 'A port the called action or flow does not declare.'],
  ['flow.sequence.impossible', 'warning', "Stages that cannot produce what they appear to, such as 'first 0' or counting one value."],
  ['flow.sequence.redundant-stage', 'weak-warning', 'A stage with nothing to do, such as choosing among a single value or repeating a reshaping.'],
  ['flow.sequence.skip-count-target', 'error', "A counted 'skip' on a pipeline rather than a port or node; '| drop n' drops from a pipeline."],
  ['flow.syntax.constant-required', 'error', 'An expression where only a constant may stand.'],
  ['flow.syntax.nesting-too-deep', 'error', 'Brackets, blocks or bodies nested deeper than the parser descends.'],
  ['flow.syntax.statement-end', 'error', 'More text after a complete statement; statements end at a line break.'],
  ['flow.syntax.unclosed', 'error', 'A flow, block, call, list or record that is never closed.'],
  ['flow.syntax.unexpected', 'error', 'Text where the grammar expects something else.'],
  ['flow.syntax.unexpected-character', 'error', 'A character that means nothing anywhere in the language.'],
  ['flow.syntax.unterminated-string', 'error', 'A string not closed before its line ends.'],
  ['flow.unused.barrier-name', 'weak-warning', 'A name given to a barrier that nothing reads; the barrier still holds.'],
  ['flow.unused.header', 'weak-warning', 'A header alias nothing reads.'],
  ['flow.unused.loop-variable', 'weak-warning', "A 'for' variable no pass reads."],
  ['flow.unused.node-map', 'weak-warning', 'A node map nothing is placed in.'],
  ['flow.unused.output-port', 'warning', "An 'out' port nothing writes, so its reader gets nothing."],
  ['flow.unused.struct', 'weak-warning', 'A struct nothing in the file names.'],
  ['flow.unused.try-pipe', 'weak-warning', "An unnamed 'try' pipe, whose failure nothing can read."],
  ['flow.unused.try-status', 'weak-warning', "A 'try' call whose status nothing reads, so a failure goes unnoticed."],
  ['flow.unused.value', 'warning', "A 'let' nothing reads, so the stream behind it is never read either."],
] as const satisfies readonly (readonly [string, Severity, string])[];

/** Every code this project can report. */
export type DiagnosticCode = (typeof table)[number][0];

/** Codes the reference emits without listing them in `flow.codes/v1`. */
const unlisted: ReadonlySet<string> = new Set([
  'flow.form.fold-name',
  'flow.form.fold-start',
  'flow.form.into-without-try',
  'flow.form.stage-not-parallel',
  'flow.form.unordered-without-parallel',
  'flow.form.wait-all-has-no-value',
  'flow.form.wait-of-one',
]);

/** Codes only a check against a catalogue of actions produces. */
const catalogueOnly: ReadonlySet<string> = new Set(['flow.name.not-runnable', 'flow.name.unknown-action']);

/** The family of a code: its middle segment. */
export function familyOf(code: string): Family {
  const family = code.split('.')[1];
  return (families as readonly string[]).includes(family ?? '') ? (family as Family) : 'syntax';
}

/** Every code, sorted by code. */
export const knownCodes: readonly CodeInfo[] = table.map(([code, severity, summary]) => ({
  code,
  family: familyOf(code),
  severity,
  summary,
  origin: catalogueOnly.has(code) ? 'catalogue' : unlisted.has(code) ? 'unlisted' : 'published',
}));

const byCode = new Map<string, CodeInfo>(knownCodes.map((info) => [info.code, info]));

/** The table's entry for a code, or undefined when nothing here defines it. */
export function findCode(code: string): CodeInfo | undefined {
  return byCode.get(code);
}

/** Narrows a string to a known code. */
export function isDiagnosticCode(code: string): code is DiagnosticCode {
  return byCode.has(code);
}

/** The `flow.codes/v1` envelope of the table, as the reference's `a11 flow codes --format json` writes it. */
export function codesEnvelope(): { format: 'flow.codes/v1'; codes: { code: string; family: Family; severity: Severity; summary: string }[] } {
  return {
    format: 'flow.codes/v1',
    codes: knownCodes.map(({ code, family, severity, summary }) => ({ code, family, severity, summary })),
  };
}

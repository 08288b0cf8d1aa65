/**
 * Agreement between our syntax layer (`parseFlow`) and the reference parser (`a11 flow parse`,
 * through `a11 flow serve`): on each source, whether the parser finds an error, the first error's
 * code, and its line:column. The parser alone — what the checker adds is measured by
 * agreement.ts. Shared by the syntax differential test and bench/syntax-agreement.ts.
 */
import { SourceText } from '../../src/flow/diagnostics/source-text';
import { parseFlow } from '../../src/flow/syntax/parse';
import { agreementRates, compareFirstErrors, type Agreement, type AgreementRates } from './agreement';
import type { ReferenceChecker, ReferenceDiagnostic } from './reference-checker';

export interface SyntaxCase {
  name: string;
  source: string;
  note?: string;
}

export interface FirstSyntaxError {
  code: string;
  /** `line:column`, 1-based, columns in code points. */
  at: string;
  message: string;
}

export interface SyntaxOutcome extends Agreement {
  case: SyntaxCase;
  ours: FirstSyntaxError | null;
  theirs: FirstSyntaxError | null;
}

export type SyntaxAgreement = AgreementRates<SyntaxOutcome>;

const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The reference's first error: its problems in presentation order (offset, code, message). */
function theirFirst(diagnostics: readonly ReferenceDiagnostic[]): FirstSyntaxError | null {
  const first = diagnostics
    .filter((diagnostic) => diagnostic.severity === 'error')
    .sort((a, b) => a.range.start.offset - b.range.start.offset || byteOrder(a.code, b.code) || byteOrder(a.message, b.message))[0];
  return first ? { code: first.code, at: `${first.range.start.line}:${first.range.start.column}`, message: first.message } : null;
}

/** Our first error (parseFlow's problems are already in presentation order). */
export function ourFirstSyntaxError(source: string): FirstSyntaxError | null {
  const first = parseFlow(source).diagnostics.find((problem) => problem.severity === 'error');
  if (!first) return null;
  const { line, column } = new SourceText(source).position(first.from);
  return { code: first.code, at: `${line}:${column}`, message: first.message };
}

export async function measureSyntaxAgreement(cases: readonly SyntaxCase[], reference: ReferenceChecker): Promise<SyntaxAgreement> {
  const answers = await Promise.all(cases.map((one) => reference.parse(one.source)));
  const outcomes = cases.map((one, index): SyntaxOutcome => {
    const theirs = theirFirst(answers[index]!.diagnostics);
    const ours = ourFirstSyntaxError(one.source);
    return { case: one, ours, theirs, ...compareFirstErrors(ours, theirs) };
  });
  return agreementRates(outcomes);
}

/** One line per mismatch, for a person to read. */
export function describeSyntaxMismatch(outcome: SyntaxOutcome): string {
  const say = (first: FirstSyntaxError | null): string => (first ? `${first.code} at ${first.at} (${first.message})` : 'no error');
  return `${outcome.case.name}${outcome.case.note ? ` (${outcome.case.note})` : ''}:\n    ours      ${say(outcome.ours)}\n    reference ${say(outcome.theirs)}`;
}

/**
 * Agreement between our checker and the reference on a set of sources: whether each has an
 * error, which code the first error has, and where (line:column) it is. Shared by the
 * differential test and `bench/agreement.ts`, so both measure the same thing.
 */

import { compileFlow } from '../../src/flow/compile.js';
import { diagnosticsEnvelope } from '../../src/flow/diagnostics/wire.js';
import { ReferenceChecker, type ReferenceDiagnostic } from './reference-checker.js';

export interface Case {
  name: string;
  source: string;
  /** What was done to it, for a mutation. */
  note?: string;
}

/** The `flow.form` codes the reference decides while lexing or parsing, which the syntax layer reports. */
const PARSER_CODES = new Set(
  [
    'duration-unit', 'bad-number', 'unknown-stage', 'unknown-builtin', 'stage-argument', 'fold-start', 'fold-name',
    'stage-not-parallel', 'unordered-without-parallel', 'into-without-try', 'node-parentheses', 'port-modifier-order',
    'forward-headers', 'log-format', 'log-value', 'wait-of-one', 'zip-empty', 'field-modifier-order', 'repeated-modifier',
    'one-of-not-a-list', 'one-of-empty',
  ].map((name) => `flow.form.${name}`),
);

interface FirstError {
  code: string;
  at: string;
  family: string;
}

/** Whether two first errors agree: on there being one, on its code, on its `line:column`. */
export interface Agreement {
  errorAgrees: boolean;
  codeAgrees: boolean;
  positionAgrees: boolean;
}

export function compareFirstErrors(ours: { code: string; at: string } | null, theirs: { code: string; at: string } | null): Agreement {
  const errorAgrees = (ours === null) === (theirs === null);
  return {
    errorAgrees,
    codeAgrees: errorAgrees && (ours === null || ours.code === theirs?.code),
    positionAgrees: errorAgrees && (ours === null || ours.at === theirs?.at),
  };
}

/** The share of outcomes agreeing on each of the three (1 for no outcomes). */
export interface AgreementRates<Outcome extends Agreement> {
  cases: number;
  errorRate: number;
  codeRate: number;
  positionRate: number;
  outcomes: Outcome[];
}

export function agreementRates<Outcome extends Agreement>(outcomes: Outcome[]): AgreementRates<Outcome> {
  const rate = (test: (outcome: Outcome) => boolean) => (outcomes.length ? outcomes.filter(test).length / outcomes.length : 1);
  return {
    cases: outcomes.length,
    errorRate: rate((outcome) => outcome.errorAgrees),
    codeRate: rate((outcome) => outcome.codeAgrees),
    positionRate: rate((outcome) => outcome.positionAgrees),
    outcomes,
  };
}

export interface CaseOutcome extends Agreement {
  case: Case;
  ours: FirstError | null;
  theirs: FirstError | null;
  /** Whether either side's parser found the text unreadable (so the trees may differ in recovery). */
  parserTrouble: boolean;
}

export type AgreementReport = AgreementRates<CaseOutcome>;

function firstError(diagnostics: readonly Pick<ReferenceDiagnostic, 'code' | 'severity' | 'family' | 'range'>[]): FirstError | null {
  const first = diagnostics.find((diagnostic) => diagnostic.severity === 'error');
  return first ? { code: first.code, at: `${first.range.start.line}:${first.range.start.column}`, family: first.family } : null;
}

/** Our diagnostics, as `flowplay check --format json` would report them. */
export function ourDiagnostics(source: string): Pick<ReferenceDiagnostic, 'code' | 'severity' | 'family' | 'range'>[] {
  try {
    return diagnosticsEnvelope('-', compileFlow(source, { sourceName: '-' }).diagnostics).diagnostics;
  } catch (error) {
    // A crash is a disagreement the report should show, not a reason to stop measuring.
    const nowhere = { offset: 0, line: 0, column: 0 };
    return [{ code: `crash: ${(error as Error).message}`, severity: 'error', family: 'crash', range: { start: nowhere, end: nowhere } }];
  }
}

const parserError = (diagnostic: Pick<ReferenceDiagnostic, 'code' | 'severity' | 'family'>) =>
  diagnostic.severity === 'error' && (diagnostic.family === 'syntax' || PARSER_CODES.has(diagnostic.code));

export async function measureAgreement(cases: readonly Case[], checker = new ReferenceChecker()): Promise<AgreementReport> {
  const outcomes: CaseOutcome[] = [];
  try {
    const answers = await Promise.all(cases.map((one) => checker.check(one.source)));
    cases.forEach((one, index) => {
      const reference = answers[index]!.diagnostics;
      const mine = ourDiagnostics(one.source);
      const theirs = firstError(reference);
      const ours = firstError(mine);
      const parserTrouble = reference.some(parserError) || mine.some(parserError);
      outcomes.push({ case: one, ours, theirs, parserTrouble, ...compareFirstErrors(ours, theirs) });
    });
  } finally {
    checker.close();
  }
  return agreementRates(outcomes);
}

/**
 * A mismatch is the syntax layer's when either parser found something unreadable: the trees then
 * differ in how they recovered, and the checker only reads what it is given.
 */
export function isSyntaxMismatch(outcome: CaseOutcome): boolean {
  return outcome.parserTrouble;
}

/** One line per mismatch, for a report a person reads. */
export function describeMismatch(outcome: CaseOutcome): string {
  const say = (first: FirstError | null) => (first ? `${first.code} at ${first.at}` : 'no error');
  return `${outcome.case.name}${outcome.case.note ? ` (${outcome.case.note})` : ''}: ours ${say(outcome.ours)}, reference ${say(outcome.theirs)}`;
}

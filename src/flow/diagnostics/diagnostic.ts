/**
 * The `flow.diagnostics/v1` model: what every part of the compiler reports, and what every
 * frontend (the CLI, the editor's lint markers, the gateway's `flow_check`) renders.
 *
 * Producers report a {@link Problem} — a code, a message and a span in **UTF-16 offsets** of the
 * source string, which is what Lezer and the checker work in. {@link DiagnosticSink} turns each
 * into a {@link Diagnostic}, which carries both what the wire format needs (UTF-8 byte offsets,
 * 1-based line and code-point column) and what an editor needs (`from`/`to` in UTF-16).
 */

import { findCode, familyOf, type DiagnosticCode, type Family, type Severity } from './codes.js';
import { SourceText, type Position } from './source-text.js';

export type { DiagnosticCode, Family, Severity } from './codes.js';
export type { Position } from './source-text.js';

/** A span of source as a producer reports it: UTF-16 offsets, half-open. */
export interface ProblemEdit {
  from: number;
  to: number;
  /** The replacement; empty deletes the span. */
  text: string;
}

export interface ProblemFix {
  /** What applying it does, as a menu item says it: "Replace '…' with '...'". */
  label: string;
  edits: readonly ProblemEdit[];
}

/**
 * One problem as a producer (the parser, the checker) reports it.
 *
 * `from`/`to` are UTF-16 offsets into the source string. Severity and family come from the code
 * table, so a producer cannot disagree with it. `flow` names the flow the problem is in, where
 * the text got far enough to say.
 */
export interface Problem {
  code: DiagnosticCode;
  message: string;
  from: number;
  to: number;
  flow?: string;
  /** Offered only where exactly one edit is obviously right. */
  fixes?: readonly ProblemFix[];
  /**
   * Overrides the code table's severity, for the rare report the reference makes at another
   * severity than it publishes (its parser reports a bad `skip` count as an error).
   */
  severity?: Severity;
}

/** Half-open span, both ends as byte offset + line + column. */
export interface Range {
  start: Position;
  end: Position;
}

/** One replacement: `start`/`end` are UTF-8 byte offsets (wire), `from`/`to` UTF-16 (editor). */
export interface Edit {
  start: number;
  end: number;
  text: string;
  from: number;
  to: number;
}

export interface Fix {
  label: string;
  edits: Edit[];
}

/** One diagnostic, ready for every frontend. */
export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  family: Family;
  /** What is wrong and how to fix it, in the language's own terms. */
  message: string;
  /** The flow it is in; absent (not empty) when the text did not get far enough to name one. */
  flow?: string;
  range: Range;
  /** The same span in UTF-16 offsets, for CodeMirror. */
  from: number;
  to: number;
  fixes: Fix[];
}

/** Turns problems reported against one source text into diagnostics. */
export class DiagnosticSink {
  readonly source: SourceText;
  readonly diagnostics: Diagnostic[] = [];

  constructor(source: SourceText | string) {
    this.source = typeof source === 'string' ? new SourceText(source) : source;
  }

  /** Records one problem. */
  report(problem: Problem): Diagnostic {
    const diagnostic = toDiagnostic(problem, this.source);
    this.diagnostics.push(diagnostic);
    return diagnostic;
  }

  /** Whether anything recorded so far is an error. */
  hasErrors(): boolean {
    return this.diagnostics.some((diagnostic) => diagnostic.severity === 'error');
  }
}

/** One problem, placed in its source text. */
export function toDiagnostic(problem: Problem, source: SourceText): Diagnostic {
  const info = findCode(problem.code);
  const from = Math.max(0, Math.min(problem.from, source.length));
  const to = Math.max(from, Math.min(problem.to, source.length));
  const diagnostic: Diagnostic = {
    code: problem.code,
    severity: problem.severity ?? info?.severity ?? 'error',
    family: info?.family ?? familyOf(problem.code),
    message: problem.message,
    range: { start: source.position(from), end: source.position(to) },
    from,
    to,
    fixes: (problem.fixes ?? []).map((fix) => ({
      label: fix.label,
      edits: fix.edits.map((edit) => ({
        start: source.byteOffset(edit.from),
        end: source.byteOffset(Math.max(edit.from, edit.to)),
        text: edit.text,
        from: edit.from,
        to: Math.max(edit.from, edit.to),
      })),
    })),
  };
  if (problem.flow) diagnostic.flow = problem.flow;
  return diagnostic;
}

/**
 * The order every frontend presents diagnostics in: by position, then by code, then by message,
 * so two runs over one file agree byte for byte. Returns a new array.
 */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      a.range.start.offset - b.range.start.offset ||
      compareText(a.code, b.code) ||
      compareText(a.message, b.message),
  );
}

/** Byte-order comparison, which is what the reference's sort uses (not locale order). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first error in presentation order, or undefined. */
export function firstError(diagnostics: readonly Diagnostic[]): Diagnostic | undefined {
  return sortDiagnostics(diagnostics).find((diagnostic) => diagnostic.severity === 'error');
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((diagnostic) => diagnostic.severity === 'error');
}

/** `file:L:C: severity: message [code]` — the line a compiler prints. No file, no prefix. */
export function diagnosticToText(diagnostic: Diagnostic, sourceName = ''): string {
  const prefix = sourceName ? `${sourceName}:` : '';
  const { line, column } = diagnostic.range.start;
  return `${prefix}${line}:${column}: ${diagnostic.severity}: ${diagnostic.message} [${diagnostic.code}]`;
}

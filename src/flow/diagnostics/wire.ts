/**
 * `flow.diagnostics/v1` as JSON — the exact shape the reference's `a11 flow check --format json`
 * writes, so a tool reading one reads the other. Offsets are UTF-8 bytes; the editor-only UTF-16
 * offsets stay off the wire.
 */

import type { Diagnostic } from './diagnostic.js';
import { sortDiagnostics } from './diagnostic.js';
import type { Family, Severity } from './codes.js';

export const DIAGNOSTICS_FORMAT = 'flow.diagnostics/v1';

export interface WirePosition {
  offset: number;
  line: number;
  column: number;
}

export interface WireDiagnostic {
  code: string;
  severity: Severity;
  family: Family;
  message: string;
  range: { start: WirePosition; end: WirePosition };
  fixes: { label: string; edits: { start: number; end: number; text: string }[] }[];
  flow?: string;
}

export interface DiagnosticCounts {
  error: number;
  warning: number;
  'weak-warning': number;
  information: number;
}

export interface DiagnosticsEnvelope {
  format: typeof DIAGNOSTICS_FORMAT;
  source: string;
  diagnostics: WireDiagnostic[];
  counts: DiagnosticCounts;
}

export function diagnosticToWire(diagnostic: Diagnostic): WireDiagnostic {
  const position = ({ offset, line, column }: WirePosition): WirePosition => ({ offset, line, column });
  const wire: WireDiagnostic = {
    code: diagnostic.code,
    severity: diagnostic.severity,
    family: diagnostic.family,
    message: diagnostic.message,
    range: { start: position(diagnostic.range.start), end: position(diagnostic.range.end) },
    fixes: diagnostic.fixes.map((fix) => ({
      label: fix.label,
      edits: fix.edits.map(({ start, end, text }) => ({ start, end, text })),
    })),
  };
  if (diagnostic.flow) wire.flow = diagnostic.flow;
  return wire;
}

export function countDiagnostics(diagnostics: readonly Diagnostic[]): DiagnosticCounts {
  const counts: DiagnosticCounts = { error: 0, warning: 0, 'weak-warning': 0, information: 0 };
  for (const diagnostic of diagnostics) counts[diagnostic.severity]++;
  return counts;
}

/** The envelope for one source: sorted diagnostics, and counts so a gate needs no walk. */
export function diagnosticsEnvelope(source: string, diagnostics: readonly Diagnostic[]): DiagnosticsEnvelope {
  return {
    format: DIAGNOSTICS_FORMAT,
    source,
    diagnostics: sortDiagnostics(diagnostics).map(diagnosticToWire),
    counts: countDiagnostics(diagnostics),
  };
}

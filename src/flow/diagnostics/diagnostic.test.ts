import { describe, expect, it } from 'vitest';
import { DiagnosticSink, diagnosticToText, firstError, sortDiagnostics } from './diagnostic.js';
import { diagnosticsEnvelope } from './wire.js';

const source = 'flow t {\n  x § y -> z\n  …\n}\n';

describe('diagnostics', () => {
  it('places a problem in bytes, lines and columns, and keeps UTF-16 for the editor', () => {
    const sink = new DiagnosticSink(source);
    const at = source.indexOf('y');
    const diagnostic = sink.report({ code: 'flow.name.unknown', message: "Unknown name 'y'.", from: at, to: at + 1, flow: 't' });
    expect(diagnostic.severity).toBe('error');
    expect(diagnostic.family).toBe('name');
    expect(diagnostic.range.start).toEqual({ offset: at + 1, line: 2, column: 7 });
    expect(diagnostic.range.end).toEqual({ offset: at + 2, line: 2, column: 8 });
    expect([diagnostic.from, diagnostic.to]).toEqual([at, at + 1]);
  });

  it('carries a fix as byte edits and UTF-16 edits', () => {
    const sink = new DiagnosticSink(source);
    const at = source.indexOf('…');
    const diagnostic = sink.report({
      code: 'flow.syntax.unexpected-character',
      message: "'…' is not a character the language has.",
      from: at,
      to: at + 1,
      fixes: [{ label: "Replace '…' with '...'", edits: [{ from: at, to: at + 1, text: '...' }] }],
    });
    // `§` before it is two bytes, so the byte offset is one more than the UTF-16 one.
    expect(diagnostic.fixes[0]!.edits[0]).toEqual({ start: at + 1, end: at + 4, text: '...', from: at, to: at + 1 });
    expect(diagnostic.flow).toBeUndefined();
  });

  it('sorts by position, then code, then message, and finds the first error', () => {
    const sink = new DiagnosticSink(source);
    sink.report({ code: 'flow.unused.header', message: 'b', from: 3, to: 4 });
    sink.report({ code: 'flow.name.unknown', message: 'b', from: 10, to: 11 });
    sink.report({ code: 'flow.name.unknown', message: 'a', from: 10, to: 11 });
    sink.report({ code: 'flow.form.unknown-type', message: 'z', from: 10, to: 12 });
    const sorted = sortDiagnostics(sink.diagnostics);
    expect(sorted.map((d) => `${d.code}/${d.message}`)).toEqual([
      'flow.unused.header/b',
      'flow.form.unknown-type/z',
      'flow.name.unknown/a',
      'flow.name.unknown/b',
    ]);
    expect(firstError(sink.diagnostics)?.code).toBe('flow.form.unknown-type');
    expect(sink.hasErrors()).toBe(true);
  });

  it('renders the compiler line and the flow.diagnostics/v1 envelope', () => {
    const sink = new DiagnosticSink(source);
    sink.report({ code: 'flow.unused.header', message: 'Nothing reads it.', from: 11, to: 12, flow: 't' });
    sink.report({ code: 'flow.name.unknown', message: "Unknown name 'y'.", from: 15, to: 16, flow: 't' });
    const [header] = sortDiagnostics(sink.diagnostics);
    expect(diagnosticToText(header!, 'a.flow')).toBe('a.flow:2:3: weak-warning: Nothing reads it. [flow.unused.header]');
    expect(diagnosticToText(header!)).toBe('2:3: weak-warning: Nothing reads it. [flow.unused.header]');
    const envelope = diagnosticsEnvelope('a.flow', sink.diagnostics);
    expect(envelope.format).toBe('flow.diagnostics/v1');
    expect(envelope.counts).toEqual({ error: 1, warning: 0, 'weak-warning': 1, information: 0 });
    expect(envelope.diagnostics[1]).toEqual({
      code: 'flow.name.unknown',
      severity: 'error',
      family: 'name',
      message: "Unknown name 'y'.",
      range: { start: { offset: 16, line: 2, column: 7 }, end: { offset: 17, line: 2, column: 8 } },
      fixes: [],
      flow: 't',
    });
  });
});

/**
 * Diagnostics in the editor through @codemirror/lint: the local compiler's on every change, the
 * gateway's flow_check once it answers for the same text, as underlines, gutter markers and a
 * panel whose rows read `line:column code message`. The reference's fixes are quick-fix actions.
 */
import { forEachDiagnostic, linter, setDiagnostics, type Action, type Diagnostic as LintDiagnostic } from '@codemirror/lint';
import type { EditorState, Extension } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import type { Diagnostic, Severity } from '../../flow/diagnostics/diagnostic';
import { SourceText } from '../../flow/diagnostics/source-text';
import type { RemoteProblem } from '../gateway/flow-check';
import type { CheckState } from '../state/check.svelte';

const SEVERITY: Record<Severity, LintDiagnostic['severity']> = {
  error: 'error',
  warning: 'warning',
  'weak-warning': 'info',
  information: 'hint',
};

/** How long typing must pause before the local compiler runs (the marker must show within 300 ms). */
export const LINT_DELAY_MS = 80;

function row(line: number, column: number, code: string, message: string): (view: EditorView) => Node {
  return () => {
    const element = document.createElement('span');
    element.className = 'flow-diagnostic';
    const position = document.createElement('span');
    position.className = 'flow-diagnostic-position';
    position.textContent = `${line}:${column}`;
    const label = document.createElement('code');
    label.className = 'flow-diagnostic-code';
    label.textContent = code;
    element.append(position, ' ', label, ' ', message);
    return element;
  };
}

function fixActions(diagnostic: Diagnostic): Action[] {
  return diagnostic.fixes.map((fix) => ({
    name: fix.label,
    apply(view) {
      view.dispatch({
        changes: fix.edits.map((edit) => ({ from: edit.from, to: edit.to, insert: edit.text })),
        userEvent: 'input.fix',
        scrollIntoView: true,
      });
    },
  }));
}

/** A compiler diagnostic as the editor shows it. */
export function toLintDiagnostic(diagnostic: Diagnostic): LintDiagnostic {
  const { line, column } = diagnostic.range.start;
  return {
    from: diagnostic.from,
    to: diagnostic.to,
    severity: SEVERITY[diagnostic.severity],
    message: `${line}:${column} ${diagnostic.code} ${diagnostic.message}`,
    renderMessage: row(line, column, diagnostic.code, diagnostic.message),
    actions: fixActions(diagnostic),
  };
}

/** The gateway's refusal as the editor shows it. */
export function remoteLintDiagnostic(problem: RemoteProblem, source: string): LintDiagnostic {
  const { line, column } = new SourceText(source).position(problem.from);
  const code = `gateway ${problem.code}`;
  return {
    from: problem.from,
    to: problem.to,
    severity: 'error',
    message: `${line}:${column} ${code} ${problem.message}`,
    renderMessage: row(line, column, code, problem.message),
  };
}

/** Everything to mark in `source`: the local compiler's diagnostics and the gateway's refusal. */
async function diagnosticsFor(check: CheckState, source: string): Promise<LintDiagnostic[]> {
  const shown = (await check.compile(source)).diagnostics.map(toLintDiagnostic);
  const remote = check.remoteProblemFor(source);
  if (remote) shown.push(remoteLintDiagnostic(remote, source));
  return shown;
}

/**
 * Checks the editor's text again now, on the gateway too (after connecting, or when the
 * allow-list changes: the text did not change, but the answer may).
 */
export function recheck(view: EditorView, check: CheckState): void {
  const source = view.state.doc.toString();
  check.resetRemote();
  check.requestRemote(source, () => void mark(view, check, source));
  void mark(view, check, source);
}

/** Shows the diagnostics for `source`, unless the text has moved on meanwhile. */
async function mark(view: EditorView, check: CheckState, source: string): Promise<void> {
  const diagnostics = await diagnosticsFor(check, source);
  if (view.state.doc.toString() !== source || alreadyShown(view.state, diagnostics)) return;
  view.dispatch(setDiagnostics(view.state, diagnostics));
}

/**
 * Whether the editor already shows exactly these diagnostics. Setting the same ones again would
 * close the tooltip someone is reading (and about to click a fix in) for no change at all — which
 * is what the gateway's confirmation of a file it agrees about would otherwise do.
 */
function alreadyShown(state: EditorState, diagnostics: readonly LintDiagnostic[]): boolean {
  const key = (d: LintDiagnostic, from: number, to: number) => `${from}:${to}:${d.severity}:${d.message}`;
  const shown: string[] = [];
  forEachDiagnostic(state, (d, from, to) => shown.push(key(d, from, to)));
  const wanted = diagnostics.map((d) => key(d, d.from, d.to));
  return shown.length === wanted.length && shown.sort().join('\n') === wanted.sort().join('\n');
}

export function flowLinter(check: CheckState): Extension {
  return linter(
    (view) => {
      const source = view.state.doc.toString();
      // The gateway answered for this very text (stale answers never call back): mark it now.
      // (forceLinting would not: it only hurries a lint that is already pending.)
      check.requestRemote(source, () => void mark(view, check, source));
      // CodeMirror drops this answer itself if the text changes before it resolves.
      return diagnosticsFor(check, source);
    },
    { delay: LINT_DELAY_MS },
  );
}

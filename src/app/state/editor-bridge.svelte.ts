import { snippet } from '@codemirror/autocomplete';
import { closeLintPanel, openLintPanel } from '@codemirror/lint';
import { EditorSelection } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { stepInsertion } from '../editor/step-insertion';

/**
 * How panels act on the editor without holding it: insert a step at the cursor (discovery),
 * select a range (plan, problems), focus it. The editor component attaches its view here.
 */
export class EditorBridge {
  #view: EditorView | null = null;
  /** Cursor line and column (1-based), for the status bar. */
  line = $state(1);
  column = $state(1);

  attach(view: EditorView): () => void {
    this.#view = view;
    return () => {
      if (this.#view === view) this.#view = null;
    };
  }

  get view(): EditorView | null {
    return this.#view;
  }

  /** Inserts text at the start of the line after the cursor's, re-indented to the cursor line's indent. */
  insertBlock(text: string): void {
    const view = this.#view;
    if (!view) return;
    const { state } = view;
    const line = state.doc.lineAt(state.selection.main.head);
    const indent = /^\s*/.exec(line.text)?.[0] ?? '';
    const body = text
      .split('\n')
      .map((row) => (row ? indent + row : row))
      .join('\n');
    const at = line.to;
    const insert = `\n${body}`;
    view.dispatch({
      changes: { from: at, insert },
      selection: EditorSelection.cursor(at + insert.length),
      scrollIntoView: true,
      userEvent: 'input',
    });
    view.focus();
  }

  /**
   * Inserts a snippet template (`${field}` placeholders, tab between them) as a statement where
   * one belongs (editor/step-insertion.ts): after the statement the cursor is in, or at the end
   * of the nearest flow when the cursor is outside every flow.
   */
  insertSnippet(template: string): void {
    const view = this.#view;
    if (!view) return;
    const spot = stepInsertion(view.state);
    // First a line holding only the indentation, then the snippet on it: CodeMirror indents a
    // snippet's later lines like the line it starts on, so the template itself carries none.
    const from = spot.kind === 'blank-line' ? spot.from : spot.at;
    const to = spot.kind === 'blank-line' ? spot.to : spot.at;
    const opening = spot.kind === 'blank-line' ? spot.indent : `\n${spot.indent}`;
    view.dispatch({ changes: { from, to, insert: opening }, userEvent: 'input' });
    const at = from + opening.length;
    snippet(template)(view, { label: '' }, at, at);
    view.focus();
  }

  /** Selects a UTF-16 range and scrolls it into view. */
  select(from: number, to: number): void {
    const view = this.#view;
    if (!view) return;
    const length = view.state.doc.length;
    view.dispatch({
      selection: EditorSelection.range(Math.min(from, length), Math.min(to, length)),
      scrollIntoView: true,
    });
    view.focus();
  }

  /** Shows or hides the problems panel under the editor. */
  toggleProblems(): void {
    const view = this.#view;
    if (!view) return;
    if (view.dom.querySelector('.cm-panel-lint')) closeLintPanel(view);
    else openLintPanel(view);
  }

  focus(): void {
    this.#view?.focus();
  }
}

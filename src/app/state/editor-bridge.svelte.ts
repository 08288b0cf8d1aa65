import { snippet } from '@codemirror/autocomplete';
import { closeLintPanel, openLintPanel } from '@codemirror/lint';
import { EditorSelection } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';

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
   * Inserts a snippet template (`${field}` placeholders, tab between them) on a new line after
   * the cursor's, at that line's indentation (or into the cursor's line when it is blank).
   */
  insertSnippet(template: string): void {
    const view = this.#view;
    if (!view) return;
    const line = view.state.doc.lineAt(view.state.selection.main.head);
    const blank = line.text.trim() === '';
    const indent = /^\s*/.exec(line.text)?.[0] || '  ';
    const body = template.replace(/\n/g, `\n${indent}`);
    const from = blank ? line.from : line.to;
    const text = blank ? `${indent}${body}` : `\n${indent}${body}`;
    snippet(text)(view, { label: '' }, from, blank ? line.to : line.to);
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

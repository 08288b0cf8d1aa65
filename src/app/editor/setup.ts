import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, foldGutter, foldKeymap, indentOnInput, indentUnit } from '@codemirror/language';
import { lintGutter, lintKeymap } from '@codemirror/lint';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { EditorState, Prec, type Extension } from '@codemirror/state';
import {
  crosshairCursor,
  drawSelection,
  dropCursor,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  rectangularSelection,
} from '@codemirror/view';
import { flow } from '../../../grammar/language';
import { flowCompletions, type CompletionWorld } from './complete';
import { flowHover } from './hover';
import { flowEditorTheme, hoverTheme } from './theme';

/** What the page does on the playground's own shortcuts, wherever the focus is in the editor. */
export interface EditorCommands {
  /** Mod-Enter. */
  run(): void;
  /** Escape; returns false when there was nothing to cancel, so Escape keeps its editor meaning. */
  cancel(): boolean;
}

/**
 * The editing features every document gets: Flow's grammar (highlighting, folding, indentation,
 * comment toggling with `#`), completion and hover docs (vocabulary, the gateway's actions and
 * ports, names in scope), gutters, history (one per document, because each document keeps
 * its own EditorState), search, bracket matching and closing, and the playground's shortcuts
 * above the editor's defaults (CodeMirror binds Mod-Enter to "insert blank line").
 */
export function baseExtensions(commands: EditorCommands, world: CompletionWorld): Extension[] {
  return [
    Prec.highest(
      keymap.of([
        { key: 'Mod-Enter', run: () => (commands.run(), true), preventDefault: true },
      ]),
    ),
    lineNumbers(),
    highlightActiveLineGutter(),
    foldGutter(),
    lintGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    dropCursor(),
    EditorState.allowMultipleSelections.of(true),
    indentOnInput(),
    indentUnit.of('  '),
    EditorState.tabSize.of(2),
    bracketMatching(),
    closeBrackets(),
    autocompletion({ activateOnTyping: true, icons: false, override: [flowCompletions(world)] }),
    flowHover(world),
    rectangularSelection(),
    crosshairCursor(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    search({ top: true }),
    // Highlighting, folding, indentation and comment tokens (`#`) come with the grammar.
    flow(),
    keymap.of([
      ...closeBracketsKeymap,
      ...defaultKeymap,
      ...searchKeymap,
      ...historyKeymap,
      ...foldKeymap,
      ...completionKeymap,
      ...lintKeymap,
      indentWithTab,
    ]),
    // Escape goes last: it closes completion, search and lint panels first, and cancels a run
    // only when nothing in the editor wanted it.
    Prec.lowest(keymap.of([{ key: 'Escape', run: () => commands.cancel() }])),
    flowEditorTheme,
    hoverTheme,
  ];
}

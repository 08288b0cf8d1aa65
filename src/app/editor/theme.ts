import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import type { Extension } from '@codemirror/state';

/**
 * The editor's look, in the app's CSS variables (app.css), so switching the page theme restyles
 * the editor with no reconfiguration: one theme object serves light and dark.
 */
const chrome = EditorView.theme({
  '&': {
    height: '100%',
    backgroundColor: 'var(--bg)',
    color: 'var(--fg)',
    fontSize: '13.5px',
  },
  '.cm-scroller': { fontFamily: 'var(--font-code)', lineHeight: '1.55' },
  '.cm-content': { caretColor: 'var(--editor-cursor)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--editor-cursor)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--editor-selection) !important',
  },
  '.cm-activeLine': { backgroundColor: 'var(--editor-active-line)' },
  '.cm-gutters': {
    backgroundColor: 'var(--editor-gutter)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--border)',
  },
  '.cm-activeLineGutter': { backgroundColor: 'var(--bg-hover)', color: 'var(--fg)' },
  '.cm-foldPlaceholder': { backgroundColor: 'var(--bg-hover)', border: '1px solid var(--border)', color: 'var(--muted)' },
  '.cm-matchingBracket': { backgroundColor: 'var(--bg-selected)', outline: '1px solid var(--accent)' },
  '.cm-nonmatchingBracket': { color: 'var(--danger)' },
  '.cm-searchMatch': { backgroundColor: '#e3b34155', outline: '1px solid #e3b341' },
  '.cm-searchMatch.cm-searchMatch-selected': { backgroundColor: '#e3b341aa' },
  '.cm-panels': { backgroundColor: 'var(--bg-panel)', color: 'var(--fg)' },
  '.cm-panels.cm-panels-bottom': { borderTop: '1px solid var(--border)' },
  '.cm-panels.cm-panels-top': { borderBottom: '1px solid var(--border)' },
  '.cm-panel input, .cm-panel button, .cm-panel label': { fontSize: '12.5px' },
  '.cm-textfield': { backgroundColor: 'var(--bg)', border: '1px solid var(--border)', color: 'var(--fg)' },
  '.cm-button': { backgroundImage: 'none', backgroundColor: 'var(--bg-raised)', border: '1px solid var(--border)', color: 'var(--fg)' },
  '.cm-tooltip': {
    backgroundColor: 'var(--bg-raised)',
    color: 'var(--fg)',
    border: '1px solid var(--border)',
    borderRadius: 'var(--radius)',
    boxShadow: '0 4px 14px #0003',
  },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: 'var(--bg-selected)', color: 'var(--fg)' },
  '.cm-completionDetail': { color: 'var(--muted)', fontStyle: 'normal', marginLeft: '0.8em' },
  '.cm-completionInfo': { maxWidth: '28em' },
  // A long diagnostic (an unknown builtin lists every builtin) would otherwise span the window
  // from its left edge, covering the code above the mark and the actions panel.
  '.cm-tooltip-lint': { maxWidth: '40em' },
  '.cm-diagnostic': { padding: '3px 8px' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--danger)' },
  '.cm-diagnostic-warning': { borderLeftColor: 'var(--warning)' },
  '.cm-diagnostic-info': { borderLeftColor: 'var(--info)' },
  '.cm-diagnosticAction': { backgroundColor: 'var(--accent)', color: 'var(--accent-fg)', borderRadius: '4px' },
  '.cm-panel.cm-panel-lint ul [aria-selected]': { backgroundColor: 'var(--bg-selected)', color: 'var(--fg)' },
  '.cm-panel.cm-panel-lint ul': { maxHeight: '9em' },
  '.cm-lintRange-error': { textDecorationColor: 'var(--danger)' },
});

/** Token colours: the grammar's highlight tags (grammar/) mapped onto the theme's code colours. */
const highlighting = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.modifier, tags.operatorKeyword, tags.logicOperator], color: 'var(--code-keyword)' },
  { tag: [tags.function(tags.keyword)], color: 'var(--code-function)', fontWeight: '600' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--code-string)' },
  { tag: [tags.docString], color: 'var(--code-comment)' },
  { tag: [tags.number, tags.unit, tags.bool, tags.null, tags.atom, tags.self, tags.constant(tags.variableName)], color: 'var(--code-number)' },
  { tag: [tags.lineComment, tags.comment, tags.docComment], color: 'var(--code-comment)', fontStyle: 'italic' },
  { tag: [tags.typeName, tags.namespace, tags.className, tags.definition(tags.typeName)], color: 'var(--code-type)' },
  { tag: [tags.function(tags.variableName), tags.standard(tags.variableName), tags.macroName], color: 'var(--code-function)' },
  { tag: [tags.function(tags.definition(tags.variableName))], color: 'var(--code-type)', fontWeight: '600' },
  { tag: [tags.definition(tags.variableName), tags.definition(tags.propertyName), tags.labelName], color: 'var(--code-definition)', fontWeight: '600' },
  { tag: [tags.propertyName, tags.attributeName], color: 'var(--code-port)' },
  { tag: [tags.operator, tags.compareOperator, tags.arithmeticOperator, tags.derefOperator], color: 'var(--code-operator)' },
  { tag: [tags.punctuation, tags.separator, tags.bracket, tags.paren, tags.squareBracket, tags.brace], color: 'var(--muted)' },
  { tag: [tags.variableName, tags.name], color: 'var(--code-name)' },
  { tag: tags.invalid, color: 'var(--code-invalid)', textDecoration: 'underline wavy' },
]);

export const flowEditorTheme: Extension = [chrome, syntaxHighlighting(highlighting)];


/** Hover cards (editor/hover.ts). */
export const hoverTheme: Extension = EditorView.theme({
  '.flow-hover': { padding: '6px 9px', maxWidth: '30em', fontSize: '12.5px', lineHeight: '1.45' },
  '.flow-hover-head': { display: 'flex', gap: '0.6em', alignItems: 'baseline' },
  '.flow-hover-head code': { fontWeight: '600' },
  '.flow-hover-kind': { color: 'var(--muted)' },
  '.flow-hover p': { margin: '4px 0 0' },
  '.flow-hover-ports': { listStyle: 'none', margin: '4px 0 0', padding: '0', fontFamily: 'var(--font-code)', fontSize: '11.5px' },
  '.flow-hover-ports.output code': { color: 'var(--code-port)' },
});

/**
 * Flow for CodeMirror: the grammar with folding and indentation, as an `LRLanguage` and a
 * `LanguageSupport` the app's editor installs.
 */
import {
  LRLanguage,
  LanguageSupport,
  continuedIndent,
  delimitedIndent,
  foldInside,
  foldNodeProp,
  indentNodeProp,
} from '@codemirror/language';
import type { Input, PartialParse, Tree, TreeFragment } from '@lezer/common';
import { parser } from './index';
import { LEZER_NESTING_LIMIT, nestingCut } from './scan';

/**
 * A parse that survives thousands of nested brackets. Lezer builds its tree recursively, so a
 * pasted `[[[[…` thousands deep exhausts the stack when the parse finishes; then the document is
 * parsed again up to where it nests deeper than the language reads at all.
 */
function guardedParse(inner: PartialParse, input: Input, fragments: readonly TreeFragment[], ranges: readonly { from: number; to: number }[]): PartialParse {
  let current = inner;
  return {
    advance(): Tree | null {
      try {
        return current.advance();
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        const cut = nestingCut(input.read(0, input.length), LEZER_NESTING_LIMIT);
        current = parser.startParse(input, fragments, ranges);
        current.stopAt(cut < 0 ? Math.floor(input.length / 2) : cut);
        return current.advance();
      }
    },
    get parsedPos() {
      return current.parsedPos;
    },
    stopAt(pos: number) {
      current.stopAt(pos);
    },
    get stoppedAt() {
      return current.stoppedAt;
    },
  };
}

export const flowLanguage = LRLanguage.define({
  name: 'flow',
  parser: parser.configure({
    wrap: guardedParse,
    props: [
      foldNodeProp.add({
        'FlowBody StructBody Block Record List ArgumentList': foldInside,
      }),
      indentNodeProp.add({
        'FlowBody StructBody Block Record': delimitedIndent({ closing: '}' }),
        List: delimitedIndent({ closing: ']' }),
        'ArgumentList ParenExpression PipelineValue BuiltinCall ZipCall': delimitedIndent({ closing: ')' }),
        'PipeStatement CallExpression PortDeclaration HeaderDeclaration FieldDeclaration DescribeItem': continuedIndent(),
      }),
    ],
  }),
  languageData: {
    commentTokens: { line: '#' },
    closeBrackets: { brackets: ['(', '[', '{', '"'] },
    indentOnInput: /^\s*[}\])]$/,
  },
});

/** Flow language support for an editor: `extensions: [flow()]`. */
export function flow(): LanguageSupport {
  return new LanguageSupport(flowLanguage);
}

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
import { parser } from './index';

export const flowLanguage = LRLanguage.define({
  name: 'flow',
  parser: parser.configure({
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

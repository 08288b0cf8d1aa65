/**
 * The Flow grammar's parser, with its highlighting tags. DOM-free: the syntax layer
 * (`src/flow/syntax/`) and the command line use it. The editor's language, with folding and
 * indentation, is `flowLanguage` in `language.ts`.
 */
import { DefaultBufferLength } from '@lezer/common';
import { parser as generated } from './flow.grammar';
import { flowHighlighting } from './highlight';

/**
 * Small tree buffers (128 nodes rather than Lezer's 1024): a buffer is reused whole or not at
 * all, so smaller ones let an incremental reparse after a keystroke redo a few statements
 * rather than a few flows (bench/syntax.ts measures it).
 */
export const parser = generated.configure({ props: [flowHighlighting], bufferLength: 128 });

/**
 * The same parser with Lezer's default 1024-node buffers, for reading a whole file once (the
 * checker's parse), whose tree is never reparsed: fewer, larger buffers are quicker to build and
 * to walk. (A clean file's tree is not built at all now, see `table-parse.ts`; a file with a
 * mistake, which Lezer parses, is checked 3-6% faster than with 128-node buffers.) The tree is
 * the same tree; only how it is stored differs.
 */
export const wholeFileParser = parser.configure({ bufferLength: DefaultBufferLength });

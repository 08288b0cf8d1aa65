/**
 * The Flow grammar's parser, with its highlighting tags. DOM-free: the syntax layer
 * (`src/flow/syntax/`) and the command line use it. The editor's language, with folding and
 * indentation, is `flowLanguage` in `language.ts`.
 */
import { parser as generated } from './flow.grammar';
import { flowHighlighting } from './highlight';

/**
 * Small tree buffers (128 nodes rather than Lezer's 1024): a buffer is reused whole or not at
 * all, so smaller ones let an incremental reparse after a keystroke redo a few statements
 * rather than a few flows (bench/syntax.ts measures it).
 */
export const parser = generated.configure({ props: [flowHighlighting], bufferLength: 128 });

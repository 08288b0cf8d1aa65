/**
 * The Flow grammar's parser, with its highlighting tags. DOM-free: the syntax layer
 * (`src/flow/syntax/`) and the command line use it. The editor's language, with folding and
 * indentation, is `flowLanguage` in `language.ts`.
 */
import { parser as generated } from './flow.grammar';
import { flowHighlighting } from './highlight';

export const parser = generated.configure({ props: [flowHighlighting] });

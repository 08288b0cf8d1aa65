/// <reference types="svelte" />
/// <reference types="vite/client" />

// `.grammar` files are compiled to Lezer parsers by @lezer/generator's Vite plugin.
declare module '*.grammar' {
  import type { LRParser } from '@lezer/lr';
  export const parser: LRParser;
}

// The term ids of a grammar (`x.grammar.terms`), for its external tokenizers.
declare module '*.grammar.terms' {
  const terms: Record<string, number>;
  export = terms;
}

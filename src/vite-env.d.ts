/// <reference types="svelte" />
/// <reference types="vite/client" />

// `.grammar` files are compiled to Lezer parsers by @lezer/generator's Vite plugin.
declare module '*.grammar' {
  import type { LRParser } from '@lezer/lr';
  export const parser: LRParser;
}

/**
 * The local compiler off the page's thread: compiling a large flow takes longer than a frame
 * (bench/ui.ts measures it), so typing never waits for it. One request at a time, in order.
 */
import type { Catalogue } from '../../flow/catalogue';
import { answer, type CompileRequest } from './compile-request';

let catalogue: Catalogue | null = null;
let catalogueVersion = -1;

self.onmessage = (event: MessageEvent<CompileRequest>) => {
  const request = event.data;
  if (request.catalogueVersion !== catalogueVersion && request.catalogue !== undefined) {
    catalogue = request.catalogue;
    catalogueVersion = request.catalogueVersion;
  }
  self.postMessage(answer(request, catalogue));
};

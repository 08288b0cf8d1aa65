/**
 * Diagnostics: the code table, positions in three units, the model and its wire format.
 * Producers report a `Problem` (UTF-16 offsets); `DiagnosticSink`/`toDiagnostic` place it.
 */
export * from './codes.js';
export * from './source-text.js';
export * from './diagnostic.js';
export * from './wire.js';

/**
 * The public entry of the Flow compiler: source text in; the checked program, every diagnostic
 * and the `flow.plan/v1` out.
 *
 *     const { program, diagnostics, plan } = compileFlow(source, { sourceName: 'my.flow' });
 *
 * `program` is present only when no diagnostic is an error; it is what the runtime executes
 * (see `program.ts`). `diagnostics` are sorted for presentation and carry both the wire
 * positions (bytes, line, column) and UTF-16 offsets for the editor. Any input yields an answer:
 * this never throws on bad source.
 */

import type { Tree } from '@lezer/common';
import type { Catalogue } from './catalogue.js';
import { checkSyntaxTree, type CheckResult } from './check/index.js';
import type { Diagnostic } from './diagnostics/diagnostic.js';
import { SourceText } from './diagnostics/source-text.js';
import type { PlanEnvelope } from './plan.js';
import type { Program } from './program.js';
import { parseFlow } from './syntax/parse.js';

export interface CompileOptions {
  /** What diagnostics and the plan call the source: a file name, `-`, or `flow` for `flow_check`. */
  sourceName?: string;
  /** The actions the world offers (`flow.catalogue/v1`); when given, calls are checked against it. */
  catalogue?: Catalogue;
  /**
   * The Lezer tree of exactly this source, when the caller already has one — the editor keeps
   * one up to date incrementally, so checking on a keystroke need not parse the file again.
   */
  tree?: Tree;
}

export interface CompileResult {
  program?: Program;
  diagnostics: Diagnostic[];
  /** `flow.plan/v1` as `flow_check` returns it. */
  plan: PlanEnvelope;
  /** The plan with the parse and resolve diagnostics beside it, as `a11 flow describe` prints it. */
  described: PlanEnvelope;
}

export function compileFlow(source: string, options: CompileOptions = {}): CompileResult {
  const sourceName = options.sourceName ?? 'flow';
  const text = new SourceText(source);
  const parsed = options.tree ? parseFlow(source, options.tree) : parseFlow(source);
  const result: CheckResult = checkSyntaxTree(parsed.ast, text, parsed.diagnostics, {
    sourceName,
    ...(options.catalogue ? { catalogue: options.catalogue } : {}),
  });
  return result;
}

export type { Catalogue } from './catalogue.js';
export { readCatalogue, mergeCatalogues } from './catalogue.js';

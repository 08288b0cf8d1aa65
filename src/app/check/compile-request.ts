/**
 * What the page asks the compiler and what it answers, as plain data (it crosses to a Web
 * Worker): the source, the catalogue to check calls against, and back the diagnostics and plan.
 */
import type { Catalogue } from '../../flow/catalogue';
import { compileFlow } from '../../flow/compile';
import type { Diagnostic } from '../../flow/diagnostics/diagnostic';
import type { PlanEnvelopeLike } from '../gateway/flow-check';

export interface CompileRequest {
  id: number;
  source: string;
  /** Sent only when it changed since the last request (`catalogueVersion` says which it is). */
  catalogue?: Catalogue | null;
  catalogueVersion: number;
}

export interface CompileAnswer {
  id: number;
  source: string;
  diagnostics: Diagnostic[];
  plan: PlanEnvelopeLike;
  /** Milliseconds the compile took where it ran. */
  ms: number;
}

/** Compiles one request (in the worker, or in the page where there is no worker). */
export function answer(request: Omit<CompileRequest, 'catalogue' | 'catalogueVersion'>, catalogue: Catalogue | null): CompileAnswer {
  const started = performance.now();
  const result = compileFlow(request.source, { sourceName: 'flow', ...(catalogue ? { catalogue } : {}) });
  // The plan is made on demand; read it here so it crosses as data.
  const plan = JSON.parse(JSON.stringify(result.plan)) as PlanEnvelopeLike;
  return { id: request.id, source: request.source, diagnostics: result.diagnostics, plan, ms: performance.now() - started };
}

import { compileFlow, type CompileResult } from '../../flow/compile.js';
import { firstError } from '../../flow/diagnostics/diagnostic.js';
import type { Program } from '../../flow/program.js';
import type { PlanEnvelope } from '../../flow/plan.js';
import type { ActionRegistry } from '../../wire/registry.js';
import { StatusCode, StatusError } from '../../wire/status.js';
import { catalogueOf } from './composable.js';
import { SOURCE_NAME } from './schemas.js';
import { verifyCalls } from './verify.js';

export interface CheckedSource {
  program: Program;
  plan: PlanEnvelope;
}

/**
 * Compiles submitted source against what the registry really offers, then applies the rules
 * about who is asking (verifyCalls). A source that does not compile is INVALID_ARGUMENT naming
 * where: `flow:LINE:COLUMN: message`.
 */
export function compileSubmitted(source: string, registry: ActionRegistry, allowed: (name: string) => boolean): CheckedSource {
  const result: CompileResult = compileFlow(source, { sourceName: SOURCE_NAME, catalogue: catalogueOf(registry) });
  const error = firstError(result.diagnostics);
  if (error || !result.program) {
    const where = error ? `${SOURCE_NAME}:${error.range.start.line}:${error.range.start.column}: ` : `${SOURCE_NAME}: `;
    throw new StatusError(StatusCode.INVALID_ARGUMENT, `${where}${error?.message ?? 'the source does not compile.'}`);
  }
  verifyCalls(result.plan, allowed);
  return { program: result.program, plan: result.plan };
}

/** The text of the `source` input, or INVALID_ARGUMENT when there is none. */
export function requiredSource(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, "The 'source' input is required: pass the flow's text.");
  }
  return value;
}

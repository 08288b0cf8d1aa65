/**
 * The checker's entry: a syntax tree (and what the parser already said about it) in; the checked
 * program, every diagnostic, and the plan out.
 *
 * The passes, in order: structs, every flow's ports, every flow's body (names, ports and
 * directions, writability, stages, loops, barriers — `resolve.ts` and what it calls), and, for a
 * file without errors, the inspection for things that do nothing (`inspect.ts`).
 */

import type { Catalogue } from '../catalogue.js';
import { isDiagnosticCode } from '../diagnostics/codes.js';
import { type Diagnostic, type Problem, toDiagnostic, hasErrors, sortDiagnostics } from '../diagnostics/diagnostic.js';
import { SourceText } from '../diagnostics/source-text.js';
import { diagnosticToWire } from '../diagnostics/wire.js';
import type { SourceFile } from '../syntax/ast.js';
import type { SyntaxProblem } from '../syntax/problem.js';
import type { Program } from '../program.js';
import { planOf, type PlanEnvelope } from '../plan.js';
import { inspect } from './inspect.js';
import { collectInto } from './report.js';
import { resolveFile } from './resolve.js';

export interface CheckOptions {
  /** The name diagnostics and the plan give the source: a file name, or `flow` for `flow_check`. */
  sourceName: string;
  /** The actions the world offers; when given, calls are checked against it too. */
  catalogue?: Catalogue;
}

export interface CheckResult {
  /** The checked program — present only when nothing is an error. */
  program?: Program;
  /** Every diagnostic, syntax and semantic, in presentation order. */
  diagnostics: Diagnostic[];
  /** `flow.plan/v1`, exactly as the reference's `flow_check` returns it (partial when the file has errors). */
  plan: PlanEnvelope;
  /**
   * The same plan with the parser's and resolver's diagnostics beside it, as `a11 flow describe
   * --format json` prints it (what `flowplay plan` prints).
   */
  described: PlanEnvelope;
}

/** A parser's problem as a diagnostic problem (its severity comes from the code table). */
export function fromSyntaxProblem(problem: SyntaxProblem): Problem {
  const converted: Problem = {
    code: isDiagnosticCode(problem.code) ? problem.code : 'flow.syntax.unexpected',
    message: problem.message,
    from: problem.from,
    to: problem.to,
    fixes: (problem.fixes ?? []).map((fix) => ({ label: fix.label, edits: fix.edits.map((edit) => ({ ...edit })) })),
    severity: problem.severity,
  };
  if (problem.flow) converted.flow = problem.flow;
  return converted;
}

/** The same problem reported twice, word for word at one place, is one diagnostic. */
function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((diagnostic) => {
    const key = `${diagnostic.code}\u0000${diagnostic.from}\u0000${diagnostic.to}\u0000${diagnostic.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function checkSyntaxTree(file: SourceFile, text: string | SourceText, syntaxProblems: readonly SyntaxProblem[], options: CheckOptions): CheckResult {
  const source = typeof text === 'string' ? new SourceText(text) : text;
  const problems: Problem[] = syntaxProblems.map(fromSyntaxProblem);
  const report = collectInto(problems);
  const resolution = resolveFile(file, source, options.sourceName, report, options.catalogue);
  const resolved = dedupe(problems.map((problem) => toDiagnostic(problem, source)));
  // Made when first asked for: an editor checking on every keystroke never needs them.
  const withPlan = <T extends object>(result: T): T & Pick<CheckResult, 'plan' | 'described'> => {
    let plan: PlanEnvelope | undefined;
    let described: PlanEnvelope | undefined;
    Object.defineProperty(result, 'plan', { enumerable: true, get: () => (plan ??= planOf(resolution.program)) });
    // In the order found — the parser's, then the resolver's — as the reference's describe lists them.
    Object.defineProperty(result, 'described', {
      enumerable: false,
      get: () => (described ??= planOf(resolution.program, resolved.map(diagnosticToWire))),
    });
    return result as T & Pick<CheckResult, 'plan' | 'described'>;
  };
  if (hasErrors(resolved)) return withPlan({ diagnostics: sortDiagnostics(resolved) });
  const findings: Problem[] = [];
  inspect(resolution, file.structs, collectInto(findings));
  const diagnostics = sortDiagnostics(dedupe([...resolved, ...findings.map((problem) => toDiagnostic(problem, source))]));
  return withPlan({ program: resolution.program, diagnostics });
}

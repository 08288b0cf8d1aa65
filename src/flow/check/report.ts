/** How every check reports: a code, a message, where, and the flow (or struct) it is in. */

import type { DiagnosticCode, Problem } from '../diagnostics/diagnostic.js';
import type { Span } from '../program.js';

export type Reporter = (code: DiagnosticCode, message: string, at: Span, flow?: string) => void;

/** A reporter that collects problems into a list. */
export function collectInto(problems: Problem[]): Reporter {
  return (code, message, at, flow) => {
    const problem: Problem = { code, message, from: at.from, to: at.to };
    if (flow) problem.flow = flow;
    problems.push(problem);
  };
}

/** How every check reports: a code, a message, where, the flow (or struct) it is in, and a fix. */

import type { DiagnosticCode, Problem, ProblemFix } from '../diagnostics/diagnostic.js';
import type { Span } from '../program.js';

export type Reporter = (code: DiagnosticCode, message: string, at: Span, flow?: string, fixes?: ProblemFix[]) => void;

/** A reporter that collects problems into a list. */
export function collectInto(problems: Problem[]): Reporter {
  return (code, message, at, flow, fixes) => {
    const problem: Problem = { code, message, from: at.from, to: at.to };
    if (flow) problem.flow = flow;
    if (fixes?.length) problem.fixes = fixes;
    problems.push(problem);
  };
}

/** The one fix that replaces a span's text with another. */
export function replaceWith(at: Span, text: string, written: string): ProblemFix[] {
  return [{ label: `Replace '${written}' with '${text}'`, edits: [{ from: at.from, to: at.to, text }] }];
}

/** "Remove 'try'": the word and the space after it, when `at` is the word `try` as written. */
export function removeTry(text: string, at: Span): ProblemFix[] | undefined {
  if (text.slice(at.from, at.to).toLowerCase() !== 'try') return undefined;
  let end = at.to;
  while (text[end] === ' ' || text[end] === '\t') end++;
  return [{ label: "Remove 'try'", edits: [{ from: at.from, to: end, text: '' }] }];
}

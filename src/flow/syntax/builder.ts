/**
 * The state shared while a Lezer tree is turned into the syntax tree: the source, the problems
 * found, the flow being read (for a problem's `flow`), and how deep the reading has gone.
 */
import type { NodeView as LezerNode } from '../../../grammar/buffer-nodes';
import { peekToken, stringSource, type CharSource, type PeekedToken } from '../../../grammar/scan';
import type { DiagnosticCode } from '../diagnostics';
import type { ErrorNode, Span } from './ast';
import type { SyntaxProblem } from './problem';
import type { Severity } from '../diagnostics';

/** How deep statements and expressions may nest before the reader stops descending (the
 * reference's bound, so `flow.syntax.nesting-too-deep` lands where it does there). */
export const MAX_NESTING = 128;

/** A piece of text as a message quotes it: single quotes, control characters escaped. */
export function quoted(text: string): string {
  return `'${text.replace(/[\\\n\t\r']/g, (letter) => ({ '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r', "'": "\\'" })[letter]!)}'`;
}

export class Builder {
  readonly problems: SyntaxProblem[] = [];
  readonly chars: CharSource;
  /** The flow or struct being read, named on every problem reported inside it. */
  flowName: string | undefined;
  private depth = 0;
  private reportedTooDeep = false;

  constructor(readonly source: string) {
    this.chars = stringSource(source);
  }

  text(node: LezerNode | Span): string {
    return this.source.slice(node.from, node.to);
  }

  span(node: LezerNode | Span): Span {
    return { from: node.from, to: node.to };
  }

  /** The token (as the reference lexer reads it) at or after `offset`. */
  tokenAt(offset: number): PeekedToken {
    return peekToken(this.chars, offset);
  }

  tokenSpanAt(offset: number): Span {
    const token = this.tokenAt(offset);
    return { from: token.from, to: token.to };
  }

  /** What a message says was found at `offset`: the token quoted, or `'end of file'`. */
  found(offset: number): string {
    const token = this.tokenAt(offset);
    return quoted(token.kind === 'end' ? 'end of file' : this.source.slice(token.from, token.to));
  }

  report(code: DiagnosticCode, message: string, at: Span, severity: Severity = 'error', fixes?: SyntaxProblem['fixes']): void {
    const problem: SyntaxProblem = {
      code,
      message,
      from: at.from,
      to: at.to,
      severity,
      ...(this.flowName ? { flow: this.flowName } : {}),
      ...(fixes ? { fixes } : {}),
    };
    this.problems.push(problem);
  }

  /** Reports at the token at or after `offset`. */
  reportAt(code: DiagnosticCode, message: string, offset: number, severity: Severity = 'error'): void {
    this.report(code, message, this.tokenSpanAt(offset), severity);
  }

  /** A stand-in for something that could not be read, at the token at or after `offset`. */
  errorNode(offset: number, expected: string, end = offset): ErrorNode {
    const at = this.tokenSpanAt(offset);
    return { kind: 'error', expected, at, range: { from: Math.min(offset, at.from), to: Math.max(end, at.from) } };
  }

  /**
   * Runs `read` one level deeper, or — past the nesting bound — reports (once per file) and
   * returns `null` so the caller stands an error node in.
   */
  descend<T>(offset: number, read: () => T): T | null {
    this.depth += 1;
    try {
      if (this.depth > MAX_NESTING) {
        if (!this.reportedTooDeep) {
          this.reportedTooDeep = true;
          this.reportAt(
            'flow.syntax.nesting-too-deep',
            `This nests more than ${MAX_NESTING} levels deep, which is deeper than the language reads. Give the inner part a name and refer to it.`,
            offset,
          );
        }
        return null;
      }
      return read();
    } finally {
      this.depth -= 1;
    }
  }
}

/** The children of a node that carry meaning: comments and error markers left out. */
export function childrenOf(node: LezerNode): LezerNode[] {
  const children: LezerNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.type.isError || child.name === 'Comment') continue;
    children.push(child);
  }
  return children;
}

/** The first child named `name`, if any. */
export function childNamed(node: LezerNode, name: string): LezerNode | null {
  for (let child = node.firstChild; child; child = child.nextSibling) if (child.name === name) return child;
  return null;
}

/** The node right after `node` (comments aside), error markers included. */
export function nextOf(node: LezerNode): LezerNode | null {
  let next = node.nextSibling;
  while (next && next.name === 'Comment') next = next.nextSibling;
  return next;
}

/** Whether recovery left an error marker anywhere inside `node`. */
export function hasError(node: LezerNode): boolean {
  // Depth first, without recursion: a subtree may be thousands of levels deep.
  let at: LezerNode | null = node;
  while (at) {
    if (at.type.isError) return true;
    let next: LezerNode | null = at.firstChild;
    while (!next && at && at !== node) {
      next = at.nextSibling;
      if (!next) at = at.parent;
    }
    if (!next) return false;
    at = next;
  }
  return false;
}

/**
 * Where the Lezer parser could not go on: each error node of the tree becomes the problem the
 * reference parser reports there — at the token the reference stops at, with its code.
 *
 * The reference parser, on a token it cannot use, says what it expected (`flow.syntax.unexpected`)
 * and carries on without consuming it; if the token is still there when the statement ends, it
 * also reports `flow.syntax.statement-end` there. At the end of the file inside a body, call or
 * literal it reports `flow.syntax.unclosed`. The same questions are asked of the Lezer tree: what
 * is the token at the error, did the recovered parse use it in the same statement, and what
 * construct was open.
 */
import type { SyntaxNode as LezerNode, Tree } from '@lezer/common';
import type { PeekedToken } from '../../../grammar/scan';
import { quoted, type Builder } from './builder';

/** Nodes that end with an `EndStatement` in the reference: statements and flow/struct items. */
const statementLike = new Set([
  'Bind', 'Carry', 'LetStatement', 'AdvanceStatement', 'BlockStatement', 'CallStatement', 'PipeStatement',
  'SkipStatement', 'WaitStatement', 'DrainStatement', 'CancelStatement', 'AbortStatement', 'FailStatement',
  'LogStatement', 'LogfStatement', 'ForStatement', 'RepeatStatement', 'UntilStatement', 'IfStatement', 'NodesStatement',
  'PortDeclaration', 'HeaderDeclaration', 'DescribeItem', 'FieldDeclaration',
]);

/** Bodies whose items are statements: an error directly in one is at a statement boundary. */
const bodies = new Set(['FlowBody', 'StructBody', 'Block']);

/** The outermost statement-like node holding `node` within its innermost body. */
function statementOf(node: LezerNode | null): LezerNode | null {
  let found: LezerNode | null = null;
  for (let at = node; at; at = at.parent) {
    if (bodies.has(at.name) || at.name === 'SourceFile') break;
    if (statementLike.has(at.name)) found = at;
  }
  return found;
}

/** What the reference names as missing, for an error inside `parent` after `before`. */
function expectation(parent: LezerNode | null, before: LezerNode | null): string {
  const previous = before?.name ?? '';
  switch (parent?.name) {
    case 'SourceFile':
      return "'flow'";
    case 'FlowDeclaration':
    case 'StructDeclaration':
      return previous === 'Struct' ? 'a struct name' : '{';
    case 'PipeStatement':
      return previous === '->' || previous === ',' ? 'a value' : "'->' and a destination port";
    case 'Bind':
      return "'run' or 'call'";
    case 'PortDeclaration':
      return previous === 'PortIn' || previous === 'PortOut' ? 'a port name' : previous === 'Identifier' ? ':' : 'a port type';
    case 'FieldDeclaration':
      return previous === 'FieldName' ? ':' : 'a port type';
    case 'StructBody':
      return "a field ('name: type')";
    case 'ArgumentList':
      return previous === '' ? '(' : previous === '(' || previous === ',' ? 'a port name' : ')';
    case 'Argument':
      return previous === 'Identifier' ? ':' : previous === '' ? 'a port name' : 'a value';
    case 'Pair':
      return previous === 'Identifier' || previous === 'StringLiteral' ? ':' : previous === '' ? 'an object key' : 'a value';
    case 'Record':
      return previous === 'RecordOpen' || previous === ',' ? 'an object key' : '}';
    case 'List':
      return previous === '[' || previous === ',' ? 'a value' : ']';
    case 'LetStatement':
      return previous === 'Identifier' ? "'=' and the stream to read one value of" : 'a name for the value';
    case 'ForStatement':
      return previous === 'For' || previous === ',' ? 'a loop variable' : previous === 'Identifier' ? "'in'" : '{';
    case 'TimeoutModifier':
      return 'a duration';
    case 'Stage':
      return previous === 'StageDuration' ? 'a duration' : previous === 'Parallel' ? 'a count' : 'a value';
    case 'Pipeline':
    case 'PipelineValue':
      return previous === '|' || previous === 'Try' ? 'a stage name' : previous === '(' ? 'a value' : ')';
    case 'MemberExpression':
      return "a name after '.'";
    case 'IndexExpression':
      return previous === '[' ? 'a value' : ']';
    case 'Type':
      return previous === '[' ? 'a port type' : "']' after the type parameters";
    case 'ParenExpression':
    case 'BuiltinCall':
    case 'ZipCall':
      return previous === '(' || previous === ',' ? 'a value' : ')';
    case 'NodeExpression':
      return previous === 'In' ? 'a node map name' : previous === '(' ? 'a value' : ')';
    case 'NodesStatement':
    case 'ViaModifier':
      return 'a node map name';
    case 'CallExpression':
      return previous === 'Run' || previous === 'Call' ? 'an action name' : previous === 'Try' ? "'run' or 'call'" : '(';
    case 'ActionName':
      return previous === '' ? 'an action name' : '(';
    case 'AfterClause':
      return 'a step name';
    case 'CancelStatement':
      return 'a call name';
    case 'AdvanceStatement':
      return 'the value to advance';
    case 'ForwardModifier':
      return previous === 'Forward' ? "'headers'" : 'a header name';
    case 'WithModifier':
    case 'HeaderDeclaration':
    case 'HeaderAssignment':
      return previous === 'String' ? ':' : 'a header name';
    case 'RepeatStatement':
      return previous === 'Max' ? 'a count' : '{';
    case 'IfStatement':
      return '{';
    default:
      return 'a value';
  }
}

/** What an unclosed construct is missing, for the innermost one open at the end of the file. */
function unclosedMessage(builder: Builder, node: LezerNode | null): string {
  for (let at = node; at; at = at.parent) {
    switch (at.name) {
      case 'FlowBody': {
        const name = at.parent?.getChild('FlowName');
        return name ? `Flow ${quoted(builder.text(name))} is missing its closing '}'.` : "The entry flow is missing its closing '}'.";
      }
      case 'StructBody': {
        const name = at.parent?.getChild('Identifier');
        return `Struct ${quoted(name ? builder.text(name) : '')} is missing its closing '}'.`;
      }
      case 'Block':
      case 'Record':
        return "Missing '}'.";
      case 'List':
        return "Missing ']'.";
      case 'ArgumentList': {
        const action = at.parent?.getChild('ActionName');
        return `Call to ${quoted(action ? builder.text(action) : '')} is missing its closing ')'.`;
      }
      case 'BuiltinCall':
      case 'ZipCall':
        return `Call to ${quoted(builder.text(at.firstChild!))} is missing its closing ')'.`;
      default:
        break;
    }
  }
  return '';
}

function previousSibling(node: LezerNode): LezerNode | null {
  let at = node.prevSibling;
  while (at && (at.type.isError || at.name === 'Comment')) at = at.prevSibling;
  return at;
}

/**
 * Whether the recovered parse read the token at `offset` as part of `statement` (rather than
 * skipping it, or starting the next statement with it) — that is, whether the reference, having
 * reported it, would have gone on to use it.
 */
function usedBy(user: LezerNode, statement: LezerNode | null, offset: number): boolean {
  if (statement === null || user.from !== offset) return false;
  for (let at: LezerNode | null = user; at; at = at.parent) {
    if (at.type.isError) return false;
    if (at.from === statement.from && at.name === statement.name) return true;
    // A body's statements are its own; only its opening brace belongs to what holds it.
    if (bodies.has(at.name) && at.from !== offset) return false;
  }
  return false;
}

/** Lists whose items the reference reads in a loop that always moves past a token it cannot read. */
const lists = new Set(['BuiltinCall', 'ZipCall', 'List', 'Record', 'ArgumentList']);
const listOpeners = new Set(['(', '[', 'RecordOpen', ',']);

/** Whether an error sits where an item of a bracketed list starts (after its opener or a comma). */
function atListItem(parent: LezerNode | null, before: LezerNode | null): boolean {
  return parent !== null && lists.has(parent.name) && before !== null && listOpeners.has(before.name);
}

/**
 * Whether the error is a statement's missing `->`, `=` or `<-`: the reference, which chose the
 * statement's form from its first tokens, stops the statement there rather than reading on.
 */
function missingStatementPunctuation(parent: LezerNode | null, before: LezerNode | null): boolean {
  if (parent === null || before === null) return false;
  if ((parent.name === 'Bind' || parent.name === 'Carry') && before.name === 'Identifier') return true;
  if (parent.name === 'ForwardModifier' && before.name === 'Forward') return true;
  return parent.name === 'PipeStatement' && before.name === 'Pipeline';
}

const operations = new Set(['AddExpression', 'CompareExpression', 'AndExpression', 'OrExpression', 'CastExpression']);

/**
 * Whether the recovered parse made something up the reference never would: the opening of a
 * construct (an error node first in its parent: a `{`, a `run`), or an operator between two
 * values. The reference, at the same token, reports it and stops the statement.
 */
function inventedByRecovery(error: LezerNode, parent: LezerNode | null, before: LezerNode | null): boolean {
  if (error.from !== error.to || parent === null) return false;
  if (before === null) return parent.name !== 'SourceFile' && !bodies.has(parent.name) && !namedAtStart.has(parent.name);
  if (parent.name === 'Pipeline') return true;
  return operations.has(parent.name) && before.from === parent.from;
}

/**
 * Constructs that start with a name (or an action's `(`) the reference reads with
 * `ExpectName`/`Expect`: when it is missing, the reference says so and reads on from the same
 * token, as if it had been there.
 */
const namedAtStart = new Set(['Pair', 'Argument', 'ActionName', 'ArgumentList', 'HeaderAssignment']);

/** Comma lists the reference continues only when the right kind of item follows the comma. */
const guardedLists = new Set(['WithModifier', 'ForwardModifier', 'AfterClause']);

/** The outermost node that starts where `error` does and leads down to it through first children. */
function outermostStartingAt(error: LezerNode): LezerNode {
  let construct = error;
  for (let at = error.parent; at && at.from === error.from && firstChildOf(at)?.from === error.from; at = at.parent) {
    if (bodies.has(at.name) || at.name === 'SourceFile') break;
    construct = at;
  }
  return construct;
}

function firstChildOf(node: LezerNode): LezerNode | null {
  let child = node.firstChild;
  while (child && child.name === 'Comment') child = child.nextSibling;
  return child;
}

/**
 * Whether the error is a missing `:` after a name: the reference says so and reads on from the
 * same token — a value after a port argument, a key or a header; a type after a port or field.
 */
function missingColon(parent: LezerNode | null, before: LezerNode | null): 'value' | 'type' | null {
  if (parent === null || before === null) return null;
  if ((parent.name === 'Argument' || parent.name === 'Pair') && (before.name === 'Identifier' || before.name === 'StringLiteral')) return 'value';
  if (parent.name === 'HeaderAssignment' && before.name === 'String') return 'value';
  if (parent.name === 'PortDeclaration' && before.name === 'Identifier') return 'type';
  if (parent.name === 'FieldDeclaration' && before.name === 'FieldName') return 'type';
  // `for x y`: the reference says it wanted `in` and reads the stream from here.
  if (parent.name === 'ForStatement' && before.name === 'Identifier' && !parent.getChild('In')) return 'value';
  return null;
}

/** Whether the reference, reading a value at this token, would use it (`.x` and `[i]` included:
 * a missing value is followed by its postfix). */
function startsValue(builder: Builder, token: PeekedToken): boolean {
  if (token.kind === 'word' || token.kind === 'string' || token.kind === 'number') return true;
  return token.kind === 'punctuation' && ['(', '[', '{', '.', '...', '…'].includes(builder.source.slice(token.from, token.to));
}

/** Tokens after which the reference reads a value (or a stage name, after `|`). */
const valueLeads = new Set([
  '|', '->', ':', '=', 'CompareOp', 'ArithOp', 'And', 'Or', 'Not', 'In', 'As',
  'StageExpression', 'StageOptionalExpression', 'StageThen', 'BareThen', 'BareWhere', 'By',
  'Fail', 'Log', 'Until', 'While', 'If', 'Drain', 'Wait', 'Status', 'Id', 'Ellipsis',
]);

/**
 * Whether the error is where a value should have been. The reference reports the missing value
 * and goes on with the same token as if one had been there, so it uses the token whenever a
 * value could be followed by it.
 */
function valueMissing(parent: LezerNode | null, before: LezerNode | null): boolean {
  if (parent === null) return false;
  if (before === null || before.name === 'BlockOpen' || before.name === 'Newline') return bodies.has(parent.name) && parent.name !== 'StructBody';
  return valueLeads.has(before.name);
}

/** What may follow a value: a postfix, a stage, a pipe, an operator, a separator or a closer. */
const valueFollowers = new Set(['.', '[', '|', '->', '+', '-', '==', '!=', '<', '<=', '>', '>=', ',', ')', ']', '}']);
const valueFollowerWords = new Set(['or', 'and', 'in', 'as', 'after', 'then', 'where']);

/** Whether `token` is the first thing on its line. */
function startsLine(builder: Builder, token: PeekedToken): boolean {
  for (let at = token.from - 1; at >= 0; at -= 1) {
    const code = builder.source.charCodeAt(at);
    if (code === 10) return true;
    if (code !== 32 && code !== 9 && code !== 13) return false;
  }
  return true;
}

/** Constructs inside whose brackets a line break is not the end of a statement. */
const bracketed = new Set(['ArgumentList', 'List', 'Record', 'ParenExpression', 'PipelineValue', 'BuiltinCall', 'ZipCall', 'IndexExpression', 'OutputGroup']);

function insideBrackets(node: LezerNode | null): boolean {
  for (let at = node; at; at = at.parent) {
    if (bracketed.has(at.name)) return true;
    if (bodies.has(at.name)) return false;
  }
  return false;
}

/** What extends a value the reference could not read: a postfix, an operator, or — in a port
 * argument, which is a pipeline — a stage. */
function extendsValue(builder: Builder, token: PeekedToken, pipeline: boolean): boolean {
  const text = builder.source.slice(token.from, token.to);
  if (token.kind !== 'punctuation') return token.kind === 'word' && ['or', 'and', 'in', 'as'].includes(text.toLowerCase());
  return ['.', '[', '+', '-', '==', '!=', '<', '<=', '>', '>='].includes(text) || (pipeline && text === '|');
}

/** Whether the error is where a statement starts (nothing before it in its body). */
function atStatementStart(parent: LezerNode | null, before: LezerNode | null): boolean {
  return parent !== null && bodies.has(parent.name) && (before === null || before.name === 'BlockOpen' || before.name === 'Newline');
}

function continuesValue(builder: Builder, token: PeekedToken, target: boolean, statementStart = false): boolean {
  const text = builder.source.slice(token.from, token.to);
  // A destination is a port or a node: only its postfix or the next destination can follow.
  if (target) return token.kind === 'punctuation' && ['.', '[', ','].includes(text);
  // At the head of a statement nothing closes or separates: only what extends a value does.
  if (statementStart && [')', ']', '}', ','].includes(text)) return false;
  if (token.kind === 'punctuation') return valueFollowers.has(text);
  return token.kind === 'word' && valueFollowerWords.has(text.toLowerCase() === text || text.toUpperCase() === text ? text.toLowerCase() : text);
}

/** Where the reference's recovery stops: the next line break, `}` or the end of the file. */
function endOfLine(builder: Builder, offset: number): number {
  let token = builder.tokenAt(offset);
  while (token.kind !== 'newline' && token.kind !== 'end' && builder.source[token.from] !== '}') token = builder.tokenAt(token.to);
  return token.from;
}

export const MAX_TREE_ERRORS = 200;

/** Reports every error node of `tree`, once per position. */
export function reportTreeErrors(builder: Builder, tree: Tree, stoppedAt = -1): void {
  const seen = new Set<number>();
  const errors: LezerNode[] = [];
  tree.iterate({
    enter(ref) {
      if (ref.type.isError) errors.push(ref.node);
    },
  });
  const finished: LezerNode[] = [];
  // Outside any flow the reference skips to the end of the line after a problem.
  let skipUntil = -1;
  let reported = 0;
  for (const error of errors) {
    // Past this many the rest is noise a reader cannot use (and a pathological file could hold
    // a great many); the first is the one that matters.
    if (reported >= MAX_TREE_ERRORS || (stoppedAt >= 0 && error.from >= stoppedAt)) break;
    reported += 1;
    const token = builder.tokenAt(error.from);
    if (seen.has(token.from)) continue;
    if (finished.some((statement) => error.from >= statement.from && error.to <= statement.to)) continue;
    if (error.from < skipUntil) continue;
    seen.add(token.from);
    const parent = error.parent;
    // The outermost construct the error starts (recovery may have begun a pair or an argument
    // with it), and what holds that construct: the reference's view of where it was.
    const construct = outermostStartingAt(error);
    const container = construct.parent;
    const comma = previousSibling(construct);
    if (container && guardedLists.has(container.name) && comma?.name === ',') {
      // `with "a": x, :` — the reference reads the comma as the end of the list, and then as a
      // token the statement cannot take.
      const at = builder.span(comma);
      if (seen.has(at.from)) continue;
      seen.add(at.from);
      builder.report('flow.syntax.statement-end', `Unexpected ',' after a complete statement; one statement per line.`, at);
      const statement = statementOf(parent);
      if (statement !== null) finished.push(statement);
      continue;
    }
    const found = builder.found(error.from);
    const span = { from: token.from, to: token.to };
    if (token.kind === 'end') {
      const unclosed = unclosedMessage(builder, parent);
      if (unclosed) {
        builder.report('flow.syntax.unclosed', unclosed, span);
        continue;
      }
    }
    if (token.kind === 'punctuation' && builder.source[token.from] === '}' && atListItem(container, previousSibling(construct))) {
      // A list, a call or a record reaching a `}` where its next item should be.
      builder.report('flow.syntax.unclosed', unclosedMessage(builder, container) || "Missing '}'.", span);
      continue;
    }
    builder.report('flow.syntax.unexpected', `Expected ${expectation(parent, previousSibling(error))}, found ${found}.`, span);
    if (parent?.name === 'SourceFile') skipUntil = endOfLine(builder, token.to);
    if (token.kind === 'end' || token.kind === 'newline' || builder.source[token.from] === '}') continue;
    const before = previousSibling(error);
    const statement = statementOf(parent);
    if (statement === null && !bodies.has(parent?.name ?? '')) continue;
    // Where a struct's field should start, the reference skips the line after saying so.
    if (parent?.name === 'StructBody' && (before?.name === 'BlockOpen' || before?.name === 'Newline' || before === null)) continue;
    const colon = missingColon(parent, before);
    const lineHead = startsLine(builder, token) && !insideBrackets(parent);
    const value = valueMissing(parent, before) || lineHead;
    const consumed =
      atListItem(container, previousSibling(construct)) ||
      (parent?.name === 'CallExpression' && before?.name === 'ActionName') ||
      (parent?.name === 'ActionName' && before !== null) ||
      namedAtStart.has(construct.name)
        ? true
        : colon !== null
          ? colon === 'value'
            ? startsValue(builder, token) || extendsValue(builder, token, parent?.name === 'Argument')
            : token.kind === 'word' || token.kind === 'string'
          : value
            ? continuesValue(builder, token, before?.name === '->' || (before?.name === ',' && parent?.name === 'PipeStatement'), lineHead || atStatementStart(parent, before))
            : missingStatementPunctuation(parent, before) || inventedByRecovery(error, parent, before)
            ? false
            : usedBy(tree.resolveInner(token.from, 1), statement, token.from);
    if (!consumed) {
      builder.report('flow.syntax.statement-end', `Unexpected ${found} after a complete statement; one statement per line.`, span);
      // The reference skips the rest of the statement from here, so it says nothing more about it.
      if (statement !== null) finished.push(statement);
    }
  }
}

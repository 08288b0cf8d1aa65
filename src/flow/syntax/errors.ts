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

function enclosing(node: LezerNode | null, names: ReadonlySet<string>): LezerNode | null {
  for (let at = node; at; at = at.parent) if (names.has(at.name)) return at;
  return null;
}

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
      return previous === 'Identifier' ? ':' : 'a port type';
    case 'ArgumentList':
      return previous === '(' || previous === ',' ? 'a port name' : ')';
    case 'Argument':
      return previous === 'Identifier' ? ':' : 'a value';
    case 'LetStatement':
      return previous === 'Identifier' ? "'=' and the stream to read one value of" : 'a name for the value';
    case 'ForStatement':
      return previous === 'For' || previous === ',' ? 'a loop variable' : previous === 'Identifier' ? "'in'" : '{';
    case 'TimeoutModifier':
    case 'Stage':
      return previous === 'Timeout' || previous === 'StageDuration' ? 'a duration' : 'a value';
    case 'List':
      return "']'";
    case 'Record':
      return "'}'";
    case 'IndexExpression':
    case 'Type':
      return ']';
    case 'ParenExpression':
    case 'PipelineValue':
    case 'BuiltinCall':
    case 'ZipCall':
    case 'NodeExpression':
      return ')';
    case 'CallExpression':
      return previous === 'Run' || previous === 'Call' ? 'an action name' : previous === 'Try' ? "'run' or 'call'" : '(';
    case 'ForwardModifier':
      return previous === 'Forward' ? "'headers'" : 'a header name';
    case 'WithModifier':
    case 'HeaderDeclaration':
      return 'a header name';
    case 'RepeatStatement':
    case 'IfStatement':
    case 'NodesStatement':
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

/** Reports every error node of `tree`, once per position. */
export function reportTreeErrors(builder: Builder, tree: Tree): void {
  const seen = new Set<number>();
  const errors: LezerNode[] = [];
  tree.iterate({
    enter(ref) {
      if (ref.type.isError) errors.push(ref.node);
    },
  });
  for (const error of errors) {
    const token = builder.tokenAt(error.from);
    if (seen.has(token.from)) continue;
    seen.add(token.from);
    const found = builder.found(error.from);
    const span = { from: token.from, to: token.to };
    const parent = error.parent;
    if (token.kind === 'end') {
      const unclosed = unclosedMessage(builder, parent);
      if (unclosed) {
        builder.report('flow.syntax.unclosed', unclosed, span);
        continue;
      }
    }
    builder.report('flow.syntax.unexpected', `Expected ${expectation(parent, previousSibling(error))}, found ${found}.`, span);
    if (token.kind === 'end' || token.kind === 'newline' || builder.source[token.from] === '}') continue;
    const statement = statementOf(parent);
    if (statement === null && !bodies.has(parent?.name ?? '')) continue;
    const user = tree.resolveInner(token.from, 1);
    const usedBySameStatement = !user.type.isError && statement !== null && statementOf(user) !== null &&
      statementOf(user)!.from === statement.from && user.from === token.from;
    if (!usedBySameStatement) {
      builder.report('flow.syntax.statement-end', `Unexpected ${found} after a complete statement; one statement per line.`, span);
    }
  }
}

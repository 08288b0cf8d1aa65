/**
 * Statements and calls: from the Lezer tree to the syntax tree.
 */
import type { NodeView as LezerNode } from '../../../grammar/buffer-nodes';
import type {
  BindValue,
  CallArgument,
  CallExpression,
  CallModifiers,
  Expression,
  HeaderAssignment,
  NodeExpression,
  SkipTarget,
  Statement,
  Word,
} from './ast';
import { Builder, childNamed, childrenOf, nextOf, quoted } from './builder';
import { logTail, pipeline } from './build-pipelines';
import {
  expression,
  isExpressionNode,
  reference,
  stringRun,
  value,
  valueAtSkipped,
  waitRace,
  word,
} from './build-expressions';
import { durationSeconds, numberValue } from './literals';

const statementNames = new Set([
  'Bind', 'Carry', 'LetStatement', 'AdvanceStatement', 'BlockStatement', 'CallStatement', 'PipeStatement',
  'SkipStatement', 'WaitStatement', 'DrainStatement', 'CancelStatement', 'AbortStatement', 'FailStatement',
  'LogStatement', 'LogfStatement', 'ForStatement', 'RepeatStatement', 'UntilStatement', 'IfStatement', 'NodesStatement',
]);

export function isStatementNode(node: LezerNode): boolean {
  return statementNames.has(node.name);
}

/** The statements of a body (`{ … }`), in order. */
export function body(builder: Builder, node: LezerNode | null): Statement[] {
  if (!node) return [];
  return childrenOf(node).filter(isStatementNode).map((part) => statement(builder, part));
}

/** One statement: a level of nesting, as the reference counts them. */
export function statement(builder: Builder, node: LezerNode): Statement {
  return builder.descend(node.from, () => readStatement(builder, node)) ?? builder.errorNode(node.from, 'a statement', node.to);
}

function afterClause(builder: Builder, parts: LezerNode[]): Word[] {
  const names: Word[] = [];
  for (const part of parts) {
    if (part.name === 'AfterClause') {
      for (const name of childrenOf(part)) if (name.name === 'Identifier') names.push(word(builder, name));
    }
  }
  return names;
}

function targets(builder: Builder, parts: LezerNode[], arrow: LezerNode | undefined): Expression[] {
  if (!arrow) return [];
  // Nothing readable right after the arrow: the reference's destination is a value it could not
  // read, there, and it stops.
  const direct = nextOf(arrow);
  if (direct?.type.isError) return [builder.errorNode(direct.from, 'a port or a node')];
  return parts
    .filter((part) => part.from >= arrow.to && isExpressionNode(part))
    .map((part) => reference(builder, part, part.from));
}

function wordOrError(builder: Builder, node: LezerNode | undefined, offset: number): Word {
  return node ? word(builder, node) : { text: '', at: builder.tokenSpanAt(offset) };
}

function readStatement(builder: Builder, node: LezerNode): Statement {
  const parts = childrenOf(node);
  const first = parts[0];
  const at = builder.tokenSpanAt(node.from);
  const range = builder.span(node);
  const afterFirst = first ? first.to : node.from;
  // `name` followed by something other than `=` / `<-`: the reference reads a pipe whose source
  // is the name, and stops there (recovery may have supplied the punctuation; the reference did
  // not).
  const punctuation = node.name === 'Bind' ? '=' : node.name === 'Carry' ? '<-' : null;
  if (punctuation !== null && first && nextOf(first)?.name !== punctuation) {
    const source = first ? value(builder, first) : builder.errorNode(node.from, 'a value');
    const pipeline = { kind: 'pipeline' as const, source, stages: [], at: source.at, range: source.range };
    return { kind: 'pipe', pipeline, targets: [], after: [], tolerant: false, at, range: source.range };
  }
  switch (node.name) {
    case 'Bind': {
      const name = wordOrError(builder, first, node.from);
      const equals = parts.find((part) => part.name === '=');
      const valueNode = parts.find((part, index) => index > 1 && part.from >= (equals?.to ?? 0));
      return { kind: 'bind', name, value: bindValue(builder, valueNode, equals ? equals.to : node.to), at: name.at, range };
    }
    case 'Carry':
      return {
        kind: 'carry',
        name: wordOrError(builder, first, node.from),
        pipeline: pipeline(builder, childNamed(node, 'Pipeline'), node.to),
        at,
        range,
      };
    case 'LetStatement': {
      const equals = parts.find((part) => part.name === '=');
      return {
        kind: 'let',
        names: parts.filter((part) => part.name === 'Identifier' && (!equals || part.from < equals.from)).map((part) => word(builder, part)),
        pipeline: pipeline(builder, childNamed(node, 'Pipeline'), equals ? equals.to : node.to),
        at,
        range,
      };
    }
    case 'AdvanceStatement':
      return { kind: 'advance', name: wordOrError(builder, parts[1], afterFirst), at, range };
    case 'BlockStatement':
      return {
        kind: 'block',
        tolerant: parts.some((part) => part.name === 'Try'),
        body: body(builder, childNamed(node, 'Block')),
        at,
        range,
      };
    case 'CallStatement': {
      const call = callExpression(builder, childNamed(node, 'CallExpression') ?? node);
      return { kind: 'call-statement', call, at: call.at, range };
    }
    case 'PipeStatement': {
      const arrow = parts.find((part) => part.name === '->');
      return {
        kind: 'pipe',
        tolerant: first?.name === 'Try',
        pipeline: pipeline(builder, childNamed(node, 'Pipeline'), node.from),
        targets: targets(builder, parts, arrow),
        after: afterClause(builder, parts),
        at,
        range,
      };
    }
    case 'SkipStatement':
      return skip(builder, node, parts);
    case 'WaitStatement':
      return wait(builder, node, parts);
    case 'DrainStatement':
      return {
        kind: 'drain',
        target: reference(builder, parts.find(isExpressionNode), afterFirst),
        after: afterClause(builder, parts),
        at,
        range,
      };
    case 'CancelStatement':
      return { kind: 'cancel', name: wordOrError(builder, childNamed(node, 'Identifier') ?? undefined, afterFirst), after: afterClause(builder, parts), at, range };
    case 'AbortStatement': {
      const [target, code, message] = parts.filter(isExpressionNode);
      return {
        kind: 'abort',
        target: reference(builder, target, afterFirst),
        code: code ? expression(builder, code, code.from) : null,
        message: message ? expression(builder, message, message.from) : null,
        after: afterClause(builder, parts),
        at,
        range,
      };
    }
    case 'FailStatement': {
      const [code, message] = parts.filter(isExpressionNode);
      return {
        kind: 'fail',
        code: code ? expression(builder, code, code.from) : null,
        message: message ? expression(builder, message, message.from) : null,
        after: afterClause(builder, parts),
        at,
        range,
      };
    }
    case 'LogStatement':
    case 'LogfStatement': {
      const formatted = node.name === 'LogfStatement';
      const tail = parts.filter((part) => part.name !== 'AfterClause');
      return {
        kind: 'log',
        formatted,
        log: logTail(builder, first ?? node, tail.slice(1), formatted, false),
        after: afterClause(builder, parts),
        at,
        range,
      };
    }
    case 'ForStatement': {
      const inWord = parts.find((part) => part.name === 'In');
      const skipped = inWord ? undefined : errorAfter(node, parts.filter((part) => part.name === 'Identifier').pop());
      const parallel = parts.find((part) => part.name === 'Parallel');
      const count = parallel ? parts[parts.indexOf(parallel) + 1] : undefined;
      return {
        kind: 'for-each',
        variables: parts.filter((part) => part.name === 'Identifier' && (!inWord || part.from < inWord.from)).map((part) => word(builder, part)),
        pipeline: skipped
          ? { kind: 'pipeline', source: valueAtSkipped(builder, skipped), stages: [], at: builder.tokenSpanAt(skipped.from), range: builder.span(skipped) }
          : pipeline(builder, childNamed(node, 'Pipeline'), inWord ? inWord.to : node.to),
        parallel: count?.name === 'Number' ? Math.trunc(numberValue(builder.text(count)).value) : 1,
        body: body(builder, childNamed(node, 'Block')),
        after: afterClause(builder, parts),
        at,
        range,
      };
    }
    case 'RepeatStatement': {
      const equals = parts.find((part) => part.name === '=');
      const max = parts.find((part) => part.name === 'Max');
      const count = max ? parts[parts.indexOf(max) + 1] : undefined;
      const variable = equals ? parts.find((part) => part.name === 'Identifier' && part.to <= equals.from) : undefined;
      const start = equals ? parts.find((part) => part.from >= equals.to && isExpressionNode(part)) : undefined;
      return {
        kind: 'repeat',
        variable: variable ? word(builder, variable) : null,
        start: equals ? expression(builder, start, equals.to) : null,
        max: count?.name === 'Number' ? Math.trunc(numberValue(builder.text(count)).value) : null,
        body: body(builder, childNamed(node, 'Block')),
        after: afterClause(builder, parts),
        at,
        range,
      };
    }
    case 'UntilStatement':
      return {
        kind: 'until',
        condition: expression(builder, parts.find(isExpressionNode), afterFirst),
        stopWhen: first?.name !== 'While',
        at,
        range,
      };
    case 'IfStatement': {
      const elseWord = parts.find((part) => part.name === 'Else');
      const blocks = parts.filter((part) => part.name === 'Block');
      const elseIf = elseWord ? parts.find((part) => part.name === 'IfStatement' && part.from > elseWord.from) : undefined;
      const thenBlock = blocks.find((block) => !elseWord || block.from < elseWord.from) ?? null;
      const elseBlock = elseWord ? (blocks.find((block) => block.from > elseWord.from) ?? null) : null;
      return {
        kind: 'if',
        condition: expression(builder, parts.find(isExpressionNode), afterFirst),
        thenBody: body(builder, thenBlock),
        elseBody: elseIf ? [statement(builder, elseIf)] : body(builder, elseBlock),
        hasElse: elseWord !== undefined,
        at,
        range,
      };
    }
    case 'NodesStatement': {
      const block = childNamed(node, 'Block');
      return {
        kind: 'nodes',
        name: wordOrError(builder, childNamed(node, 'Identifier') ?? undefined, afterFirst),
        body: body(builder, block),
        hasBody: block !== null,
        at,
        range,
      };
    }
    default:
      return builder.errorNode(node.from, 'a statement', node.to);
  }
}

/** The error marker right after `after` (or first in `node` when `after` is absent), if any. */
function errorAfter(node: LezerNode, after: LezerNode | undefined): LezerNode | undefined {
  const next = after ? nextOf(after) : node.firstChild;
  return next?.type.isError ? next : undefined;
}


function bindValue(builder: Builder, node: LezerNode | undefined, offset: number): BindValue {
  if (!node) return builder.errorNode(offset, 'a call');
  switch (node.name) {
    case 'NodeExpression':
      return nodeExpression(builder, node);
    case 'CallExpression':
      return callExpression(builder, node);
    case 'PipeStatement':
      if (node.firstChild?.name !== 'Try') {
        // Only a tolerated pipe reads as an outcome; the reference asks for a call here and
        // reads no further.
        builder.reportAt('flow.syntax.unexpected', `Expected 'run' or 'call', found ${builder.found(node.from)}.`, node.from);
        builder.reportAt(
          'flow.syntax.statement-end',
          `Unexpected ${builder.found(node.from)} after a complete statement; one statement per line.`,
          node.from,
        );
        return builder.errorNode(node.from, "'run' or 'call'", node.to);
      }
      return statement(builder, node);
    default:
      return isStatementNode(node) ? statement(builder, node) : builder.errorNode(offset, 'a call');
  }
}

function nodeExpression(builder: Builder, node: LezerNode): NodeExpression {
  const parts = childrenOf(node);
  const keyword = parts[0]!;
  const direct = nextOf(keyword);
  const open = direct?.name === '(' ? direct : undefined;
  if (!open) {
    builder.report(
      'flow.form.node-parentheses',
      "Making a node takes parentheses: 'node()', or 'node(id)' to attach to one somebody else named.",
      builder.span(keyword),
    );
  }
  const close = parts.find((part) => part.name === ')');
  const idNode = open ? parts.find((part) => part.from >= open.to && (!close || part.to <= close.from) && isExpressionNode(part)) : undefined;
  const inWord = parts.find((part) => part.name === 'In');
  const map = inWord ? parts.find((part) => part.name === 'Identifier' && part.from >= inWord.to) : undefined;
  return {
    kind: 'node',
    id: idNode ? expression(builder, idNode, idNode.from) : null,
    nodeMap: map ? word(builder, map) : null,
    at: builder.span(keyword),
    range: builder.span(node),
  };
}

export function callExpression(builder: Builder, node: LezerNode): CallExpression {
  const parts = childrenOf(node);
  const verb = parts.find((part) => part.name === 'Run' || part.name === 'Call');
  const actionNode = parts.find((part) => part.name === 'ActionName');
  const argumentList = parts.find((part) => part.name === 'ArgumentList');
  const action = actionNode ? actionName(builder, actionNode) : '';
  const modifiersStart = argumentList ? argumentList.to : node.to;
  return {
    kind: 'call',
    action,
    actionAt: actionNode ? builder.span(actionNode) : builder.tokenSpanAt(verb ? verb.to : node.from),
    mode: verb ? (verb.name === 'Run' ? 'run' : 'call') : null,
    args: argumentList ? callArguments(builder, argumentList) : [],
    modifiers: callModifiers(builder, parts.filter((part) => part.from >= modifiersStart), modifiersStart, node.to),
    tolerant: parts.some((part) => part.name === 'Try'),
    at: builder.tokenSpanAt(node.from),
    range: builder.span(node),
  };
}

function actionName(builder: Builder, node: LezerNode): string {
  const first = node.firstChild!;
  if (first.name === 'String') return stringRun(builder, first);
  return childrenOf(node).filter((part) => part.name === 'Identifier').map((part) => builder.text(part)).join('.');
}

function callArguments(builder: Builder, node: LezerNode): CallArgument[] {
  const built: CallArgument[] = [];
  for (const argument of childrenOf(node).filter((part) => part.name === 'Argument')) {
    const parts = childrenOf(argument);
    const colon = parts.find((part) => part.name === ':');
    const port = wordOrError(builder, parts[0]?.name === 'Identifier' ? parts[0] : undefined, argument.from);
    const skipped = parts[0]?.name === 'Identifier' ? errorAfter(argument, parts[0]) : undefined;
    if (skipped && skipped.from < skipped.to) {
      // `port value` with the colon missing: the reference reads the value where the colon
      // should be, and the call ends there.
      const source = valueAtSkipped(builder, skipped);
      built.push({ port, pipeline: { kind: 'pipeline', source, stages: [], at: source.at, range: source.range } });
      break;
    }
    built.push({ port, pipeline: pipeline(builder, childNamed(argument, 'Pipeline'), colon ? colon.to : argument.to) });
  }
  return built;
}

function callModifiers(builder: Builder, parts: LezerNode[], start: number, end: number): CallModifiers {
  let tee = false;
  let nodeMap: Word | null = null;
  let timeout: number | null = null;
  let actionId: Expression | null = null;
  const after: Word[] = [];
  const headers: HeaderAssignment[] = [];
  const forward: Word[] = [];
  for (const part of parts) {
    const inner = childrenOf(part);
    switch (part.name) {
      case 'Tee':
        tee = true;
        break;
      case 'ViaModifier':
        nodeMap = wordOrError(builder, inner.find((child) => child.name === 'Identifier'), part.to);
        break;
      case 'TimeoutModifier': {
        const duration = inner.find((child) => child.name === 'Duration');
        timeout = duration ? durationSeconds(builder.text(duration)) : 0;
        break;
      }
      case 'IdModifier':
        actionId = expression(builder, inner.find(isExpressionNode), part.to);
        break;
      case 'AfterClause':
        after.push(...afterClause(builder, [part]));
        break;
      case 'ForwardModifier':
        for (const name of inner) if (name.name === 'String') forward.push({ text: stringRun(builder, name), at: builder.span(name) });
        break;
      case 'WithModifier':
        for (const assignment of inner.filter((child) => child.name === 'HeaderAssignment')) {
          const pieces = childrenOf(assignment);
          const nameNode = pieces.find((piece) => piece.name === 'String');
          const colon = pieces.find((piece) => piece.name === ':');
          const skipped = nameNode ? nextOf(nameNode) : null;
          headers.push({
            name: nameNode ? stringRun(builder, nameNode) : '',
            nameAt: nameNode ? builder.span(nameNode) : builder.span(assignment),
            value:
              skipped?.type.isError && skipped.from < skipped.to
                ? valueAtSkipped(builder, skipped)
                : expression(builder, pieces.find(isExpressionNode), colon ? colon.to : assignment.to),
          });
        }
        break;
      case 'StrayHeaders':
        builder.report(
          'flow.form.forward-headers',
          `${quoted(builder.text(part))} belongs to 'forward headers'; write 'forward headers "x-name"'.`,
          builder.span(part),
        );
        break;
      default:
        break;
    }
  }
  return {
    kind: 'call-modifiers',
    tee,
    nodeMap,
    timeout,
    after,
    headers,
    actionId,
    forward,
    at: builder.tokenSpanAt(start),
    range: { from: start, to: Math.max(start, parts.length > 0 ? parts[parts.length - 1]!.to : start, Math.min(end, start)) },
  };
}

function skip(builder: Builder, node: LezerNode, parts: LezerNode[]): Statement {
  const keyword = parts[0];
  const at = builder.tokenSpanAt(node.from);
  const range = builder.span(node);
  const countNode = parts[1]?.name === 'Number' ? parts[1] : undefined;
  const after = afterClause(builder, parts);
  if (countNode) {
    const text = builder.text(countNode);
    const parsed = numberValue(text);
    const valid = parsed.isInteger && parsed.value >= 1;
    if (!valid) {
      builder.report(
        'flow.form.count-not-positive',
        `'skip' counts whole values, so ${text} is not a number of them to skip.`,
        builder.span(countNode),
        'error',
      );
    }
    const targetNode = parts.slice(2).find(isExpressionNode);
    const source = reference(builder, targetNode, countNode.to);
    const target: SkipTarget = {
      form: 'pipeline',
      pipeline: { kind: 'pipeline', source, stages: [], at: builder.tokenSpanAt(countNode.to), range: source.range },
    };
    return { kind: 'skip', targets: [target], after, count: valid ? parsed.value : null, counted: true, at, range };
  }
  const targets: SkipTarget[] = [];
  for (const part of parts) {
    if (part.name === 'Pipeline' || isExpressionNode(part)) {
      targets.push({ form: 'pipeline', pipeline: pipeline(builder, part, part.from) });
    } else if (part.name === 'OutputGroup') {
      const names = childrenOf(part);
      const call = names.find((name) => name.name === 'Identifier');
      targets.push({
        form: 'outputs',
        outputs: names.filter((name) => name.name === 'OutputName').map((name) => word(builder, name)),
        call: wordOrError(builder, call, part.to),
      });
    }
  }
  if (targets.length === 0) targets.push({ form: 'pipeline', pipeline: pipeline(builder, null, keyword ? keyword.to : node.from) });
  return { kind: 'skip', targets, after, count: null, counted: false, at, range };
}

function wait(builder: Builder, node: LezerNode, parts: LezerNode[]): Statement {
  const keyword = parts[0];
  const arrow = parts.find((part) => part.name === '->');
  const timeoutNode = parts.find((part) => part.name === 'TimeoutModifier');
  const duration = timeoutNode ? childNamed(timeoutNode, 'Duration') : null;
  const timeout = timeoutNode ? (duration ? durationSeconds(builder.text(duration)) : 0) : null;
  const common = {
    timeout,
    targets: targets(builder, parts, arrow),
    after: afterClause(builder, parts),
    range: builder.span(node),
  };
  const raced = parts.some((part) => part.name === 'First' || part.name === 'All');
  if (raced) {
    const end = arrow ? arrow.from : timeoutNode ? timeoutNode.from : node.to;
    const subjectParts = parts.filter((part) => part.from < end);
    return waitRace(builder, node, common, subjectParts);
  }
  const subject = parts.find((part, index) => index > 0 && isExpressionNode(part) && (!arrow || part.from < arrow.from));
  return {
    kind: 'wait',
    form: 'one',
    subject: reference(builder, subject, keyword ? keyword.to : node.from),
    subjects: [],
    race: false,
    at: builder.tokenSpanAt(node.from),
    ...common,
  };
}

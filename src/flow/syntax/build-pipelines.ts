/**
 * Pipelines and their stages: from the Lezer tree to the syntax tree.
 */
import type { NodeView as LezerNode } from '../../../grammar/buffer-nodes';
import * as vocabulary from '../vocabulary';
import type { Expression, Pipeline, Stage, StageArgument } from './ast';
import { Builder, childrenOf, hasError, nextOf, quoted } from './builder';
import { expression, isExpressionNode, record, reference, stringRun, value, word } from './build-expressions';
import { constantValue } from './constant';
import { durationSeconds, numberValue } from './literals';

/** `source | stage …` — a `Pipeline` node (or a bare expression standing for one). */
export function pipeline(builder: Builder, node: LezerNode | null | undefined, offset: number): Pipeline {
  if (!node) {
    const source = builder.errorNode(offset, 'a value');
    return { kind: 'pipeline', source, stages: [], at: source.at, range: source.range };
  }
  const parts = node.name === 'Pipeline' ? childrenOf(node) : [node];
  const sourceNode = parts[0] && isExpressionNode(parts[0]) ? parts[0] : undefined;
  const source = expression(builder, sourceNode, node.from);
  const stages: Stage[] = [];
  let tolerant = false;
  for (const part of parts) {
    if (part.name === 'Try') tolerant = true;
    if (part.name === 'Stage' || part.name === 'BareStage') {
      stages.push(stage(builder, part, tolerant, part.name === 'Stage'));
      tolerant = false;
    }
  }
  return { kind: 'pipeline', source, stages, at: builder.tokenSpanAt(node.from), range: builder.span(node) };
}

export function pipelineValue(builder: Builder, node: LezerNode): Expression {
  const parts = childrenOf(node);
  const open = builder.span(parts[0]!);
  const sourceNode = parts.find(isExpressionNode);
  const source = expression(builder, sourceNode, open.to);
  const stages = parts.filter((part) => part.name === 'Stage').map((part) => stage(builder, part, false, true));
  return {
    kind: 'pipeline-value',
    pipeline: { kind: 'pipeline', source, stages, at: open, range: builder.span(node) },
    at: open,
    range: builder.span(node),
  };
}

const stageTokenNames = new Set([
  'StageNone', 'StageCount', 'StageExpression', 'StageOptionalExpression', 'StageString', 'StageOptionalString',
  'StageSort', 'StageFold', 'StageDuration', 'StageThen', 'StageLog', 'StageLogf', 'UnknownStage', 'BareThen', 'BareWhere',
]);

function stage(builder: Builder, node: LezerNode, tolerant: boolean, piped: boolean): Stage {
  const parts = childrenOf(node);
  const keyword = parts.find((part) => stageTokenNames.has(part.name)) ?? parts[0]!;
  const name = vocabulary.canonical(builder.text(keyword));
  const after = parts.slice(parts.indexOf(keyword) + 1);
  const tailStart = after.findIndex((part) => part.name === 'Parallel' || part.name === 'Unordered' || part.name === 'Into');
  const argumentParts = tailStart < 0 ? after : after.slice(0, tailStart);
  const tail = tailStart < 0 ? [] : after.slice(tailStart);
  const at = builder.span(keyword);

  let argument: StageArgument | null;
  if (keyword.name === 'UnknownStage') {
    builder.report('flow.form.unknown-stage', `Unknown stage ${quoted(name)} (known: ${vocabulary.sortedStageNames().join(', ')}).`, at);
    argument = null;
  } else {
    argument = stageArgument(builder, keyword, name, argumentParts);
  }

  let parallel = 1;
  let ordered = true;
  let failures: Expression | null = null;
  for (let index = 0; index < tail.length; index += 1) {
    const part = tail[index]!;
    if (part.name === 'Parallel') {
      const count = tail[index + 1];
      if (count?.name === 'Number') {
        parallel = Math.trunc(numberValue(builder.text(count)).value);
        index += 1;
      }
    } else if (part.name === 'Unordered') {
      ordered = false;
    } else if (part.name === 'Into') {
      const target = tail[index + 1];
      failures = reference(builder, target && isExpressionNode(target) ? target : null, part.to);
      if (target && isExpressionNode(target)) index += 1;
    }
  }
  if (argument !== null) {
    if (parallel > 1 && !vocabulary.parallelStageNames.includes(name)) {
      builder.report(
        'flow.form.stage-not-parallel',
        `'${name}' reads the whole stream, so there is nothing for 'parallel' to run at once. It goes on a stage that reshapes each value, like 'map'.`,
        at,
      );
      parallel = 1;
    }
    if (!ordered && parallel <= 1) {
      builder.report(
        'flow.form.unordered-without-parallel',
        `'unordered' says a parallel stage may finish its values in any order, so it needs 'parallel n'. Without it, '${name}' sees one value at a time and the order is the one it was given.`,
        at,
        'warning',
      );
      ordered = true;
    }
    if (failures !== null && !tolerant) {
      builder.report(
        'flow.form.into-without-try',
        `'into' says where a *tolerated* failure goes, so the stage has to be a 'try': \`try ${name} ... into failures\`.`,
        at,
      );
    }
  }
  return { kind: 'stage', name, piped, argument, tolerant, failures, parallel, ordered, at, range: builder.span(node) };
}


function stageArgument(builder: Builder, keyword: LezerNode, name: string, allParts: LezerNode[]): StageArgument {
  const takes = vocabulary.stageNamed(name)?.takes ?? 'none';
  // A literal argument is read from the token right after the name, or not at all.
  const direct = nextOf(keyword);
  const parts = direct?.type.isError && (takes === 'number' || takes === 'string' || takes === 'fold') ? [] : allParts;
  const expressionPart = parts.find(isExpressionNode);
  switch (takes) {
    case 'none':
      return { takes };
    case 'number': {
      const count = parts.find((part) => part.name === 'Number');
      if (!count) {
        builder.reportAt('flow.form.stage-argument', `Expected a count for ${quoted(name)}, found ${builder.found(keyword.to)}.`, keyword.to);
        return { takes, count: null, isInteger: false, at: null };
      }
      const parsed = numberValue(builder.text(count));
      return { takes, count: parsed.value, isInteger: parsed.isInteger, at: builder.span(count) };
    }
    case 'string':
    case 'string?': {
      const text = parts.find((part) => part.name === 'String');
      if (!text && takes === 'string') {
        builder.reportAt('flow.form.stage-argument', `Expected a pattern for ${quoted(name)}, found ${builder.found(keyword.to)}.`, keyword.to);
      }
      return { takes, text: text ? stringRun(builder, text) : null, at: text ? builder.span(text) : null };
    }
    case 'expr':
    case 'expr?':
      return {
        takes,
        expression: expressionPart || takes === 'expr' ? expression(builder, expressionPart, keyword.to) : null,
      };
    case 'stream':
      return { takes, source: expressionPart ? value(builder, expressionPart) : builder.errorNode(keyword.to, 'a value') };
    case 'sort-key': {
      const by = parts.find((part) => part.name === 'By');
      return {
        takes,
        by: by ? expression(builder, expressionPart, by.to) : null,
        descending: parts.some((part) => part.name === 'Desc'),
      };
    }
    case 'fold':
      return foldArgument(builder, keyword, name, parts);
    case 'duration': {
      const duration = parts.find((part) => part.name === 'Duration');
      return { takes, seconds: duration ? durationSeconds(builder.text(duration)) : null, at: duration ? builder.span(duration) : null };
    }
    case 'log':
    case 'logf':
      return { takes, log: logTail(builder, keyword, parts, takes === 'logf', true) };
  }
}

/** Where recovery left error markers in a record: directly between its pairs, or inside one. */
function childErrors(node: LezerNode): { direct: number | null; nested: boolean } {
  let direct: number | null = null;
  let nested = false;
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.type.isError && child.from < child.to && direct === null) direct = child.from;
    else if (child.name === 'Pair' && child.lastChild && !child.lastChild.type.isError && hasError(child.lastChild)) nested = true;
    else if (child.name === 'Spread' && hasError(child)) nested = true;
  }
  return { direct, nested };
}


const foldStartNames = new Set(['Number', 'StringLiteral', 'String', 'Duration', 'True', 'False', 'Null', 'Record']);

function foldArgument(builder: Builder, keyword: LezerNode, name: string, parts: LezerNode[]): StageArgument {
  const startNode = parts[0] && foldStartNames.has(parts[0].name) ? parts[0] : undefined;
  let start = null;
  if (startNode?.name === 'Record') {
    // A record the reference could not read to its end holds an error value (so it is not a
    // constant) — unless what went wrong is after its last pair, where the record simply ended.
    const stray = childErrors(startNode);
    start = stray.nested ? null : constantValue(record(builder, startNode));
    if (stray.direct !== null && !stray.nested) {
      builder.reportAt(
        'flow.form.fold-name',
        `'${name}' names what it carries: \`${name} 0 as total, total + it\`. Found ${builder.found(stray.direct)}.`,
        stray.direct,
      );
      return { takes: 'fold', start, carried: null, expression: null };
    }
    if (start === null) {
      builder.reportAt(
        'flow.form.fold-start',
        `'${name}' starts from a value that is known before the stream is, so the record it starts from cannot read \`it\` or anything else the stream carries.`,
        startNode.from,
      );
    }
  } else if (startNode) {
    const literal = value(builder, startNode);
    start = literal.kind === 'literal' ? literal.value : null;
  } else {
    builder.reportAt(
      'flow.form.fold-start',
      `'${name}' starts from a literal -- a number, a string, a duration, a record, true, false or null -- and found ${builder.found(keyword.to)}.`,
      keyword.to,
    );
  }
  const as = parts.find((part) => part.name === 'As');
  if (!as) {
    const offset = startNode ? startNode.to : keyword.to;
    builder.reportAt(
      'flow.form.fold-name',
      `'${name}' names what it carries: \`${name} 0 as total, total + it\`. Found ${builder.found(offset)}.`,
      offset,
    );
    return { takes: 'fold', start, carried: null, expression: null };
  }
  const carriedNode = parts.find((part) => part.name === 'Identifier' && part.from > as.from);
  const comma = parts.find((part) => part.name === ',');
  const expressionNode = comma ? parts.find((part) => part.from > comma.from && isExpressionNode(part)) : undefined;
  return {
    takes: 'fold',
    start,
    carried: carriedNode ? word(builder, carriedNode) : null,
    expression: comma ? expression(builder, expressionNode, comma.to) : null,
  };
}

/** What `log`/`logf` carry, as a statement (`inStage` false) or a stage. */
export function logTail(builder: Builder, keyword: LezerNode, parts: LezerNode[], formatted: boolean, inStage: boolean) {
  const levelNode = parts.find((part) => part.name === 'LogLevel' || part.name === 'LogfLevel');
  const formatNode = parts.find((part) => part.name === 'FormatString');
  const values = parts.filter(isExpressionNode);
  const afterLevel = levelNode ? levelNode.to : keyword.to;
  if (formatted && !formatNode) {
    builder.reportAt(
      'flow.form.log-format',
      `A 'logf' takes a format to fill, found ${builder.found(afterLevel)}; write 'log' to log a value as it is.`,
      afterLevel,
    );
  }
  if (!formatted && !inStage && values.length === 0) {
    builder.reportAt(
      'flow.form.log-value',
      levelNode
        ? `A 'log' takes something to log after the level. (If ${quoted(builder.text(levelNode))} is the value, a level of the same name is read first; write the level too.)`
        : "A 'log' takes something to log.",
      afterLevel,
    );
  }
  return {
    level: levelNode ? word(builder, levelNode) : null,
    format: formatNode ? stringRun(builder, formatNode) : null,
    arguments: values.map((part) => expression(builder, part, part.from)),
  };
}


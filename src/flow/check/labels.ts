/**
 * Expressions, stages and pipelines written back as a reader would say them, for step labels
 * (`search.hits | truncate 200 -> brief.pages`) and for messages. Not a formatter: the shortest
 * faithful spelling, the way the reference's plan labels spell it, so `flow.plan/v1` agrees.
 */

import type { Constant, Expression, Pipeline, ScalarConstant, Stage } from '../syntax/ast.js';
import { formatDuration, formatNumber } from './format.js';

/** A constant as a label writes it; a list or record is not spelled out. */
export function constantLabel(value: Constant): string {
  switch (value.kind) {
    case 'string':
      return `"${value.value}"`;
    case 'integer':
      return String(value.value);
    case 'number':
      return formatNumber(value.value);
    case 'bool':
      return value.value ? 'true' : 'false';
    case 'duration':
      return formatDuration(value.seconds);
    default:
      return 'null';
  }
}

function literalLabel(value: ScalarConstant): string {
  return constantLabel(value);
}

/** One expression as a label writes it. */
export function expressionLabel(node: Expression | null | undefined): string {
  if (!node) return '';
  switch (node.kind) {
    case 'literal':
      return literalLabel(node.value);
    case 'name':
      return node.name;
    case 'it':
      return 'it';
    case 'attr':
      return `${expressionLabel(node.base)}.${node.name}`;
    case 'index':
      return `${expressionLabel(node.base)}[${expressionLabel(node.index)}]`;
    case 'builtin':
      return `${node.name}(${node.args.map(expressionLabel).join(', ')})`;
    case 'unary':
      return `${node.op} ${expressionLabel(node.operand)}`;
    case 'binary':
      return `${expressionLabel(node.left)} ${node.op} ${expressionLabel(node.right)}`;
    case 'typed-value':
      return `${node.type.written}{...}`;
    case 'list':
      return '[...]';
    case 'object':
      return '{...}';
    case 'outcome':
      return `status ${expressionLabel(node.subject)}`;
    case 'pipeline-value':
      return `(${pipelineLabel(node.pipeline)})`;
    default:
      return node.kind;
  }
}

/** A pipeline as a label writes it: the source, then ` | stage` for each stage. */
export function pipelineLabel(pipeline: Pipeline): string {
  let label = expressionLabel(pipeline.source);
  for (const stage of pipeline.stages) label += ` | ${stageLabel(stage)}`;
  return label;
}

/** One stage with its tail (`try`, `parallel n`, `unordered`, `into x`) as the author wrote it. */
export function stageLabel(stage: Stage): string {
  let tail = '';
  if (stage.parallel > 1) {
    tail += ` parallel ${stage.parallel}`;
    if (!stage.ordered) tail += ' unordered';
  }
  if (stage.failures) tail += ` into ${expressionLabel(stage.failures)}`;
  const head = stage.tolerant ? 'try ' : '';
  const written = (body: string) => `${head}${body}${tail}`;
  const argument = stage.argument;
  switch (argument?.takes) {
    case 'expr?':
      return written(argument.expression ? `${stage.name} ${expressionLabel(argument.expression)}` : stage.name);
    case 'sort-key': {
      let body = stage.name;
      if (argument.by) body += ` by ${expressionLabel(argument.by)}`;
      if (argument.descending) body += ' desc';
      return written(body);
    }
    case 'fold':
      return written(
        `${stage.name} ${argument.start ? constantLabel(argument.start) : 'null'} as ${argument.carried?.text ?? ''}, ${expressionLabel(argument.expression)}`,
      );
    case 'duration':
      return written(`${stage.name} ${formatDuration(argument.seconds ?? 0)}`);
    default:
      return head || tail ? written(stageBodyLabel(stage)) : stageBodyLabel(stage);
  }
}

/** A stage without its tail. */
function stageBodyLabel(stage: Stage): string {
  const argument = stage.argument;
  switch (argument?.takes) {
    case 'number': {
      const count = argument.count ?? 0;
      return `${stage.name} ${argument.isInteger ? String(Math.trunc(count)) : formatNumber(count)}`;
    }
    case 'string':
    case 'string?':
      return argument.text ? `${stage.name} "${argument.text}"` : stage.name;
    case 'expr':
      return `${stage.name} ${expressionLabel(argument.expression)}`;
    case 'stream':
      return `${stage.name} ${expressionLabel(argument.source)}`;
    case 'log':
    case 'logf': {
      const log = argument.log;
      if (log.format !== null) return `${stage.name} "${log.format}"`;
      if (log.arguments.length === 0) return stage.name;
      return `${stage.name} ${expressionLabel(log.arguments[0])}`;
    }
    default:
      return stage.name;
  }
}

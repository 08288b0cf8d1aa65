/**
 * The shape of the tree in one place: which nodes a node directly holds, in source order.
 *
 * A pass that cares about some node kinds only (which names a body reads, where `it` appears)
 * uses these instead of restating the grammar. {@link forEachNode} walks with an explicit work
 * list, so a deeply nested document never puts its depth on the call stack.
 */
import type { Expression, Pipeline, Stage, Statement, SyntaxNode } from './ast';

function stageChildren(stage: Stage): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const argument = stage.argument;
  if (argument !== null) {
    switch (argument.takes) {
      case 'expr':
      case 'expr?':
        if (argument.expression) out.push(argument.expression);
        break;
      case 'stream':
        if (argument.source) out.push(argument.source);
        break;
      case 'sort-key':
        if (argument.by) out.push(argument.by);
        break;
      case 'fold':
        if (argument.expression) out.push(argument.expression);
        break;
      case 'log':
      case 'logf':
        out.push(...argument.log.arguments);
        break;
      default:
        break;
    }
  }
  if (stage.failures) out.push(stage.failures);
  return out;
}

function pipelineChildren(pipeline: Pipeline): SyntaxNode[] {
  return [pipeline.source, ...pipeline.stages];
}

/** The nodes `node` directly holds, in the order they were written. */
export function childrenOf(node: SyntaxNode): SyntaxNode[] {
  switch (node.kind) {
    case 'source':
      return [...node.structs, ...node.flows].sort((a, b) => a.range.from - b.range.from);
    case 'struct':
      return [...node.fields];
    case 'flow':
      return [...node.ports, ...node.headers, ...node.body].sort((a, b) => a.range.from - b.range.from);
    case 'field':
    case 'port':
    case 'header':
    case 'error':
    case 'literal':
    case 'it':
    case 'name':
    case 'advance':
    case 'cancel':
      return [];
    case 'list':
      return [...node.items];
    case 'object':
      return [...node.pairs];
    case 'pair':
      return [node.value];
    case 'spread':
      return [node.value];
    case 'attr':
      return [node.base];
    case 'index':
      return [node.base, node.index];
    case 'builtin':
      return [...node.args];
    case 'zip':
      return [...node.sources];
    case 'typed-value':
      return [node.value];
    case 'unary':
      return [node.operand];
    case 'binary':
      return [node.left, node.right];
    case 'outcome':
      return [node.subject];
    case 'pipeline-value':
      return [node.pipeline];
    case 'stage':
      return stageChildren(node);
    case 'pipeline':
      return pipelineChildren(node);
    case 'call-modifiers':
      return [...node.headers.map((header) => header.value), ...(node.actionId ? [node.actionId] : [])];
    case 'call':
      return [...node.args.map((argument) => argument.pipeline), node.modifiers];
    case 'node':
      return node.id ? [node.id] : [];
    case 'bind':
      return [node.value];
    case 'let':
      return [node.pipeline];
    case 'block':
      return [...node.body];
    case 'call-statement':
      return [node.call];
    case 'pipe':
      return [node.pipeline, ...node.targets];
    case 'skip':
      return node.targets.flatMap((target) => (target.form === 'pipeline' ? [target.pipeline] : []));
    case 'wait':
      return [...(node.subject ? [node.subject] : []), ...node.subjects, ...node.targets];
    case 'drain':
      return [node.target];
    case 'abort':
      return [node.target, ...(node.code ? [node.code] : []), ...(node.message ? [node.message] : [])];
    case 'fail':
      return [...(node.code ? [node.code] : []), ...(node.message ? [node.message] : [])];
    case 'log':
      return [...node.log.arguments];
    case 'for-each':
      return [node.pipeline, ...node.body];
    case 'repeat':
      return [...(node.start ? [node.start] : []), ...node.body];
    case 'carry':
      return [node.pipeline];
    case 'until':
      return [node.condition];
    case 'if':
      return [node.condition, ...node.thenBody, ...node.elseBody];
    case 'nodes':
      return [...node.body];
  }
}

/**
 * Calls `visit` for `root` and every node below it, parents before children, in source order.
 * Return `false` from `visit` to skip a node's children.
 */
export function forEachNode(root: SyntaxNode, visit: (node: SyntaxNode) => boolean | void): void {
  const pending: SyntaxNode[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (visit(node) === false) continue;
    const children = childrenOf(node);
    for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]!);
  }
}

/** Narrowing helpers a checker reaches for often. */
export function isStatement(node: SyntaxNode): node is Statement {
  return STATEMENT_KINDS.has(node.kind);
}

export function isExpression(node: SyntaxNode): node is Expression {
  return EXPRESSION_KINDS.has(node.kind);
}

const STATEMENT_KINDS: ReadonlySet<string> = new Set([
  'bind', 'let', 'advance', 'block', 'call-statement', 'pipe', 'skip', 'wait', 'drain', 'cancel',
  'abort', 'fail', 'log', 'for-each', 'repeat', 'carry', 'until', 'if', 'nodes',
]);

const EXPRESSION_KINDS: ReadonlySet<string> = new Set([
  'error', 'literal', 'list', 'object', 'it', 'name', 'attr', 'index', 'builtin', 'zip',
  'typed-value', 'unary', 'binary', 'outcome', 'pipeline-value', 'wait',
]);

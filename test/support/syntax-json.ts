/**
 * Our syntax tree written the way the reference writes its own (`a11 flow parse --format json`,
 * the `flow.syntax/v1` envelope), so tests can compare the two trees fact for fact: node kinds,
 * names, values, and every node's anchor position in bytes, lines and code-point columns.
 */
import { SourceText } from '../../src/flow/diagnostics/source-text';
import { constantToPlan } from '../../src/flow/plan';
import type * as ast from '../../src/flow/syntax/ast';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** absl::FormatDuration: `1h30m`, `1m30s`, `250ms`, `0`. */
export function formatDuration(seconds: number): string {
  if (seconds === 0) return '0';
  const sign = seconds < 0 ? '-' : '';
  let rest = Math.abs(seconds);
  if (rest < 1) {
    for (const [unit, scale] of [['ms', 1e3], ['us', 1e6], ['ns', 1e9]] as const) {
      const value = rest * scale;
      if (value >= 1 || unit === 'ns') return `${sign}${trim(value)}${unit}`;
    }
  }
  let text = sign;
  const hours = Math.floor(rest / 3600);
  if (hours > 0) text += `${hours}h`;
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  if (minutes > 0) text += `${minutes}m`;
  rest -= minutes * 60;
  if (rest > 0) text += `${trim(rest)}s`;
  return text;
}

function trim(value: number): string {
  return String(Number(value.toFixed(9)));
}

/** A constant as the reference writes it: the plan's form (durations and records tagged). */
export function constantJson(constant: ast.Constant | null): Json {
  return constant === null ? null : constantToPlan(constant);
}

export class SyntaxJson {
  private readonly text: SourceText;

  constructor(source: string) {
    this.text = new SourceText(source);
  }

  at(span: ast.Span): Json {
    const start = this.text.position(span.from);
    return { start: start.offset, end: this.text.byteOffset(span.to), line: start.line, column: start.column };
  }

  file(file: ast.SourceFile): Json {
    return { flows: file.flows.map((flow) => this.node(flow)), structs: file.structs.map((struct) => this.node(struct)) };
  }

  type(type: ast.TypeExpression): Json {
    return {
      name: type.name,
      parameters: type.parameters.map((parameter) => this.type(parameter)),
      quoted: type.quoted,
      sugared: type.sugared,
      written: type.written,
    };
  }

  private list(nodes: readonly ast.SyntaxNode[]): Json {
    return nodes.map((node) => this.node(node));
  }

  private words(words: readonly ast.Word[]): Json {
    return words.map((word) => word.text);
  }

  private optional(node: ast.SyntaxNode | null): Json {
    return node === null ? null : this.node(node);
  }

  private logTail(tail: ast.LogTail): Json {
    return { level: tail.level?.text ?? null, format: tail.format, arguments: this.list(tail.arguments) };
  }

  node(node: ast.SyntaxNode): Json {
    const base = { kind: node.kind, at: this.at(node.at) };
    switch (node.kind) {
      case 'source':
        return this.file(node);
      case 'error':
        return { ...base, expected: node.expected };
      case 'literal':
        return { ...base, value: constantJson(node.value) };
      case 'list':
        return { ...base, items: this.list(node.items) };
      case 'object':
        return {
          ...base,
          pairs: node.pairs.map((pair) => (pair.kind === 'spread' ? ['', this.node(pair)] : [pair.key, this.node(pair.value)])),
        };
      case 'pair':
        return this.node(node.value);
      case 'spread':
        return { ...base, value: this.node(node.value) };
      case 'it':
        return base;
      case 'name':
        return { ...base, name: node.name };
      case 'attr':
        return { ...base, base: this.node(node.base), name: node.name };
      case 'index':
        return { ...base, base: this.node(node.base), index: this.node(node.index) };
      case 'builtin':
        return { ...base, name: node.name, args: this.list(node.args) };
      case 'zip':
        return { ...base, sources: this.list(node.sources) };
      case 'typed-value':
        return { ...base, type: this.type(node.type), value: this.node(node.value) };
      case 'unary':
        return { ...base, op: node.op, operand: this.node(node.operand) };
      case 'binary':
        return { ...base, op: node.op, left: this.node(node.left), right: this.node(node.right) };
      case 'outcome':
        return { ...base, subject: this.node(node.subject) };
      case 'pipeline-value':
        return { ...base, pipeline: this.node(node.pipeline) };
      case 'stage':
        return { ...base, ...this.stage(node) };
      case 'pipeline':
        return { ...base, source: this.node(node.source), stages: this.list(node.stages) };
      case 'call-modifiers':
        return {
          ...base,
          tee: node.tee,
          node_map: node.nodeMap?.text ?? null,
          timeout: node.timeout === null ? null : { $duration: node.timeout },
          after: this.words(node.after),
          headers: node.headers.map((header) => [header.name, this.node(header.value)]),
          action_id: this.optional(node.actionId),
          forward: node.forward.map((name) => name.text),
        };
      case 'call':
        return {
          ...base,
          action: node.action,
          mode: node.mode ?? '',
          args: node.args.map((argument) => [argument.port.text, this.node(argument.pipeline)]),
          modifiers: this.node(node.modifiers),
          tolerant: node.tolerant,
        };
      case 'let':
        return { ...base, name: node.names[0]?.text ?? '', names: this.words(node.names), pipeline: this.node(node.pipeline) };
      case 'advance':
        return { ...base, name: node.name.text };
      case 'bind':
        return { ...base, name: node.name.text, value: this.node(node.value) };
      case 'block':
        return { ...base, tolerant: node.tolerant, body: this.list(node.body) };
      case 'call-statement':
        return { ...base, call: this.node(node.call) };
      case 'pipe':
        return { ...base, pipeline: this.node(node.pipeline), targets: this.list(node.targets), after: this.words(node.after) };
      case 'skip':
        return {
          ...base,
          targets: node.targets.map((target) =>
            target.form === 'pipeline'
              ? { pipeline: this.node(target.pipeline), call: null, outputs: [] }
              : { pipeline: null, call: target.call.text, outputs: this.words(target.outputs) },
          ),
          after: this.words(node.after),
          count: node.count,
        };
      case 'wait':
        return {
          ...base,
          subject: this.optional(node.subject),
          subjects: this.list(node.subjects),
          race: node.race,
          targets: this.list(node.targets),
          timeout: node.timeout === null ? null : { $duration: node.timeout },
          after: this.words(node.after),
        };
      case 'drain':
        return { ...base, target: this.node(node.target), after: this.words(node.after) };
      case 'cancel':
        return { ...base, name: node.name.text, after: this.words(node.after) };
      case 'abort':
        return { ...base, target: this.node(node.target), code: this.optional(node.code), message: this.optional(node.message), after: this.words(node.after) };
      case 'fail':
        return { ...base, code: this.optional(node.code), message: this.optional(node.message), after: this.words(node.after) };
      case 'log':
        return { ...base, log: this.logTail(node.log), after: this.words(node.after) };
      case 'for-each':
        return {
          ...base,
          variable: node.variables[0]?.text ?? '',
          variables: this.words(node.variables),
          pipeline: this.node(node.pipeline),
          parallel: node.parallel,
          body: this.list(node.body),
          after: this.words(node.after),
        };
      case 'repeat':
        return {
          ...base,
          variable: node.variable?.text ?? null,
          start: this.optional(node.start),
          ...(node.max !== null ? { max_iterations: node.max } : {}),
          body: this.list(node.body),
          after: this.words(node.after),
        };
      case 'carry':
        return { ...base, name: node.name.text, pipeline: this.node(node.pipeline) };
      case 'until':
        return { ...base, condition: this.node(node.condition), stop_when: node.stopWhen };
      case 'if':
        return { ...base, condition: this.node(node.condition), then_body: this.list(node.thenBody), else_body: this.list(node.elseBody) };
      case 'nodes':
        return { ...base, name: node.name.text, body: this.list(node.body) };
      case 'node':
        return { ...base, id: this.optional(node.id), node_map: node.nodeMap?.text ?? null };
      case 'port':
        return {
          ...base,
          name: node.name.text,
          direction: node.direction,
          type: this.type(node.type),
          unary: node.unary,
          required: node.required,
          description: node.description,
        };
      case 'header':
        return { ...base, name: node.name, alias: node.alias.text, default: constantJson(node.defaultValue), description: node.description };
      case 'flow':
        return {
          ...base,
          name: node.name.text,
          entry: node.entry,
          description: node.description,
          ports: this.list(node.ports),
          headers: this.list(node.headers),
          body: this.list(node.body),
        };
      case 'field':
        return {
          ...base,
          name: node.name.text,
          type: this.type(node.type),
          required: node.required,
          unique: node.unique,
          description: node.description,
          ...(node.bounds
            ? {
                range: {
                  ...(node.bounds.minimum ? { minimum: constantJson(node.bounds.minimum) } : {}),
                  ...(node.bounds.maximum ? { maximum: constantJson(node.bounds.maximum) } : {}),
                },
              }
            : {}),
          ...(node.pattern !== null ? { pattern: node.pattern } : {}),
          ...(node.oneOf !== null ? { one_of: node.oneOf.map(constantJson) } : {}),
          ...(node.defaultValue !== null ? { default: constantJson(node.defaultValue) } : {}),
        };
      case 'struct':
        return { ...base, name: node.name.text, description: node.description, fields: this.list(node.fields) };
    }
  }

  private stage(stage: ast.Stage): { [key: string]: Json } {
    const tail = {
      try: stage.tolerant,
      parallel: stage.parallel,
      ordered: stage.ordered,
      into: this.optional(stage.failures),
    };
    const name = stage.name;
    const argument = stage.argument;
    if (argument === null) return { name, takes: 'none', arg: null, ...tail };
    const takes = argument.takes;
    switch (argument.takes) {
      case 'none':
        return { name, takes, arg: null, ...tail };
      case 'number':
        return { name, takes, arg: argument.count ?? 0, ...tail };
      case 'string':
      case 'string?':
        return { name, takes, arg: argument.text ?? '', ...tail };
      case 'expr':
      case 'expr?':
        return { name, takes, arg: this.optional(argument.expression), ...tail };
      case 'stream':
        return { name, takes, arg: this.optional(argument.source), ...tail };
      case 'sort-key':
        return { name, takes, arg: this.optional(argument.by), desc: argument.descending, ...tail };
      case 'fold':
        return {
          name,
          takes,
          arg: this.optional(argument.expression),
          start: constantJson(argument.start),
          carried: argument.carried?.text ?? '',
          ...tail,
        };
      case 'duration':
        return { name, takes, arg: formatDuration(argument.seconds ?? 0), ...tail };
      case 'log':
      case 'logf':
        return { name, takes, arg: this.logTail(argument.log), ...tail };
    }
  }
}

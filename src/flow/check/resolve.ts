/**
 * The whole file: structs first (a port may name one, and one may name another), then every
 * flow's ports (so a sibling's are known whichever is written first), then every flow's body.
 */

import type { Catalogue } from '../catalogue.js';
import type { SourceText } from '../diagnostics/source-text.js';
import type { FlowDeclaration, SourceFile } from '../syntax/ast.js';
import type { FlowProgram, HeaderDeclaration, PortDeclaration, Program, StructShape } from '../program.js';
import { entryPorts } from '../vocabulary.js';
import { actionsByName } from './catalogue.js';
import { type CallTarget, FlowContext, type ProgramKnowledge, newSymbol, Scope } from './context.js';
import type { Reporter } from './report.js';
import { resolveStatements } from './statements.js';
import { resolveStructs } from './structs.js';
import { TypeReader } from './types.js';

/** One flow as checked: its program, and what the inspector needs to look at afterwards. */
export interface CheckedFlow {
  readonly declaration: FlowDeclaration;
  readonly context: FlowContext;
  readonly program: FlowProgram;
}

export interface Resolution {
  readonly program: Program;
  readonly flows: readonly CheckedFlow[];
}

interface Declared {
  declaration: FlowDeclaration;
  ports: PortDeclaration[];
  headers: HeaderDeclaration[];
}

export function resolveFile(file: SourceFile, source: SourceText, sourceName: string, report: Reporter, catalogue?: Catalogue): Resolution {
  const structs = resolveStructs(file.structs, report);
  const structNames = new Set(structs.map((struct) => struct.name));

  const kept: FlowDeclaration[] = [];
  const seen = new Set<string>();
  for (const declaration of file.flows) {
    const name = declaration.name.text;
    if (seen.has(name)) {
      report(
        'flow.form.duplicate-flow',
        declaration.entry
          ? "A file has one entry flow ('flow { … }'), and this is a second. A flow that is meant to be called needs a name."
          : `The flow '${name}' is declared twice; rename or remove one of them.`,
        declaration.at,
        name,
      );
      continue;
    }
    seen.add(name);
    kept.push(declaration);
  }

  const declared = kept.map((declaration) => declare(declaration, structNames, report));
  const flows = new Map<string, CallTarget>();
  for (const one of declared) {
    if (one.declaration.entry) continue;
    flows.set(one.declaration.name.text, {
      name: one.declaration.name.text,
      sibling: true,
      ports: one.ports.map((port) => ({ name: port.name, direction: port.direction, unary: port.unary })),
    });
  }
  const known: ProgramKnowledge = { structs, structNames, flows, catalogue: actionsByName(catalogue) };
  const checked = declared.map((one) => resolveBody(one, known, source, report));
  return { program: { sourceName, flows: checked.map((one) => one.program), structs }, flows: checked };
}

/** A flow's ports and headers, without its body: what a sibling calling it needs. */
function declare(declaration: FlowDeclaration, structNames: ReadonlySet<string>, report: Reporter): Declared {
  const flowName = declaration.name.text;
  const reader = new TypeReader(structNames, (message, at, fixes) => report('flow.form.unknown-type', message, at, flowName, fixes));
  const ports: PortDeclaration[] = [];
  const seen = new Set<string>();
  if (declaration.entry) {
    // A program's arguments, declared by the language; first, so declaring one again is a duplicate.
    for (const port of entryPorts) {
      seen.add(`inputs:${port.name}`);
      ports.push({
        name: port.name, direction: 'inputs', declared: port.type, type: port.type, struct: null, unary: port.unary,
        required: false, description: port.description, implicit: true, at: declaration.at, ref: -1,
      });
    }
  }
  for (const port of declaration.ports) {
    const key = `${port.direction}:${port.name.text}`;
    if (seen.has(key)) {
      report('flow.form.duplicate-port', `The ${port.direction === 'inputs' ? 'input' : 'output'} port '${port.name.text}' is declared twice; keep one.`, port.at, flowName);
      continue;
    }
    seen.add(key);
    const type = reader.read(port.type);
    ports.push({
      name: port.name.text, direction: port.direction, declared: port.type.written, type: type.name, struct: type.struct,
      unary: port.unary, required: port.required, description: port.description, implicit: false, at: port.at, ref: -1,
    });
  }
  const headers: HeaderDeclaration[] = declaration.headers.map((header) => ({
    name: header.name, alias: header.alias.text, defaultValue: header.defaultValue, description: header.description, at: header.at, ref: -1,
  }));
  return { declaration, ports, headers };
}

function resolveBody(declared: Declared, known: ProgramKnowledge, source: SourceText, report: Reporter): CheckedFlow {
  const { declaration } = declared;
  const ctx = new FlowContext(declaration.name.text, known, source, report);
  const root = ctx.graph.addBody('root', null, null);
  ctx.body = root;
  const scope = new Scope();
  const ports = declared.ports.map((port) => {
    const input = port.direction === 'inputs';
    const ref = ctx.graph.addRef({ kind: 'flow-port', name: port.name, direction: port.direction, label: port.name, owner: root, writable: !input, unary: port.unary, at: port.at });
    ctx.define(scope, newSymbol(input ? 'input-port' : 'output-port', port.name, port.at, { readable: input, writable: !input, ref }));
    return { ...port, ref };
  });
  ctx.ports = ports;
  const headers = declared.headers.map((header) => {
    const ref = ctx.graph.addRef({ kind: 'header', header: header.name, fallback: header.defaultValue, label: `header "${header.name}"`, owner: root, writable: false, at: header.at });
    ctx.define(scope, newSymbol('header', header.alias, header.at, { ref }));
    return { ...header, ref };
  });
  const described = resolveStatements(ctx, declaration.body, scope);
  const program: FlowProgram = {
    name: declaration.name.text,
    entry: declaration.entry,
    description: declaration.description,
    at: declaration.at,
    ports,
    headers,
    nodeMaps: ctx.nodeMaps,
    refs: ctx.graph.refs,
    steps: ctx.graph.steps,
    bodies: ctx.graph.bodies,
    root,
    described,
  };
  return { declaration, context: ctx, program };
}

export type { StructShape };

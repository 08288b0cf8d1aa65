/**
 * `flow.plan/v1`: what a caller sees of a compiled file — each flow's ports with their types,
 * its headers, its node maps and the steps it will run — in exactly the shape the reference's
 * `flow_check` (and `a11 flow describe --format json`) returns. It is what one diffs to see
 * whether a change to a flow changed its interface.
 */

import type { Constant, DescribedStep, FlowProgram, PortDeclaration, Program, StructShape } from './program.js';
import type { WireDiagnostic } from './diagnostics/wire.js';

export const PLAN_FORMAT = 'flow.plan/v1';

export interface PlanPort {
  type: string;
  unary: boolean;
  required: boolean;
  description: string;
}

export interface PlanStep {
  step: string;
  label: string;
  after?: string[];
  action?: string;
  mode?: string;
  try?: true;
  tee?: true;
  via?: string;
  /** Seconds. */
  timeout?: number;
  from?: string;
  of?: string;
  to?: string;
  body?: PlanStep[];
  then?: PlanStep[];
  else?: PlanStep[];
}

export interface PlanFlow {
  flow: string;
  entry: boolean;
  description: string;
  inputs: Record<string, PlanPort>;
  outputs: Record<string, PlanPort>;
  headers: string[];
  node_maps: string[];
  steps: PlanStep[];
}

/** A constant as the plan writes it: durations and records tagged, so nothing is guessed. */
export type PlanConstant = null | boolean | number | string | PlanConstant[] | { $duration: number } | { $object: [string, PlanConstant][] };

export interface PlanField {
  type: string;
  resolved: string;
  required: boolean;
  description: string;
  element?: string;
  struct?: string;
  element_struct?: string;
  unique?: true;
  range?: { minimum?: PlanConstant; maximum?: PlanConstant };
  pattern?: string;
  one_of?: PlanConstant[];
  default?: PlanConstant;
}

export interface PlanStruct {
  struct: string;
  description: string;
  fields: Record<string, PlanField>;
  /** A JSON object's keys have no order a reader may rely on; a struct's fields do. */
  order: string[];
  binary: boolean;
}

export interface PlanEnvelope {
  format: typeof PLAN_FORMAT;
  source: string;
  flows: PlanFlow[];
  structs: PlanStruct[];
  /** What the compiler said about the file; a plan of a file with errors is partial. */
  diagnostics?: WireDiagnostic[];
}

function portToPlan(port: PortDeclaration): PlanPort {
  return { type: port.declared || port.type, unary: port.unary, required: port.required, description: port.description };
}

export function stepToPlan(step: DescribedStep): PlanStep {
  const written: PlanStep = { step: step.kind, label: step.label };
  if (step.after.length) written.after = [...step.after];
  if (step.action) {
    written.action = step.action;
    written.mode = step.mode;
    if (step.tolerant) written.try = true;
    if (step.tee) written.tee = true;
  }
  if (step.nodeMap) written.via = step.nodeMap;
  if (step.timeout !== null) written.timeout = step.timeout;
  if (step.source) {
    if (step.destination) written.from = step.source;
    else written.of = step.source;
  }
  if (step.destination) written.to = step.destination;
  if (step.bodies.length) {
    if (step.kind === 'if') {
      written.then = step.bodies[0]!.map(stepToPlan);
      if (step.bodies.length > 1) written.else = step.bodies[1]!.map(stepToPlan);
    } else {
      written.body = step.bodies[0]!.map(stepToPlan);
    }
  }
  return written;
}

export function flowToPlan(flow: FlowProgram): PlanFlow {
  const inputs: Record<string, PlanPort> = {};
  const outputs: Record<string, PlanPort> = {};
  for (const port of flow.ports) (port.direction === 'inputs' ? inputs : outputs)[port.name] = portToPlan(port);
  return {
    flow: flow.name,
    entry: flow.entry,
    description: flow.description,
    inputs,
    outputs,
    headers: flow.headers.map((header) => header.name).sort(),
    node_maps: [...flow.nodeMaps],
    steps: flow.described.map(stepToPlan),
  };
}

export function constantToPlan(value: Constant): PlanConstant {
  switch (value.kind) {
    case 'null':
      return null;
    case 'bool':
    case 'integer':
    case 'number':
    case 'string':
      return value.value;
    case 'duration':
      return { $duration: value.seconds };
    case 'list':
      return value.items.map(constantToPlan);
    case 'object':
      return { $object: value.pairs.map(([key, held]) => [key, constantToPlan(held)] as [string, PlanConstant]) };
  }
}

export function structToPlan(struct: StructShape): PlanStruct {
  const fields: Record<string, PlanField> = {};
  for (const field of struct.fields) {
    const written: PlanField = { type: field.declared || field.type, resolved: field.type, required: field.required, description: field.description };
    if (field.element) written.element = field.element;
    if (field.struct) written.struct = field.struct;
    if (field.elementStruct) written.element_struct = field.elementStruct;
    if (field.unique) written.unique = true;
    if (field.bounds) {
      written.range = {};
      if (field.bounds.minimum) written.range.minimum = constantToPlan(field.bounds.minimum);
      if (field.bounds.maximum) written.range.maximum = constantToPlan(field.bounds.maximum);
    }
    if (field.pattern !== null) written.pattern = field.pattern;
    if (field.oneOf) written.one_of = field.oneOf.map(constantToPlan);
    if (field.defaultValue) written.default = constantToPlan(field.defaultValue);
    fields[field.name] = written;
  }
  return { struct: struct.name, description: struct.description, fields, order: struct.fields.map((field) => field.name), binary: struct.binary };
}

/** The `flow.plan/v1` envelope of a program (partial where the file had errors). */
export function planOf(program: Program, diagnostics?: WireDiagnostic[]): PlanEnvelope {
  const envelope: PlanEnvelope = {
    format: PLAN_FORMAT,
    source: program.sourceName,
    flows: program.flows.map(flowToPlan),
    structs: program.structs.map(structToPlan),
  };
  if (diagnostics) envelope.diagnostics = diagnostics;
  return envelope;
}

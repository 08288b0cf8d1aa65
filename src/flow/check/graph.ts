/**
 * Appends refs, steps and bodies to one flow's graph while the checker walks it.
 *
 * Whether a ref carries at most one value is settled here, once, from the shape of the ref —
 * not at each of the places a ref is made — so a new kind of ref gets an answer by default.
 */

import type { Body, BodyId, Ref, RefId, StageOp, Step, StepId } from '../program.js';
import { reducingStageNames } from '../vocabulary.js';

/** A ref that did not resolve. Never reaches a program: a flow with an error has none. */
export const NO_REF: RefId = -1;
export const NO_STEP: StepId = -1;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Distribute<T> = T extends unknown ? Mutable<T> : never;
export type RefDraft = Distribute<Ref>;
export type StepDraft = Distribute<Step>;
export type BodyDraft = Mutable<Body> & { steps: StepId[] };

/** Stages after which exactly one value is left, however many came in. */
function stageMakesOne(stage: StageOp): boolean {
  return reducingStageNames.includes(stage.name) || (stage.name === 'first' && stage.takes === 'number' && stage.count === 1);
}

/** Stages that give at most one value out per value in (so one in stays one out). */
const COUNT_PRESERVING: ReadonlySet<string> = new Set([
  'map', 'at', 'truncate', 'text', 'json', 'packb', 'strformat', 'where', 'mime', 'distinct', 'first', 'last',
  'drop', 'log', 'logf', 'scan', 'sort', 'timeout', 'pace',
]);

export class GraphBuilder {
  readonly refs: RefDraft[] = [];
  readonly steps: StepDraft[] = [];
  readonly bodies: BodyDraft[] = [];

  addBody(label: string, parent: BodyId | null, ownerStep: StepId | null): BodyId {
    const id = this.bodies.length;
    this.bodies.push({ id, label, parent, ownerStep, steps: [] });
    return id;
  }

  /** Whether a ref already made carries at most one value. */
  carries(ref: RefId): boolean {
    return ref >= 0 && ref < this.refs.length && this.refs[ref]!.unary;
  }

  /** Appends a ref (its `id`, `unary` — except for ports — and `skip` are filled in here). */
  addRef(draft: DistributiveOmit<RefDraft, 'id' | 'skip' | 'unary'> & { unary?: boolean }): RefId {
    // The draft becomes the ref: it is made for this call and nothing else holds it.
    const ref = draft as RefDraft;
    ref.id = this.refs.length;
    ref.skip = 0;
    switch (ref.kind) {
      case 'header':
      case 'node-id':
      case 'status':
      case 'winner':
      case 'expr':
      case 'bound':
        ref.unary = true;
        break;
      case 'node':
        // Written from anywhere, even a loop: nothing about its count is provable.
        ref.unary = false;
        break;
      case 'derived':
        ref.unary = stageMakesOne(ref.stage) || (this.carries(ref.source) && COUNT_PRESERVING.has(ref.stage.name));
        break;
      case 'zip':
        ref.unary = ref.sources.length > 0 && ref.sources.every((source) => this.carries(source));
        break;
      case 'merge':
        ref.unary = ref.sources.length === 1 && this.carries(ref.sources[0]!);
        break;
      case 'flow-port':
      case 'call-port':
        ref.unary = draft.unary ?? false;
        break;
    }
    this.refs.push(ref);
    return ref.id;
  }

  /** Appends a step and records it in its body. */
  addStep(draft: DistributiveOmit<StepDraft, 'id'>): StepId {
    const step = draft as StepDraft;
    step.id = this.steps.length;
    this.steps.push(step);
    if (step.body >= 0) this.bodies[step.body]?.steps.push(step.id);
    return step.id;
  }

  ref(id: RefId): RefDraft | undefined {
    return id >= 0 ? this.refs[id] : undefined;
  }

  step(id: StepId): StepDraft | undefined {
    return id >= 0 ? this.steps[id] : undefined;
  }
}

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The catalogue as the checker consults it: actions by name, seen as call targets. */

import type { Catalogue, CatalogueAction } from '../catalogue.js';
import type { CallTarget } from './context.js';

export type { CatalogueAction } from '../catalogue.js';

export function actionsByName(catalogue: Catalogue | undefined): ReadonlyMap<string, CatalogueAction> | null {
  return catalogue ? new Map(catalogue.actions.map((action) => [action.name, action])) : null;
}

/** A catalogue action as something a call is checked against. */
export function actionTarget(action: CatalogueAction): CallTarget {
  const target: CallTarget = {
    name: action.name,
    sibling: false,
    ports: [
      ...action.inputs.map((port) => ({ name: port.name, direction: 'inputs' as const, unary: port.unary })),
      ...action.outputs.map((port) => ({ name: port.name, direction: 'outputs' as const, unary: port.unary })),
    ],
  };
  return action.runnable === undefined ? target : { ...target, runnable: action.runnable };
}

export function hasPort(target: CallTarget, name: string, direction: 'inputs' | 'outputs'): boolean {
  return target.ports.some((port) => port.name === name && port.direction === direction);
}

/** A direction's port names, sorted, for a message. */
export function portNames(target: CallTarget, direction: 'inputs' | 'outputs'): string[] {
  return target.ports.filter((port) => port.direction === direction).map((port) => port.name).sort();
}

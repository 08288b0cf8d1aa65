/** Building the `flow.plan/v1` description of a step, with everything not said left empty. */

import type { DescribedStep } from '../program.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
export type DescribedDraft = Mutable<DescribedStep>;

export function describe(kind: string, label: string, at: DescribedStep['at'], fields: Partial<Omit<DescribedStep, 'kind' | 'label' | 'at'>> = {}): DescribedDraft {
  return {
    kind,
    label,
    after: [],
    action: '',
    mode: '',
    nodeMap: '',
    timeout: null,
    tolerant: false,
    tee: false,
    source: '',
    destination: '',
    bodies: [],
    at,
    ...fields,
  };
}

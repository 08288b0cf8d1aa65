import type { PlanEnvelope, PlanStep } from '../../flow/plan.js';
import { StatusCode, StatusError } from '../../wire/status.js';
import { OPERATOR_TOOL_NAMES } from '../activity/status-schema.js';
import { FLOW_TOOL_NAMES } from './schemas.js';

/** Every action any flow of the plan calls (`run` or `call`), in the order first seen. */
export function calledActions(plan: PlanEnvelope): string[] {
  const found: string[] = [];
  const walk = (steps: readonly PlanStep[] | undefined) => {
    for (const step of steps ?? []) {
      if (step.action !== undefined && !found.includes(step.action)) found.push(step.action);
      walk(step.body);
      walk(step.then);
      walk(step.else);
    }
  };
  for (const flow of plan.flows) walk(flow.steps);
  return found;
}

/**
 * Refuses, before anything runs, a source that calls what the caller may not: a flow tool or
 * an operator tool (PERMISSION_DENIED), or an action the allow-list does not admit. Every flow of the source is
 * checked, not only the one about to run; flows declared in the source itself are exempt.
 */
export function verifyCalls(plan: PlanEnvelope, allowed: (name: string) => boolean): void {
  const declared = new Set(plan.flows.map((flow) => flow.flow));
  for (const name of calledActions(plan)) {
    if (declared.has(name)) continue;
    if (FLOW_TOOL_NAMES.includes(name)) {
      throw new StatusError(
        StatusCode.PERMISSION_DENIED,
        `A flow may not call '${name}'. Write what it would have run as part of this flow instead.`,
      );
    }
    if (OPERATOR_TOOL_NAMES.includes(name)) {
      throw new StatusError(
        StatusCode.PERMISSION_DENIED,
        `A flow may not call '${name}': it reports on the gateway to whoever runs it. Call it directly instead.`,
      );
    }
    if (!allowed(name)) {
      throw new StatusError(
        StatusCode.PERMISSION_DENIED,
        `This flow calls '${name}', which is not an action you are allowed to call. Call flow_actions for the ones you may compose.`,
      );
    }
  }
}

import type { ActionRegistry } from '../../wire/registry.js';
import { flowActions, flowCheck, flowRun, type FlowRunner } from './handlers.js';
import { flowActionsSchema, flowCheckSchema, flowRunSchema } from './schemas.js';

export { flowInputNodeId, flowOutputNodeId, FLOW_TOOL_NAMES } from './schemas.js';
export { getSkill, getSystemPrompt } from './prompt.js';

/**
 * Registers flow_actions, flow_check and (given a runner) flow_run on `registry`, composing the
 * actions already registered there: register them last.
 */
export function registerFlowTools(registry: ActionRegistry, run?: FlowRunner): ActionRegistry {
  registry.register(flowActionsSchema, flowActions({ registry })).register(flowCheckSchema, flowCheck({ registry }));
  if (run) registry.register(flowRunSchema, flowRun({ registry, run }));
  return registry;
}

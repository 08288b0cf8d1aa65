import type { FlowRunner } from '../flow-tools/handlers.js';
import { currentAttribution } from './attribution.js';

/**
 * flow_run's runner, entering each run in the gateway's activity while it lasts. The runner is
 * called inside flow_run's handler, so the attribution names the flow_run call and its connection.
 */
export function trackFlowRuns(run: FlowRunner): FlowRunner {
  return async (request) => {
    const here = currentAttribution();
    const ended = here?.activity.flowRunStarted({ call: here.call.id, flow: request.flow, startedAt: Date.now(), connection: here.connection });
    try {
      await run(request);
    } finally {
      ended?.();
    }
  };
}

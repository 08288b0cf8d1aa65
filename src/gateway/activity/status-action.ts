import type { ActionHandler } from '../../wire/action.js';
import type { GatewayStatusReport } from './status-schema.js';

/** `gateway_status`: the report, leaving out the call that asks for it. */
export function gatewayStatusHandler(report: (askingCall: string) => Promise<GatewayStatusReport>): ActionHandler {
  return async (ctx) => {
    const status = await report(ctx.id);
    await ctx.write('status', status);
    const { summary } = status;
    ctx.log(
      `Running: ${summary.connections} connection(s), ${summary.calls} other call(s), ${summary.flow_runs} flow run(s), ` +
        `${summary.shells} shell(s) (${summary.commands} executing), ${summary.processes} process(es).`,
    );
  };
}

import { describe, expect, it } from 'vitest';
import { gatewayStatusSchema, type GatewayStatusReport } from '../../gateway/activity/status-schema';
import { LocalDispatcher } from '../../wire/local-dispatcher';
import { ActionRegistry } from '../../wire/registry';
import { ActivityState, type ActivitySource } from './activity.svelte';

function report(calls: number, processes: number): GatewayStatusReport {
  const at = new Date().toISOString();
  return {
    format: 'flowplay.gateway-status/v1',
    generated_at: at,
    gateway: { pid: 1, started_at: at, uptime_ms: 0 },
    summary: { connections: 1, calls, flow_runs: 0, shells: 0, commands: 0, processes },
    connections: [],
    calls: [],
    flow_runs: [],
    shells: [],
    processes: [],
  };
}

/** A gateway whose gateway_status answers what `now` says, counting the questions. */
function gateway(withStatus = true) {
  const state = { now: report(0, 0), asked: 0 };
  const registry = new ActionRegistry();
  registry.register(gatewayStatusSchema, async (ctx) => {
    state.asked++;
    await ctx.write('status', state.now);
  });
  const source: ActivitySource = {
    session: new LocalDispatcher(registry),
    offer: { schemas: new Map(withStatus ? [[gatewayStatusSchema.name, gatewayStatusSchema]] : []) },
    generation: 1,
  };
  return { state, source };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, withinMs = 2000): Promise<void> {
  for (const end = Date.now() + withinMs; !check(); await wait(5)) if (Date.now() > end) throw new Error('never happened');
}

describe('ActivityState', () => {
  it('follows the gateway while a run is active, then until nothing is left running, then stops asking', async () => {
    const { state, source } = gateway();
    const activity = new ActivityState(source, { pollMs: 10, settleMs: 5000 });
    state.now = report(1, 3);
    activity.follow(true);
    await until(() => state.asked >= 3);
    expect(activity.summary).toMatchObject({ calls: 1, processes: 3 });

    // The run has ended but the gateway is still winding it down: keep asking.
    activity.follow(false);
    state.now = report(0, 2);
    await until(() => activity.summary?.processes === 2);
    const before = state.asked;
    await until(() => state.asked >= before + 2);
    expect(activity.following).toBe(true);

    state.now = report(0, 0);
    await until(() => !activity.following);
    expect(activity.summary).toMatchObject({ calls: 0, processes: 0 });
    const settled = state.asked;
    await wait(60);
    expect(state.asked).toBe(settled);
    activity.dispose();
  });

  it('gives up following a gateway that never settles once the settling time has passed', async () => {
    const { state, source } = gateway();
    const activity = new ActivityState(source, { pollMs: 10, settleMs: 80 });
    state.now = report(2, 2);
    activity.follow(false);
    await until(() => !activity.following);
    const asked = state.asked;
    expect(asked).toBeGreaterThan(1);
    await wait(50);
    expect(state.asked).toBe(asked);
    expect(activity.summary).toMatchObject({ calls: 2 });
  });

  it('shows nothing for a gateway without gateway_status, and asks it nothing', async () => {
    const { state, source } = gateway(false);
    const activity = new ActivityState(source, { pollMs: 10 });
    activity.follow(true);
    await until(() => !activity.following);
    expect(activity.summary).toBeNull();
    expect(state.asked).toBe(0);
  });
});

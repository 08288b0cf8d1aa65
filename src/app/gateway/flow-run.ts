/**
 * Running a flow on the gateway with `flow_run`, its ports as live streams.
 *
 * Both ends derive a port's node id from the call's id (`<callId>-flow#<port>`), so the page
 * subscribes to every output before the source is even sent and sees each value as the flow
 * writes it; ports left open (`input_streams`) are published under the same ids and written
 * while the flow runs. The collected `result` arrives at the end; the narration on `__log__`.
 */
import { Chunk } from '../../wire/chunk';
import { newCallId } from '../../wire/ids';
import { readLogChunk } from '../../wire/log';
import type { StreamNode } from '../../wire/node';
import { Status, StatusCode } from '../../wire/status';
import type { RunExecutor, RunningFlow, RunOutcome, RunReporter, RunRequest } from '../run/executor';
import { recordGivenInputs } from '../run/given-inputs';
import type { Connection } from '../state/connection.svelte';
import { flowTool, readAll } from './discover';

/** Where flow_run publishes a port of the flow it runs for call `callId`. */
export function flowPortNodeId(callId: string, port: string): string {
  return `${callId}-flow#${port}`;
}

async function pump(node: StreamNode, reporter: RunReporter, port: string): Promise<void> {
  const sink = reporter.output(port);
  try {
    for await (const chunk of node.reader()) sink.push(chunk);
  } catch {
    // A failed output stream is reported by the run's status; what arrived stays shown.
  }
}

export class GatewayExecutor implements RunExecutor {
  constructor(private readonly connection: Connection) {}

  unavailable(): string | null {
    // Reads the connection's reactive status, so a view showing this updates when it changes.
    if (!this.connection.open) return 'Not connected to a gateway.';
    if (!this.connection.flowTools) return 'This gateway does not serve flow_run: run the flow in this page instead.';
    return null;
  }

  start(request: RunRequest, reporter: RunReporter): RunningFlow {
    const session = this.connection.session;
    if (!session) return { done: Promise.resolve({ status: new Status(StatusCode.UNAVAILABLE, 'Not connected to a gateway.') }), cancel() {} };
    let schema;
    try {
      schema = flowTool(this.connection.offer, 'flow_run');
    } catch (error) {
      return { done: Promise.resolve({ status: Status.fromError(error) }), cancel() {} };
    }
    const id = newCallId('run');

    // Subscribed before anything is sent, so the first value is seen like the hundredth.
    const outputs = Object.keys(request.plan.outputs).map((port) => {
      const node = session.node(flowPortNodeId(id, port));
      reporter.watch(node, port, 'output');
      return pump(node, reporter, port);
    });
    recordGivenInputs(request, reporter);

    const call = session.invoke(schema, { id, headers: request.headers });
    void (async () => {
      try {
        for await (const chunk of call.log.reader()) {
          const record = readLogChunk(chunk);
          if (!record.internal) reporter.log(`${record.level}: ${typeof record.message === 'string' ? record.message : JSON.stringify(record.message)}`);
        }
      } catch {
        // The log ends with the call's status; nothing more to show.
      }
    })();

    for (const port of request.open) {
      const node = session.publish(flowPortNodeId(id, port));
      reporter.watch(node, port, 'input');
      void reporter.feedFromMicrophone(node).catch((error: unknown) => node.abort(Status.fromError(error)));
    }

    const send = async () => {
      await call.input('source').finalize(Chunk.text(request.source));
      await call.input('inputs').finalize(Chunk.json(request.values));
      await call.input('input_streams').finalize(Chunk.json(request.open));
      await call.input('flow').finalize(Chunk.text(request.flow));
    };

    const done = (async (): Promise<RunOutcome> => {
      try {
        await send();
      } catch (error) {
        call.cancel(Status.fromError(error));
      }
      let result: Record<string, unknown> | undefined;
      try {
        const [collected] = await readAll(call, 'result');
        if (collected && typeof collected === 'object') result = collected as Record<string, unknown>;
      } catch {
        // The status below says why.
      }
      const status = await call.done;
      await Promise.race([Promise.all(outputs), new Promise((resolve) => setTimeout(resolve, 200))]);
      for (const port of Object.keys(request.plan.outputs)) session.forget(flowPortNodeId(id, port));
      return result ? { status, result } : { status };
    })();

    return { done, cancel: () => call.cancel() };
  }
}

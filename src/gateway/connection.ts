import { acceptSession } from '../wire/node-ws.js';
import type { Gateway } from './gateway.js';
import type { AcceptedConnection, ServedConnection } from './server.js';

/** Serves A11 on each accepted WebSocket: one session, answering from the connection's registry. */
export function serveA11(gateway: Gateway): (accepted: AcceptedConnection) => ServedConnection {
  return (accepted) => {
    const session = acceptSession(accepted.socket, {
      id: accepted.id,
      registry: gateway.registryFor(accepted.scope),
      limits: { maxServedCalls: gateway.limits.maxCallsPerConnection },
      connection: {
        highWater: gateway.limits.sendBufferBytes,
        reassembly: { maxMessageSize: gateway.limits.maxMessageBytes },
      },
      onProblem: (problem) =>
        accepted.logger.warn('incoming data refused', { status: problem.status.toString(), target: problem.target }),
    });
    const closed = gateway.activity.connectionOpened({
      id: accepted.id,
      remote: accepted.remote,
      browser: accepted.browser,
      since: Date.now(),
      calls: () => session.runningCalls(),
    });
    const ended = session.ended();
    void ended.then(closed);
    return {
      ended,
      shutdown: (status) => session.abort(status),
    };
  };
}

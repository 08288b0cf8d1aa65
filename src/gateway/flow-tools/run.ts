/**
 * flow_run's runner: the runtime's runFlow, given the flow_run call's own ports (the nodes the
 * caller writes and reads), its peer for `call` steps, and a node map in which `node(id)` finds
 * what the caller wrote under that id while the flow's own nodes stay private.
 */
import type { NodeMap } from '../../flow/runtime/executor/nodes.js';
import { LocalNodeMap } from '../../flow/runtime/executor/nodes.js';
import type { FlowPorts } from '../../flow/runtime/executor/runner.js';
import { runFlow } from '../../flow/runtime/run-flow.js';
import type { NodeReader, StreamNode } from '../../wire/node.js';
import { StatusCode, StatusError } from '../../wire/status.js';
import type { FlowRunner, FlowRunRequest } from './handlers.js';
import { gatewayHostTypes } from './host-types.js';

function portsOf(request: FlowRunRequest): FlowPorts {
  const readers = new Map<string, NodeReader>();
  const find = (nodes: ReadonlyMap<string, StreamNode>, port: string) => {
    const node = nodes.get(port);
    if (!node) throw new StatusError(StatusCode.INTERNAL, `The flow has no port '${port}' here.`);
    return node;
  };
  return {
    inputReader(port) {
      let reader = readers.get(port);
      if (!reader) {
        reader = find(request.inputs, port).reader();
        readers.set(port, reader);
      }
      return reader;
    },
    inputNode: (port) => find(request.inputs, port),
    output: (port) => find(request.outputs, port),
  };
}

/** The flow's own nodes (`<actionId>#…`) stay here; any other id is the caller's node of that id. */
function nodeMapOf(request: FlowRunRequest): NodeMap {
  const own = new LocalNodeMap();
  const prefix = `${request.id}#`;
  return {
    get(id) {
      if (id.startsWith(prefix) || !request.callerNode) return own.get(id);
      return request.callerNode(id);
    },
    expose(id, node) {
      own.expose(id, node);
      request.showCaller?.(id, node);
    },
  };
}

export const runFlowWithRuntime: FlowRunner = async (request) => {
  const run = runFlow(request.program, {
    flow: request.flow,
    registry: request.registry,
    ...(request.peer ? { peer: request.peer } : {}),
    headers: request.headers,
    signal: request.signal,
    log: (message, level, options) => request.log(message, level, { channel: options.channel, ...(options.line !== undefined ? { line: options.line } : {}) }),
    types: gatewayHostTypes,
    nodeMap: nodeMapOf(request),
    actionId: request.id,
    ports: portsOf(request),
  });
  (await run.done).throwIfError();
};

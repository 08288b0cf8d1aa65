import { Chunk } from '../../wire/chunk';
import { StreamNode } from '../../wire/node';
import type { RunReporter, RunRequest } from './executor';

/**
 * Shows the values given for a run's inputs in the inspector, a stream per port (they travel in
 * one JSON object to flow_run, or straight into the runtime's ports, where nothing else sees them).
 */
export function recordGivenInputs(request: RunRequest, reporter: RunReporter): void {
  for (const [port, value] of Object.entries(request.values)) {
    const node = new StreamNode({ id: `given#${port}`, capacity: 1 << 20 });
    reporter.watch(node, port, 'input');
    const declared = request.plan.inputs[port];
    const values = declared && !declared.unary && Array.isArray(value) ? value : [value];
    for (const item of values) node.push(typeof item === 'string' ? Chunk.text(item) : Chunk.json(item));
    node.close();
  }
}

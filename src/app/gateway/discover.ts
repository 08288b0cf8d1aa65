/**
 * Asking a connected gateway what it offers: every action's full schema (`__list_actions__`,
 * all ports — what the page needs to invoke one), and what a flow may compose (`flow_actions`,
 * the gateway's own projection with `run`/`call` and the allow-list applied). A peer that serves
 * no flow tools (`a11 gateway run --no-flow-tools`) is described from its schemas instead.
 */
import type { Headers, Invocation } from '../../wire/action';
import { documentEntries, schemaFromEntry, type SchemaEntry } from '../../wire/schema-document';
import type { ActionSchema } from '../../wire/schema';
import type { Session } from '../../wire/session';
import { StatusCode, StatusError } from '../../wire/status';
import { FLOW_ACTIONS, FLOW_CHECK, FLOW_RUN, NOT_COMPOSABLE } from '../../gateway/flow-tools/schemas';
import { readComposableActions, type ComposableAction } from './composable';

export interface GatewayOffer {
  /** Every action's schema, by name (reserved built-ins left out). */
  schemas: Map<string, ActionSchema>;
  /** What a flow may compose there. */
  composable: ComposableAction[];
  /** Whether the gateway serves flow_actions/flow_check/flow_run. */
  flowTools: boolean;
}

/** Reads every value of a call's output port; throws the call's status when it failed. */
export async function readAll(call: Invocation, port: string): Promise<unknown[]> {
  const values: unknown[] = [];
  try {
    for await (const chunk of call.output(port).reader()) values.push(chunk.value);
  } catch (error) {
    (await call.done).throwIfError();
    throw error;
  }
  (await call.done).throwIfError();
  return values;
}

function composableFromEntries(entries: SchemaEntry[]): ComposableAction[] {
  return readComposableActions(
    entries
      .filter((entry) => !NOT_COMPOSABLE.includes(entry.name))
      .map((entry) => ({
        action: entry.name,
        description: entry.description ?? '',
        runnable: entry.runnable === true,
        inputs: (entry.inputs ?? []).filter((port) => !port.autofilled),
        outputs: entry.outputs ?? [],
      })),
  );
}

/** What the gateway on `session` offers; `headers` carry the allow-list flow_actions applies. */
export async function discoverGateway(session: Session, headers: Headers = new Map()): Promise<GatewayOffer> {
  const document = await session.listActions({ names: ['.*'], ports: 'all' });
  const entries = documentEntries(document);
  const schemas = new Map(entries.map((entry) => [entry.name, schemaFromEntry(entry)]));
  const flowActions = schemas.get(FLOW_ACTIONS);
  if (!flowActions) return { schemas, composable: composableFromEntries(entries), flowTools: false };
  const call = session.invoke(flowActions, { headers });
  for (const port of flowActions.inputs) call.input(port.name).close();
  const [answer] = await readAll(call, 'actions');
  return { schemas, composable: readComposableActions(answer), flowTools: schemas.has(FLOW_CHECK) && schemas.has(FLOW_RUN) };
}

/** The schema of a flow tool, or FAILED_PRECONDITION saying the gateway has none. */
export function flowTool(offer: GatewayOffer | null, name: typeof FLOW_CHECK | typeof FLOW_RUN): ActionSchema {
  const schema = offer?.schemas.get(name);
  if (!schema) {
    throw new StatusError(
      StatusCode.FAILED_PRECONDITION,
      `The gateway does not serve ${name} (its flow tools are off, or it is not an A11 gateway): run flows in this page instead.`,
    );
  }
  return schema;
}

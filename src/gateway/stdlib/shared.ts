/** What every action of the standard library shares: its port types and the words it uses for them. */
import type { ActionHandler } from '../../wire/action.js';
import type { ActionSchema } from '../../wire/schema.js';

/** The port types, spelled as the reference's standard library declares them. */
export const JSON_TYPE = 'application/json';
export const OCTET_STREAM = 'application/octet-stream';

/** The input every action here takes commands on. */
export const CONTROL_PORT = 'control_events';

export const OMIT_HELP =
  'omit -- output port names to close immediately rather than write; and encoding -- "json" (the default) or ' +
  '"msgpack", which is both cheaper downstream of a `| packb` and the only one of the two that can carry a path or a ' +
  'line that is not valid UTF-8.';

/** The deadline header every action here honours, and what honouring it means for this one. */
export function DEADLINE_HEADERS(effect: string): Record<string, { description: string }> {
  return {
    'x-a11-deadline': {
      description:
        "Absolute execution deadline: a base-10 count of milliseconds since the Unix epoch, or nanoseconds with an 'ns' suffix. " +
        effect,
    },
  };
}

export interface Registration {
  schema: ActionSchema;
  handler: ActionHandler;
}

import type { ActionHandler } from './action.js';
import { checkName } from './names.js';
import type { ActionSchema } from './schema.js';
import { StatusCode, StatusError } from './status.js';

export interface RegisteredAction {
  schema: ActionSchema;
  /** Absent for schema-only registrations: actions a flow can `call` on its peer but not `run`. */
  handler?: ActionHandler;
}

/** The actions one side of a session offers, by name. */
export class ActionRegistry {
  readonly #actions = new Map<string, RegisteredAction>();

  /** Adds an action; a name registered twice is ALREADY_EXISTS. */
  register(schema: ActionSchema, handler?: ActionHandler): this {
    checkName(schema.name, 'action name');
    if (this.#actions.has(schema.name)) {
      throw new StatusError(StatusCode.ALREADY_EXISTS, `Action '${schema.name}' is already registered.`);
    }
    this.#actions.set(schema.name, handler ? { schema, handler } : { schema });
    return this;
  }

  unregister(name: string): boolean {
    return this.#actions.delete(name);
  }

  get(name: string): RegisteredAction | undefined {
    return this.#actions.get(name);
  }

  has(name: string): boolean {
    return this.#actions.has(name);
  }

  /** The registration for `name`, or NOT_FOUND saying so. */
  require(name: string): RegisteredAction {
    const found = this.#actions.get(name);
    if (!found) throw new StatusError(StatusCode.NOT_FOUND, `No action named '${name}' is registered.`);
    return found;
  }

  /** Every registration, in registration order. */
  list(): RegisteredAction[] {
    return [...this.#actions.values()];
  }

  names(): string[] {
    return [...this.#actions.keys()];
  }
}

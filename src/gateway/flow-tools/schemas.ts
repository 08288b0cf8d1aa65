import { defineAction, port } from '../../wire/schema.js';
import { OPERATOR_TOOL_NAMES } from '../activity/status-schema.js';

export const FLOW_ACTIONS = 'flow_actions';
export const FLOW_CHECK = 'flow_check';
export const FLOW_RUN = 'flow_run';
/** A flow may call none of these: it would be a way around the allow-list, and a way to recurse. */
export const FLOW_TOOL_NAMES: readonly string[] = [FLOW_ACTIONS, FLOW_CHECK, FLOW_RUN];
/** Served to clients but never composed: flow_actions leaves these out, and no flow may call them. */
export const NOT_COMPOSABLE: readonly string[] = [...FLOW_TOOL_NAMES, ...OPERATOR_TOOL_NAMES];

/** What compile errors call the submitted text: `flow:3:7: …`. */
export const SOURCE_NAME = 'flow';

/** The flow a `flow_run` call runs is an action of its own, with this suffix on the call's id. */
export const FLOW_ACTION_SUFFIX = '-flow';

/** Where a flow's output port is published to the caller: `<callId>-flow#<port>`. */
export function flowOutputNodeId(callId: string, port: string): string {
  return `${callId}${FLOW_ACTION_SUFFIX}#${port}`;
}

/** Where the caller writes an input port it named on `input_streams` (the same id form). */
export function flowInputNodeId(callId: string, port: string): string {
  return flowOutputNodeId(callId, port);
}

export const flowActionsSchema = defineAction({
  name: FLOW_ACTIONS,
  description:
    'List the actions a flow may call, with the name, arity and description of every input and output port each one has. ' +
    'Call this before writing a flow: piping one action into another needs the names of the ports on both sides, ' +
    "and an action's output ports are not part of the tool definition you were given. " +
    'The list is the actions you are allowed to call, minus the flow tools themselves.',
  outputs: {
    actions: port.json(undefined, {
      required: true,
      description: 'One entry per composable action: its name, description, and its input and output ports.',
    }),
  },
});

const source = port.text({ required: true, description: 'The text of one or more flow declarations.' });

export const flowCheckSchema = defineAction({
  name: FLOW_CHECK,
  description:
    'Compile a flow without running it, and return the composition it resolves to: its ports, and every step in the order they are written. ' +
    'Nothing is dispatched and no action is called, so this is the safe way to find out whether a flow says what you meant before its calls have real effects. ' +
    'A flow that will not compile comes back as an error naming the line and column of the problem.',
  inputs: { source },
  outputs: {
    plan: port.json(undefined, { required: true, description: 'The compiled composition, as data.' }),
  },
});

export const flowRunSchema = defineAction({
  name: FLOW_RUN,
  description:
    'Run a flow: a composition of the actions you may call, written in the A11 Flow language, dispatched here as one step. ' +
    'The actions it names really run, and their intermediate values move between them without passing through you -- ' +
    'which is the point, and the reason to reach for a flow when the data between two tools is large or when the same shape of work repeats. ' +
    "What comes back is the flow's declared outputs, one object keyed by port name, so declare outputs that are small enough to read. " +
    'A flow may only call actions you are allowed to call; one that names another is refused before anything runs.',
  inputs: {
    flow: port.text({
      description: 'Which flow in the source to run. Defaults to the first one declared, which is the one a file is usually about.',
    }),
    input_streams: port.json(undefined, {
      description:
        "Input ports you will fill yourself, as nodes, while the flow runs -- named here because otherwise a port you do not send a value for is closed empty. " +
        "Write each one at `<this call's id>-flow#<port name>` in the session's node map (`flow_input_node_id` computes it) and close it when you are done: " +
        'nothing else will, and a flow reading a port nobody closes waits. ' +
        'This is how a value reaches a running flow rather than being decided before it starts, and how a port that carries a real type is fed at all, ' +
        'since a value in `inputs` arrives as plain JSON. A caller with no node map of its own -- a model calling this as a tool -- wants `inputs`.',
    }),
    inputs: port.json(undefined, {
      description:
        "Values for the flow's input ports, keyed by port name: the list of values to write to that port, or a bare value as shorthand for a list of one. " +
        "How many a port takes is the flow's business, not this port's -- a port declared `stream` reads every value, an ordinary one reads the first, " +
        'and a port left out here carries none.',
    }),
    source,
  },
  outputs: {
    result: port.json(undefined, {
      required: true,
      description: "The flow's outputs, keyed by port name: one value for an ordinary port, a list for a `stream` one.",
    }),
  },
});

import { z } from 'zod';
import { defineAction, port } from '../../../wire/schema.js';
import { Header, toolActionHeaders } from '../headers.js';
import { MAX_GLOBAL_SHELLS, MAX_SHELLS_PER_CONNECTION } from './shell-manager.js';

/** Seconds a command may run when the caller does not say. */
export const DEFAULT_TIMEOUT_SECONDS = 30;
/** The most a caller may ask for; larger requests are lowered to it. */
export const MAX_TIMEOUT_SECONDS = 600;

export const shellExecuteParameters = z.object({
  timeout_seconds: z
    .number()
    .int()
    .positive('timeout_seconds must be a positive number of seconds')
    .default(DEFAULT_TIMEOUT_SECONDS)
    .describe(
      `Hard timeout, in seconds, before the command is terminated. Defaults to ${DEFAULT_TIMEOUT_SECONDS}; ` +
        `at most ${MAX_TIMEOUT_SECONDS}.`,
    ),
});
export type ShellExecuteParameters = z.infer<typeof shellExecuteParameters>;

export const shellStartSchema = defineAction({
  name: 'shell_start',
  description:
    'Start a new persistent shell and return its id, which later shell_execute calls can target via the x-a11-shell-id header. ' +
    'The shell keeps its state (working directory, environment variables, shell functions) across commands until it is exited. ' +
    'A shell is scoped to the current Session, or globally scoped when started outside one. ' +
    `Each Session may keep at most ${MAX_SHELLS_PER_CONNECTION} running shells and the global scope at most ${MAX_GLOBAL_SHELLS}; ` +
    'starting one beyond the limit fails with RESOURCE_EXHAUSTED. Exit shells you no longer need with shell_exit.',
  outputs: {
    shell_id: port.text({ required: true, description: 'Id of the newly started shell.' }),
  },
});

export const shellExecuteSchema = defineAction({
  name: 'shell_execute',
  description:
    'Run a shell command and stream back its output lines (stdout and stderr, interleaved). ' +
    'Target a shell started with shell_start via the x-a11-shell-id header to reuse its state; ' +
    'omit the header to run the command in a throwaway shell that is discarded afterwards. ' +
    "The command is terminated if it exceeds the timeout or the action's deadline.",
  inputs: {
    command: port.text({ description: 'The command to execute.' }),
    parameters: port.json(shellExecuteParameters, {
      description: 'Execution parameters; defaults are used if omitted.',
    }),
  },
  outputs: {
    output_lines: port.text({ stream: true, description: 'Output lines produced by the command, if any.' }),
  },
  headers: {
    ...toolActionHeaders('Comma-separated regex patterns of actions the LLM may call as tools.'),
    [Header.shellId]: {
      description:
        'Id of the shell to run the command in. If absent, a transient shell is started for this command and terminated when it completes.',
    },
  },
});

export const shellListSchema = defineAction({
  name: 'shell_list',
  description:
    "List the ids of shells currently running in the caller's scope (the current Session, or the global scope when outside one).",
  outputs: {
    shell_ids: port.text({ stream: true, description: "Id of each running shell in the caller's scope." }),
  },
});

export const shellExitSchema = defineAction({
  name: 'shell_exit',
  description:
    'Terminate a shell started with shell_start, releasing its resources. Fails with NOT_FOUND if no shell with the given id is running.',
  headers: {
    [Header.shellId]: { description: 'Id of the shell to terminate (required).' },
  },
});

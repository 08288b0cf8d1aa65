/**
 * The gateway's status report: what it is running right now. Defined once here, with zod, so the
 * gateway that builds it, the tests that read it and the playground that shows it agree on its
 * shape. Isomorphic (the app imports it): no Node APIs.
 */
import { z } from 'zod';
import { defineAction, port } from '../../wire/schema.js';

/** The report's `format`; a change that removes or renames a field gets a new version. */
export const STATUS_FORMAT = 'flowplay.gateway-status/v1';
/** The action that answers the report over A11. */
export const GATEWAY_STATUS = 'gateway_status';
/** Actions that report on the gateway to its operator: clients call them, flows may not. */
export const OPERATOR_TOOL_NAMES: readonly string[] = [GATEWAY_STATUS];
/** The HTTP path that answers it as JSON. */
export const STATUS_PATH = '/status';

const time = z.string().describe('An ISO 8601 time.');
const pids = z.array(z.number().int()).describe('Process ids still alive (zombies left out).');

/** One process group and the live processes in it. */
export const processGroupSchema = z.object({ pgid: z.number().int(), pids });

export const statusConnectionSchema = z.object({
  id: z.string(),
  /** Where the client is: this machine, or another one (never the address itself). */
  remote: z.enum(['loopback', 'remote']),
  /** Whether it is a page in a browser (it sent an Origin and presented the token). */
  browser: z.boolean(),
  since: time,
  /** Its calls running now. */
  calls: z.number().int(),
});

export const statusCallSchema = z.object({
  id: z.string(),
  action: z.string(),
  started_at: time,
  connection: z.string(),
});

export const statusFlowRunSchema = z.object({
  /** The flow_run call's id (the flow runs as `<call>-flow`). */
  call: z.string(),
  flow: z.string(),
  started_at: time,
  /** The connection it came on; null for an in-process caller. */
  connection: z.string().nullable(),
});

export const statusShellSchema = z.object({
  /** The id shell_start gave it; null for the throwaway shell of one shell_execute. */
  id: z.string().nullable(),
  transient: z.boolean(),
  connection: z.string().nullable(),
  /** The bash process. */
  pid: z.number().int(),
  started_at: time,
  /** Being shut down (shell_exit, a closed connection, the end of its one command). */
  closing: z.boolean(),
  /** The command it is executing, or null when idle. */
  command: z
    .object({
      text: z.string(),
      /** The shell_execute call running it, when known. */
      call: z.string().nullable(),
      started_at: time,
    })
    .nullable(),
  /** Process groups the shell started that are still alive: the running command's, and any background jobs. */
  groups: z.array(processGroupSchema),
});

export const CHILD_KINDS = ['shell', 'spawn_process', 'pocketsphinx', 'audio_capture'] as const;
export type ChildKind = (typeof CHILD_KINDS)[number];

export const statusProcessSchema = z.object({
  /** Who started it: a shell session, the standard library's spawn_process, the recogniser, audio capture. */
  kind: z.enum(CHILD_KINDS),
  pid: z.number().int(),
  /** Its process group (each child leads one, so the group can be signalled as a whole). */
  pgid: z.number().int(),
  /** The program and its arguments (shortened when long). */
  command: z.string(),
  started_at: time,
  connection: z.string().nullable(),
  /** The call that started it (which may have ended since: a shell outlives shell_start). */
  started_by: z.object({ call: z.string(), action: z.string() }).nullable(),
  /** The process itself has exited but others of its group live on. */
  exited: z.boolean(),
  /** It and its descendants (or, once it has exited, what is left of its group). */
  pids,
});

export const gatewayStatusReportSchema = z.object({
  format: z.literal(STATUS_FORMAT),
  generated_at: time,
  gateway: z.object({ pid: z.number().int(), started_at: time, uptime_ms: z.number() }),
  summary: z.object({
    connections: z.number().int(),
    /** Calls from clients running now (the call asking for this report is not counted). */
    calls: z.number().int(),
    flow_runs: z.number().int(),
    shells: z.number().int(),
    /** Shells executing a command. */
    commands: z.number().int(),
    /** Distinct live processes the gateway started, descendants included. */
    processes: z.number().int(),
  }),
  connections: z.array(statusConnectionSchema),
  calls: z.array(statusCallSchema),
  flow_runs: z.array(statusFlowRunSchema),
  shells: z.array(statusShellSchema),
  processes: z.array(statusProcessSchema),
});

export type GatewayStatusReport = z.infer<typeof gatewayStatusReportSchema>;
export type StatusProcess = z.infer<typeof statusProcessSchema>;
export type StatusShell = z.infer<typeof statusShellSchema>;

export const gatewayStatusSchema = defineAction({
  name: GATEWAY_STATUS,
  description:
    'Report what this gateway is running right now: open connections, calls in progress, flow runs, shell sessions ' +
    '(and the command each is executing), and the child processes it started, each with the pids still alive. ' +
    `The call asking is not counted. The same report is served as JSON at GET ${STATUS_PATH}. ` +
    'An operator tool: flows cannot call it and flow_actions does not list it.',
  outputs: {
    status: port.json(undefined, { required: true, description: `The report (${STATUS_FORMAT}).` }),
  },
});

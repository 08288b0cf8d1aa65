import type { ActionContext, ActionHandler } from '../../../wire/action.js';
import { ActionRegistry } from '../../../wire/registry.js';
import { Status, StatusCode, StatusError } from '../../../wire/status.js';
import type { ConnectionScope } from '../../scope.js';
import { Header } from '../headers.js';
import {
  MAX_TIMEOUT_SECONDS,
  shellExecuteParameters,
  shellExecuteSchema,
  shellExitSchema,
  shellListSchema,
  shellStartSchema,
  type ShellExecuteParameters,
} from './schemas.js';
import type { ShellManager } from './shell-manager.js';

/** How much of a command the log's summary line quotes. */
const QUOTE_LIMIT = 72;
/** Output lines the log reproduces from the start and from the end of a long run. */
const LOG_HEAD_LINES = 12;
const LOG_TAIL_LINES = 4;

export interface ShellActionsOptions {
  manager: ShellManager;
  /** The connection the calls arrive on; shells it starts are reaped when it ends. */
  scope: ConnectionScope;
}

/** Registers shell_start, shell_execute, shell_list and shell_exit. */
export function registerShellActions(registry: ActionRegistry, options: ShellActionsOptions): ActionRegistry {
  return registry
    .register(shellStartSchema, shellStart(options))
    .register(shellExecuteSchema, shellExecute(options))
    .register(shellListSchema, shellList(options))
    .register(shellExitSchema, shellExit(options));
}

function shellStart({ manager, scope }: ShellActionsOptions): ActionHandler {
  return async (ctx) => {
    const id = await manager.start(scope);
    await ctx.write('shell_id', id);
    const where = scope.global ? 'the global scope' : 'this connection';
    ctx.log(`Started shell \`${id}\`, scoped to ${where}. It keeps its working directory and environment until it is exited.`);
  };
}

function shellExecute({ manager, scope }: ShellActionsOptions): ActionHandler {
  return async (ctx) => {
    const [command, parameters] = await Promise.all([
      ctx.value('command') as Promise<string | undefined>,
      ctx.value('parameters') as Promise<ShellExecuteParameters | undefined>,
    ]);
    if (command === undefined || command.trim() === '') {
      throw new StatusError(StatusCode.INVALID_ARGUMENT, "The 'command' input is required: pass the command to run.");
    }
    const { timeout_seconds } = parameters ?? shellExecuteParameters.parse({});
    const timeoutSeconds = Math.min(timeout_seconds, MAX_TIMEOUT_SECONDS);
    const shellId = ctx.headers.get(Header.shellId)?.trim();
    const excerpt = new OutputExcerpt();
    const onLine = async (line: string) => {
      excerpt.add(line);
      await ctx.write('output_lines', line);
    };
    let exitCode: number | undefined;
    let failure: unknown;
    const transient = shellId ? undefined : await manager.transient(scope);
    try {
      const shell = transient?.shell ?? manager.get(shellId!);
      ({ exitCode } = await shell.execute(command, { timeoutMs: timeoutSeconds * 1000, signal: ctx.signal, onLine, callId: ctx.id }));
    } catch (error) {
      failure = error;
    } finally {
      await transient?.dispose();
    }
    ctx.log(narration(command, excerpt, exitCode, failure));
    if (failure !== undefined) throw failure;
  };
}

function shellList({ manager, scope }: ShellActionsOptions): ActionHandler {
  return async (ctx) => {
    const ids = manager.list(scope);
    for (const id of ids) await ctx.write('shell_ids', id);
    ctx.log(`Listed running shells — ${ids.length} of them.${ids.map((id) => `\n- \`${id}\``).join('')}`);
  };
}

function shellExit({ manager }: ShellActionsOptions): ActionHandler {
  return async (ctx: ActionContext) => {
    const id = ctx.headers.get(Header.shellId)?.trim();
    if (!id) {
      throw new StatusError(StatusCode.INVALID_ARGUMENT, `The ${Header.shellId} header is required: name the shell to exit.`);
    }
    await manager.exit(id);
    ctx.log(`Exited shell \`${id}\`; its processes are gone.`);
  };
}

/** The start and the end of a command's output, for the log; the middle of a long run is elided. */
class OutputExcerpt {
  readonly head: string[] = [];
  tail: string[] = [];
  count = 0;

  add(line: string): void {
    this.count++;
    if (this.head.length < LOG_HEAD_LINES) this.head.push(line);
    else this.tail = [...this.tail, line].slice(-LOG_TAIL_LINES);
  }

  lines(): string[] {
    const elided = this.count - this.head.length - this.tail.length;
    if (elided <= 0) return [...this.head, ...this.tail];
    return [...this.head, `… ${elided} more line${elided === 1 ? '' : 's'} …`, ...this.tail];
  }
}

function narration(command: string, excerpt: OutputExcerpt, exitCode: number | undefined, failure: unknown): string {
  const { count } = excerpt;
  const summary =
    failure !== undefined
      ? `\`${quote(command)}\` failed: ${Status.fromError(failure).toString()}`
      : `\`${quote(command)}\` — ${count} line${count === 1 ? '' : 's'} of output, exit code ${exitCode}.`;
  const shown = excerpt.lines();
  const output = shown.length ? `\n\n\`\`\`\n${shown.join('\n')}\n\`\`\`` : '';
  return `${summary}\n\n\`\`\`sh\n${command.trim()}\n\`\`\`${output}`;
}

function quote(command: string): string {
  const trimmed = command.trim();
  const first = trimmed.split('\n')[0] ?? '';
  if (first.length > QUOTE_LIMIT) return `${first.slice(0, QUOTE_LIMIT - 1)}…`;
  return trimmed.includes('\n') ? `${first} …` : first;
}

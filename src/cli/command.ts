import { parseArgs, type ParseArgsConfig } from 'node:util';

/** One `flowplay` subcommand: its name, what `--help` prints, and what it does. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  allowPositionals?: boolean;
  /** Resolves to the process exit code. */
  run(args: ParsedArgs): Promise<number>;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/** Thrown for a command line we cannot act on; printed with the command's usage, exit 2. */
export class UsageError extends Error {}

export function parseCommandArgs(command: Command, argv: string[]): ParsedArgs {
  try {
    const parsed = parseArgs({
      args: argv,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: command.allowPositionals ?? false,
      strict: true,
    });
    return { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function helpText(command: Command): string {
  return `${command.summary}\n\nUsage: ${command.usage}\n`;
}

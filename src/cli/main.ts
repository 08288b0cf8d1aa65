import { runCommand } from './run.js';
import { serveCommand } from './serve.js';
import { skillCommand } from './skill.js';
import { checkCommand } from './check.js';
import { planCommand } from './plan.js';
import { helpText, parseCommandArgs, UsageError, type Command } from './command.js';

/** Every subcommand of `flowplay`; the first is what a bare `flowplay` runs. */
const commands: Command[] = [serveCommand, checkCommand, planCommand, runCommand, skillCommand];

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'flowplay — write, check and run A11 flows.',
    '',
    'Usage: flowplay <command> [options]   (no command: serve)',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `flowplay <command> --help` for the options of one command.',
    '',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(overview());
    return 0;
  }
  const named = first !== undefined && !first.startsWith('-');
  const command = named ? commands.find((c) => c.name === first) : commands[0];
  if (!command) {
    process.stderr.write(`flowplay: unknown command '${first}'.\n\n${overview()}`);
    return 2;
  }
  const args = named ? rest : argv;
  try {
    const parsed = parseCommandArgs(command, args);
    if (parsed.values.help) {
      process.stdout.write(helpText(command));
      return 0;
    }
    return await command.run(parsed);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`flowplay ${command.name}: ${error.message}\n\n${helpText(command)}`);
      return 2;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // One line for the person at the terminal (a missing build, a data directory that cannot be
    // made); the stack only when asked for, since it says where we failed, not what to do.
    const message = error instanceof Error ? error.message : String(error);
    const stack = process.env.FLOWPLAY_DEBUG && error instanceof Error ? `\n${error.stack ?? ''}` : '';
    process.stderr.write(`flowplay: ${message}${stack ? stack : ' (FLOWPLAY_DEBUG=1 shows where it failed)'}\n`);
    process.exitCode = 1;
  },
);

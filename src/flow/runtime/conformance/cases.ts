/**
 * The conformance cases: `.flow` files whose leading `#=` lines say how to run them and what must
 * come of it, and whose `#>` lines are the expected standard output, line by line.
 *
 *     #= args: one two              the program's arguments (after its own name)
 *     #= stdin: a\nb                standard input (`\n`, `\r`, `\t` and `\\` escaped)
 *     #= flags: --allow-write       command-line flags (policy)
 *     #= exit: 1                    the expected exit code (0 when absent)
 *     #= stderr: some words         text standard error must contain
 *     #= sorted                     compare stdout lines as a multiset (writers that interleave)
 *     #= flow: name                 run this named flow rather than a program
 *     #= input: words=["a","b"]     a named flow's input (repeatable)
 *     #= outputs: {"said": "a"}     a named flow's expected outputs
 *     #= oracle: no (why)           do not compare with the reference's `a11 flow run`
 *     #> expected stdout line
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ConformanceCase {
  name: string;
  file: string;
  source: string;
  args: string[];
  stdin: string;
  flags: string[];
  exit: number;
  stderr: string[];
  sorted: boolean;
  flow?: string;
  inputs: string[];
  outputs?: unknown;
  /** Lines of expected standard output (each written with its newline). */
  stdout: string[];
  /** Why the reference cannot run this case, when it cannot. */
  noOracle?: string;
}

function words(text: string): string[] {
  const found: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (const match of text.matchAll(pattern)) found.push(match[1] !== undefined ? JSON.parse(`"${match[1]}"`) : match[2]!);
  return found;
}

export function readCase(file: string): ConformanceCase {
  const source = readFileSync(file, 'utf8');
  const found: ConformanceCase = {
    name: basename(file, '.flow'),
    file,
    source,
    args: [],
    stdin: '',
    flags: [],
    exit: 0,
    stderr: [],
    sorted: false,
    inputs: [],
    stdout: [],
  };
  for (const line of source.split('\n')) {
    if (line.startsWith('#> ')) found.stdout.push(line.slice(3));
    else if (line === '#>') found.stdout.push('');
    if (!line.startsWith('#=')) continue;
    const body = line.slice(2).trim();
    const colon = body.indexOf(':');
    const key = colon < 0 ? body : body.slice(0, colon).trim();
    const value = colon < 0 ? '' : body.slice(colon + 1).trim();
    switch (key) {
      case 'args':
        found.args = words(value);
        break;
      case 'stdin':
        found.stdin = unescapeInput(value);
        break;
      case 'flags':
        found.flags = words(value);
        break;
      case 'exit':
        found.exit = Number(value);
        break;
      case 'stderr':
        found.stderr.push(value);
        break;
      case 'sorted':
        found.sorted = true;
        break;
      case 'flow':
        found.flow = value;
        break;
      case 'input':
        found.inputs.push(value);
        break;
      case 'outputs':
        found.outputs = JSON.parse(value) as unknown;
        break;
      case 'oracle':
        found.noOracle = value || 'no';
        break;
      default:
        throw new Error(`${file}: unknown case directive '${key}'`);
    }
  }
  return found;
}

export const CASES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'cases');

export function allCases(): ConformanceCase[] {
  return readdirSync(CASES_DIR)
    .filter((name) => name.endsWith('.flow'))
    .sort()
    .map((name) => readCase(join(CASES_DIR, name)));
}

const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\' };

/** Standard input written on one line: backslash escapes for the characters a line cannot hold. */
function unescapeInput(text: string): string {
  return text.replace(/\\([nrt\\])/g, (_, letter: string) => escapes[letter] ?? letter);
}

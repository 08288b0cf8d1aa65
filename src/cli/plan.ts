import { compileFlow } from '../flow/compile.js';
import { hasErrors } from '../flow/diagnostics/diagnostic.js';
import type { Catalogue } from '../flow/catalogue.js';
import { UsageError, type Command } from './command.js';
import { readCatalogueFile, readSource, Unreadable } from './sources.js';

/**
 * `flowplay plan FILE`: the `flow.plan/v1` the file resolves to — each flow's ports, headers,
 * node maps and steps — with the compiler's diagnostics beside it. A file with errors gets a
 * partial plan and exit status 1.
 */
export const planCommand: Command = {
  name: 'plan',
  summary: 'Print the flow.plan/v1 a flow file resolves to (what flow_check returns).',
  usage: [
    'flowplay plan FILE [--catalogue FILE]',
    '',
    '  FILE             a flow file; - reads standard input',
    '  --catalogue F    a flow.catalogue/v1 file to check actions against',
    '',
    'Exit status: 0 no errors, 1 errors (the plan is then partial), 2 the file could not be read.',
  ].join('\n'),
  options: { catalogue: { type: 'string' } },
  allowPositionals: true,
  async run({ values, positionals }) {
    if (positionals.length !== 1) throw new UsageError('name exactly one flow file (or - for standard input).');
    const file = positionals[0]!;
    let source: string;
    let catalogue: Catalogue | undefined;
    try {
      if (typeof values.catalogue === 'string') catalogue = await readCatalogueFile(values.catalogue);
      source = await readSource(file);
    } catch (error) {
      if (!(error instanceof Unreadable)) throw error;
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    const { described, diagnostics } = compileFlow(source, { sourceName: file, ...(catalogue ? { catalogue } : {}) });
    process.stdout.write(`${JSON.stringify(described, null, 2)}\n`);
    return hasErrors(diagnostics) ? 1 : 0;
  },
};

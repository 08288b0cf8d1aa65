import { compileFlow } from '../flow/compile.js';
import { diagnosticToText, hasErrors } from '../flow/diagnostics/diagnostic.js';
import { diagnosticsEnvelope } from '../flow/diagnostics/wire.js';
import type { Catalogue } from '../flow/catalogue.js';
import { UsageError, type Command } from './command.js';
import { readCatalogueFile, readSource, Unreadable } from './sources.js';

/**
 * `flowplay check FILE…`: every problem in each file, as a compiler prints them or as
 * `flow.diagnostics/v1` envelopes. Exit 0 when nothing is an error, 1 when something is,
 * 2 when a file (or the catalogue) could not be read.
 */
export const checkCommand: Command = {
  name: 'check',
  summary: 'Check flow files and report every problem, with line and column.',
  usage: [
    'flowplay check FILE… [--format text|json] [--catalogue FILE] [--quiet]',
    '',
    '  FILE             a flow file; - reads standard input',
    '  --format text    file:line:column: severity: message [code] (the default)',
    '  --format json    one flow.diagnostics/v1 envelope per file',
    '  --catalogue F    a flow.catalogue/v1 file: also check actions, their ports, and run vs call',
    '  --quiet          say nothing about files without problems (text only)',
    '',
    'Exit status: 0 no errors, 1 errors, 2 a file could not be read.',
  ].join('\n'),
  options: {
    format: { type: 'string', default: 'text' },
    catalogue: { type: 'string' },
    quiet: { type: 'boolean', short: 'q', default: false },
  },
  allowPositionals: true,
  async run({ values, positionals }) {
    const format = String(values.format);
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format is 'text' or 'json', not '${format}'.`);
    if (positionals.length === 0) throw new UsageError('name at least one flow file to check (or - for standard input).');
    let catalogue: Catalogue | undefined;
    try {
      if (typeof values.catalogue === 'string') catalogue = await readCatalogueFile(values.catalogue);
    } catch (error) {
      if (!(error instanceof Unreadable)) throw error;
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    let status = 0;
    for (const file of positionals) {
      let source: string;
      try {
        source = await readSource(file);
      } catch (error) {
        if (!(error instanceof Unreadable)) throw error;
        process.stderr.write(`${error.message}\n`);
        status = 2;
        continue;
      }
      const { diagnostics } = compileFlow(source, { sourceName: file, ...(catalogue ? { catalogue } : {}) });
      if (hasErrors(diagnostics) && status === 0) status = 1;
      if (format === 'json') {
        process.stdout.write(`${JSON.stringify(diagnosticsEnvelope(file, diagnostics), null, 2)}\n`);
      } else if (diagnostics.length) {
        process.stdout.write(diagnostics.map((diagnostic) => `${diagnosticToText(diagnostic, file)}\n`).join(''));
      } else if (!values.quiet) {
        process.stdout.write(`${file}: no problems found\n`);
      }
    }
    return status;
  },
};

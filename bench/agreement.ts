/**
 * How often `flowplay check` and the reference's `a11 flow check` agree, on the reference flows
 * and on seeded mutations of them.
 *
 * Run it (built with the project's vite config, because the compiler imports a `.grammar` file):
 *
 *     npx vite build --ssr bench/agreement.ts --outDir build/bench --emptyOutDir --logLevel warn && node build/bench/agreement.js [COUNT] [SEED]
 *
 * Needs a11-kit 0.4.4 (`$A11_BIN`, `.tools/a11-kit`, or /opt/a11ref44) and the reference flows.
 * Prints the three rates the differential suite holds at 95% or more — error/no-error, first
 * error code, first error line:column — and then every mismatch, marked `syntax` when the first
 * error on either side is one the parser reports.
 */

import { describeMismatch, isSyntaxMismatch, measureAgreement, type Case } from '../test/support/agreement.js';
import { generateMutations, mutationCase } from '../test/support/mutations.js';
import { REFERENCE_A11 } from '../test/support/reference-checker.js';
import { referenceFlows } from '../test/support/reference.js';

async function main(): Promise<number> {
  const count = Number(process.argv[2] ?? 600);
  const seed = Number(process.argv[3] ?? 20261130);
  const originals: Case[] = referenceFlows();
  if (originals.length === 0 || !REFERENCE_A11) {
    process.stderr.write('needs the reference flows (../shared/reference) and a11-kit 0.4.4 (A11_BIN)\n');
    return 2;
  }
  const mutations: Case[] = generateMutations(originals, count, seed).map(mutationCase);
  const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
  const lines: string[] = [];
  for (const [title, cases] of [
    ['reference flows', originals],
    [`mutations (seed ${seed})`, mutations],
  ] as const) {
    const report = await measureAgreement(cases);
    lines.push(
      `${title}: ${report.cases} cases`,
      `  error / no error      ${percent(report.errorRate)}`,
      `  first error code      ${percent(report.codeRate)}`,
      `  first error position  ${percent(report.positionRate)}`,
    );
    const clean = report.outcomes.filter((outcome) => !outcome.parserTrouble);
    const cleanRate = (test: (outcome: (typeof clean)[number]) => boolean) => percent(clean.length ? clean.filter(test).length / clean.length : 1);
    lines.push(
      `  of which ${clean.length} read cleanly by both parsers (the checker alone decides): ` +
        `error ${cleanRate((o) => o.errorAgrees)}, code ${cleanRate((o) => o.codeAgrees)}, position ${cleanRate((o) => o.positionAgrees)}`,
    );
    const kinds = new Map<string, typeof report.outcomes>();
    for (const outcome of report.outcomes) {
      const kind = /\[([a-z-]+)\]$/.exec(outcome.case.name)?.[1];
      if (kind) kinds.set(kind, [...(kinds.get(kind) ?? []), outcome]);
    }
    for (const [kind, outcomes] of [...kinds].sort()) {
      const share = (test: (outcome: (typeof outcomes)[number]) => boolean) => percent(outcomes.filter(test).length / outcomes.length);
      lines.push(`    ${kind.padEnd(22)} ${String(outcomes.length).padStart(4)}  error ${share((o) => o.errorAgrees).padStart(6)}  code ${share((o) => o.codeAgrees).padStart(6)}  position ${share((o) => o.positionAgrees).padStart(6)}`);
    }
    const mismatches = report.outcomes.filter((outcome) => !outcome.codeAgrees || !outcome.positionAgrees);
    for (const outcome of mismatches) lines.push(`    ${isSyntaxMismatch(outcome) ? 'syntax ' : 'checker'} ${describeMismatch(outcome)}`);
    lines.push('');
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);

/**
 * How often our parser and the reference's (`a11 flow parse`) agree on seeded mutations of the
 * reference flows — the syntax layer's share of the differential measure, without the checker.
 *
 * Run it (built with the project's vite config, because the parser imports a `.grammar` file):
 *
 *     npx vite build --ssr bench/syntax-agreement.ts --outDir build/bench-syntax-agreement --emptyOutDir --logLevel warn && node build/bench-syntax-agreement/syntax-agreement.js [COUNT] [SEED]
 *
 * Needs a11-kit 0.4.4 (`$A11_BIN`, `.tools/a11-kit`, or /opt/a11ref44) and the reference flows.
 * Prints the three rates (a parser error or not, the first error's code, its line:column) per
 * mutation kind and overall, then every mismatch.
 */
import { generateMutations, mutationCase } from '../test/support/mutations.js';
import { REFERENCE_A11, ReferenceChecker } from '../test/support/reference-checker.js';
import { referenceFlows } from '../test/support/reference.js';
import { describeSyntaxMismatch, measureSyntaxAgreement, type SyntaxOutcome } from '../test/support/syntax-agreement.js';

async function main(): Promise<number> {
  const count = Number(process.argv[2] ?? 600);
  const seed = Number(process.argv[3] ?? 20261130);
  const originals = referenceFlows();
  if (originals.length === 0 || !REFERENCE_A11) {
    process.stderr.write('needs the reference flows (../shared/reference) and a11-kit 0.4.4 (A11_BIN)\n');
    return 2;
  }
  const mutations = generateMutations(originals, count, seed).map(mutationCase);
  const reference = new ReferenceChecker(REFERENCE_A11);
  try {
    const report = await measureSyntaxAgreement(mutations, reference);
    const percent = (rate: number): string => `${(rate * 100).toFixed(1).padStart(5)}%`;
    console.log(`parser agreement on ${report.cases} mutations (seed ${seed}):`);
    console.log(`  error / no error      ${percent(report.errorRate)}`);
    console.log(`  first error code      ${percent(report.codeRate)}`);
    console.log(`  first error position  ${percent(report.positionRate)}`);
    const byKind = new Map<string, SyntaxOutcome[]>();
    report.outcomes.forEach((outcome, index) => {
      const kind = mutations[index]!.kind;
      byKind.set(kind, [...(byKind.get(kind) ?? []), outcome]);
    });
    for (const [kind, outcomes] of [...byKind].sort()) {
      const rate = (test: (outcome: SyntaxOutcome) => boolean): string => percent(outcomes.filter(test).length / outcomes.length);
      console.log(`    ${kind.padEnd(22)} ${String(outcomes.length).padStart(4)}  error ${rate((o) => o.errorAgrees)}  code ${rate((o) => o.codeAgrees)}  position ${rate((o) => o.positionAgrees)}`);
    }
    const mismatches = report.outcomes.filter((outcome) => !(outcome.errorAgrees && outcome.codeAgrees && outcome.positionAgrees));
    if (mismatches.length > 0) console.log(`\n${mismatches.length} mismatches:`);
    for (const outcome of mismatches) console.log(`  ${describeSyntaxMismatch(outcome)}`);
    return 0;
  } finally {
    reference.close();
  }
}

main().then((code) => process.exit(code));

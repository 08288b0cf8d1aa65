import { afterAll, describe, expect, test } from 'vitest';
import { generateMutations, mutationCase } from '../../../test/support/mutations';
import { REFERENCE_A11, ReferenceChecker } from '../../../test/support/reference-checker';
import { A11_MISSING, REFERENCE_DIR, REFERENCE_MISSING, referenceFlows } from '../../../test/support/reference';
import { describeSyntaxMismatch, measureSyntaxAgreement } from '../../../test/support/syntax-agreement';
import { SyntaxJson } from '../../../test/support/syntax-json';
import { parseFlow } from './parse';

/**
 * Our parser against the reference's (`a11 flow parse`, a11-kit 0.4.4): the same tree for every
 * reference flow, and the same first problem — whether there is one, its code, its line:column —
 * on at least 95% of 500 seeded mutations of them.
 */
const ready = REFERENCE_DIR !== null && REFERENCE_A11 !== null;
const why = REFERENCE_DIR === null ? REFERENCE_MISSING : A11_MISSING;

describe.skipIf(!ready)(`our parser and the reference's ${ready ? '' : `(${why})`}`, () => {
  const flows = ready ? referenceFlows() : [];
  const reference = ready ? new ReferenceChecker(REFERENCE_A11!) : null;
  afterAll(() => reference?.close());

  test.each(flows)('$name parses to the reference tree', async ({ source }) => {
    const theirs = await reference!.parse(source);
    const { ast, diagnostics } = parseFlow(source);
    expect(diagnostics).toEqual([]);
    expect(theirs.diagnostics).toEqual([]);
    expect(new SyntaxJson(source).file(ast)).toEqual({ flows: theirs.flows, structs: theirs.structs });
  });

  test('500 seeded mutations: the first problem agrees on at least 95% of them, on each measure', async () => {
    const mutations = generateMutations(flows, 500, 20261130).map(mutationCase);
    expect(mutations.length).toBe(500);
    const report = await measureSyntaxAgreement(mutations, reference!);
    const mismatches = report.outcomes.filter((outcome) => !(outcome.codeAgrees && outcome.positionAgrees));
    const summary = `error ${report.errorRate}, code ${report.codeRate}, position ${report.positionRate}\n${mismatches.map(describeSyntaxMismatch).join('\n')}`;
    expect(report.errorRate, summary).toBeGreaterThanOrEqual(0.95);
    expect(report.codeRate, summary).toBeGreaterThanOrEqual(0.95);
    expect(report.positionRate, summary).toBeGreaterThanOrEqual(0.95);
  }, 300_000);
});

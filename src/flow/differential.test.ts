import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeMismatch, measureAgreement, type AgreementReport, type Case } from '../../test/support/agreement.js';
import { generateMutations, mutationCase } from '../../test/support/mutations.js';
import { REFERENCE_A11, referenceCheckFile } from '../../test/support/reference-checker.js';
import { REFERENCE_DIR, referenceFlows } from '../../test/support/reference.js';
import { diagnosticsEnvelope } from './diagnostics/wire.js';
import { compileFlow } from './compile.js';

/**
 * `flowplay check` against `a11 flow check` (a11-kit 0.4.4) on the reference flows and on 600
 * seeded mutations of them: error / no error, the first error's code and its line:column must
 * agree on every reference flow, and on at least 95% of the mutations, each. Nothing is cached
 * between runs; every source is checked by both compilers here. `bench/agreement.ts` prints the
 * same rates, per kind of mutation, with every mismatch.
 */

const BAR = 0.95;

const dir = REFERENCE_DIR ? join(REFERENCE_DIR, 'flows') : null;
const available = dir !== null && existsSync(dir) && REFERENCE_A11 !== null;

const originals = (): Case[] => referenceFlows();

function summary(report: AgreementReport): string {
  const misses = report.outcomes.filter((outcome) => !outcome.codeAgrees || !outcome.positionAgrees).map(describeMismatch);
  return `${report.cases} cases; error ${report.errorRate}, code ${report.codeRate}, position ${report.positionRate}\n${misses.join('\n')}`;
}

describe.skipIf(!available)(
  `agreement with the reference compiler${available ? '' : ' (skipped: needs ../shared/reference and a11-kit 0.4.4 — A11_BIN)'}`,
  () => {
    it('agrees on every reference flow', async () => {
      const report = await measureAgreement(originals());
      expect(report.errorRate, summary(report)).toBe(1);
      expect(report.codeRate, summary(report)).toBe(1);
      expect(report.positionRate, summary(report)).toBe(1);
    }, 60_000);

    it('agrees with `a11 flow check --format json` itself, not only with its service', () => {
      const file = join(dir!, 'vscode-plugin__test__fixtures__broken.flow');
      const theirs = referenceCheckFile(file);
      const ours = diagnosticsEnvelope(file, compileFlow(readFileSync(file, 'utf8'), { sourceName: file }).diagnostics);
      expect(ours.diagnostics.map((d) => [d.code, d.range])).toEqual(theirs.diagnostics.map((d) => [d.code, d.range]));
      expect(ours.counts).toEqual(theirs.counts);
    }, 30_000);


    it('agrees on at least 95% of 600 seeded mutations, on each measure', async () => {
      const mutations = generateMutations(originals(), 600, 20261130);
      expect(mutations.length).toBeGreaterThanOrEqual(500);
      const report = await measureAgreement(mutations.map(mutationCase));
      expect(report.errorRate, summary(report)).toBeGreaterThanOrEqual(BAR);
      expect(report.codeRate, summary(report)).toBeGreaterThanOrEqual(BAR);
      expect(report.positionRate, summary(report)).toBeGreaterThanOrEqual(BAR);
    }, 300_000);
  },
);

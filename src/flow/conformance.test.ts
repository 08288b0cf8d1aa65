import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_DIR, REFERENCE_MISSING } from '../../test/support/reference.js';
import { REFERENCE_A11, REFERENCE_PYTHON, referenceFlowCheckPlans, referenceDescribeFile } from '../../test/support/reference-checker.js';
import { compileFlow } from './compile.js';

/**
 * The reference's own flows: every one checks without an error here, except the fixture that
 * misspells a type on purpose, which is reported where the reference reports it; and each
 * compiles to the same `flow.plan/v1` the reference's `a11 flow describe` prints.
 */

const dir = REFERENCE_DIR ? join(REFERENCE_DIR, 'flows') : null;
const available = dir !== null && existsSync(dir);
const files = available ? readdirSync(dir).filter((name) => name.endsWith('.flow')).sort() : [];
const BROKEN = 'vscode-plugin__test__fixtures__broken.flow';
/** The one flow the reference pins its syntax format with: nearly every construct, structs too. */
const EXAMPLE = REFERENCE_DIR ? join(REFERENCE_DIR, 'testdata/flow__example.flow') : null;

describe.skipIf(!available)(`the reference flows${available ? '' : ` (skipped: ${REFERENCE_MISSING})`}`, () => {
  it('are all there', () => {
    expect(files.length).toBeGreaterThanOrEqual(21);
    expect(files).toContain(BROKEN);
  });

  it.each(files.filter((name) => name !== BROKEN))('%s checks with no error', (name) => {
    const { diagnostics, program } = compileFlow(readFileSync(join(dir!, name), 'utf8'), { sourceName: name });
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map((d) => `${d.range.start.line}:${d.range.start.column} ${d.message} [${d.code}]`)).toEqual([]);
    expect(program).toBeDefined();
  });

  it(`${BROKEN} reports the misspelt type at 4:17`, () => {
    const { diagnostics, program } = compileFlow(readFileSync(join(dir!, BROKEN), 'utf8'), { sourceName: BROKEN });
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
    expect(errors.map((d) => `${d.code}@${d.range.start.line}:${d.range.start.column}`)).toEqual(['flow.form.unknown-type@4:17']);
    expect(program).toBeUndefined();
  });
});

describe.skipIf(!available || !REFERENCE_A11)(
  `the plan agrees with \`a11 flow describe\`${REFERENCE_A11 ? '' : ' (skipped: a11-kit 0.4.4 not installed; set A11_BIN)'}`,
  () => {
    it.each([...files.map((name) => join(dir!, name)), ...(EXAMPLE && existsSync(EXAMPLE) ? [EXAMPLE] : [])])('%s', (path) => {
      const theirs = referenceDescribeFile(path) as { flows: unknown; structs: unknown; format: string; diagnostics: { code: string }[] };
      const ours = compileFlow(readFileSync(path, 'utf8'), { sourceName: path }).described;
      expect(ours.format).toBe(theirs.format);
      expect(ours.flows).toEqual(theirs.flows);
      expect(ours.structs).toEqual(theirs.structs);
      expect((ours.diagnostics ?? []).map((d) => d.code)).toEqual(theirs.diagnostics.map((d) => d.code));
    }, 30_000);
  },
);

describe.skipIf(!available || !REFERENCE_PYTHON)(
  `the plan is what the reference's flow_check returns${REFERENCE_PYTHON ? '' : ' (skipped: the reference Python (A11_PYTHON) is not installed)'}`,
  () => {
    it('for every reference flow, key for key', () => {
      const sources = Object.fromEntries(files.filter((name) => name !== BROKEN).map((name) => [name, readFileSync(join(dir!, name), 'utf8')]));
      const theirs = referenceFlowCheckPlans(sources);
      for (const [name, source] of Object.entries(sources)) {
        expect(JSON.parse(JSON.stringify(compileFlow(source, { sourceName: 'flow' }).plan)), name).toEqual(theirs[name]);
      }
    }, 60_000);
  },
);

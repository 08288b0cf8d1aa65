import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { REFERENCE_DIR, REFERENCE_MISSING, referencePath } from '../../../test/support/reference';
import { SyntaxJson } from '../../../test/support/syntax-json';
import { parseFlow } from './parse';

describe.skipIf(!REFERENCE_DIR)(`the reference's tree of example.flow ${REFERENCE_DIR ? '' : `(${REFERENCE_MISSING})`}`, () => {
  test('our syntax tree has the same facts as flow__syntax.json', () => {
    const source = readFileSync(referencePath('testdata/flow__example.flow'), 'utf8');
    const expected = JSON.parse(readFileSync(referencePath('testdata/flow__syntax.json'), 'utf8'));
    const { ast, diagnostics } = parseFlow(source);
    expect(diagnostics).toEqual([]);
    const ours = new SyntaxJson(source).file(ast);
    expect(ours).toEqual({ flows: expected.flows, structs: expected.structs });
  });
});

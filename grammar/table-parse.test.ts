import { NodeProp, Tree, TreeBuffer } from '@lezer/common';
import { describe, expect, test } from 'vitest';
import { flowOfLines } from '../bench/check';
import { generateMutations } from '../test/support/mutations';
import { grammarTestCases } from '../test/support/grammar-tests';
import { REFERENCE_DIR, REFERENCE_MISSING, referenceFlows as readReferenceFlows } from '../test/support/reference';
import { parser } from './index';
import { parseWithoutRecovery } from './table-parse';

/**
 * The table-driven parse must build exactly the tree Lezer's parser builds — node for node,
 * buffer for buffer, with the same context hashes and lookahead records — on every input it
 * takes; on the rest it must say so (`null`) rather than guess.
 */

/** Everything a tree is made of, as plain data: types, positions, buffers, the two props
 * incremental parsing reads, and how the tree is split into nodes and buffers. */
function anatomy(tree: Tree | TreeBuffer): unknown {
  if (tree instanceof TreeBuffer) return { buffer: Array.from(tree.buffer), length: tree.length };
  return {
    type: tree.type.id,
    length: tree.length,
    lookAhead: tree.prop(NodeProp.lookAhead),
    contextHash: tree.prop(NodeProp.contextHash),
    positions: tree.positions,
    children: tree.children.map(anatomy),
  };
}

const grammarTests = grammarTestCases();

const referenceFlows = readReferenceFlows();

/** Every line-boundary prefix of a text: truncated files, most of them unfinished. */
function prefixes(source: { name: string; source: string }): { name: string; source: string }[] {
  const cuts: { name: string; source: string }[] = [];
  for (let at = source.source.indexOf('\n'); at >= 0; at = source.source.indexOf('\n', at + 1)) {
    cuts.push({ name: `${source.name} up to ${at}`, source: source.source.slice(0, at + 1) });
  }
  return cuts;
}

function agreeOn(inputs: readonly { name: string; source: string }[]): { fast: number; fellBack: number } {
  let fast = 0;
  let fellBack = 0;
  for (const { name, source } of inputs) {
    const ours = parseWithoutRecovery(parser, source);
    const lezers = parser.parse(source);
    if (ours === null) {
      fellBack += 1;
      // Falling back is right only where Lezer had to recover (or hit one of its guards).
      continue;
    }
    fast += 1;
    expect(anatomy(ours), name).toEqual(anatomy(lezers));
  }
  return { fast, fellBack };
}

describe('the table-driven parse builds the tree Lezer builds', () => {
  test('every grammar test input', () => {
    const { fast } = agreeOn(grammarTests);
    expect(fast).toBeGreaterThan(grammarTests.length / 2);
  });

  test('the benchmark flows', () => {
    const { fast, fellBack } = agreeOn([50, 500, 5000].map((lines) => ({ name: `${lines} lines`, source: flowOfLines(lines) })));
    expect({ fast, fellBack }).toEqual({ fast: 3, fellBack: 0 });
  });

  test.skipIf(!REFERENCE_DIR)(`every reference flow, and every prefix of one${REFERENCE_DIR ? '' : ` (${REFERENCE_MISSING})`}`, () => {
    const { fast } = agreeOn(referenceFlows);
    expect(fast).toBe(referenceFlows.length);
    agreeOn(referenceFlows.flatMap(prefixes));
  });

  test.skipIf(!REFERENCE_DIR)(`1000 seeded mutations of the reference flows${REFERENCE_DIR ? '' : ` (${REFERENCE_MISSING})`}`, () => {
    const mutations = generateMutations(referenceFlows, 1000, 7_2026).map((mutation) => ({ name: `${mutation.origin}: ${mutation.note}`, source: mutation.source }));
    const { fast, fellBack } = agreeOn(mutations);
    expect(fast + fellBack).toBe(mutations.length);
  });

  test('a text with a mistake falls back to Lezer', () => {
    expect(parseWithoutRecovery(parser, 'flow f {\n  x = = 1\n}\n')).toBeNull();
    expect(parseWithoutRecovery(parser, 'flow f {\n  let x = 1\n}\n')).not.toBeNull();
  });
});

import { describe, expect, test } from 'vitest';
import { flowOfLines } from '../bench/check';
import { generateMutations } from '../test/support/mutations';
import { grammarTestCases } from '../test/support/grammar-tests';
import { REFERENCE_DIR, REFERENCE_MISSING, referenceFlows as readReferenceFlows } from '../test/support/reference';
import type { NodeView } from './buffer-nodes';
import { wholeFileParser as parser } from './index';
import { readWithoutRecovery } from './table-parse';

/**
 * The nodes read straight from a table-driven parse's buffer must be the nodes Lezer's
 * `SyntaxNode` shows for the tree built from that buffer: the same names and positions, in the
 * same order, with the same parents — whichever way the tree is walked.
 */

/** A node and everything under it as plain data, walked forwards, with each node's ways back
 * (its parent, its previous sibling) and its last child written beside it. */
function shape(node: NodeView): unknown {
  const children: unknown[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) children.push(shape(child));
  const mark = (other: NodeView | null) => (other ? `${other.name}@${other.from}-${other.to}` : null);
  return {
    name: node.name,
    error: node.type.isError,
    from: node.from,
    to: node.to,
    parent: mark(node.parent),
    previous: mark(node.prevSibling),
    last: mark(node.lastChild),
    children,
  };
}

function agreeOn(inputs: readonly { name: string; source: string }[]): number {
  let read = 0;
  for (const { name, source } of inputs) {
    const table = readWithoutRecovery(parser, source);
    if (!table) continue;
    read += 1;
    expect(shape(table.toNodes().topNode), name).toEqual(shape(table.toTree().topNode));
  }
  return read;
}

const referenceFlows = readReferenceFlows();

describe("the buffer's nodes are the nodes of Lezer's tree", () => {
  test('every grammar test input', () => {
    const cases = grammarTestCases();
    expect(agreeOn(cases)).toBeGreaterThan(cases.length / 2);
  });

  test('the benchmark flows', () => {
    expect(agreeOn([50, 500, 5000].map((lines) => ({ name: `${lines} lines`, source: flowOfLines(lines) })))).toBe(3);
  });

  test.skipIf(!REFERENCE_DIR)(`every reference flow, and 300 seeded mutations of them${REFERENCE_DIR ? '' : ` (${REFERENCE_MISSING})`}`, () => {
    expect(agreeOn(referenceFlows)).toBe(referenceFlows.length);
    const mutations = generateMutations(referenceFlows, 300, 11_2026).map((mutation) => ({ name: `${mutation.origin}: ${mutation.note}`, source: mutation.source }));
    expect(agreeOn(mutations)).toBeGreaterThan(30);
  });

  test('a long chain, a deep nesting and comments between statements', () => {
    const chain = `flow f {\n  in a: int\n  out b: int\n  ${'a + '.repeat(2000)}a -> b\n}\n`;
    const nested = `flow f {\n  in a: bool\n  out b: bool\n  ${'not '.repeat(300)}a -> b\n}\n`;
    const commented = 'flow f { # the flow\n  in a: int # a number\n  # alone\n  out b: int\n  a -> b # carried\n} # done\n';
    expect(agreeOn([chain, nested, commented].map((source, index) => ({ name: String(index), source })))).toBe(3);
  });
});

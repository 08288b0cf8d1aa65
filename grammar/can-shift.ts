/**
 * Whether the parse stack can shift a term here (perhaps after reductions): what the tokenizers
 * ask before reading a word as a keyword. For the table-driven parse's stack it is that stack's
 * own answer; for a Lezer `Stack` it is the same simulation over Lezer's frames, read through the
 * per-state action rows rather than Lezer's `canShift` (which scans action lists and copies the
 * whole stack on a zero-depth reduction: quadratic on a deep stack, seconds for 20 000 `not`s).
 * `can-shift.test.ts` holds it to Lezer's answer on every stack of many parses.
 */
import type { Stack } from '@lezer/lr';
import { actionTablesOf, type ParserTables } from './table-actions';
import { TableStack, simulateShift } from './table-stack';

/** A Lezer `Stack`'s fields this reads (internal to Lezer; pinned by the exact version). */
interface LezerStackFields {
  stack: number[];
  state: number;
  p: { parser: ParserTables };
}

const scratch: number[] = [];

export function canShift(stack: Stack | TableStack, term: number): boolean {
  if (stack instanceof TableStack) return stack.canShift(term);
  const fields = stack as unknown as LezerStackFields;
  const tables = fields.p.parser;
  return simulateShift(tables, actionTablesOf(tables), fields.stack, fields.state, term, scratch);
}

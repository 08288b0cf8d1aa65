/**
 * Folding literal expressions to constants: what the grammar's constant positions (a header or
 * field default, `one of`, a record a fold starts from) accept.
 */
import type { Constant, Expression, ObjectPair, Spread } from './ast';

/**
 * The constant `expression` folds to, or `null` where some part of it is only known at run time.
 * A literal, and lists/objects of constants; a spread of a constant list/object is folded in
 * (later keys win, as they do at run time).
 */
export function constantValue(expression: Expression | Spread | ObjectPair): Constant | null {
  switch (expression.kind) {
    case 'literal':
      return expression.value;
    case 'list': {
      const items: Constant[] = [];
      for (const item of expression.items) {
        if (item.kind === 'spread') {
          const held = constantValue(item.value);
          if (held === null || held.kind !== 'list') return null;
          items.push(...held.items);
          continue;
        }
        const value = constantValue(item);
        if (value === null) return null;
        items.push(value);
      }
      return { kind: 'list', items };
    }
    case 'object': {
      const pairs = new Map<string, Constant>();
      for (const pair of expression.pairs) {
        if (pair.kind === 'spread') {
          const held = constantValue(pair.value);
          if (held === null || held.kind !== 'object') return null;
          for (const [key, value] of held.pairs) setPair(pairs, key, value);
          continue;
        }
        const value = constantValue(pair.value);
        if (value === null) return null;
        setPair(pairs, pair.key, value);
      }
      return { kind: 'object', pairs: [...pairs.entries()] };
    }
    default:
      return null;
  }
}

/** A later key replaces an earlier one in place, keeping the first key's position (as the
 * reference's constant folding does). */
function setPair(pairs: Map<string, Constant>, key: string, value: Constant): void {
  pairs.set(key, value);
}

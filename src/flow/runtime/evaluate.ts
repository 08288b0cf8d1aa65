/**
 * Evaluating one expression of the checked program.
 *
 * Evaluation is synchronous: the streams an expression names are read before it runs (one value
 * per ref per evaluation, however often the ref is mentioned), and handed in through
 * {@link EvalContext.ref}. It fails only where a flow asked for something that cannot be done at
 * all — a type nothing here knows, two instants added — because everything else the language
 * answers rather than dies on: a bad comparison compares as text, a missing key is null.
 */
import type { Expr, ObjectEntry, RefId, SpreadExpr } from '../program.js';
import { callBuiltin, type BuiltinContext } from './builtins.js';
import { contains, lookup, spreadItems, spreadPairs } from './values/access.js';
import { arithmetic } from './values/arithmetic.js';
import { order, truthy, valuesEqual } from './values/compare.js';
import { coerce, type CoerceContext } from './values/coerce.js';
import { constantValue } from './values/constants.js';
import { newRecord, type Value } from './values/value.js';

export interface EvalContext {
  /** The value a ref has for this evaluation (read beforehand). */
  ref(ref: RefId): Value;
  /** The value a stage is looking at; null where there is none. */
  readonly it: Value;
  readonly coercion: CoerceContext;
  readonly builtins: BuiltinContext;
}

export function evaluate(expr: Expr, context: EvalContext): Value {
  switch (expr.kind) {
    case 'literal':
      return constantValue(expr.value);
    case 'it':
      return context.it;
    case 'ref':
      return context.ref(expr.ref);
    case 'list': {
      const items: Value[] = [];
      for (const item of expr.items) {
        if (item.kind === 'spread') items.push(...spreadItems(evaluate(item.value, context)));
        else items.push(evaluate(item as Expr, context));
      }
      return items;
    }
    case 'object': {
      const record = newRecord();
      for (const entry of expr.entries as readonly (ObjectEntry | SpreadExpr)[]) {
        if (entry.kind === 'spread') {
          for (const [key, value] of spreadPairs(evaluate(entry.value, context))) record[key] = value;
        } else {
          record[entry.key] = evaluate(entry.value, context);
        }
      }
      return record;
    }
    case 'attr':
      return lookup(evaluate(expr.base, context), expr.name);
    case 'index':
      return lookup(evaluate(expr.base, context), evaluate(expr.index, context));
    case 'builtin':
      return callBuiltin(
        expr.name,
        expr.args.map((arg) => evaluate(arg, context)),
        context.builtins,
      );
    case 'not':
      return !truthy(evaluate(expr.operand, context));
    case 'typed':
      return coerce(evaluate(expr.value, context), expr.type, context.coercion);
    case 'binary': {
      if (expr.op === 'and' || expr.op === 'or') {
        // The value, not a boolean: `name or "unknown"` reads as a default.
        const left = evaluate(expr.left, context);
        return (expr.op === 'and') !== truthy(left) ? left : evaluate(expr.right, context);
      }
      const left = evaluate(expr.left, context);
      const right = evaluate(expr.right, context);
      switch (expr.op) {
        case '==':
          return valuesEqual(left, right);
        case '!=':
          return !valuesEqual(left, right);
        case 'in':
          return contains(right, left);
        case '+':
        case '-':
          return arithmetic(expr.op, left, right);
        case '<':
          return order(left, right) < 0;
        case '<=':
          return order(left, right) <= 0;
        case '>':
          return order(left, right) > 0;
        case '>=':
          return order(left, right) >= 0;
      }
    }
  }
}

/** The value a constant of the program is: a literal, a default, a fold start. */
import type { Constant } from '../../program.js';
import { double, Duration, newRecord, type Value } from './value.js';

export function constantValue(constant: Constant): Value {
  switch (constant.kind) {
    case 'null':
      return null;
    case 'bool':
      return constant.value;
    case 'integer':
      return constant.value;
    case 'number':
      return double(constant.value);
    case 'string':
      return constant.value;
    case 'duration':
      return Duration.seconds(constant.seconds);
    case 'list':
      return constant.items.map(constantValue);
    case 'object': {
      const record = newRecord();
      for (const [key, item] of constant.pairs) record[key] = constantValue(item);
      return record;
    }
  }
}

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFERENCE_DIR, REFERENCE_MISSING, referencePath } from '../../test/support/reference.js';
import * as vocabulary from './vocabulary.js';

interface ReferenceVocabulary {
  stages: { name: string; takes: string }[];
  bare_stages: string[];
  reducing_stages: string[];
  positional_stages: string[];
  parallel_stages: string[];
  builtins: string[];
  types: string[];
  statements: string[];
  clause_words: string[];
  declarations: string[];
  modifiers: string[];
  port_modifiers: string[];
  field_modifiers: string[];
  source_words: string[];
  constants: string[];
  operator_words: string[];
  status_codes: string[];
  log_levels: string[];
  status_fields: string[];
  duration_units: Record<string, number>;
  symbols: string[];
  entry_ports: { name: string; type: string; unary: boolean }[];
  type_parameters: Record<string, number[]>;
}

const file = REFERENCE_DIR ? referencePath('testdata/flow__vocabulary.json') : null;
const available = file !== null && existsSync(file);

describe.skipIf(!available)(`the vocabulary agrees with the reference's table${available ? '' : ` (skipped: ${REFERENCE_MISSING})`}`, () => {
  const reference = available ? (JSON.parse(readFileSync(file, 'utf8')) as ReferenceVocabulary) : null!;
  const sorted = (words: readonly string[]) => [...words].sort();

  it('has the same stages, in the same order, taking the same arguments', () => {
    expect(vocabulary.stages.map((s) => ({ name: s.name, takes: s.takes }))).toEqual(reference.stages);
    expect(vocabulary.stages).toHaveLength(33);
  });

  it('marks the same stages bare, reducing, positional and parallel', () => {
    const named = (test: (s: vocabulary.StageWord) => boolean) => sorted(vocabulary.stages.filter(test).map((s) => s.name));
    expect(named((s) => s.bare)).toEqual(sorted(reference.bare_stages));
    expect(named((s) => s.reducing)).toEqual(sorted(reference.reducing_stages));
    expect(named((s) => s.positional)).toEqual(sorted(reference.positional_stages));
    // `at` is the one parallel stage the grammar cannot spell; it has no row in the stage list.
    expect(sorted(vocabulary.parallelStageNames)).toEqual(sorted(reference.parallel_stages));
    expect(named((s) => s.parallel)).toEqual(sorted(reference.parallel_stages.filter((s) => s !== 'at')));
  });

  it('has the same built-in functions in the same order', () => {
    expect(vocabulary.builtins.map((b) => b.name)).toEqual(reference.builtins);
    expect(vocabulary.builtins).toHaveLength(31);
  });

  it('has the same types and type parameter counts', () => {
    expect(vocabulary.types.map((t) => t.name)).toEqual(reference.types);
    for (const type of vocabulary.types) {
      const expected = reference.type_parameters[type.name] ?? reference.type_parameters['*'];
      expect(type.parameterCounts, type.name).toEqual(expected);
    }
  });

  it('has the same word lists', () => {
    expect(vocabulary.statementWords).toEqual(reference.statements);
    expect(vocabulary.clauseWords).toEqual(reference.clause_words);
    expect(vocabulary.declarationWords).toEqual(reference.declarations);
    expect(vocabulary.modifierWords).toEqual(reference.modifiers);
    expect(vocabulary.portModifierWords).toEqual(reference.port_modifiers);
    expect(vocabulary.fieldModifierWords).toEqual(reference.field_modifiers);
    expect(sorted(vocabulary.sourceWords)).toEqual(sorted(reference.source_words));
    expect(sorted(vocabulary.constantWords)).toEqual(sorted(reference.constants));
    expect(sorted(vocabulary.operatorWords)).toEqual(sorted(reference.operator_words));
    expect(vocabulary.statusCodes).toEqual(reference.status_codes);
    expect(vocabulary.logLevels).toEqual(reference.log_levels);
    expect(vocabulary.statusFields).toEqual(reference.status_fields);
    expect(vocabulary.durationUnits).toEqual(reference.duration_units);
    expect(vocabulary.symbols).toEqual(reference.symbols);
    expect(vocabulary.entryPorts.map(({ name, type, unary }) => ({ name, type, unary }))).toEqual(reference.entry_ports);
  });
});

describe('vocabulary lookups', () => {
  it('folds an all-upper-case word and leaves a mixed-case one a name', () => {
    expect(vocabulary.canonical('FOR')).toBe('for');
    expect(vocabulary.canonical('NOT_FOUND')).toBe('not_found');
    expect(vocabulary.canonical('STARTS-WITH')).toBe('starts-with');
    expect(vocabulary.canonical('For')).toBe('For');
    expect(vocabulary.canonical('for')).toBe('for');
    expect(vocabulary.canonical('_1')).toBe('_1');
    expect(vocabulary.isShouted('MAP')).toBe(true);
    expect(vocabulary.isShouted('Map')).toBe(false);
  });

  it('finds stages, builtins and types in either case', () => {
    expect(vocabulary.stageNamed('TRUNCATE')?.takes).toBe('number');
    expect(vocabulary.stageNamed('Truncate')).toBeUndefined();
    expect(vocabulary.stageNamed('at')).toBeUndefined();
    expect(vocabulary.builtinNamed('GET')).toMatchObject({ minArgs: 2, maxArgs: 3 });
    expect(vocabulary.builtinNamed('merge')?.maxArgs).toBeNull();
    expect(vocabulary.builtinTypeNamed('LIST')?.parameterCounts).toEqual([0, 1]);
    expect(vocabulary.builtinTypeNamed('strin')).toBeUndefined();
  });

  it('reads status codes in either case, with dashes, and numbers them as Abseil does', () => {
    expect(vocabulary.statusCodeNamed('NOT_FOUND')).toBe('not_found');
    expect(vocabulary.statusCodeNamed('not-found')).toBe('not_found');
    expect(vocabulary.statusCodeNamed('Not_Found')).toBeUndefined();
    expect(vocabulary.statusCodeNumber('unauthenticated')).toBe(16);
    expect(vocabulary.statusCodeNumber('deadline_exceeded')).toBe(4);
  });

  it('knows log levels and duration units', () => {
    expect(vocabulary.logLevelNamed('WARNING')).toBe('warning');
    expect(vocabulary.logLevelNamed('warn')).toBeUndefined();
    expect(vocabulary.durationUnitSeconds('ms')).toBe(0.001);
    expect(vocabulary.durationUnitSeconds('toString')).toBeUndefined();
    expect(vocabulary.durationUnitSeconds('d')).toBeUndefined();
  });

  it('gives every builtin a signature naming it, with arities that make sense', () => {
    for (const builtin of vocabulary.builtins) {
      expect(builtin.signature.startsWith(`${builtin.name}(`), builtin.name).toBe(true);
      if (builtin.maxArgs !== null) expect(builtin.maxArgs).toBeGreaterThanOrEqual(builtin.minArgs);
      expect(builtin.summary.length).toBeGreaterThan(10);
    }
  });
});

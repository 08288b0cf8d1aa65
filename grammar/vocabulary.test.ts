import { describe, expect, test } from 'vitest';
import * as vocabulary from '../src/flow/vocabulary';
import { parser } from './index';
import { keywordWords } from './tokens';

/** The name of the first node of `source`'s tree that starts at `offset`. */
function nodeAt(source: string, offset: number): string {
  const tree = parser.parse(source);
  return tree.resolveInner(offset, 1).name;
}

function shout(word: string): string {
  return word.toUpperCase();
}

describe('the grammar and the vocabulary agree', () => {
  test('every keyword the tokenizer knows is a word of the vocabulary, and the other way round', () => {
    const vocabularyWords = new Set(
      [
        ...vocabulary.statementWords,
        ...vocabulary.clauseWords,
        ...vocabulary.declarationWords,
        ...vocabulary.modifierWords.flatMap((word) => word.split(' ')),
        ...vocabulary.portModifierWords,
        ...vocabulary.fieldModifierWords.flatMap((word) => word.split(' ')),
        ...vocabulary.sourceWords,
        ...vocabulary.constantWords,
        ...vocabulary.operatorWords,
        ...vocabulary.bareStageNames,
      ],
    );
    // `first`/`all` are the race words of `wait first of` / `wait all of`.
    const raceWords = ['first', 'all'];
    expect([...keywordWords].filter((word) => !vocabularyWords.has(word) && !raceWords.includes(word))).toEqual([]);
    expect([...vocabularyWords].filter((word) => !keywordWords.has(word))).toEqual([]);
  });

  test.each(vocabulary.stages.map((stage) => [stage.name, stage.takes] as const))(
    "the stage '%s' is read by what it takes (%s), in either case",
    (name, takes) => {
      const expected = {
        none: 'StageNone', number: 'StageCount', expr: 'StageExpression', 'expr?': 'StageOptionalExpression',
        string: 'StageString', 'string?': 'StageOptionalString', 'sort-key': 'StageSort', fold: 'StageFold',
        duration: 'StageDuration', stream: 'StageThen', log: 'StageLog', logf: 'StageLogf',
      }[takes];
      for (const spelled of [name, shout(name)]) {
        const source = `flow f {\n  a | ${spelled}\n}\n`;
        expect(nodeAt(source, source.indexOf(spelled))).toBe(expected);
      }
    },
  );

  test('a word that is not a stage is an unknown stage after |', () => {
    expect(nodeAt('flow f { a | mapp it -> b }', 13)).toBe('UnknownStage');
    expect(nodeAt('flow f { a | Map it -> b }', 13)).toBe('UnknownStage');
  });

  test.each([...vocabulary.statementWords])("the statement word '%s' opens a statement, and is a name before -> | = <- . [", (word) => {
    const statement = `flow f {\n  ${word} x\n}\n`;
    expect(nodeAt(statement, statement.indexOf(word))).not.toBe('Identifier');
    expect(nodeAt(`flow f {\n  ${shout(word)} x\n}\n`, 11)).not.toBe('Identifier');
    for (const after of ['->', '|', '=', '<-', '.', '[']) {
      const source = `flow f {\n  ${word} ${after} x\n}\n`;
      expect(nodeAt(source, source.indexOf(word))).toBe('Identifier');
    }
  });

  test.each([...vocabulary.builtins.map((builtin) => builtin.name)])("the builtin '%s' is a function where a value is read", (name) => {
    const source = `flow f {\n  ${name}(x) -> y\n}\n`;
    expect(nodeAt(source, source.indexOf(name))).toBe('FunctionName');
  });

  test.each([...vocabulary.logLevels])("the log level '%s' is a level after log", (level) => {
    for (const spelled of [level, shout(level)]) {
      const source = `flow f {\n  log ${spelled} "x"\n}\n`;
      expect(nodeAt(source, source.indexOf(spelled))).toBe('LogLevel');
    }
  });

  test('mixed case is always a name', () => {
    expect(nodeAt('flow f {\n  Skip x\n}\n', 11)).toBe('Identifier');
    expect(nodeAt('flow f {\n  a | Where x\n}\n', 15)).toBe('UnknownStage');
  });
});

import { describe, expect, it } from 'vitest';
import * as vocabulary from '../../flow/vocabulary';
import { keywordDocs } from './keyword-docs';

describe('keyword docs', () => {
  it('explain every word the vocabulary lists, and nothing else', () => {
    const words = new Set([
      ...vocabulary.statementWords,
      ...vocabulary.clauseWords,
      ...vocabulary.declarationWords,
      ...vocabulary.modifierWords,
      ...vocabulary.portModifierWords,
      ...vocabulary.fieldModifierWords,
      ...vocabulary.sourceWords,
      ...vocabulary.constantWords,
      ...vocabulary.operatorWords,
    ]);
    expect(Object.keys(keywordDocs).sort()).toEqual([...words].sort());
  });
});

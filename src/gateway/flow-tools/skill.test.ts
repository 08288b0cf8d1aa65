import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A11_BIN, A11_MISSING } from '../../../test/support/reference.js';
import { builtins, clauseWords, modifierWords, stages, statementWords } from '../../flow/vocabulary.js';
import { CLAUSE_USAGE, MODIFIER_USAGE, STATEMENT_USAGE } from './language-reference.js';
import { getSkill, getSystemPrompt, renderSkillMarkdown, SKILL_DESCRIPTION, SKILL_NAME } from './prompt.js';

const SKILL_MD = new URL('./SKILL.md', import.meta.url);

describe('the flow tools skill', () => {
  it('is checked in exactly as the code generates it (regenerate with scripts/generate-skill.sh)', () => {
    expect(readFileSync(SKILL_MD, 'utf8')).toBe(renderSkillMarkdown());
  });

  it('is one text in two shapes', () => {
    const skill = getSkill();
    expect(skill.name).toBe(SKILL_NAME);
    expect(skill.description).toBe(SKILL_DESCRIPTION);
    expect(skill.body).toBe(getSystemPrompt());
    expect(renderSkillMarkdown()).toMatch(/^---\nname: a11-flow\ndescription: ".+"\n---\n\n# /);
  });

  it('explains exactly the statement, modifier and clause words the vocabulary has', () => {
    expect(Object.keys(STATEMENT_USAGE).sort()).toEqual([...statementWords].sort());
    expect(Object.keys(MODIFIER_USAGE).sort()).toEqual([...modifierWords].sort());
    expect(Object.keys(CLAUSE_USAGE).sort()).toEqual([...clauseWords].sort());
  });

  it('lists every stage and built-in function', () => {
    const text = getSystemPrompt();
    for (const stage of stages) expect(text).toContain(`- \`| ${stage.name}`);
    for (const builtin of builtins) expect(text).toContain(`- \`${builtin.signature}\``);
  });

  it('has the sections the contract asks for, in order', () => {
    const headings = getSystemPrompt().match(/^## .+$/gm);
    expect(headings).toEqual([
      '## When a flow is the better tool',
      '## How to go about it',
      '## Rules that decide whether a flow works',
      '## The language',
      '## An example',
    ]);
  });

  it.skipIf(!A11_BIN)(`has an example the reference compiler accepts${A11_BIN ? '' : ` (${A11_MISSING})`}`, () => {
    const example = /## An example[\s\S]*?```\n([\s\S]*?)```/.exec(getSystemPrompt())?.[1];
    expect(example).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'flowplay-skill-'));
    try {
      const file = join(dir, 'example.flow');
      writeFileSync(file, example!);
      expect(execFileSync(A11_BIN!, ['flow', 'check', file], { encoding: 'utf8' })).toContain('no problems found');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

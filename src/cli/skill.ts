import { renderSkillMarkdown } from '../gateway/flow-tools/prompt.js';
import type { Command } from './command.js';

export const skillCommand: Command = {
  name: 'skill',
  summary: 'Print the flow tools skill (SKILL.md): how a model composes tools with Flow.',
  usage: 'flowplay skill   (scripts/generate-skill.sh writes it to src/gateway/flow-tools/SKILL.md)',
  options: {},
  async run() {
    process.stdout.write(renderSkillMarkdown());
    return 0;
  },
};

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileTests } from '@lezer/generator/test';
import { describe, test } from 'vitest';
import { parser } from './index';

// Every `grammar/test/*.txt` in Lezer's `# name` / `==>` format: the tree each input parses to,
// `⚠` marking where the parser had to recover.
const directory = join(import.meta.dirname, 'test');

for (const file of readdirSync(directory).filter((name) => name.endsWith('.txt'))) {
  describe(file, () => {
    for (const { name, run } of fileTests(readFileSync(join(directory, file), 'utf8'), file)) {
      test(name, () => run(parser));
    }
  });
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileTests } from '@lezer/generator/test';
import { PROJECT_ROOT } from './reference';

/** Every case of the grammar's own tests (`grammar/test/*.txt`), named `file: case`. */
export function grammarTestCases(): { name: string; source: string }[] {
  const dir = join(PROJECT_ROOT, 'grammar/test');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.txt'))
    .flatMap((file) => fileTests(readFileSync(join(dir, file), 'utf8'), file).map((spec) => ({ name: `${file}: ${spec.name}`, source: spec.text })));
}

#!/usr/bin/env node
// The `flowplay` command. Its code is TypeScript, built into build/node by `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../build/node/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('flowplay: not built yet. Run `npm run build` (or `npm start`) in the project folder first.\n');
  process.exit(2);
}
await import(entry.href);

#!/usr/bin/env bash
# Regenerates src/gateway/flow-tools/SKILL.md from the constants in prompt.ts (and the Flow
# vocabulary it embeds). skill.test.ts fails until the checked-in file matches again.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build:node >/dev/null
node bin/flowplay.js skill > src/gateway/flow-tools/SKILL.md
echo "wrote src/gateway/flow-tools/SKILL.md"

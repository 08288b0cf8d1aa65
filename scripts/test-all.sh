#!/usr/bin/env bash
# Every test of the project: unit, grammar and interop suites (Vitest), then the browser
# suite (Playwright), then one closing line `N passed, N failed, N skipped` over all of them.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-test-deps.sh || { echo "0 passed, 1 failed"; exit 1; }
npm run build || { echo "0 passed, 1 failed"; exit 1; }

mkdir -p test-results
rm -f test-results/vitest.json test-results/playwright.json
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
vitest_rc=$?
PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json npx playwright test --reporter=list,json
playwright_rc=$?

node scripts/count-results.mjs test-results/vitest.json test-results/playwright.json
count_rc=$?
[ $vitest_rc -eq 0 ] && [ $playwright_rc -eq 0 ] && [ $count_rc -eq 0 ]

// Adds up Vitest's and Playwright's JSON reports into the one line CI reads:
// `N passed, N failed, N skipped`. A missing or unreadable report counts as a failure,
// so a suite that never ran cannot look green. Exit 1 when anything failed.
import { readFileSync } from 'node:fs';

function readReport(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    console.error(`count-results: cannot read ${path}: ${error.message}`);
    return null;
  }
}

function countVitest(report) {
  // A test file that failed to load has no tests of its own; count it as one failure.
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && (file.assertionResults ?? []).length === 0,
  ).length;
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + brokenFiles,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

function countPlaywright(report) {
  const stats = report.stats ?? {};
  return {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: (stats.unexpected ?? 0) + (report.errors?.length ?? 0),
    skipped: stats.skipped ?? 0,
  };
}

const [vitestPath, playwrightPath] = process.argv.slice(2);
const total = { passed: 0, failed: 0, skipped: 0 };
for (const [path, count] of [[vitestPath, countVitest], [playwrightPath, countPlaywright]]) {
  const report = readReport(path);
  const part = report ? count(report) : { passed: 0, failed: 1, skipped: 0 };
  total.passed += part.passed;
  total.failed += part.failed;
  total.skipped += part.skipped;
}
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);

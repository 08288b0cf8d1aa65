import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (this file lives in test/support/). */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The reference's conformance data: `$FLOW_REFERENCE_DIR`, else `../shared/reference` beside the
 * checkout. `null` when neither exists — suites that need it skip and say why.
 */
export const REFERENCE_DIR: string | null = (() => {
  const candidates = [process.env.FLOW_REFERENCE_DIR, join(PROJECT_ROOT, '../shared/reference')];
  return candidates.find((dir): dir is string => !!dir && existsSync(dir)) ?? null;
})();

export const REFERENCE_MISSING =
  'reference conformance data not found: set FLOW_REFERENCE_DIR or place it at ../shared/reference';

/**
 * The reference implementation's `a11` command (a11-kit, installed by scripts/install-test-deps.sh):
 * `$A11_BIN`, else `.tools/a11-kit/bin/a11`. `null` when absent.
 */
export const A11_BIN: string | null = (() => {
  const candidates = [process.env.A11_BIN, join(PROJECT_ROOT, '.tools/a11-kit/bin/a11')];
  return candidates.find((bin): bin is string => !!bin && existsSync(bin)) ?? null;
})();

export const A11_MISSING = 'a11-kit not installed: run scripts/install-test-deps.sh (or set A11_BIN)';

export function referencePath(...parts: string[]): string {
  if (!REFERENCE_DIR) throw new Error(REFERENCE_MISSING);
  return join(REFERENCE_DIR, ...parts);
}

export interface ReferenceFlow {
  /** The file's name in `flows/`, e.g. `examples__006-flow-programs__wc.flow`. */
  name: string;
  source: string;
}

/** Every reference flow (`flows/*.flow`), sorted by name; empty when the conformance data is absent. */
export function referenceFlows(): ReferenceFlow[] {
  const dir = REFERENCE_DIR ? join(REFERENCE_DIR, 'flows') : null;
  if (!dir || !existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.flow'))
    .sort()
    .map((name) => ({ name, source: readFileSync(join(dir, name), 'utf8') }));
}

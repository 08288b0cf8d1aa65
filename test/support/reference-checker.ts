/**
 * The reference compiler as an oracle: `a11 flow serve` (a11-kit 0.4.4) answering `check` and
 * `plan` requests, one per line, from one long-lived process — the same engine `a11 flow check`
 * and `a11 flow describe` run, without a Python start-up per file.
 */

import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { A11_BIN } from './reference.js';

/** `$A11_BIN`, `.tools/a11-kit/bin/a11`, or the copy installed for quick use. */
export const REFERENCE_A11: string | null = A11_BIN ?? (existsSync('/opt/a11ref44/bin/a11') ? '/opt/a11ref44/bin/a11' : null);

export interface ReferencePosition {
  offset: number;
  line: number;
  column: number;
}

export interface ReferenceDiagnostic {
  code: string;
  severity: string;
  family: string;
  message: string;
  flow?: string;
  range: { start: ReferencePosition; end: ReferencePosition };
  fixes: { label: string; edits: { start: number; end: number; text: string }[] }[];
}

export interface ReferenceEnvelope {
  format: string;
  source: string;
  diagnostics: ReferenceDiagnostic[];
  counts: Record<string, number>;
}

/** The reference parser's answer: its tree (flows and structs) and what it could not read. */
export interface ReferenceSyntax {
  diagnostics: ReferenceDiagnostic[];
  flows: unknown[];
  structs: unknown[];
}

/** One `a11 flow serve` process; requests are answered in order. */
export class ReferenceChecker {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private next = 1;

  constructor(binary: string = REFERENCE_A11 ?? 'a11') {
    this.child = spawn(binary, ['flow', 'serve'], { stdio: ['pipe', 'pipe', 'pipe'] });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const answer = JSON.parse(line) as { id: number; ok: boolean; result?: unknown; error?: { message: string } };
      const pending = this.waiting.get(answer.id);
      if (!pending) return;
      this.waiting.delete(answer.id);
      if (answer.ok) pending.resolve(answer.result);
      else pending.reject(new Error(answer.error?.message ?? 'the reference refused the request'));
    });
    this.child.on('exit', (code) => {
      for (const pending of this.waiting.values()) pending.reject(new Error(`a11 flow serve exited with ${code}`));
      this.waiting.clear();
    });
  }

  private request(method: string, source: string): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ id, method, source })}\n`);
    });
  }

  /** `flow.diagnostics/v1` for a source, as `a11 flow check --format json` gives it. */
  check(source: string): Promise<ReferenceEnvelope> {
    return this.request('check', source) as Promise<ReferenceEnvelope>;
  }

  /** `flow.syntax/v1` for a source — the parser's tree and problems alone — as `a11 flow parse --format json` gives it. */
  parse(source: string): Promise<ReferenceSyntax> {
    return this.request('parse', source) as Promise<ReferenceSyntax>;
  }

  /** `flow.plan/v1` for a source, as `a11 flow describe --format json` gives it. */
  plan(source: string): Promise<Record<string, unknown>> {
    return this.request('plan', source) as Promise<Record<string, unknown>>;
  }

  close(): void {
    this.child.stdin.end();
  }
}

/** `a11 flow check --format json FILE`, run as a command (for spot checks against the service). */
export function referenceCheckFile(file: string): ReferenceEnvelope {
  const result = spawnSync(REFERENCE_A11 ?? 'a11', ['flow', 'check', '--format', 'json', file], { encoding: 'utf8' });
  return JSON.parse(result.stdout) as ReferenceEnvelope;
}

/** `a11 flow describe --format json FILE`. */
export function referenceDescribeFile(file: string): Record<string, unknown> {
  const result = spawnSync(REFERENCE_A11 ?? 'a11', ['flow', 'describe', '--format', 'json', file], { encoding: 'utf8' });
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** The reference's Python (a11-kit 0.4.4), for what only its library answers. */
export const REFERENCE_PYTHON: string | null = process.env.A11_PYTHON ?? (existsSync('/opt/a11ref44/bin/python') ? '/opt/a11ref44/bin/python' : null);

/** What the reference's `flow_check` returns for each source: `a11.flow.loads(source, "flow").describe()`. */
export function referenceFlowCheckPlans(sources: Record<string, string>): Record<string, unknown> {
  const script = [
    'import json, sys',
    'import a11.flow',
    'sources = json.load(sys.stdin)',
    'print(json.dumps({name: a11.flow.loads(text, "flow").describe() for name, text in sources.items()}))',
  ].join('\n');
  const result = spawnSync(REFERENCE_PYTHON ?? 'python3', ['-c', script], { input: JSON.stringify(sources), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`the reference could not describe the flows: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

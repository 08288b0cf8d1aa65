import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFlowplay } from '../../test/support/flowplay.js';

const dir = mkdtempSync(join(tmpdir(), 'flowplay-check-'));
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const good = write('good.flow', 'flow f {\n  in a: string\n  out b: string\n  a -> b\n}\n');
const bad = write('bad.flow', 'flow f {\n  in a: strig\n  out b: string\n  a -> b\n}\n');
const warned = write('warned.flow', 'flow f {\n  in a: string\n  out b: string\n  out c: string\n  a -> b\n}\n');
const calls = write('calls.flow', 'flow f {\n  in a: string\n  out b: string\n  x = run fetch(url: a, nope: a)\n  y = run local(q: a)\n  z = run missing(q: a)\n  x.body -> b\n  skip y\n  skip z\n}\n');
const catalogue = write(
  'catalogue.json',
  JSON.stringify({
    format: 'flow.catalogue/v1',
    actions: [
      { name: 'fetch', inputs: [{ name: 'url', type: 'string' }], outputs: [{ name: 'body', type: 'string' }], runnable: false },
      { name: 'local', inputs: [{ name: 'q', type: 'string' }], runnable: true },
    ],
    types: [],
  }),
);

describe('flowplay check', () => {
  it('says a file is fine and exits 0', async () => {
    const result = await runFlowplay(['check', good]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${good}: no problems found\n`);
  });

  it('prints file:line:column: severity: message [code] and exits 1 on an error', async () => {
    const result = await runFlowplay(['check', bad, good]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:9: error: .*'strig'.* \\[flow\\.form\\.unknown-type\\]$`, 'm'));
    expect(result.stdout).toContain(`${good}: no problems found`);
  });

  it('exits 0 on warnings alone, and --quiet says nothing of clean files', async () => {
    const result = await runFlowplay(['check', '--quiet', warned, good]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/:4:3: warning: .* \[flow\.unused\.output-port\]\n$/);
    expect(result.stdout).not.toContain('no problems');
  });

  it('writes one flow.diagnostics/v1 envelope per file with --format json', async () => {
    const result = await runFlowplay(['check', '--format', 'json', bad]);
    expect(result.code).toBe(1);
    const envelope = JSON.parse(result.stdout) as { format: string; source: string; counts: { error: number }; diagnostics: { range: { start: unknown } }[] };
    expect(envelope.format).toBe('flow.diagnostics/v1');
    expect(envelope.source).toBe(bad);
    expect(envelope.counts.error).toBe(1);
    expect(envelope.diagnostics[0]!.range.start).toEqual({ offset: 17, line: 2, column: 9 });
  });

  it('reads standard input for -', async () => {
    const result = await runFlowplay(['check', '-'], { input: 'flow f {\n  in a: string\n  out b: string\n  c -> b\n}\n' });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^-:4:3: error: .*\[flow\.name\.unknown\]/);
  });

  it('exits 2 when a file cannot be read, and still checks the others', async () => {
    const result = await runFlowplay(['check', join(dir, 'missing.flow'), good]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('missing.flow: cannot read: no such file');
    expect(result.stdout).toContain(`${good}: no problems found`);
  });

  it('refuses a file that is not UTF-8 with where and how to convert it, and no diagnostics about its bytes', async () => {
    const latin1 = join(dir, 'latin1.flow');
    writeFileSync(latin1, Buffer.from('flow f {\n  describe "caf\xe9"\n}\n', 'latin1'));
    const binary = join(dir, 'binary.flow');
    writeFileSync(binary, Buffer.from([0x66, 0x6c, 0x00, 0x07, 0x1b, 0xff, 0xfe, 0x80]));
    for (const command of ['check', 'plan', 'run']) {
      const result = await runFlowplay([command, latin1]);
      expect(result.code, command).toBe(2);
      expect(result.stderr, command).toContain(`${latin1}:2:16: not UTF-8 text: byte 0xE9 `);
      expect(result.stderr, command).toContain('iconv -f LATIN1 -t UTF-8');
    }
    const result = await runFlowplay(['check', binary]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${binary}:1:6: not UTF-8 text: byte 0xFF`);
    expect(result.stdout).toBe('');
  });

  it('checks actions, ports and run against call with --catalogue', async () => {
    const without = await runFlowplay(['check', calls]);
    expect(without.code).toBe(0);
    const result = await runFlowplay(['check', '--catalogue', catalogue, calls]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/:4:11: error: .*\[flow\.name\.not-runnable\]/);
    expect(result.stdout).toMatch(/:4:25: error: .*'nope'.*\[flow\.name\.unknown-port\]/);
    expect(result.stdout).toMatch(/:6:11: error: .*'missing'.*\[flow\.name\.unknown-action\]/);
  });

  it('refuses a bad --format or no files with usage and exit 2', async () => {
    expect((await runFlowplay(['check', '--format', 'xml', good])).code).toBe(2);
    expect((await runFlowplay(['check'])).stderr).toContain('Usage: flowplay check');
  });
});

describe('flowplay plan', () => {
  it('prints the flow.plan/v1 of a file', async () => {
    const result = await runFlowplay(['plan', good]);
    expect(result.code).toBe(0);
    const plan = JSON.parse(result.stdout) as { format: string; flows: { flow: string; steps: { label: string }[] }[] };
    expect(plan.format).toBe('flow.plan/v1');
    expect(plan.flows[0]!.flow).toBe('f');
    expect(plan.flows[0]!.steps.map((step) => step.label)).toEqual(['a -> b']);
  });

  it('prints a partial plan and exits 1 when the file has an error', async () => {
    const result = await runFlowplay(['plan', bad]);
    expect(result.code).toBe(1);
    const plan = JSON.parse(result.stdout) as { flows: { inputs: Record<string, { type: string }> }[]; diagnostics: { code: string }[] };
    expect(plan.flows[0]!.inputs.a!.type).toBe('strig');
    expect(plan.diagnostics.map((d) => d.code)).toEqual(['flow.form.unknown-type']);
  });

  it('exits 2 on an unreadable file', async () => {
    const result = await runFlowplay(['plan', join(dir, 'nope.flow')]);
    expect(result.code).toBe(2);
  });
});

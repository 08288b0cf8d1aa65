import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { openPlayground, setSource } from './support/page';

test('a click on + in the discovery panel inserts a step with the verb and required ports', async ({ page }) => {
  await openPlayground(page);
  await setSource(page, 'flow empty {\n  out lines: string stream\n}\n');
  await page.locator('.cm-content').getByText('out lines').click();
  await page.keyboard.press('End');
  await page.getByRole('button', { name: 'Insert a transcribe_audio step' }).click();
  const editor = page.locator('.cm-content');
  await expect(editor).toContainText('transcribe_audio = run transcribe_audio(audio: audio)');
  await expect(editor).toContainText('skip transcribe_audio.events, transcribe_audio.transcription_pieces');
  // The required port is a field to fill in: typing replaces it.
  await page.keyboard.type('mic.audio');
  await expect(editor).toContainText('transcribe_audio = run transcribe_audio(audio: mic.audio)');
});

test('a click on a plan step selects it in the source', async ({ page }, testInfo) => {
  await openPlayground(page);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('menuitem', { name: /Shell pipelines/ }).click();
  const plan = page.getByRole('region', { name: 'Plan', exact: true });
  await plan.getByRole('button', { name: /^Step sh, shell_execute/ }).click();
  const selected = await page.evaluate(() => document.getSelection()?.toString() ?? '');
  expect(selected.replace(/\s+/g, ' ')).toMatch(/^sh = run shell_execute\( command: strformat\(.*\), parameters: \{"timeout_seconds": 600\} \)$/);
  await page.screenshot({ path: testInfo.outputPath('plan-selects-source.png') });
});

test('the inspector pauses, clears and exports the run as JSON', async ({ page }) => {
  await openPlayground(page);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('menuitem', { name: /^Hello/ }).click();
  await page.getByRole('tab', { name: /Inspector/ }).click();
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(page.getByText('Finished in')).toBeVisible();
  const rows = page.getByRole('table', { name: 'Values' }).getByRole('row');
  await expect(rows).toHaveCount(3);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const file = await (await download).path();
  const trace = JSON.parse(await readFile(file!, 'utf8')) as { format: string; records: { port: string; preview: string }[] };
  expect(trace.format).toBe('flowplay.trace/v1');
  expect(trace.records.map((record) => [record.port, record.preview])).toEqual([
    ['name', 'world'],
    ['greeting', 'Hello, world!'],
  ]);

  await page.getByRole('button', { name: 'Pause' }).click();
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(page.getByText('Finished in')).toBeVisible();
  await expect(page.getByText('2 new while paused')).toBeVisible();
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(rows).toHaveCount(3);
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(rows).toHaveCount(1);
});

test('the dark theme applies to the editor, panels and plan', async ({ page }, testInfo) => {
  await openPlayground(page);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('menuitem', { name: /Research-style/ }).click();
  const theme = page.getByRole('button', { name: /^Theme:/ });
  await theme.click();
  await theme.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const background = await page.locator('.cm-editor').evaluate((node) => getComputedStyle(node).backgroundColor);
  expect(background).toBe('rgb(13, 17, 23)');
  await page.screenshot({ path: testInfo.outputPath('theme-dark-research.png') });
});

test('completion offers a gateway action’s ports after `step.` and its inputs inside `action(`', async ({ page }, testInfo) => {
  await openPlayground(page);
  await expect(page.getByTestId('connection-status')).toHaveText(/^Connected/);
  await setSource(page, 'flow lines {\n  out lines: string stream\n  sh = run shell_execute(command: "ls", parameters: {})\n}\n');
  await page.locator('.cm-content').getByText('sh = run shell_execute').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('sh.');
  const list = page.locator('.cm-tooltip-autocomplete');
  await expect(list.getByRole('option').first()).toContainText('output_lines');
  await expect(list.getByRole('option')).toContainText([/output_lines\s*output · text\/plain stream/, /command/, /parameters/]);
  await page.screenshot({ path: testInfo.outputPath('completion-gateway-ports.png') });
  await expect(list.locator('[aria-selected="true"]')).toContainText('output_lines');
  await page.waitForTimeout(100);
  await page.keyboard.press('Enter');
  await page.keyboard.type(' -> lines');
  await expect(page.locator('.cm-content')).toContainText('sh.output_lines -> lines');

  await page.keyboard.press('Enter');
  await page.keyboard.type('t = run transcribe_audio(');
  await page.keyboard.press('Control+Space');
  await expect(list.getByRole('option')).toContainText([/audio/, /asr_options/]);
  // Accept once the list has settled on its first (required) port, and after CodeMirror's
  // interactionDelay (75 ms), during which Enter on a just-opened list still means a new line.
  await expect(list.locator('[aria-selected="true"]')).toContainText('audio');
  await page.waitForTimeout(100);
  await page.keyboard.press('Enter');
  await expect(page.locator('.cm-content')).toContainText('t = run transcribe_audio(audio: ');
});

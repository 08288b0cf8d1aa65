import { expect, test, type Page } from '@playwright/test';
import { openPlayground } from './support/page';

/** The editor's text, line by line as the reader sees it. */
async function editorText(page: Page): Promise<string> {
  return (await page.locator('.cm-content .cm-line').allTextContents()).join('\n');
}

const STEP = [
  '  transcribe_audio = run transcribe_audio(audio: audio)',
  '  skip transcribe_audio.events, transcribe_audio.transcription_pieces',
].join('\n');

test('+ on a freshly opened page puts the step inside the flow, indented like its statements', async ({ page }) => {
  await openPlayground(page);
  await expect(page.locator('.cm-content')).toContainText('flow hello');
  // The cursor is where the page put it: on the comment above the flow.
  await page.getByRole('button', { name: 'Insert a transcribe_audio step' }).click();
  await expect.poll(() => editorText(page)).toContain(`  strformat("Hello, %s!", name) -> greeting\n${STEP}\n}`);
  // The required port is the field being filled in.
  await page.keyboard.type('name');
  await expect.poll(() => editorText(page)).toContain('  transcribe_audio = run transcribe_audio(audio: name)\n');
});

test('+ with the cursor on a statement puts the step after it at the same indentation', async ({ page }) => {
  await openPlayground(page);
  await page.locator('.cm-content').getByText('out greeting').click();
  await page.getByRole('button', { name: 'Insert a transcribe_audio step' }).click();
  await expect.poll(() => editorText(page)).toContain(`  out greeting: string          "The greeting."\n${STEP}\n`);
});

test('New flow puts the cursor in the new flow’s body, so typing goes straight into it', async ({ page }) => {
  await openPlayground(page);
  await page.getByRole('button', { name: 'New flow' }).click();
  await page.keyboard.type('out said: string "Typed."');
  await expect.poll(() => editorText(page)).toBe('flow untitled {\n  out said: string "Typed."\n}\n');
  // The space in what was typed did not press the button again.
  await expect(page.getByRole('tab')).toHaveText([/^hello/, /^untitled/, /^Plan/, /^Inspector/]);
});

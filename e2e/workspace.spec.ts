import { expect, test } from '@playwright/test';
import { openPlayground, withToken } from './support/page';

test.describe('workspace', () => {
  test.beforeEach(async ({ page }) => {
    await openPlayground(page);
  });

  test('an example opens in its own document, with undo history kept per document', async ({ page }, testInfo) => {
    const editor = page.locator('.cm-content');
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('# typed into hello');
    await page.getByRole('button', { name: 'Examples' }).click();
    await page.getByRole('menuitem', { name: /Shell pipelines/ }).click();
    await expect(page.getByRole('tab', { name: 'shell-pipeline' })).toHaveAttribute('aria-selected', 'true');
    await expect(editor).toContainText('flow tick');

    await page.getByRole('tab', { name: 'hello' }).click();
    await expect(editor).toContainText('# typed into hello');
    await editor.click();
    await page.keyboard.press('Control+z');
    await expect(editor).not.toContainText('# typed into hello');
    await page.screenshot({ path: testInfo.outputPath('workspace-tabs.png') });
  });

  test('the theme button switches between system, light and dark', async ({ page }, testInfo) => {
    const html = page.locator('html');
    const button = page.getByRole('button', { name: /^Theme:/ });
    await expect(button).toHaveAccessibleName(/System theme/);
    await button.click();
    await expect(html).toHaveAttribute('data-theme', 'light');
    await button.click();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.screenshot({ path: testInfo.outputPath('theme-dark.png') });
  });

  test('a shared link opens the flow in the editor and does not run it', async ({ page, browser }) => {
    await expect(page).toHaveURL(/#flow=z/);
    const before = page.url();
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('# shared line');
    await expect.poll(() => page.url()).not.toBe(before);
    const link = page.url();
    expect(new URL(link).search).toBe('');

    // A fresh context: nothing in its storage, as for someone the link was sent to.
    const elsewhere = await browser.newContext();
    const other = await elsewhere.newPage();
    await other.goto(link);
    await expect(other.locator('.cm-content')).toContainText('# shared line');
    await expect(other.getByRole('status').filter({ hasText: 'It has not run' })).toBeVisible();
    await elsewhere.close();
  });
});

test.describe('editor', () => {
  test('highlights Flow, folds a flow body and toggles # comments', async ({ page }, testInfo) => {
    await openPlayground(page);
    const editor = page.locator('.cm-content');
    // The grammar colours `flow` as a definition keyword and `string` as a type.
    await expect(editor.locator('span', { hasText: /^flow$/ }).first()).toBeVisible();
    const keywordColour = await editor.locator('span', { hasText: /^flow$/ }).first().evaluate((node) => getComputedStyle(node).color);
    const nameColour = await editor.locator('span', { hasText: /^hello$/ }).first().evaluate((node) => getComputedStyle(node).color);
    expect(keywordColour).not.toBe(nameColour);

    await page.getByTitle('Fold line', { exact: true }).first().click();
    await expect(page.locator('.cm-foldPlaceholder')).toBeVisible();
    await expect(editor).not.toContainText('describe');
    await page.locator('.cm-foldPlaceholder').click();
    await expect(editor).toContainText('describe');

    await editor.getByText('describe').click();
    await page.keyboard.press('Control+/');
    await expect(editor).toContainText('# describe');
    await page.keyboard.press('Control+/');
    await expect(editor).not.toContainText('# describe');
    await page.screenshot({ path: testInfo.outputPath('editor-highlighting.png') });
  });
});

test.describe('completion and hover', () => {
  const twoFlows = `flow main {
  in  word: string required
  out loud: string
  helper = run shout(word: word)
}

flow shout {
  describe "Says a word loudly."
  in  word: string required "The word."
  out loud: string "The word in capitals."
  upper(word) -> loud
}
`;

  test('completes a step’s ports after `step.` and documents them on hover', async ({ page }, testInfo) => {
    await openPlayground(page);
    const editor = page.locator('.cm-content');
    await editor.click();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(twoFlows);
    await editor.getByText('helper = run shout').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('helper.');
    const list = page.locator('.cm-tooltip-autocomplete');
    await expect(list).toBeVisible();
    await expect(list.getByRole('option')).toHaveText([/^loud/, /^word/]);
    await page.screenshot({ path: testInfo.outputPath('completion-ports.png') });
    await page.keyboard.press('Enter');
    await page.keyboard.type(' | ');
    await page.keyboard.press('Control+Space');
    await expect(list.getByRole('option').first()).toContainText('first');
    await page.keyboard.press('Escape');

    await editor.getByText('upper', { exact: true }).hover();
    const tooltip = page.locator('.cm-tooltip-hover');
    await expect(tooltip).toContainText('upper(value)');
    await expect(tooltip).toContainText('builtin');
    await editor.getByText('shout', { exact: true }).first().hover();
    await expect(tooltip).toContainText('Says a word loudly.');
    await expect(tooltip).toContainText('out loud string');
    await page.screenshot({ path: testInfo.outputPath('hover-action.png') });
  });
});

import { expect, test } from '@playwright/test';
import { openPlayground, setSource } from './support/page';

const NUMBERS = `flow numbers {
  in  whole: integer required "A whole number."
  in  ratio: number "Any number."
  out said:  string "Both."
  strformat("%d %s", whole, text(ratio)) -> said
}
`;

test('number inputs keep what was typed and say what is wrong with it, in the form and on Run', async ({ page }) => {
  await openPlayground(page);
  await setSource(page, NUMBERS);
  await page.getByRole('radio', { name: 'In this page' }).check();
  const whole = page.getByRole('textbox', { name: /^whole/ });
  const ratio = page.getByRole('textbox', { name: /^ratio/ });

  // A fraction in a whole-number port: our message, not the browser's bubble or a stale "required".
  await whole.fill('1.5');
  await page.getByRole('button', { name: /^Run/ }).click();
  const status = page.getByRole('form', { name: 'Run' }).getByRole('status');
  await expect(status).toContainText('whole — a whole number is needed');

  // Text that is not a number is kept as typed and named, never dropped as if the port were empty.
  await whole.fill('3');
  await ratio.fill('1e');
  await expect(ratio).toHaveValue('1e');
  await expect(page.getByText("'1e' is not a number")).toBeVisible();
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(status).toContainText("ratio — '1e' is not a number");

  await ratio.fill('2.5');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(page.getByTestId('run-result')).toContainText('"said": "3 2.5"');
});

test('a fractional deadline folded away in Headers does not stop Run without a word', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await openPlayground(page);
  await page.getByRole('textbox', { name: /^name/ }).fill('Ada');
  const headers = page.locator('summary', { hasText: 'Headers' });
  await headers.click();
  await page.getByLabel('Deadline (s)').fill('30.5');
  await headers.click();
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(page.getByTestId('run-result')).toContainText('"greeting": "Hello, Ada!"');
  expect(problems).toEqual([]);
});

test('when the chosen flow is renamed in the source, the Flow choice names the flow the form is now for', async ({ page }) => {
  await openPlayground(page);
  await setSource(page, 'flow a {\n  in x: string required "x"\n  out r: string "r"\n  x -> r\n}\n\nflow b {\n  in y: integer required "y"\n  out r: integer "r"\n  y -> r\n}\n');
  const choice = page.getByRole('form', { name: 'Run' }).getByRole('combobox', { name: 'Flow' });
  await choice.selectOption('b');
  await expect(page.getByRole('textbox', { name: /^y/ })).toBeVisible();
  await page.locator('.cm-line', { hasText: 'flow b' }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('c');
  await expect(page.getByRole('textbox', { name: /^x/ })).toBeVisible();
  await expect(choice).toHaveValue('a');
});

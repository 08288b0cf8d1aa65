import { expect, test } from '@playwright/test';
import { A11_BIN, A11_MISSING } from '../test/support/reference';
import { startReferenceGateway, type ReferenceGateway } from '../test/support/gateway';
import { connectTo, openPlayground, setSource } from './support/page';

// The page against a real A11 gateway (a11-kit 0.4.4's `a11 gateway run`), not our own.
test.describe('against a real a11 gateway', () => {
  test.skip(!A11_BIN, A11_MISSING);
  let gateway: ReferenceGateway;

  test.beforeAll(async () => {
    gateway = await startReferenceGateway(A11_BIN!, ['--plain']);
  });
  test.afterAll(async () => {
    await gateway?.stop();
  });

  test('lists its actions with their ports', async ({ page }, testInfo) => {
    await openPlayground(page);
    await connectTo(page, gateway.url);
    const actions = page.getByRole('region', { name: 'Actions' });
    const shell = actions.getByRole('article', { name: 'shell_execute' });
    await expect(shell).toBeVisible();
    await expect(shell.getByRole('list', { name: 'Ports of shell_execute' })).toContainText('command');
    await expect(shell.getByRole('list', { name: 'Ports of shell_execute' })).toContainText('output_lines');
    await expect(actions.getByRole('article', { name: 'interact_with_llm' })).toContainText('text_output');
    // The flow tools compose nothing themselves, so flow_actions leaves them out.
    await expect(actions.getByRole('article', { name: 'flow_run' })).toHaveCount(0);
    await page.getByLabel('Filter actions').fill('shell_e');
    await expect(actions.getByRole('article', { name: 'shell_execute' })).toBeVisible();
    await expect(actions.getByRole('article', { name: 'interact_with_llm' })).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('a11-gateway-actions.png') });
  });

  test('checks a flow there and runs it, streaming shell lines', async ({ page }, testInfo) => {
    await openPlayground(page);
    await connectTo(page, gateway.url);
    await setSource(
      page,
      `flow lines {
  in  count: integer required
  out lines: string stream
  sh = run shell_execute(command: strformat("for i in $(seq %d); do echo line $i; sleep 0.4; done", count), parameters: {})
  sh.output_lines -> lines
}
`,
    );
    const plan = page.getByRole('region', { name: 'Plan', exact: true });
    await expect(plan).toContainText('from the gateway’s flow_check', { timeout: 10_000 });
    await expect(plan.getByRole('button', { name: /Step sh, shell_execute/ })).toBeVisible();
    await page.getByRole('textbox', { name: /^count/ }).fill('4');
    await page.getByRole('button', { name: /^Run/ }).click();
    const lines = page.locator('[data-port="lines"]');
    await expect(lines).toContainText('line 1');
    await expect(page.getByRole('button', { name: /^Run/ })).toBeDisabled();
    await expect(page.getByText('Finished in')).toBeVisible({ timeout: 15_000 });
    await expect(lines.locator('.output-line')).toHaveText(['line 1', 'line 2', 'line 3', 'line 4']);
    await expect(page.getByTestId('run-result')).toContainText('"line 4"');
    await page.screenshot({ path: testInfo.outputPath('a11-gateway-run.png') });
  });

  test('marks what its flow_check refuses', async ({ page }) => {
    await openPlayground(page);
    await connectTo(page, gateway.url);
    await page.locator('summary', { hasText: 'Headers' }).click();
    await page.getByLabel('Allowed actions').fill('interact_with_llm');
    await setSource(
      page,
      `flow refused {
  out lines: string stream
  sh = run shell_execute(command: "ls", parameters: {})
  sh.output_lines -> lines
}
`,
    );
    const marker = page.locator('.cm-lintRange-error');
    await expect(marker).toHaveText('shell_execute', { timeout: 10_000 });
  });
});

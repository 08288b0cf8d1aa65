import { execFileSync } from 'node:child_process';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { gatewayStatusReportSchema, type GatewayStatusReport } from '../src/gateway/activity/status-schema';
import { openPlayground, setSource } from './support/page';
import { withSpeakingMicrophone } from './support/speech';

/** Whether a process whose command line holds `marker` is running on this machine. */
function running(marker: string): boolean {
  return execFileSync('ps', ['-A', '-o', 'args='], { encoding: 'utf8' })
    .split('\n')
    .some((line) => line.includes(marker));
}

/** What the gateway says it is running (`GET /status`, asked as a local program: no Origin). */
async function gatewayStatus(request: APIRequestContext): Promise<GatewayStatusReport> {
  const response = await request.get('/status');
  expect(response.status()).toBe(200);
  return gatewayStatusReportSchema.parse(await response.json());
}

/** Records, in the page, when each output's text changes (performance.now() and the text). */
async function recordOutputs(page: Page, ports: string[]): Promise<void> {
  await page.evaluate((names) => {
    const log: { port: string; at: number; text: string }[] = [];
    (window as unknown as { outputLog: typeof log }).outputLog = log;
    const observer = new MutationObserver(() => {
      for (const port of names) {
        const text = document.querySelector(`[data-port="${port}"]`)?.textContent ?? '';
        const last = [...log].reverse().find((entry) => entry.port === port);
        if (text && text !== last?.text) log.push({ port, at: performance.now(), text });
      }
      const status = document.querySelector('form[aria-label="Run"] .status');
      if (status && /succeeded|failed|cancelled/.test(status.className) && !log.some((entry) => entry.port === '(end)')) {
        log.push({ port: '(end)', at: performance.now(), text: status.textContent ?? '' });
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  }, ports);
}

async function outputLog(page: Page): Promise<{ port: string; at: number; text: string }[]> {
  return page.evaluate(() => (window as unknown as { outputLog: { port: string; at: number; text: string }[] }).outputLog);
}

test.describe('runs on the gateway (flow_run)', () => {
  test('a flow streaming shell_execute output shows its first line before the run ends', async ({ page }, testInfo) => {
    await openPlayground(page);
    await page.getByRole('button', { name: 'Examples' }).click();
    await page.getByRole('menuitem', { name: /Shell pipelines/ }).click();
    await expect(page.getByRole('radio', { name: 'On the gateway' })).toBeChecked();
    await expect(page.getByRole('textbox', { name: /^count/ })).toHaveValue('5');
    await recordOutputs(page, ['lines']);
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(page.locator('form[aria-label="Run"] .status')).toHaveClass(/succeeded/, { timeout: 20_000 });
    await expect(page.locator('[data-port="lines"] .output-line')).toHaveText(['tick 1', 'tick 2', 'tick 3', 'tick 4', 'tick 5']);
    await expect(page.locator('[data-port="total"]')).toHaveText('5');

    const log = await outputLog(page);
    const first = log.find((entry) => entry.port === 'lines')!;
    const end = log.find((entry) => entry.port === '(end)')!;
    expect(first.text).toBe('tick 1');
    // Four more lines, half a second apart, were still to come when the first was shown.
    expect(end.at - first.at).toBeGreaterThan(1500);
    testInfo.annotations.push({ type: 'first line before the end', description: `${Math.round(end.at - first.at)} ms` });
    await page.screenshot({ path: testInfo.outputPath('gateway-shell-stream.png') });
  });

  test('Cancel ends a long run, and the gateway reports nothing it started still running', async ({ page, request }, testInfo) => {
    // A short sleep with a unique spelling: `ps` finds it while the loop runs, and not after.
    const marker = `sleep 1.${Date.now() % 100000}`;
    await openPlayground(page);
    await setSource(
      page,
      `flow long {
  out lines: string stream
  sh = run shell_execute(command: "for i in $(seq 60); do echo still going $i; ${marker}; done", parameters: {"timeout_seconds": 600})
  sh.output_lines -> lines
}
`,
    );
    await page.getByRole('radio', { name: 'On the gateway' }).check();
    const run = page.getByRole('button', { name: /^Run/ });
    await expect(run).toBeEnabled();
    await run.click();
    await expect(page.locator('[data-port="lines"]')).toContainText('still going 1');
    expect(running(marker)).toBe(true);

    // While it runs, the gateway reports the flow run, its call, the command and its processes
    // (asked until the loop is caught inside a sleep rather than between two).
    let during: GatewayStatusReport | undefined;
    await expect
      .poll(async () => {
        during = await gatewayStatus(request);
        return during.shells.some((candidate) => candidate.command?.text.includes(marker) && candidate.groups.length > 0);
      })
      .toBe(true);
    if (!during) throw new Error('unreachable: the poll above sets it');
    expect(during.flow_runs.map((flow) => flow.flow)).toEqual(['long']);
    expect(during.calls.map((call) => call.action)).toContain('flow_run');
    const shell = during.shells.find((candidate) => candidate.command?.text.includes(marker));
    expect(shell?.connection).toBe(during.flow_runs[0]!.connection);
    expect(during.connections.find((connection) => connection.id === shell?.connection)?.browser).toBe(true);
    expect(during.summary.processes).toBeGreaterThanOrEqual(2);
    // The page says so too, in its status bar.
    const indicator = page.getByTestId('gateway-activity');
    await expect(indicator).toHaveText(/^running: [1-9]\d* calls?, [1-9]\d* process(es)?$/);
    await page.screenshot({ path: testInfo.outputPath('gateway-running.png') });

    await page.keyboard.press('Escape');
    await expect(page.locator('form[aria-label="Run"] .status')).toHaveClass(/cancelled/, { timeout: 10_000 });
    await expect(page.locator('form[aria-label="Run"] .status')).toContainText('CANCELLED');
    // The gateway signals the command's processes, escalating over a few seconds; then it has
    // no call, no flow run, no command and no child process left.
    await expect
      .poll(async () => {
        const { connections: _open, ...running } = (await gatewayStatus(request)).summary;
        return running;
      }, { timeout: 20_000 })
      .toEqual({ calls: 0, flow_runs: 0, shells: 0, commands: 0, processes: 0 });
    const after = await gatewayStatus(request);
    expect(after.processes).toEqual([]);
    expect(after.shells).toEqual([]);
    // An independent witness: nothing on the machine still runs the command.
    expect(running(marker)).toBe(false);
    await expect(indicator).toHaveText('running: 0 calls, 0 processes', { timeout: 10_000 });
    await expect(run).toBeEnabled();
    await page.screenshot({ path: testInfo.outputPath('gateway-cancelled.png') });
  });
});

test('microphone → model: the gateway calls the page’s capture_audio, recognises the sentence and a model answers word by word', async ({ playwright }, testInfo) => {
  test.setTimeout(90_000);
  await withSpeakingMicrophone(playwright, 'hello streaming world', async (page) => {
    await page.getByRole('button', { name: 'Examples' }).click();
    await page.getByRole('menuitem', { name: /Microphone/ }).click();
    await expect(page.getByRole('radio', { name: 'On the gateway' })).toBeChecked();
    await page.locator('summary', { hasText: 'Headers' }).click();
    await expect(page.getByLabel('LLM provider')).toHaveValue('echo');
    await page.getByRole('textbox', { name: /^asr/ }).fill('{"words": ["hello streaming world", "goodbye"]}');
    await recordOutputs(page, ['sentence', 'reply']);
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(page.locator('[data-port="sentence"]')).toHaveText('Hello streaming world.', { timeout: 45_000 });
    await expect(page.locator('[data-port="reply"]')).toHaveText('Echo: Hello streaming world.', { timeout: 20_000 });
    await expect(page.locator('form[aria-label="Run"] .status')).toHaveClass(/succeeded/, { timeout: 20_000 });

    const log = await outputLog(page);
    const sentence = log.find((entry) => entry.port === 'sentence')!;
    const replies = log.filter((entry) => entry.port === 'reply');
    // The reply grew word by word after the sentence was shown: each view a longer prefix.
    expect(replies.length).toBeGreaterThanOrEqual(3);
    expect(replies[0]!.at).toBeGreaterThanOrEqual(sentence.at);
    for (let i = 1; i < replies.length; i++) {
      expect(replies[i]!.text.startsWith(replies[i - 1]!.text)).toBe(true);
      expect(replies[i]!.text.length).toBeGreaterThan(replies[i - 1]!.text.length);
    }

    await page.getByRole('tab', { name: /Inspector/ }).click();
    const ports = page.getByRole('list', { name: 'Ports of the run' });
    await expect(ports.getByText('capture_audio.audio')).toBeVisible();
    await expect(ports.getByText('sentence', { exact: true })).toBeVisible();
    const values = page.getByRole('table', { name: 'Values' });
    await page.getByRole('combobox', { name: 'Port' }).selectOption('capture_audio.audio');
    await expect(values.getByRole('row').filter({ hasText: 'AudioBuffer' }).first()).toBeVisible();
    await page.getByRole('combobox', { name: 'Port' }).selectOption('');
    await page.screenshot({ path: testInfo.outputPath('microphone-to-model.png') });
  });
});

test('a gateway flow calls the page’s capture_transcription: the page records, the gateway recognises', async ({ playwright }, testInfo) => {
  test.setTimeout(90_000);
  await withSpeakingMicrophone(playwright, 'hello streaming world', async (page) => {
    await setSource(
      page,
      `flow dictate {
  in  asr:  object required
  out text: string
  heard = call capture_transcription(asr_options: asr) timeout 60s
  skip heard.events
  said = node()
  heard.transcription_pieces | first 1 -> said
  said -> text
  {"command": "stop"} -> heard.control_events after said
}
`,
    );
    await page.getByRole('radio', { name: 'On the gateway' }).check();
    await page.getByRole('textbox', { name: /^asr/ }).fill('{"words": ["hello streaming world", "goodbye"]}');
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(page.getByRole('button', { name: /Mic live/ })).toBeVisible({ timeout: 15_000 });
    await expect(page.locator('[data-port="text"]')).toHaveText('Hello streaming world.', { timeout: 45_000 });
    await expect(page.locator('form[aria-label="Run"] .status')).toHaveClass(/succeeded/, { timeout: 20_000 });
    await expect(page.getByRole('button', { name: /^Mic$/ })).toBeVisible();
    await page.getByRole('tab', { name: /Inspector/ }).click();
    const ports = page.getByRole('list', { name: 'Ports of the run' });
    await expect(ports.getByText('capture_transcription.transcription_pieces')).toBeVisible();
    await expect(ports.getByText('capture_transcription.events')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('capture-transcription.png') });
  });
});

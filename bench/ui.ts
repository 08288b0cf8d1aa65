/**
 * The playground's own speed, measured in Debian's Chromium against `flowplay serve`:
 *
 *   1. keystroke → diagnostic: from the key that introduces an error to the editor marking it
 *      (local compiler in its Web Worker), for a 50- and a 500-line flow, beside the 300 ms goal;
 *   2. first output → paint: from the first value of a streamed output arriving in the page to
 *      the frame after the one that showed it (User Timing marks the app sets);
 *   3. frames dropped while a 10 000-value text stream renders, beside the frames dropped by the
 *      same page idling for the same time, and whether every value was painted.
 *
 * Run it (it imports the grammar, so it is built with the project's vite config first):
 *
 *     npm run build && npx vite build --ssr bench/ui.ts --outDir build/bench --emptyOutDir --logLevel warn && node build/bench/ui.js
 *
 * Parts 2 and 3 need a gateway serving flow_run: the embedded one when it does, else
 * `--gateway ws://…/a11`, else `a11 gateway run` (a11-kit 0.4.4, found through $A11_BIN); with
 * none they say so and are skipped.
 */
import { chromium, type Page } from '@playwright/test';
import { startReferenceGateway, type ReferenceGateway } from '../test/support/gateway';
import { chromiumLaunchOptions } from '../e2e/support/browser';
import { serveFlowplay } from '../test/support/flowplay';
import { A11_BIN } from '../test/support/reference';
import { flowOfLines } from './check';

const TRIALS = 15;
const GOAL_MS = 300;
const STREAM_VALUES = 10_000;

type BenchWindow = Window & {
  benchKey?: number;
  benchMarked?: Promise<number>;
  benchFrames?: { dropped: number; running: boolean };
  benchLong?: number[];
};

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function setSource(page: Page, source: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(source);
  await page.waitForFunction(() => !document.querySelector('.cm-lintRange-error'), undefined, { timeout: 30_000 });
}

/** Arms a watch in the page: resolves with ms from the next keydown to the first error marker. */
async function armMarkerWatch(page: Page): Promise<void> {
  await page.evaluate(() => {
    const bench = window as BenchWindow;
    document.addEventListener('keydown', () => (bench.benchKey = performance.now()), { once: true, capture: true });
    bench.benchMarked = new Promise<number>((resolve) => {
      const observer = new MutationObserver(() => {
        if (!document.querySelector('.cm-lintRange-error')) return;
        observer.disconnect();
        resolve(performance.now() - (bench.benchKey ?? performance.now()));
      });
      observer.observe(document.querySelector('.cm-editor')!, { subtree: true, childList: true, attributes: true });
    });
  });
}

/**
 * bench/check.ts's long flow, calling an action every gateway here serves (shell_execute) instead
 * of web-fetch, so it checks clean against the gateway's catalogue too.
 */
function benchFlow(lines: number): string {
  return flowOfLines(lines)
    .replaceAll('run web-fetch(url: question, deadline: deadline)', 'run shell_execute(command: question, parameters: {})')
    .replace(/step(\d+)\.text/g, 'step$1.output_lines');
}

/** One keystroke that breaks a name (`answer` → `answerx`), timed in the page; TRIALS times. */
async function keystrokeToDiagnostic(page: Page, lines: number): Promise<number[]> {
  await setSource(page, benchFlow(lines));
  // The flow's last statement is `kept | first 1 -> answer`: two lines above the end.
  await page.keyboard.press('Control+End');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('End');
  const samples: number[] = [];
  for (let trial = 0; trial < TRIALS; trial++) {
    await armMarkerWatch(page);
    await page.keyboard.type('x');
    samples.push(await page.evaluate(() => (window as BenchWindow).benchMarked!));
    await page.keyboard.press('Backspace');
    await page.waitForFunction(() => !document.querySelector('.cm-lintRange-error'), undefined, { timeout: 10_000 });
  }
  return samples;
}

/** Starts counting missed animation frames in the page. */
async function startFrameCount(page: Page): Promise<void> {
  await page.evaluate(() => {
    const bench = window as BenchWindow;
    const frames = { dropped: 0, running: true };
    bench.benchFrames = frames;
    const period = 1000 / 60;
    let last = performance.now();
    const tick = (now: number) => {
      frames.dropped += Math.max(0, Math.round((now - last) / period) - 1);
      last = now;
      if (frames.running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

async function stopFrameCount(page: Page): Promise<number> {
  return page.evaluate(() => {
    const frames = (window as BenchWindow).benchFrames!;
    frames.running = false;
    return frames.dropped;
  });
}

interface StreamFigures {
  firstOutputToPaint: number;
  streamMs: number;
  droppedStreaming: number;
  droppedIdle: number;
  painted: number;
  /** Durations of the page's long tasks (over 50 ms) during the stream. */
  longTasks: number[];
}

async function streamBench(page: Page): Promise<StreamFigures> {
  await setSource(
    page,
    `flow tokens {
  in  count: integer required
  out text: string stream
  sh = run shell_execute(command: strformat("seq %d", count), parameters: {"timeout_seconds": 120})
  sh.output_lines -> text
}
`,
  );
  await page.getByRole('textbox', { name: /^count/ }).fill(String(STREAM_VALUES));
  const run = page.getByRole('button', { name: /^Run/ });
  await run.waitFor();
  await page.waitForFunction(() => {
    const button = document.querySelector<HTMLButtonElement>('form[aria-label="Run"] button[type="submit"]');
    return button && !button.disabled;
  }, undefined, { timeout: 30_000 });
  await page.evaluate(() => {
    performance.clearMarks();
    const bench = window as BenchWindow;
    bench.benchLong = [];
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => bench.benchLong!.push(entry.duration))).observe({ type: 'longtask' });
  });
  await startFrameCount(page);
  const started = Date.now();
  await run.click();
  // A cheap check, polled slowly: text matching over 10 000 lines would itself cost frames.
  await page.waitForFunction(() => document.querySelector('form[aria-label="Run"] .status.succeeded, form[aria-label="Run"] .status.failed'), undefined, {
    timeout: 120_000,
    polling: 250,
  });
  const streamMs = Date.now() - started;
  const droppedStreaming = await stopFrameCount(page);
  const longTasks = await page.evaluate(() => (window as BenchWindow).benchLong ?? []);
  await startFrameCount(page);
  await page.waitForTimeout(streamMs);
  const droppedIdle = await stopFrameCount(page);
  const painted = Number((await page.getByTestId('output-count-text').textContent())?.split(' ')[0]);
  const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((mark) => [mark.name, mark.startTime])));
  const firstOutputToPaint = (marks['flowplay:first-paint:text'] ?? Number.NaN) - (marks['flowplay:first-value:text'] ?? Number.NaN);
  return { firstOutputToPaint, streamMs, droppedStreaming, droppedIdle, painted, longTasks };
}

async function main(): Promise<void> {
  const gatewayFlag = process.argv.indexOf('--gateway');
  const served = await serveFlowplay();
  const browser = await chromium.launch(chromiumLaunchOptions());
  let a11: ReferenceGateway | undefined;
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(served.url);
    await page.getByTestId('connection-status').filter({ hasText: /^Connected/ }).waitFor({ timeout: 20_000 });

    console.log('Flow Playground UI bench (Debian Chromium against flowplay serve)\n');
    for (const lines of [50, 500]) {
      const samples = await keystrokeToDiagnostic(page, lines);
      const median = quantile(samples, 0.5);
      console.log(
        `keystroke → diagnostic, ${String(lines).padStart(3)}-line flow: median ${ms(median)}, p95 ${ms(quantile(samples, 0.95))} ` +
          `over ${TRIALS} keystrokes = ${(median / GOAL_MS).toFixed(2)}× the ${GOAL_MS} ms goal`,
      );
    }

    let gateway = gatewayFlag > 0 ? process.argv[gatewayFlag + 1] : undefined;
    const embeddedRuns = !(await page.getByText('does not serve flow_run').isVisible());
    if (!gateway && !embeddedRuns && A11_BIN) {
      a11 = await startReferenceGateway(A11_BIN, ['--plain']);
      gateway = a11.url;
    }
    if (!gateway && !embeddedRuns) {
      console.log('\nfirst output → paint and the 10 000-value stream: skipped (no gateway serving flow_run: pass --gateway or set A11_BIN)');
      return;
    }
    if (gateway) {
      await page.getByRole('button', { name: /^Gateway:/ }).click();
      await page.getByLabel('Gateway (A11 WebSocket)').fill(gateway);
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await page.getByTestId('connection-status').filter({ hasText: /^Connected/ }).waitFor({ timeout: 20_000 });
      await page.keyboard.press('Escape');
    }
    const stream = await streamBench(page);
    console.log(`\nfirst output → paint (${gateway ?? 'embedded gateway'}): ${ms(stream.firstOutputToPaint)} (${(stream.firstOutputToPaint / (1000 / 60)).toFixed(1)} frames)`);
    console.log(
      `${STREAM_VALUES} values streamed in ${ms(stream.streamMs)}: ${stream.painted} painted (${stream.painted === STREAM_VALUES ? 'none lost' : 'SOME LOST'}); ` +
        `frames dropped while rendering ${stream.droppedStreaming} vs idle for as long ${stream.droppedIdle} ` +
        `(${((stream.droppedStreaming / Math.max(1, stream.streamMs / (1000 / 60))) * 100).toFixed(1)}% of frames)`,
    );
    console.log(
      `long tasks while streaming: ${stream.longTasks.length}` +
        (stream.longTasks.length ? `, longest ${ms(Math.max(...stream.longTasks))}` : ''),
    );
  } finally {
    await browser.close();
    await served.stop();
    await a11?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

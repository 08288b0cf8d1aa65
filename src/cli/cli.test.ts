import { describe, expect, it } from 'vitest';
import { runFlowplay, serveFlowplay } from '../../test/support/flowplay.js';

describe('flowplay command line', () => {
  it('lists its commands with --help', async () => {
    const result = await runFlowplay(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: flowplay <command>');
    expect(result.stdout).toMatch(/^\s+serve\s/m);
  });

  it('prints usage for every subcommand', async () => {
    const result = await runFlowplay(['serve', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: flowplay serve');
  });

  it('refuses an unknown command with exit code 2', async () => {
    const result = await runFlowplay(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });

  it('refuses a bad option and says which', async () => {
    const result = await runFlowplay(['serve', '--port', 'eleven']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--port must be an integer");
  });

  it('serves the built app on loopback', async () => {
    const served = await serveFlowplay();
    try {
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const page = await fetch(served.url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app"></div>');
      const deepLink = await fetch(new URL('some/client/route', served.url));
      expect(await deepLink.text()).toContain('<div id="app"></div>');
    } finally {
      await served.stop();
    }
  });
});

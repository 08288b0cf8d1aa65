import { createServer, type AddressInfo } from 'node:net';
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

  it('serves the built app on loopback, at a URL carrying the launch token', async () => {
    const served = await serveFlowplay();
    try {
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{16,}$/);
      const page = await fetch(served.url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app"></div>');
      const deepLink = await fetch(new URL('some/client/route', served.url));
      expect(await deepLink.text()).toContain('<div id="app"></div>');
    } finally {
      await served.stop();
    }
  });

  it('refuses to listen beyond loopback without --allow-remote', async () => {
    const result = await runFlowplay(['serve', '--host', '0.0.0.0', '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Refusing to listen on 0.0.0.0');
    expect(result.stderr).toContain('--allow-remote');
  });

  it('says in one line, without a stack trace, that the port is taken and how to pick another', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as AddressInfo).port;
    try {
      const result = await runFlowplay(['serve', '--port', String(taken), '--log-format', 'text']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`flowplay serve: cannot listen on 127.0.0.1:${taken}: the port is already in use`);
      expect(result.stderr).toContain('--port');
      expect(result.stderr).not.toMatch(/^\s+at /m);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('reports a failure to start in one line, without a stack trace unless FLOWPLAY_DEBUG asks for it', async () => {
    const result = await runFlowplay(['serve', '--port', '0', '--static', '/nonexistent-flowplay-dist']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The playground is not built: /nonexistent-flowplay-dist does not exist.');
    expect(result.stderr).toContain('FLOWPLAY_DEBUG=1');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('says what it found, serves what the flags leave on, and stops cleanly on SIGTERM', async () => {
    const served = await serveFlowplay(['--no-shell-tools', '--no-speech-recognition', '--token', 'fixed-test-token']);
    try {
      expect(served.url).toMatch(/\?token=fixed-test-token$/);
      expect(served.output).toMatch(/^\s+speech\s+off \(--no-speech-recognition\)/m);
      expect(served.output).toMatch(/^\s+microphone\s+/m);
      expect(served.output).toMatch(/^\s+llm\s+.*echo/m);
      expect(served.output).toMatch(/^\s+shell\s+off \(--no-shell-tools\)/m);
      expect(served.output).toMatch(/^\s+stdlib\s+reads no files; no network/m);
      const listed = (await (await fetch(new URL('/actions', served.url))).json()) as { actions: { name: string }[] };
      const names = listed.actions.map((action) => action.name);
      expect(names).toContain('interact_with_llm');
      expect(names).not.toContain('shell_execute');
      expect(names).not.toContain('transcribe_audio');
      expect(names).toContain('capture_audio');
      expect(names).toContain('flow_run');
      expect(names).toContain('read_file');
    } finally {
      const code = await served.stop();
      expect(code).toBe(0);
    }
  });
});

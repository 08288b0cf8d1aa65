import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type StartOptions, type StartedGateway } from '../../src/gateway/start.js';
import { connectSession, type ConnectOptions } from '../../src/wire/node-ws.js';
import type { Session } from '../../src/wire/session.js';
import { Status, StatusCode } from '../../src/wire/status.js';

export interface TestGateway {
  started: StartedGateway;
  /** The A11 endpoint without a token (what a local program uses). */
  endpoint: string;
  /** A client session (a local program: no Origin, no token). */
  connect(options?: ConnectOptions): Promise<Session>;
  close(): Promise<void>;
}

/** Our gateway in this process, on a free loopback port, with a scratch data directory. */
export async function startTestGateway(options: Partial<StartOptions> = {}): Promise<TestGateway> {
  const dir = mkdtempSync(join(tmpdir(), 'flowplay-gateway-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="app"></div>');
  const started = await startGateway({
    host: '127.0.0.1',
    port: 0,
    staticDir: dir,
    shellTools: true,
    audio: true,
    flowTools: true,
    dataDir: join(dir, 'data'),
    env: {},
    ...options,
  });
  const endpoint = started.server.a11Url.slice(0, started.server.a11Url.indexOf('?'));
  const sessions: Session[] = [];
  return {
    started,
    endpoint,
    async connect(connectOptions = {}) {
      const session = await connectSession(endpoint, connectOptions);
      sessions.push(session);
      return session;
    },
    async close() {
      for (const session of sessions) if (!session.status) session.abort(new Status(StatusCode.CANCELLED, 'The test is over.'));
      await started.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

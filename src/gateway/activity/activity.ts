import { ChildProcesses } from './children.js';

/** A call running on a connection, as its session lists it. */
export interface RunningCall {
  id: string;
  action: string;
  startedAt: number;
}

/** One open A11 connection, entered by whoever serves it. */
export interface OpenConnection {
  id: string;
  remote: 'loopback' | 'remote';
  browser: boolean;
  since: number;
  /** The calls from this client running now. */
  calls(): RunningCall[];
}

export interface FlowRunEntry {
  /** The flow_run call's id. */
  call: string;
  flow: string;
  startedAt: number;
  connection: string | undefined;
}

/**
 * Everything the gateway is running, each part entered and removed by the code that owns it:
 * connections by the server's A11 handler, flow runs by flow_run's runner, child processes by
 * whatever spawned them, handlers by the registry they were served from. Shells are the shell
 * manager's and are read from it. The status report (report.ts) is a view of this.
 */
export class GatewayActivity {
  readonly startedAt = Date.now();
  readonly children = new ChildProcesses();
  readonly #connections = new Map<string, OpenConnection>();
  readonly #flowRuns = new Set<FlowRunEntry>();
  readonly #handlers = new Set<Promise<unknown>>();

  /** Enters an open connection; call the returned function when it has closed. */
  connectionOpened(connection: OpenConnection): () => void {
    this.#connections.set(connection.id, connection);
    return () => {
      if (this.#connections.get(connection.id) === connection) this.#connections.delete(connection.id);
    };
  }

  get connections(): OpenConnection[] {
    return [...this.#connections.values()];
  }

  /** Enters a flow run; call the returned function when it has ended. */
  flowRunStarted(run: FlowRunEntry): () => void {
    this.#flowRuns.add(run);
    return () => this.#flowRuns.delete(run);
  }

  get flowRuns(): FlowRunEntry[] {
    return [...this.#flowRuns];
  }

  /** Runs an action handler, counted until it settles (shutdown waits for these). */
  runHandler<T>(handler: () => Promise<T>): Promise<T> {
    const running = handler();
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    this.#handlers.add(settled);
    void settled.then(() => this.#handlers.delete(settled));
    return running;
  }

  /** Handlers running now, nested ones included. */
  get runningHandlers(): number {
    return this.#handlers.size;
  }

  /** Waits until no handler is running, or `withinMs` has passed; says which. */
  async settled(withinMs: number): Promise<boolean> {
    const until = Date.now() + withinMs;
    while (this.#handlers.size > 0) {
      const left = until - Date.now();
      if (left <= 0) return false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.all(this.#handlers), new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
    }
    return true;
  }
}

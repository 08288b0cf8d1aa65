/**
 * What the connected gateway is running (its `gateway_status`), for the status bar's "running:"
 * indicator. Asked once a second while a run is active, then until the gateway reports nothing
 * left running (or a while has passed); otherwise not at all, so an idle page costs nothing. A
 * gateway without `gateway_status` (a real `a11 gateway run`) shows no indicator.
 */
import { GATEWAY_STATUS, gatewayStatusReportSchema, type GatewayStatusReport } from '../../gateway/activity/status-schema';
import type { ActionDispatcher } from '../../wire/action';
import type { ActionSchema } from '../../wire/schema';
import { readAll } from '../gateway/discover';

/** What this reads of the page's connection (a Connection is one). */
export interface ActivitySource {
  readonly session: ActionDispatcher | null;
  readonly offer: { readonly schemas: ReadonlyMap<string, ActionSchema> } | null;
  /** Bumped for each new session. */
  readonly generation: number;
}

export interface ActivityTiming {
  /** How often the report is asked for while something runs. */
  pollMs: number;
  /** How long after a run ends the report is followed, waiting for the gateway to wind it down. */
  settleMs: number;
}

const DEFAULT_TIMING: ActivityTiming = { pollMs: 1000, settleMs: 30_000 };

export type ActivitySummary = GatewayStatusReport['summary'];

export class ActivityState {
  /** The latest report's counts; null before the first, or when the gateway cannot say. */
  summary = $state.raw<ActivitySummary | null>(null);
  /** When the latest report was made (the gateway's clock, ISO 8601). */
  at = $state('');
  /** Why the latest report could not be had; '' when all is well. */
  error = $state('');

  #active = false;
  #settleUntil = 0;
  #looping = false;
  #wake: (() => void) | undefined;
  #disposed = false;
  #generation = -1;

  readonly #timing: ActivityTiming;

  constructor(
    private readonly connection: ActivitySource,
    timing: Partial<ActivityTiming> = {},
  ) {
    this.#timing = { ...DEFAULT_TIMING, ...timing };
  }

  /**
   * Follows the gateway while a run is `active` and until what it started has ended. Call it
   * whenever the run starts or ends, and when the connection changes.
   */
  follow(active: boolean): void {
    if (this.connection.generation !== this.#generation) {
      this.#generation = this.connection.generation;
      this.summary = null;
      this.error = '';
    }
    this.#active = active;
    this.#disposed = false;
    if (!active) this.#settleUntil = Date.now() + this.#timing.settleMs;
    this.#wake?.();
    if (this.#looping) return;
    this.#looping = true;
    void this.#loop().finally(() => (this.#looping = false));
  }

  /** Whether it is asking the gateway now or will again shortly. */
  get following(): boolean {
    return this.#looping;
  }

  /** Stops asking (the page is going away). */
  dispose(): void {
    this.#disposed = true;
    this.#wake?.();
  }

  /** Asks the gateway once; false (and `summary` null) when there is none, or it has no gateway_status. */
  async refresh(): Promise<boolean> {
    const session = this.connection.session;
    const schema = this.connection.offer?.schemas.get(GATEWAY_STATUS);
    if (!session || !schema) {
      this.summary = null;
      return false;
    }
    try {
      const call = session.invoke(schema);
      const [value] = await readAll(call, 'status');
      if (this.connection.session !== session) return true;
      const report = gatewayStatusReportSchema.parse(value);
      this.summary = report.summary;
      this.at = report.generated_at;
      this.error = '';
    } catch (error) {
      if (this.connection.session === session) this.error = `The gateway could not say what it is running: ${(error as Error).message}`;
    }
    return true;
  }

  async #loop(): Promise<void> {
    while (!this.#disposed) {
      // Nothing to ask (yet): the next session, or the next run, calls follow() again.
      if (!(await this.refresh())) return;
      const summary = this.summary;
      const quiet = summary !== null && summary.calls === 0 && summary.processes === 0;
      if (!this.#active && (quiet || Date.now() >= this.#settleUntil)) return;
      await this.#pause(this.#timing.pollMs);
    }
  }

  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.#wake = finish;
    });
  }
}

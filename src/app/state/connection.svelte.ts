/**
 * The page's connection to a gateway: the embedded one that served the page (token from the page
 * address) or any `ws://…/a11` the reader enters, such as a real `a11 gateway run`. One wire
 * session at a time; the page's own registry (the capture actions) is served on it. Live status,
 * automatic reconnection with backoff after a drop, and a plain reason when the gateway refuses.
 */
import { WireConnection } from '../../wire/connection';
import type { ActionRegistry } from '../../wire/registry';
import { Session } from '../../wire/session';
import { Status, StatusCode } from '../../wire/status';
import { openWebSocket } from '../../wire/websocket';
import { discoveryUrl, gatewayUrlProblem, hideTokens, TOKEN_PARAMETER, withoutToken } from '../gateway/address';
import { discoverGateway, type GatewayOffer } from '../gateway/discover';
import type { Discovery } from './discovery.svelte';

export type ConnectionStatus = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'refused' | 'closed';

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000, 30000];

export class Connection {
  /** The gateway address, token included (never shown as is: see {@link shownUrl}). */
  url = $state('');
  status = $state<ConnectionStatus>('idle');
  /** Why the last attempt failed, or why the session ended; '' when all is well. */
  error = $state('');
  /** Seconds until the next automatic attempt, while reconnecting. */
  retryIn = $state(0);
  /** Whether the gateway serves the flow tools (flow_check, flow_run). */
  flowTools = $state(false);
  /** Bumped each time a new session opens (views that cache per session watch it). */
  generation = $state(0);

  session: Session | null = null;
  offer: GatewayOffer | null = null;
  #wanted = false;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly registry: ActionRegistry,
    private readonly discovery: Discovery,
    /** Whether this URL is the gateway that served the page (its refusals mean a token problem). */
    private readonly isEmbedded: (url: string) => boolean,
  ) {}

  get shownUrl(): string {
    return withoutToken(this.url);
  }

  get open(): boolean {
    return this.status === 'open';
  }

  /** Connects to `url` (replacing any current session). */
  connect(url: string): void {
    const problem = gatewayUrlProblem(url);
    if (problem) {
      this.status = 'refused';
      this.error = problem;
      return;
    }
    this.#stopTimers();
    this.#drop();
    this.url = url;
    this.#wanted = true;
    this.#attempt = 0;
    void this.#open();
  }

  /** Tries again now (after a refusal or while waiting to reconnect). */
  retry(): void {
    if (!this.url) return;
    this.#stopTimers();
    this.#wanted = true;
    void this.#open();
  }

  /** Ends the session and stops reconnecting. */
  disconnect(): void {
    this.#wanted = false;
    this.#stopTimers();
    this.#drop();
    this.status = 'closed';
    this.error = '';
  }

  /**
   * The page is going away: end the session now, telling the gateway why, so it stops what the
   * page started instead of finding a dropped socket.
   */
  leave(): void {
    this.#wanted = false;
    this.#stopTimers();
    const session = this.session;
    this.session = null;
    session?.abort(new Status(StatusCode.CANCELLED, 'The page was closed.'));
  }

  /** Asks the gateway again what it offers (after connecting, or when the allow-list changes). */
  async refresh(headers: Map<string, string> = new Map()): Promise<void> {
    const session = this.session;
    if (!session) return;
    this.discovery.loading = true;
    try {
      const offer = await discoverGateway(session, headers);
      if (this.session !== session) return;
      this.offer = offer;
      this.flowTools = offer.flowTools;
      this.discovery.set(offer.composable, offer.flowTools ? 'flow_actions' : '__list_actions__');
    } catch (error) {
      if (this.session === session) this.discovery.error = `Could not list the gateway's actions: ${(error as Error).message}`;
    } finally {
      this.discovery.loading = false;
    }
  }

  async #open(): Promise<void> {
    const url = this.url;
    this.status = this.#attempt === 0 ? 'connecting' : 'reconnecting';
    let socket;
    try {
      socket = await openWebSocket(url);
    } catch (error) {
      if (this.url !== url || !this.#wanted) return;
      await this.#failed(url, (error as Error).message);
      return;
    }
    if (this.url !== url || !this.#wanted) {
      socket.close(1000, 'A11 stream complete');
      return;
    }
    const session = new Session(new WireConnection(socket), { registry: this.registry });
    this.session = session;
    this.status = 'open';
    this.error = '';
    this.#attempt = 0;
    this.generation++;
    void session.ended().then((status) => this.#ended(session, status));
  }

  #ended(session: Session, status: Status): void {
    if (this.session !== session) return;
    this.session = null;
    this.offer = null;
    this.flowTools = false;
    this.discovery.clear();
    if (!this.#wanted) {
      this.status = 'closed';
      return;
    }
    this.error = status.ok ? 'The gateway closed the connection.' : `The connection ended: ${hideTokens(status.message || status.codeName)}.`;
    this.#schedule();
  }

  /** Explains a failed attempt, and retries unless the gateway refused this page outright. */
  async #failed(url: string, message: string): Promise<void> {
    const reachable = await this.#answersHttp(url);
    if (this.url !== url) return;
    if (reachable && this.isEmbedded(url)) {
      const hasToken = new URL(url).searchParams.has(TOKEN_PARAMETER);
      this.status = 'refused';
      this.error = hasToken
        ? 'The gateway refused this page: its launch token is wrong or from an earlier launch. Open the address flowplay serve printed (it ends in ?token=…).'
        : 'This page was opened without the launch token, so the gateway refuses it. Open the address flowplay serve printed (it ends in ?token=…).';
      return;
    }
    if (reachable) {
      this.status = 'refused';
      this.error = `${withoutToken(url)} answers HTTP but refused the WebSocket: check the path (/a11) and whether it accepts pages from this origin.`;
      return;
    }
    this.error = `Nothing answers at ${withoutToken(url)} (${hideTokens(message.replace(/^[A-Z_]+: /, ''))}). Is flowplay serve or a11 gateway run running?`;
    this.#schedule();
  }

  async #answersHttp(url: string): Promise<boolean> {
    try {
      const response = await fetch(discoveryUrl(url), { method: 'GET', cache: 'no-store' });
      return response.status > 0;
    } catch {
      return false;
    }
  }

  #schedule(): void {
    const delay = BACKOFF_MS[Math.min(this.#attempt, BACKOFF_MS.length - 1)]!;
    this.#attempt++;
    this.status = 'reconnecting';
    this.retryIn = Math.ceil(delay / 1000);
    this.#ticker = setInterval(() => (this.retryIn = Math.max(0, this.retryIn - 1)), 1000);
    this.#timer = setTimeout(() => {
      this.#stopTimers();
      if (this.#wanted) void this.#open();
    }, delay);
  }

  #stopTimers(): void {
    clearTimeout(this.#timer);
    clearInterval(this.#ticker);
    this.retryIn = 0;
  }

  #drop(): void {
    const session = this.session;
    this.session = null;
    this.offer = null;
    this.flowTools = false;
    this.discovery.clear();
    if (session) void session.close().catch(() => {});
  }
}

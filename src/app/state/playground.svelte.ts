import { getContext, setContext } from 'svelte';
import { Header } from '../../gateway/actions/headers';
import { ActionRegistry } from '../../wire/registry';
import { registerCaptureActions } from '../audio/capture-actions';
import { examples, type Example } from '../examples';
import { embeddedGatewayUrl, saveGateway, savedGateway, takeLaunchToken, TOKEN_PARAMETER } from '../gateway/address';
import { createCompiler } from '../check/compiler';
import { recheck } from '../editor/lint';
import { catalogueOf, composableOf } from '../gateway/composable';
import { GatewayExecutor } from '../gateway/flow-run';
import { PageExecutor } from '../run/page-executor';
import type { Catalogue } from '../../flow/catalogue';
import { ActivityState } from './activity.svelte';
import { AddressSync } from './address.svelte';
import { CheckState } from './check.svelte';
import { Connection } from './connection.svelte';
import { Discovery } from './discovery.svelte';
import { EditorBridge } from './editor-bridge.svelte';
import { Inspector } from './inspector.svelte';
import { MicrophoneState } from './microphone.svelte';
import { RunState } from './run.svelte';
import { ThemeState } from './theme.svelte';
import { Workspace } from './workspace.svelte';

/**
 * The whole page's state, one object per concern (the svelte.dev REPL's shape): components get
 * it from context and read the part they show.
 */
export class Playground {
  readonly theme = new ThemeState();
  readonly workspace = new Workspace({ name: 'hello', source: examples[0]!.source });
  readonly editor = new EditorBridge();
  readonly address = new AddressSync(this.workspace);
  readonly microphone = new MicrophoneState();
  readonly discovery = new Discovery();
  /** What this page serves to the gateway: the capture actions. */
  readonly registry = new ActionRegistry();
  /** The gateway that served the page, with the launch token. */
  readonly embeddedUrl: string;
  readonly connection: Connection;
  /** What the gateway is running (its gateway_status), followed while a run is active. */
  readonly activity: ActivityState;
  readonly check: CheckState;
  readonly inspector = new Inspector();
  readonly run: RunState;

  constructor() {
    const token = typeof location === 'undefined' ? '' : takeLaunchToken(location, history, globalThis.sessionStorage ?? null);
    this.embeddedUrl = typeof location === 'undefined' ? '' : embeddedGatewayUrl(location.href, token);
    this.connection = new Connection(this.registry, this.discovery, (url) => sameEndpoint(url, this.embeddedUrl));
    this.activity = new ActivityState(this.connection);
    this.check = new CheckState(this.connection, createCompiler());
    this.check.headers = () => this.#allowListHeaders();
    const page = new PageExecutor({
      registry: this.registry,
      gatewaySchemas: () => this.connection.offer?.schemas ?? new Map(),
      peer: () => this.connection.session,
      catalogue: () => this.catalogue(),
    });
    this.run = new RunState({ gateway: new GatewayExecutor(this.connection), page }, this.inspector, this.microphone, () =>
      this.check.flows(this.workspace.active.source),
    );
    registerCaptureActions(
      this.registry,
      this.microphone.open,
      {
        gateway: () => {
          const session = this.connection.session;
          const offer = this.connection.offer;
          return session && offer ? { dispatcher: session, schema: (name) => offer.schemas.get(name) } : null;
        },
      },
      {
        ...this.microphone.hooks,
        // A capture the gateway asked for (a flow's `call`, arriving over the session): its ports
        // belong to the run in progress, so the inspector shows the audio the page sends.
        started: (context) => {
          if (!context.origin || !this.run.active) return;
          for (const port of context.schema.inputs) this.inspector.watch(context.input(port.name).node, `${context.name}.${port.name}`, 'node');
          for (const port of context.schema.outputs) this.inspector.watch(context.output(port.name), `${context.name}.${port.name}`, 'node');
        },
      },
    );
  }

  /** Connects to the gateway the reader chose last, or the one that served the page. */
  start(): void {
    const chosen = savedGateway(globalThis.localStorage ?? null);
    this.connection.connect(chosen || this.embeddedUrl);
  }

  /** Connects to `url`; empty means the page's own gateway (with the launch token). */
  connectTo(url: string): void {
    const trimmed = url.trim();
    const target = !trimmed || sameEndpoint(trimmed, this.embeddedUrl) ? this.embeddedUrl : trimmed;
    saveGateway(globalThis.localStorage ?? null, target === this.embeddedUrl ? '' : target);
    this.check.resetRemote();
    this.connection.connect(target);
  }

  /** The gateway address to show for editing (the launch token left out). */
  displayGateway(): string {
    const url = this.connection.url || this.embeddedUrl;
    try {
      const parsed = new URL(url);
      parsed.searchParams.delete(TOKEN_PARAMETER);
      return parsed.toString();
    } catch {
      return url;
    }
  }

  /** Opens an example in its own document and prepares its run. */
  openExample(example: Example): void {
    this.workspace.openOrReuse(example.id, example.source);
    this.run.prefill(example.flow, example.inputs, this.run.modes().includes(example.mode) ? example.mode : this.run.mode);
  }

  /**
   * What the local compiler checks calls against, for where the flow will run: on the gateway,
   * the gateway's actions as flow_actions describes them; in the page, this page's own actions
   * (runnable here) and the gateway's (reached with `call`). Null when no gateway is known.
   */
  catalogue(): Catalogue | null {
    const gateway = this.discovery.actions;
    if (gateway.length === 0) return null;
    if (this.run.mode === 'gateway') return catalogueOf(gateway);
    const own = new Set(this.registry.names());
    const page = this.registry.list().map((entry) => composableOf(entry.schema, entry.handler !== undefined));
    return catalogueOf([...page, ...gateway.filter((action) => !own.has(action.action)).map((action) => ({ ...action, runnable: false }))]);
  }

  /** Asks the gateway again what it offers and what it makes of the shown flow (the allow-list changed, or the session is new). */
  refreshGatewayView(): void {
    if (!this.connection.open) return;
    void this.connection.refresh(this.#allowListHeaders());
    const view = this.editor.view;
    if (view) recheck(view, this.check);
  }

  /** flow_actions and flow_check need only the allow-list: it decides which calls the gateway refuses. */
  #allowListHeaders(): Map<string, string> {
    const allowed = this.run.settings.headers().get(Header.allowedLlmActions);
    return new Map(allowed ? [[Header.allowedLlmActions, allowed]] : []);
  }
}

/** Whether two gateway URLs name the same endpoint (the token aside). */
function sameEndpoint(a: string, b: string): boolean {
  try {
    const left = new URL(a);
    const right = new URL(b);
    return left.host === right.host && left.pathname === right.pathname && left.protocol === right.protocol;
  } catch {
    return false;
  }
}

const KEY = Symbol('playground');

export function providePlayground(playground: Playground): Playground {
  return setContext(KEY, playground);
}

export function usePlayground(): Playground {
  const playground = getContext<Playground | undefined>(KEY);
  if (!playground) throw new Error('usePlayground() outside <App>: the playground state is provided by App.svelte.');
  return playground;
}

/**
 * Checking the shown flow, two ways: the local compiler on every change (fast, complete, and
 * what the editor marks first), and the gateway's `flow_check` a little later (its registry and
 * allow-list are the truth about which actions exist and may be called). Each answer is kept
 * with the exact text it was for, so an answer for older text is never shown.
 */
import type { Catalogue } from '../../flow/catalogue';
import type { Diagnostic } from '../../flow/diagnostics/diagnostic';
import type { Compiler } from '../check/compiler';
import { checkOnGateway, type PlanEnvelopeLike, type RemoteCheck, type RemoteProblem } from '../gateway/flow-check';
import { flowTool } from '../gateway/discover';
import type { PlanFlowLike } from '../plan/graph';
import type { Connection } from './connection.svelte';

export interface LocalCheck {
  source: string;
  diagnostics: Diagnostic[];
  plan: PlanEnvelopeLike | null;
  /** How long the compile took where it ran (performance.now() milliseconds). */
  ms: number;
}

const REMOTE_DELAY_MS = 600;

export class CheckState {
  local = $state.raw<LocalCheck | null>(null);
  remote = $state.raw<RemoteCheck | null>(null);
  remoteBusy = $state(false);
  /** Headers for flow_check (the allow-list), read when a check is sent. */
  headers: () => Map<string, string> = () => new Map();

  #timer: ReturnType<typeof setTimeout> | undefined;
  #asked = '';

  #catalogueKey = '';

  constructor(
    private readonly connection: Connection,
    private readonly compiler: Compiler,
  ) {}

  /**
   * Compiles `source` with the local compiler (the lint source calls this on every change).
   * Resolves with the answer for exactly this text; `local` only ever moves forward to it.
   */
  async compile(source: string): Promise<LocalCheck> {
    if (this.local?.source === source) return this.local;
    const answer = await this.compiler.compile(source);
    const result: LocalCheck = { source, diagnostics: answer.diagnostics, plan: answer.plan, ms: answer.ms };
    this.local = result;
    return result;
  }

  /** The catalogue calls are checked against locally (the gateway's actions); null: not checked. */
  setCatalogue(catalogue: Catalogue | null): void {
    const key = catalogue ? JSON.stringify(catalogue) : '';
    if (key === this.#catalogueKey) return;
    this.#catalogueKey = key;
    this.compiler.setCatalogue(catalogue);
    // Answers for the old catalogue no longer stand.
    this.local = null;
  }

  /** The gateway's answer for exactly this text, if it has come. */
  remoteFor(source: string): RemoteCheck | null {
    return this.remote?.source === source ? this.remote : null;
  }

  /**
   * Asks the gateway to check `source` once typing pauses; `onAnswer` runs when a fresh answer
   * arrives. Asking again for the same text does nothing.
   */
  requestRemote(source: string, onAnswer: () => void): void {
    if (source === this.#asked || !this.connection.flowTools) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#ask(source, onAnswer), REMOTE_DELAY_MS);
  }

  /** Forgets the gateway's answers (a new session, new headers): the next change asks again. */
  resetRemote(): void {
    this.#asked = '';
    this.remote = null;
  }

  /**
   * The gateway's refusal of exactly this text, unless the local compiler already says the same
   * thing at the same place (then showing both would be saying it twice).
   */
  remoteProblemFor(source: string): RemoteProblem | null {
    const problem = this.remoteFor(source)?.problem;
    if (!problem) return null;
    const local = this.local?.source === source ? this.local.diagnostics : [];
    const repeated = local.some((diagnostic) => diagnostic.from === problem.from && problem.message.includes(diagnostic.message.replace(/\.$/, '')));
    return repeated ? null : problem;
  }

  /** The runnable flows of `source` (named, not the entry flow), from the freshest plan there is. */
  flows(source: string): PlanFlowLike[] {
    const plan = this.remoteFor(source)?.plan ?? (this.local?.source === source ? this.local.plan : null) ?? this.#lastPlan();
    return (plan?.flows ?? []).filter((flow) => !flow.entry);
  }

  /** The plan to draw for `source`, and where it came from. */
  planFor(source: string): { plan: PlanEnvelopeLike; origin: 'gateway' | 'local'; stale: boolean } | null {
    const remote = this.remoteFor(source)?.plan;
    if (remote) return { plan: remote, origin: 'gateway', stale: false };
    if (this.local?.plan && this.local.plan.flows.length) return { plan: this.local.plan, origin: 'local', stale: this.local.source !== source };
    if (this.remote?.plan) return { plan: this.remote.plan, origin: 'gateway', stale: true };
    return null;
  }

  #lastPlan(): PlanEnvelopeLike | null {
    return this.local?.plan ?? this.remote?.plan ?? null;
  }

  async #ask(source: string, onAnswer: () => void): Promise<void> {
    const session = this.connection.session;
    if (!session || !this.connection.flowTools) return;
    this.#asked = source;
    this.remoteBusy = true;
    try {
      const answer = await checkOnGateway(session, flowTool(this.connection.offer, 'flow_check'), source, this.headers());
      // Only the answer for the latest question counts.
      if (this.#asked !== source) return;
      this.remote = answer;
      onAnswer();
    } finally {
      if (this.#asked === source) this.remoteBusy = false;
    }
  }
}

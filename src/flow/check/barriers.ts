/**
 * Barriers — what makes a flow wait: `after`, `wait`, `drain`, `cancel`, and the rule that a
 * statement which ends things (`fail`, `cancel`, `abort`, `log`) must be reached by choice.
 */

import type { Expression, Span, Wait, Word } from '../syntax/ast.js';
import type { StepId } from '../program.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { FlowContext, type Scope } from './context.js';
import { describe, type DescribedDraft } from './described.js';
import { NO_REF, NO_STEP } from './graph.js';
import { resolveDestination, resolveOutcome } from './streams.js';

/**
 * The steps a statement waits for, from its `after` names. A call or a bound barrier is waited
 * for as a step; a port or a node grows a `wait` step of its own (the one `x = wait port` would
 * have made). Returns the names, as the plan lists them.
 */
export function resolveAfter(ctx: FlowContext, after: readonly Word[], scope: Scope, step: StepId = NO_STEP): string[] {
  const held: string[] = [];
  const waits: StepId[] = [];
  for (const word of after) {
    const found = ctx.find(scope, word.text);
    if (!found) {
      ctx.unknownName(scope, word.text, word.at);
      continue;
    }
    if (!['call', 'barrier', 'node', 'input-port', 'output-port'].includes(found.kind)) {
      ctx.report('flow.name.no-status', `'after ${word.text}' has nothing to wait for: only a call, a node, a port or a barrier finishes. Wait for what produces '${word.text}' instead.`, word.at);
      continue;
    }
    found.reads++;
    found.statusReads++;
    held.push(word.text);
    if (found.kind === 'call' || found.kind === 'barrier') {
      if (found.step !== NO_STEP) waits.push(found.step);
      continue;
    }
    const outcome = ctx.statusOfRef(found.ref, found.name, word.at);
    waits.push(ctx.graph.addStep({ kind: 'wait', label: `wait ${found.name}`, body: ctx.body, after: [], at: word.at, outcome, subjects: [], race: false, timeout: null, tolerant: false, winner: null }));
  }
  ctx.afterWaits = waits;
  const made = ctx.graph.step(step);
  if (made) made.after = waits;
  return held;
}

/** `status x` → `x`: the label of what a status is the status of. */
function subjectLabel(label: string): string {
  return label.startsWith('status ') ? label.slice('status '.length) : label;
}

/**
 * `wait x`, `wait first of a, b [-> n]`, `wait all of a, b`. Appends its described steps to
 * `steps` (or to the statement in hand's, for a race read as a value) and returns its graph step.
 */
export function checkWait(ctx: FlowContext, wait: Wait, scope: Scope, steps: DescribedDraft[] | null = null): StepId | null {
  const into = steps ?? ctx.pending ?? [];
  if (wait.form !== 'one') {
    const outcomes = wait.subjects.map((subject) => resolveOutcome(ctx, subject, scope));
    const written = `wait ${wait.race ? 'first' : 'all'} of ${outcomes.map((outcome) => subjectLabel(outcome.label)).join(', ')}`;
    const label = written.slice('wait '.length);
    const made = ctx.graph.addStep({
      kind: 'wait',
      label: written,
      body: ctx.body,
      after: [],
      at: wait.at,
      outcome: outcomes[0]?.ref ?? null,
      subjects: outcomes.map((outcome) => outcome.ref),
      race: wait.race,
      timeout: wait.timeout,
      tolerant: outcomes.every((outcome) => outcome.tolerant),
      winner: null,
    });
    const winner = wait.race ? ctx.winnerOf(made) : NO_REF;
    const after = resolveAfter(ctx, wait.after, scope, made);
    into.push(describe('wait', label, wait.at, { source: label, timeout: wait.timeout, after }));
    for (const target of wait.targets) {
      if (!wait.race) {
        ctx.report(
          'flow.form.wait-all-has-no-value',
          "'wait all of' waits for every one of them, so there is no single winner to write. 'wait first of a, b -> n' writes which one finished first.",
          target.at,
        );
        break;
      }
      const destination = resolveDestination(ctx, target, scope);
      const pipeLabel = `${written} -> ${destination.label}`;
      ctx.graph.addStep({ kind: 'pipe', label: pipeLabel, body: ctx.body, after: [], at: wait.at, source: winner, destination: destination.ref, tolerant: false });
      into.push(describe('pipe', pipeLabel, wait.at, { source: written, destination: destination.label }));
    }
    return made;
  }
  if (!wait.subject) return null;
  const outcome = resolveOutcome(ctx, wait.subject, scope);
  const made = ctx.graph.addStep({
    kind: 'wait',
    label: `wait ${subjectLabel(outcome.label)}`,
    body: ctx.body,
    after: [],
    at: wait.at,
    outcome: outcome.ref,
    subjects: [],
    race: false,
    timeout: wait.timeout,
    tolerant: outcome.tolerant,
    winner: null,
  });
  const after = resolveAfter(ctx, wait.after, scope, made);
  into.push(describe('wait', outcome.label, wait.at, { source: outcome.label, timeout: wait.timeout, after }));
  return made;
}

/** `drain x`: x finished, and whatever is left of it read. */
export function checkDrain(ctx: FlowContext, target: Expression, after: readonly Word[], at: Span, scope: Scope, steps: DescribedDraft[]): void {
  const resolved = resolveDestination(ctx, target, scope);
  const outcome = ctx.statusOfRef(resolved.ref, resolved.label, at);
  const made = ctx.graph.addStep({ kind: 'drain', label: `drain ${resolved.label}`, body: ctx.body, after: [], at, target: resolved.ref, outcome });
  const held = resolveAfter(ctx, after, scope, made);
  steps.push(describe('drain', resolved.label, at, { destination: resolved.label, after: held }));
}

/** The call a name names, or -1 after saying why it is not one. */
export function expectCall(ctx: FlowContext, name: string, at: Span, scope: Scope): number {
  const index = ctx.lookup(scope, name);
  const symbol = ctx.symbols[index];
  if (!symbol) {
    ctx.unknownName(scope, name, at);
    return -1;
  }
  if (symbol.kind !== 'call') {
    ctx.report('flow.name.not-a-call', `'${name}' is not a call, so there is nothing to stop or take outputs of here. Name a call bound with 'x = run …' or 'x = call …'.`, at);
    return -1;
  }
  symbol.reads++;
  return index;
}

/**
 * `fail`, `cancel`, `abort` and `log` wait for nothing, so at the top of a body they run at
 * once, racing everything written above them. Inside an `if`, `for` or `repeat`, or with an
 * `after`, they happen where the author meant them to.
 */
export function checkReachedByChoice(ctx: FlowContext, code: DiagnosticCode, what: string, after: readonly Word[], at: Span): void {
  if (ctx.guarded > 0 || after.length > 0) return;
  ctx.report(
    code,
    `This '${what}' is at the top of a body with no 'after', so it runs as soon as the flow starts, racing every other statement. Put it inside an 'if', or give it an 'after'.`,
    at,
  );
}

/**
 * Checking a flow on the gateway with `flow_check`: the gateway compiles it against its own
 * registry and allow-list and answers with the plan — or refuses with one status: a compile error
 * (`flow:L:C: message`), a call to an action it does not have or will not allow. The refusal is
 * placed in the source so the editor can mark it.
 */
import { SourceText } from '../../flow/diagnostics/source-text';
import type { PlanFlow } from '../../flow/plan';
import type { Headers } from '../../wire/action';
import { Chunk } from '../../wire/chunk';
import type { ActionSchema } from '../../wire/schema';
import type { Session } from '../../wire/session';
import { Status } from '../../wire/status';
import type { PlanFlowLike } from '../plan/graph';
import { readAll } from './discover';

/** A `flow.plan/v1` envelope as the page reads it (see `PlanFlowLike`). */
export interface PlanEnvelopeLike {
  format?: string;
  flows: (PlanFlowLike & Partial<Pick<PlanFlow, 'entry' | 'description'>>)[];
}

/** The gateway's refusal, placed in the source (UTF-16 offsets). */
export interface RemoteProblem {
  /** The status code's name: INVALID_ARGUMENT, PERMISSION_DENIED, NOT_FOUND… */
  code: string;
  message: string;
  from: number;
  to: number;
}

export interface RemoteCheck {
  /** The exact text that was checked: an answer for any other text is stale. */
  source: string;
  plan?: PlanEnvelopeLike;
  problem?: RemoteProblem;
}

const POSITION = /^[^:\n]*:(\d+):(\d+): ([\s\S]*)$/;

/** Where in `source` a refusal points: its `L:C`, else the call naming the quoted action, else the start. */
export function placeRefusal(source: string, status: Status): RemoteProblem {
  const text = new SourceText(source);
  const positioned = POSITION.exec(status.message);
  if (positioned) {
    const from = text.offsetAt(Number(positioned[1]), Number(positioned[2]));
    const word = /^[\w$.-]+|^./.exec(source.slice(from))?.[0] ?? '';
    return { code: status.codeName, message: positioned[3]!.trim(), from, to: Math.min(source.length, from + Math.max(1, word.length)) };
  }
  const named = /'([^']+)'/.exec(status.message)?.[1];
  if (named) {
    const escaped = named.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const call = new RegExp(`\\b(?:run|call|RUN|CALL)\\s+(${escaped})(?![\\w$-])`).exec(source);
    if (call) {
      const from = call.index + call[0].length - named.length;
      return { code: status.codeName, message: status.message, from, to: from + named.length };
    }
  }
  const firstLine = source.indexOf('\n');
  return { code: status.codeName, message: status.message, from: 0, to: firstLine < 0 ? source.length : firstLine };
}

export async function checkOnGateway(session: Session, schema: ActionSchema, source: string, headers: Headers = new Map()): Promise<RemoteCheck> {
  const call = session.invoke(schema, { headers });
  await call.input('source').finalize(Chunk.text(source));
  try {
    const [plan] = await readAll(call, 'plan');
    return { source, plan: plan as PlanEnvelopeLike };
  } catch (error) {
    return { source, problem: placeRefusal(source, Status.fromError(error)) };
  }
}

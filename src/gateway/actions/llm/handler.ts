import type { ActionContext, ActionHandler } from '../../../wire/action.js';
import { Chunk } from '../../../wire/chunk.js';
import type { ActionRegistry } from '../../../wire/registry.js';
import { StatusCode, StatusError } from '../../../wire/status.js';
import { conversationOf } from './conversation.js';
import {
  INTERACTION_TAG,
  jsonChunk,
  makeUsage,
  parseInteraction,
  textToBase64,
  toCanonical,
  type Interaction,
  type UsageMetadata,
} from './interaction.js';
import { resolveProvider, type Environment, type ResolvedProvider } from './providers/index.js';
import type { ChatMessage, ToolCall } from './providers/provider.js';
import { DEFAULT_STALL_SECONDS, interactWithLlmSchema, type LlmConfig } from './schema.js';
import { collectTools, executeTool, toolLogsMetadata, type OfferedTool } from './tools.js';

/** Model rounds one turn may take; the last one is offered no tools, so it has to answer. */
export const MAX_TOOL_ROUNDS = 16;

/** Where finished turns go to be kept (the conversation store). */
export interface ConversationRecorder {
  record(interactions: readonly Interaction[]): Promise<unknown> | unknown;
}

export interface InteractWithLlmOptions {
  /** Where API keys, base URLs and the default provider are read from. */
  env: Environment;
  recorder?: ConversationRecorder;
  /** The actions the model may be offered as tools (those `x-a11-allowed-llm-actions` admits). */
  registry?: ActionRegistry;
}

interface RoundResult {
  text: string;
  calls: ToolCall[];
  model: string;
  stopReason: string | undefined;
  usage: Partial<UsageMetadata> | undefined;
}

/**
 * One model turn: read the conversation, send it to the provider the headers choose, stream
 * the answer out as it arrives, and hand back the answer as a new interaction (recording the
 * turn). When the caller allows tools and the model calls some, they run — here, or on the
 * caller for tools it described — and their results go back to the model, round after round,
 * each round's interactions written as they happen. A provider that fails, or goes quiet for
 * longer than the stall timeout, ends the call with a status saying which and why.
 */
export function interactWithLlm(options: InteractWithLlmOptions): ActionHandler {
  return async (ctx) => {
    const resolved = resolveProvider(ctx.headers, options.env);
    const readInteractions = async () => {
      const list: Interaction[] = [];
      for await (const value of ctx.values('interactions')) list.push(parseInteraction(value));
      return list;
    };
    const [config, interactions, offered] = await Promise.all([
      ctx.value('config') as Promise<LlmConfig | undefined>,
      readInteractions(),
      collectTools(ctx, options.registry),
    ]);
    const settings: LlmConfig = config ?? {};
    const { system, messages } = conversationOf(interactions);
    if (messages.length === 0) {
      throw new StatusError(
        StatusCode.INVALID_ARGUMENT,
        "The 'interactions' input carried no turn with any text: send at least one user interaction.",
      );
    }
    if (offered.length && resolved.provider.name === 'echo') ctx.log('The echo provider calls no tools; the tools offered are ignored.');

    const produced: Interaction[] = [];
    let previous = interactions.at(-1)?.id ?? '';
    const write = async (interaction: Interaction) => {
      produced.push(interaction);
      previous = interaction.id;
      await ctx.writeChunk('new_interactions', Chunk.json(interaction, INTERACTION_TAG));
    };
    let calls = 0;
    for (let round = 1; ; round++) {
      const tools = round < MAX_TOOL_ROUNDS ? offered : [];
      const result = await streamRound(ctx, resolved, settings, system, messages, tools);
      await write(modelInteraction(result, resolved, previous));
      messages.push({ role: 'model', text: result.text, ...(result.calls.length ? { toolCalls: result.calls } : {}) });
      ctx.log(
        `${resolved.provider.name} (${result.model}) answered in ${result.text.length} characters` +
          `${result.calls.length ? ` and called ${result.calls.map((call) => call.name).join(', ')}` : ''}` +
          `${result.stopReason ? `, stopping for ${result.stopReason}` : ''}${result.usage ? `; ${describeUsage(result.usage)}` : ''}.`,
      );
      if (result.calls.length === 0) break;
      const runner = { ctx, registry: options.registry, offered };
      const executed = await Promise.all(result.calls.map((call, index) => executeTool(runner, call, `${ctx.id}-tool-${calls + index + 1}`)));
      calls += result.calls.length;
      await write(
        toCanonical({
          role: 'user',
          previous_interaction_id: previous,
          created_at_millis: Date.now(),
          content: [
            jsonChunk({
              role: 'user',
              content: executed.map(({ result: done }) => ({
                type: 'tool_result',
                call_id: done.callId,
                name: done.name,
                content: done.content,
                ...(done.isError ? { is_error: true } : {}),
              })),
            }),
          ],
          action_outputs: Object.fromEntries(executed.map((tool) => [tool.result.callId, tool.outputs])),
          backend_specific_metadata: { provider: textToBase64(resolved.provider.name), ...toolLogsMetadata(executed) },
        }),
      );
      messages.push({ role: 'user', text: '', toolResults: executed.map((tool) => tool.result) });
    }
    if (options.recorder) {
      try {
        await options.recorder.record([...interactions, ...produced]);
      } catch (error) {
        // The answer is worth more than its history entry; say so and carry on.
        ctx.log(`The turn was answered but could not be recorded: ${(error as Error).message}`, 'warning');
      }
    }
  };
}

async function streamRound(
  ctx: ActionContext,
  resolved: ResolvedProvider,
  config: LlmConfig,
  system: string,
  messages: ChatMessage[],
  tools: readonly OfferedTool[],
): Promise<RoundResult> {
  const result: RoundResult = { text: '', calls: [], model: resolved.model, stopReason: undefined, usage: undefined };
  const events = resolved.provider.chat({
    model: resolved.model,
    system,
    messages,
    config,
    tools: tools.map((tool) => tool.definition),
    apiKey: resolved.apiKey,
    baseUrl: resolved.baseUrl,
    signal: ctx.signal,
    stallMs: (config.stall_timeout_seconds ?? DEFAULT_STALL_SECONDS) * 1000,
  });
  for await (const event of events) {
    if (event.raw !== undefined) await ctx.write('event_stream', event.raw);
    if (event.text) {
      result.text += event.text;
      await ctx.write('text_output', event.text);
    }
    if (event.thought) await ctx.write('thoughts', event.thought);
    if (event.model) result.model = event.model;
    if (event.stopReason) result.stopReason = event.stopReason;
    if (event.usage) result.usage = { ...result.usage, ...withoutNulls(event.usage) };
    if (event.toolCall) result.calls.push(event.toolCall);
  }
  return result;
}

/** The model's side of a round: its text and tool calls in the neutral envelope, with usage. */
function modelInteraction(result: RoundResult, resolved: ResolvedProvider, previous: string): Interaction {
  const parts: Record<string, unknown>[] = result.text || result.calls.length === 0 ? [{ type: 'text', text: result.text }] : [];
  for (const call of result.calls) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments });
  return toCanonical({
    role: 'model',
    previous_interaction_id: previous,
    created_at_millis: Date.now(),
    model: result.model,
    content: [jsonChunk({ role: 'model', content: parts })],
    action_calls: result.calls.map((call) => ({ id: call.id, name: call.name })),
    backend_specific_metadata: {
      provider: textToBase64(resolved.provider.name),
      ...(result.stopReason ? { stop_reason: textToBase64(result.stopReason) } : {}),
    },
    usage_metadata: result.usage ? makeUsage(withTotal(result.usage)) : null,
  });
}

/** Registers interact_with_llm. */
export function registerInteractWithLlm(registry: ActionRegistry, options: InteractWithLlmOptions): ActionRegistry {
  return registry.register(interactWithLlmSchema, interactWithLlm(options));
}

function withoutNulls(usage: Partial<UsageMetadata>): Partial<UsageMetadata> {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== null && value !== undefined));
}

function withTotal(usage: Partial<UsageMetadata>): Partial<UsageMetadata> {
  if (usage.total_tokens != null || (usage.input_tokens == null && usage.output_tokens == null)) return usage;
  return { ...usage, total_tokens: (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0) };
}

function describeUsage(usage: Partial<UsageMetadata>): string {
  return `${usage.input_tokens ?? '?'} tokens in, ${usage.output_tokens ?? '?'} out`;
}

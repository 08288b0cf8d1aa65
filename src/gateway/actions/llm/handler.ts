import type { ActionHandler } from '../../../wire/action.js';
import { Chunk } from '../../../wire/chunk.js';
import type { ActionRegistry } from '../../../wire/registry.js';
import { StatusCode, StatusError } from '../../../wire/status.js';
import { conversationOf } from './conversation.js';
import {
  INTERACTION_TAG,
  jsonChunk,
  makeUsage,
  parseInteraction,
  textMessage,
  textToBase64,
  toCanonical,
  type Interaction,
  type UsageMetadata,
} from './interaction.js';
import { resolveProvider, type Environment } from './providers/index.js';
import { DEFAULT_STALL_SECONDS, interactWithLlmSchema, type LlmConfig } from './schema.js';

/** Where finished turns go to be kept (the conversation store). */
export interface ConversationRecorder {
  record(interactions: readonly Interaction[]): Promise<unknown> | unknown;
}

export interface InteractWithLlmOptions {
  /** Where API keys, base URLs and the default provider are read from. */
  env: Environment;
  recorder?: ConversationRecorder;
}

/**
 * One model turn: read the conversation, send it to the provider the headers choose, stream
 * the answer out as it arrives, then hand back the answer as a new interaction (and record the
 * turn). A provider that fails, or goes quiet for longer than the stall timeout, ends the call
 * with a status saying which and why; what already streamed stays streamed.
 */
export function interactWithLlm(options: InteractWithLlmOptions): ActionHandler {
  return async (ctx) => {
    const resolved = resolveProvider(ctx.headers, options.env);
    const readInteractions = async () => {
      const list: Interaction[] = [];
      for await (const value of ctx.values('interactions')) list.push(parseInteraction(value));
      return list;
    };
    const [config, interactions] = await Promise.all([
      ctx.value('config') as Promise<LlmConfig | undefined>,
      readInteractions(),
    ]);
    const settings: LlmConfig = config ?? {};
    const { system, messages } = conversationOf(interactions);
    if (messages.length === 0) {
      throw new StatusError(
        StatusCode.INVALID_ARGUMENT,
        "The 'interactions' input carried no turn with any text: send at least one user interaction.",
      );
    }
    const stallMs = (settings.stall_timeout_seconds ?? DEFAULT_STALL_SECONDS) * 1000;
    let text = '';
    let answeredBy = resolved.model;
    let stopReason: string | undefined;
    let usage: Partial<UsageMetadata> | undefined;
    const events = resolved.provider.chat({
      model: resolved.model,
      system,
      messages,
      config: settings,
      apiKey: resolved.apiKey,
      baseUrl: resolved.baseUrl,
      signal: ctx.signal,
      stallMs,
    });
    for await (const event of events) {
      if (event.raw !== undefined) await ctx.write('event_stream', event.raw);
      if (event.text) {
        text += event.text;
        await ctx.write('text_output', event.text);
      }
      if (event.thought) await ctx.write('thoughts', event.thought);
      if (event.model) answeredBy = event.model;
      if (event.stopReason) stopReason = event.stopReason;
      if (event.usage) usage = { ...usage, ...withoutNulls(event.usage) };
    }
    const answer = toCanonical({
      role: 'model',
      previous_interaction_id: interactions.at(-1)?.id ?? '',
      created_at_millis: Date.now(),
      model: answeredBy,
      content: [jsonChunk(textMessage('model', text))],
      backend_specific_metadata: {
        provider: textToBase64(resolved.provider.name),
        ...(stopReason ? { stop_reason: textToBase64(stopReason) } : {}),
      },
      usage_metadata: usage ? makeUsage(withTotal(usage)) : null,
    });
    await ctx.writeChunk('new_interactions', Chunk.json(answer, INTERACTION_TAG));
    ctx.log(
      `${resolved.provider.name} (${answeredBy}) answered in ${text.length} characters` +
        `${stopReason ? `, stopping for ${stopReason}` : ''}${usage ? `; ${describeUsage(usage)}` : ''}.`,
    );
    if (options.recorder) {
      try {
        await options.recorder.record([...interactions, answer]);
      } catch (error) {
        // The answer is worth more than its history entry; say so and carry on.
        ctx.log(`The turn was answered but could not be recorded: ${(error as Error).message}`, 'warning');
      }
    }
  };
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

/** Registers interact_with_llm. */
export function registerInteractWithLlm(registry: ActionRegistry, options: InteractWithLlmOptions): ActionRegistry {
  return registry.register(interactWithLlmSchema, interactWithLlm(options));
}

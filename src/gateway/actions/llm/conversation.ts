import { chunkValues, shapeText, systemInstructionsText, type Interaction } from './interaction.js';
import type { ChatMessage, ToolCall, ToolResult } from './providers/provider.js';

export interface Conversation {
  system: string;
  messages: ChatMessage[];
}

type Record_ = Record<string, unknown>;
const isRecord = (value: unknown): value is Record_ => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));

/** Text, tool calls and tool results of one content value, read by shape. */
function readContent(value: unknown, into: { text: string[]; calls: ToolCall[]; results: ToolResult[] }): void {
  if (isRecord(value) && Array.isArray(value.content)) {
    for (const block of value.content) {
      if (!isRecord(block)) continue;
      // The neutral envelope's parts, and Anthropic's own block names for the same things.
      if (block.type === 'tool_call' || block.type === 'tool_use') {
        into.calls.push({
          id: text(block.id),
          name: text(block.name),
          arguments: isRecord(block.arguments) ? block.arguments : isRecord(block.input) ? block.input : {},
        });
      } else if (block.type === 'tool_result') {
        into.results.push({
          callId: text(block.call_id ?? block.tool_use_id),
          name: text(block.name),
          content: text(block.content),
          ...(block.is_error === true ? { isError: true } : {}),
        });
      } else if (typeof block.text === 'string') {
        into.text.push(block.text);
      }
    }
    return;
  }
  const shaped = shapeText(value);
  if (shaped) return void into.text.push(shaped);
  if (isRecord(value) && Array.isArray(value.parts)) {
    for (const part of value.parts) if (isRecord(part) && typeof part.text === 'string') into.text.push(part.text);
  }
}

/**
 * The conversation a provider is asked to continue, read from interactions whatever backend
 * wrote them: text by shape (a string, `{text}`, `{role, content}` envelopes, Gemini's `parts`),
 * tool calls and results from the envelope's parts, system instructions and system-role turns as
 * the system prompt. Tool traffic this reader cannot take apart is summarised as text, so the
 * model still knows it happened.
 */
export function conversationOf(interactions: readonly Interaction[]): Conversation {
  const system: string[] = [];
  const messages: ChatMessage[] = [];
  for (const interaction of interactions) {
    system.push(...systemInstructionsText(interaction).filter((line) => line.trim()));
    const read = { text: [] as string[], calls: [] as ToolCall[], results: [] as ToolResult[] };
    for (const value of chunkValues(interaction.content)) readContent(value, read);
    const said = read.text.join('');
    if (interaction.role === 'system') {
      if (said.trim()) system.push(said);
      continue;
    }
    const notes: string[] = [];
    if (read.calls.length === 0) {
      for (const call of interaction.action_calls) notes.push(`[called ${call.name || 'a tool'}${call.id ? ` (${call.id})` : ''}]`);
    }
    if (read.results.length === 0 && !said) for (const callId of Object.keys(interaction.action_outputs)) notes.push(`[result of ${callId}]`);
    const message: ChatMessage = {
      role: interaction.role === 'model' ? 'model' : 'user',
      text: [said, ...notes].filter((part) => part.trim()).join('\n'),
    };
    if (read.calls.length && message.role === 'model') message.toolCalls = read.calls;
    if (read.results.length && message.role === 'user') message.toolResults = read.results;
    if (message.text || message.toolCalls || message.toolResults) messages.push(message);
  }
  return { system: system.join('\n\n'), messages };
}

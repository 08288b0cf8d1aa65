import { chunkValues, shapeText, systemInstructionsText, type Interaction } from './interaction.js';
import type { ChatMessage } from './providers/provider.js';

export interface Conversation {
  system: string;
  messages: ChatMessage[];
}

/**
 * The conversation a provider is asked to continue, read from interactions whatever backend
 * wrote them: text is taken by shape (a string, `{text}`, `{role, content}` envelopes, Gemini's
 * `parts`), system instructions and system-role turns become the system prompt, and tool
 * traffic from earlier turns is summarised as text so the model still knows it happened.
 */
export function conversationOf(interactions: readonly Interaction[]): Conversation {
  const system: string[] = [];
  const messages: ChatMessage[] = [];
  for (const interaction of interactions) {
    system.push(...systemInstructionsText(interaction).filter((text) => text.trim()));
    const text = chunkValues(interaction.content).map(contentText).join('');
    if (interaction.role === 'system') {
      if (text.trim()) system.push(text);
      continue;
    }
    const parts = [text];
    for (const call of interaction.action_calls) parts.push(`[called ${call.name || 'a tool'}${call.id ? ` (${call.id})` : ''}]`);
    for (const callId of Object.keys(interaction.action_outputs)) if (!text) parts.push(`[result of ${callId}]`);
    const said = parts.filter((part) => part.trim()).join('\n');
    if (said) messages.push({ role: interaction.role === 'model' ? 'model' : 'user', text: said });
  }
  return { system: system.join('\n\n'), messages };
}

function contentText(value: unknown): string {
  const text = shapeText(value);
  if (text) return text;
  if (typeof value === 'object' && value !== null && Array.isArray((value as { parts?: unknown }).parts)) {
    return ((value as { parts: unknown[] }).parts)
      .map((part) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
      .join('');
  }
  return '';
}

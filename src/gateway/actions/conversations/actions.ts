import type { ActionHandler } from '../../../wire/action.js';
import { Chunk } from '../../../wire/chunk.js';
import type { ActionRegistry } from '../../../wire/registry.js';
import { defineAction, port } from '../../../wire/schema.js';
import { StatusCode, StatusError } from '../../../wire/status.js';
import { INTERACTION_TAG } from '../llm/interaction.js';
import type { ConversationStore } from './store.js';

export const getConversationsSchema = defineAction({
  name: 'get_conversations',
  description: 'List the stored conversations, most recently active first.',
  outputs: {
    conversations: port.json(undefined, {
      stream: true,
      required: true,
      description: 'One `{id, title, started_at}` per conversation.',
    }),
  },
});

export const getConversationSchema = defineAction({
  name: 'get_conversation',
  description: "Stream one conversation's interactions, oldest first.",
  inputs: {
    id: port.text({ required: true, description: "The conversation's id: its first interaction's id." }),
  },
  outputs: {
    interactions: port.json(undefined, {
      stream: true,
      required: true,
      description: 'The conversation, as the interactions it is made of.',
    }),
  },
});

export function registerConversationActions(registry: ActionRegistry, store: ConversationStore): ActionRegistry {
  return registry
    .register(getConversationsSchema, getConversations(store))
    .register(getConversationSchema, getConversation(store));
}

function getConversations(store: ConversationStore): ActionHandler {
  return async (ctx) => {
    const conversations = store.list();
    for (const summary of conversations) await ctx.write('conversations', summary);
    ctx.log(`Listed ${conversations.length} stored conversation${conversations.length === 1 ? '' : 's'}.`);
  };
}

function getConversation(store: ConversationStore): ActionHandler {
  return async (ctx) => {
    const id = ((await ctx.value('id')) as string | undefined)?.trim();
    if (!id) throw new StatusError(StatusCode.INVALID_ARGUMENT, "The 'id' input is required: pass a conversation id from get_conversations.");
    // An unknown id is an empty conversation: a client may hold the id of one that was cleared.
    const interactions = store.read(id);
    for (const interaction of interactions) await ctx.writeChunk('interactions', Chunk.json(interaction, INTERACTION_TAG));
    ctx.log(`Read conversation \`${id}\`: ${interactions.length} interaction${interactions.length === 1 ? '' : 's'}.`);
  };
}

import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { encodeInteraction, interactionText, parseInteraction, type Interaction } from '../llm/interaction.js';

/** Longest conversation title; longer first messages are cut with an ellipsis. */
export const TITLE_LIMIT = 60;
const UNTITLED = 'Untitled';

export interface ConversationSummary {
  id: string;
  title: string;
  /** Milliseconds since the epoch. */
  started_at: number;
}

/** A one-line title from the interaction that opens a conversation. */
export function titleOf(interaction: Interaction): string {
  const text = interactionText(interaction).split(/\s+/).filter(Boolean).join(' ');
  if (!text) return UNTITLED;
  return text.length <= TITLE_LIMIT ? text : `${text.slice(0, TITLE_LIMIT - 3).trimEnd()}...`;
}

/**
 * Conversations kept in one SQLite file. A conversation is named by its first interaction's id,
 * and recording is append-only by interaction id: a client replays the whole history every turn,
 * so recording the same turn twice adds nothing.
 */
export class ConversationStore {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #known: Database.Statement;
  readonly #nextSeq: Database.Statement;
  readonly #upsert: Database.Statement;
  readonly #list: Database.Statement;
  readonly #read: Database.Statement;
  readonly #first: Database.Statement;

  /** Opens (creating when needed) the store at `path`; `:memory:` keeps it in memory. */
  constructor(readonly path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#db = new Database(path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('busy_timeout = 5000');
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS conversations (
        id         TEXT PRIMARY KEY,
        title      TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS interactions (
        conversation_id TEXT NOT NULL,
        seq             INTEGER NOT NULL,
        interaction_id  TEXT NOT NULL,
        body            TEXT NOT NULL,
        PRIMARY KEY (conversation_id, seq),
        UNIQUE (conversation_id, interaction_id)
      );
      CREATE INDEX IF NOT EXISTS conversations_by_activity ON conversations (updated_at DESC);
    `);
    this.#insert = this.#db.prepare(
      'INSERT OR IGNORE INTO interactions (conversation_id, seq, interaction_id, body) VALUES (?, ?, ?, ?)',
    );
    this.#known = this.#db.prepare('SELECT 1 FROM interactions WHERE conversation_id = ? AND interaction_id = ?');
    this.#nextSeq = this.#db.prepare('SELECT COALESCE(MAX(seq) + 1, 0) AS next FROM interactions WHERE conversation_id = ?');
    this.#upsert = this.#db.prepare(`
      INSERT INTO conversations (id, title, started_at, updated_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at`);
    this.#list = this.#db.prepare('SELECT id, title, started_at FROM conversations ORDER BY updated_at DESC, rowid DESC');
    this.#read = this.#db.prepare('SELECT body FROM interactions WHERE conversation_id = ? ORDER BY seq');
    this.#first = this.#db.prepare('SELECT body FROM interactions WHERE conversation_id = ? ORDER BY seq LIMIT 1');
  }

  /**
   * Appends whatever of `interactions` the conversation does not hold yet. Returns the
   * conversation id, or undefined when there was nothing to record (no interactions, or a first
   * interaction without an id).
   */
  record(interactions: readonly Interaction[], now = Date.now()): string | undefined {
    const conversationId = interactions[0]?.id;
    if (!conversationId) return undefined;
    this.#db.transaction(() => {
      let seq = (this.#nextSeq.get(conversationId) as { next: number }).next;
      for (const interaction of interactions) {
        if (!interaction.id || this.#known.get(conversationId, interaction.id)) continue;
        this.#insert.run(conversationId, seq++, interaction.id, encodeInteraction(interaction));
      }
      const first = this.#first.get(conversationId) as { body: string } | undefined;
      const title = first ? titleOf(parseInteraction(JSON.parse(first.body))) : UNTITLED;
      this.#upsert.run(conversationId, title, now, now);
    })();
    return conversationId;
  }

  /** Every conversation, most recently active first. */
  list(): ConversationSummary[] {
    return this.#list.all() as ConversationSummary[];
  }

  /** A conversation's interactions, oldest first; empty for an id nobody recorded. */
  read(conversationId: string): Interaction[] {
    const rows = this.#read.all(conversationId) as { body: string }[];
    return rows.map((row) => parseInteraction(JSON.parse(row.body)));
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}

import type { EditorState } from '@codemirror/state';

/** One flow the reader is editing. */
export class FlowDocument {
  readonly id: string;
  name = $state('');
  source = $state('');
  /**
   * The editor's state for this document — its selection and, above all, its undo history —
   * parked here while another document is shown. Owned by the editor; deliberately not reactive.
   */
  editorState: EditorState | null = null;

  constructor(id: string, name: string, source: string) {
    this.id = id;
    this.name = name;
    this.source = source;
  }
}

interface SavedDocument {
  id: string;
  name: string;
  source: string;
}

interface SavedWorkspace {
  documents: SavedDocument[];
  active: string;
}

const STORAGE_KEY = 'flowplay.workspace.v1';

/**
 * The open documents and which one is shown. Kept in local storage (sources only — never run
 * settings or keys), so a reload loses nothing.
 */
export class Workspace {
  documents = $state<FlowDocument[]>([]);
  activeId = $state('');
  readonly active: FlowDocument = $derived(
    this.documents.find((document) => document.id === this.activeId) ?? this.documents[0]!,
  );
  #counter = 0;

  constructor(
    starter: { name: string; source: string },
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null = globalThis.localStorage ?? null,
  ) {
    if (!this.#restore()) this.open(starter.name, starter.source);
  }

  /** Opens a new document and shows it. */
  open(name: string, source: string): FlowDocument {
    const document = new FlowDocument(this.#nextId(), this.#uniqueName(name), source);
    this.documents.push(document);
    this.activeId = document.id;
    this.save();
    return document;
  }

  /** Shows the document already holding exactly this source, or opens one. */
  openOrReuse(name: string, source: string): FlowDocument {
    const same = this.documents.find((document) => document.source === source);
    if (same) {
      this.activeId = same.id;
      return same;
    }
    return this.open(name, source);
  }

  select(id: string): void {
    if (this.documents.some((document) => document.id === id)) this.activeId = id;
    this.save();
  }

  /** Closes a document; the last one is never closed (there is always something to edit). */
  close(id: string): void {
    if (this.documents.length <= 1) return;
    const index = this.documents.findIndex((document) => document.id === id);
    if (index < 0) return;
    this.documents.splice(index, 1);
    if (this.activeId === id) this.activeId = this.documents[Math.min(index, this.documents.length - 1)]!.id;
    this.save();
  }

  rename(id: string, name: string): void {
    const document = this.documents.find((candidate) => candidate.id === id);
    const wanted = name.trim();
    // Names tell tabs apart (and name their close buttons): another document's name gets a number.
    if (document && wanted && wanted !== document.name) document.name = this.#uniqueName(wanted);
    this.save();
  }

  save(): void {
    if (!this.storage) return;
    const saved: SavedWorkspace = {
      documents: this.documents.map(({ id, name, source }) => ({ id, name, source })),
      active: this.activeId,
    };
    try {
      this.storage.setItem(STORAGE_KEY, JSON.stringify(saved));
    } catch {
      // Storage full or disabled: the workspace still works, it just will not survive a reload.
    }
  }

  #restore(): boolean {
    const text = this.storage?.getItem(STORAGE_KEY);
    if (!text) return false;
    try {
      const saved = JSON.parse(text) as SavedWorkspace;
      const documents = saved.documents.filter(
        (document) => typeof document.id === 'string' && typeof document.name === 'string' && typeof document.source === 'string',
      );
      if (documents.length === 0) return false;
      this.documents = documents.map((document) => new FlowDocument(document.id, document.name, document.source));
      this.#counter = Math.max(0, ...documents.map((document) => Number(document.id.replace(/^doc-/, '')) || 0));
      this.activeId = documents.some((document) => document.id === saved.active) ? saved.active : documents[0]!.id;
      return true;
    } catch {
      return false;
    }
  }

  #nextId(): string {
    return `doc-${++this.#counter}`;
  }

  #uniqueName(name: string): string {
    const taken = new Set(this.documents.map((document) => document.name));
    if (!taken.has(name)) return name;
    for (let n = 2; ; n++) if (!taken.has(`${name} (${n})`)) return `${name} (${n})`;
  }
}

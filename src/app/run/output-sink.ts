/**
 * What one output port has produced, and the view of it on the page.
 *
 * Values are kept (so a view mounted later, or again, shows everything) and painted through a
 * {@link FrameBatcher}: however fast they arrive, the DOM is touched at most once a frame, by
 * appending — text to one growing text node, every other value as its own block — so nothing
 * already painted is ever redrawn and no value is skipped.
 */
import type { Chunk } from '../../wire/chunk';
import { FrameBatcher, type FrameScheduler } from '../lib/frame-batcher';
import { toDisplayJson } from './preview';

/** Where painted output goes; the page's is a DOM element (see {@link domSurface}). */
export interface OutputSurface {
  /** Continues the running text. */
  appendText(text: string): void;
  /** Adds one value on its own (a JSON document, an audio summary). */
  appendBlock(text: string): void;
  clear(): void;
}

export type Piece = { kind: 'text' | 'block'; text: string };

/** How one value reads on the page. Strings continue the text; anything else is a block. */
export function pieceOf(chunk: Chunk): Piece {
  let value: unknown;
  try {
    value = chunk.value;
  } catch (error) {
    return { kind: 'block', text: `⚠ ${(error as Error).message}` };
  }
  if (typeof value === 'string') return { kind: 'text', text: value };
  if (value instanceof Uint8Array) return { kind: 'block', text: `<${value.length} bytes>` };
  return { kind: 'block', text: toDisplayJson(value, 2) };
}

export class OutputSink {
  readonly port: string;
  /** Values received. */
  received = 0;
  /** Values painted. */
  painted = 0;
  /** When the first value arrived and when it was first painted (performance.now()), for the bench. */
  firstValueAt: number | undefined;
  firstPaintAt: number | undefined;
  /** Called after each paint with the counts, for reactive summaries (once a frame at most). */
  onpaint: ((sink: OutputSink) => void) | undefined;

  readonly #pieces: Piece[] = [];
  #surface: OutputSurface | null = null;
  readonly #batcher: FrameBatcher<Piece>;

  constructor(port: string, schedule?: FrameScheduler) {
    this.port = port;
    this.#batcher = new FrameBatcher((batch) => this.#paint(batch), schedule);
  }

  push(chunk: Chunk): void {
    if (chunk.isNull) return;
    this.received++;
    this.firstValueAt ??= performance.now();
    const piece = pieceOf(chunk);
    this.#pieces.push(piece);
    this.#batcher.push(piece);
  }

  /** Paints what is queued now (the stream ended: no reason to wait for the frame). */
  flushPending(): void {
    this.#batcher.flushNow();
  }

  /** Everything so far as one text (the copy button). */
  text(): string {
    return this.#pieces.map((piece) => (piece.kind === 'text' ? piece.text : `\n${piece.text}\n`)).join('');
  }

  /** Shows this output on `surface`, painting what came before at once. */
  attach(surface: OutputSurface): () => void {
    // Settle what is queued first, with no surface, so nothing is written twice.
    this.#surface = null;
    this.#batcher.flushNow();
    surface.clear();
    this.#write(surface, this.#pieces);
    if (this.#pieces.length) this.firstPaintAt ??= performance.now();
    this.#surface = surface;
    return () => {
      if (this.#surface === surface) this.#surface = null;
    };
  }

  #paint(batch: Piece[]): void {
    this.painted += batch.length;
    if (this.#surface) {
      this.#write(this.#surface, batch);
      this.firstPaintAt ??= performance.now();
    }
    this.onpaint?.(this);
  }

  #write(surface: OutputSurface, pieces: readonly Piece[]): void {
    // Consecutive text pieces go in with one append.
    let text = '';
    for (const piece of pieces) {
      if (piece.kind === 'text') {
        text += piece.text;
        continue;
      }
      if (text) surface.appendText(text);
      text = '';
      surface.appendBlock(piece.text);
    }
    if (text) surface.appendText(text);
  }
}

/** A surface on a DOM element: one growing text node per run of text, a <pre> per block. */
export function domSurface(element: HTMLElement): OutputSurface {
  let running: Text | null = null;
  return {
    appendText(text) {
      if (!running) {
        running = document.createTextNode('');
        const span = document.createElement('span');
        span.className = 'output-text';
        span.append(running);
        element.append(span);
      }
      running.appendData(text);
    },
    appendBlock(text) {
      running = null;
      const block = document.createElement('pre');
      block.className = 'output-block';
      block.textContent = text;
      element.append(block);
    },
    clear() {
      running = null;
      element.replaceChildren();
    },
  };
}

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
  /** Adds one text value on a line of its own. */
  appendLine(text: string): void;
  /** Adds one value on its own (a JSON document, an audio summary). */
  appendBlock(text: string): void;
  clear(): void;
}

export type Piece = { kind: 'text' | 'block'; text: string };

/**
 * How text values are shown: joined as written (`text`: model tokens carry their own spaces) or
 * one per line (`lines`: a shell's output lines carry no line break). `auto` decides from the
 * first values: a stream whose values never start or end with whitespace is lines.
 */
export type TextLayout = 'auto' | 'text' | 'lines';

/** How many values `auto` looks at before settling on lines. */
const LAYOUT_SAMPLE = 2;

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
  #layout: TextLayout = 'auto';
  #decided: 'text' | 'lines' | null = null;
  #texts = 0;
  /** Called when `auto` settles (the view shows which layout is in use). */
  onlayout: ((layout: 'text' | 'lines') => void) | undefined;

  constructor(port: string, schedule?: FrameScheduler) {
    this.port = port;
    this.#batcher = new FrameBatcher((batch) => this.#paint(batch), schedule);
  }

  push(chunk: Chunk): void {
    if (chunk.isNull) return;
    this.received++;
    if (this.firstValueAt === undefined) {
      this.firstValueAt = performance.now();
      // User Timing marks, so a profiler (or bench/ui.ts) sees when output arrived and showed.
      performance.mark(`flowplay:first-value:${this.port}`);
    }
    const piece = pieceOf(chunk);
    this.#pieces.push(piece);
    this.#batcher.push(piece);
    // After queueing: settling on lines repaints everything, this value included, exactly once.
    if (piece.kind === 'text' && this.#layout === 'auto' && !this.#decided) this.#observe(piece.text);
  }

  /** The layout text values are shown in now. */
  get layout(): 'text' | 'lines' {
    if (this.#layout !== 'auto') return this.#layout;
    return this.#decided ?? 'text';
  }

  /** Chooses a layout (repainting what is shown). */
  setLayout(layout: TextLayout): void {
    this.#layout = layout;
    this.#repaint();
  }

  #observe(text: string): void {
    if (/^\s|\s$/.test(text)) return this.#settle('text');
    if (++this.#texts >= LAYOUT_SAMPLE) this.#settle('lines');
  }

  #settle(layout: 'text' | 'lines'): void {
    this.#decided = layout;
    this.onlayout?.(layout);
    // Only the first value or two can have been painted the other way: repainting is cheap.
    if (layout === 'lines') this.#repaint();
  }

  #repaint(): void {
    const surface = this.#surface;
    if (surface) this.attach(surface);
  }

  /** Paints what is queued now (the stream ended: no reason to wait for the frame). */
  flushPending(): void {
    this.#batcher.flushNow();
  }

  /** Everything so far as one text (the copy button), in the layout shown. */
  text(): string {
    const separator = this.layout === 'lines' ? '\n' : '';
    return this.#pieces.map((piece) => (piece.kind === 'text' ? piece.text + separator : `\n${piece.text}\n`)).join('');
  }

  /** Shows this output on `surface`, painting what came before at once. */
  attach(surface: OutputSurface): () => void {
    // Settle what is queued first, with no surface, so nothing is written twice.
    this.#surface = null;
    this.#batcher.flushNow();
    surface.clear();
    this.#write(surface, this.#pieces);
    if (this.#pieces.length) this.#markFirstPaint();
    this.#surface = surface;
    return () => {
      if (this.#surface === surface) this.#surface = null;
    };
  }

  #paint(batch: Piece[]): void {
    this.painted += batch.length;
    if (this.#surface) {
      this.#write(this.#surface, batch);
      this.#markFirstPaint();
    }
    this.onpaint?.(this);
  }

  /** The DOM was written in this frame; the next frame starts once it has been painted. */
  #markFirstPaint(): void {
    if (this.firstPaintAt !== undefined) return;
    this.firstPaintAt = performance.now();
    const port = this.port;
    const mark = () => performance.mark(`flowplay:first-paint:${port}`);
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(mark);
    else mark();
  }

  #write(surface: OutputSurface, pieces: readonly Piece[]): void {
    const lines = this.layout === 'lines';
    // Consecutive text pieces go in with one append.
    let text = '';
    for (const piece of pieces) {
      if (piece.kind === 'text' && lines) {
        surface.appendLine(piece.text);
        continue;
      }
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

/** Lines (or blocks) per group: the browser lays out and paints a finished group no more. */
const GROUP_SIZE = 200;

/**
 * A surface on a DOM element: one growing text node per run of text, a <div> per line, a <pre>
 * per block. Lines and blocks go into groups of {@link GROUP_SIZE}, each its own containment
 * box, so a stream of thousands of values costs the browser the new group's layout each frame,
 * not the whole output's; a group scrolled out of view is skipped entirely.
 */
export function domSurface(element: HTMLElement): OutputSurface {
  let running: Text | null = null;
  let group: HTMLElement | null = null;
  let inGroup = 0;
  const groupFor = (): HTMLElement => {
    if (!group || inGroup >= GROUP_SIZE) {
      group = document.createElement('div');
      group.className = 'output-group';
      element.append(group);
      inGroup = 0;
    }
    inGroup++;
    return group;
  };
  return {
    appendText(text) {
      if (!running) {
        running = document.createTextNode('');
        const span = document.createElement('span');
        span.className = 'output-text';
        span.append(running);
        element.append(span);
        group = null;
      }
      running.appendData(text);
    },
    appendLine(text) {
      running = null;
      const line = document.createElement('div');
      line.className = 'output-line';
      line.textContent = text;
      groupFor().append(line);
    },
    appendBlock(text) {
      running = null;
      const block = document.createElement('pre');
      block.className = 'output-block';
      block.textContent = text;
      groupFor().append(block);
    },
    clear() {
      running = null;
      group = null;
      element.replaceChildren();
    },
  };
}

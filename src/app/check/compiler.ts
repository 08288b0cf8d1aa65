/**
 * The page's handle on the local compiler: a Web Worker where the browser has them, the same
 * code in-line otherwise (tests, very old browsers). Answers come back in request order; a
 * caller that only wants the latest keeps the source it asked about and compares.
 */
import type { Catalogue } from '../../flow/catalogue';
import { answer, type CompileAnswer, type CompileRequest } from './compile-request';

export interface Compiler {
  compile(source: string): Promise<CompileAnswer>;
  /** The catalogue later compiles check calls against (null: calls are not checked). */
  setCatalogue(catalogue: Catalogue | null): void;
}

export class InlineCompiler implements Compiler {
  #catalogue: Catalogue | null = null;
  #id = 0;

  async compile(source: string): Promise<CompileAnswer> {
    return answer({ id: ++this.#id, source }, this.#catalogue);
  }

  setCatalogue(catalogue: Catalogue | null): void {
    this.#catalogue = catalogue;
  }
}

export class WorkerCompiler implements Compiler {
  readonly #worker: Worker;
  readonly #pending = new Map<number, (answer: CompileAnswer) => void>();
  #id = 0;
  #catalogue: Catalogue | null = null;
  #version = 0;
  #sentVersion = -1;

  constructor() {
    this.#worker = new Worker(new URL('./compile.worker.ts', import.meta.url), { type: 'module', name: 'flow-compiler' });
    this.#worker.onmessage = (event: MessageEvent<CompileAnswer>) => {
      const resolve = this.#pending.get(event.data.id);
      this.#pending.delete(event.data.id);
      resolve?.(event.data);
    };
  }

  compile(source: string): Promise<CompileAnswer> {
    const request: CompileRequest = { id: ++this.#id, source, catalogueVersion: this.#version };
    if (this.#sentVersion !== this.#version) {
      request.catalogue = this.#catalogue;
      this.#sentVersion = this.#version;
    }
    return new Promise((resolve) => {
      this.#pending.set(request.id, resolve);
      this.#worker.postMessage(request);
    });
  }

  setCatalogue(catalogue: Catalogue | null): void {
    this.#catalogue = catalogue ? (JSON.parse(JSON.stringify(catalogue)) as Catalogue) : null;
    this.#version++;
  }
}

/** A worker where one can run, in-line otherwise. */
export function createCompiler(): Compiler {
  return typeof Worker === 'function' ? new WorkerCompiler() : new InlineCompiler();
}

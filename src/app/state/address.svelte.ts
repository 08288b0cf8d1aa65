import { decodeFlowPayload, encodeFlowPayload, flowPayloadFromHash, shareLink } from '../lib/share-url';
import type { Workspace } from './workspace.svelte';

/**
 * Keeps the shown flow in the page address (`#flow=…`), so the address bar is always a link that
 * shares it. Opening such a link only puts the flow in the editor; nothing runs until asked.
 */
export class AddressSync {
  /** Set when the page opened a shared flow, or failed to; shown once as a notice. */
  notice = $state<{ kind: 'info' | 'error'; text: string } | null>(null);
  #timer: ReturnType<typeof setTimeout> | undefined;
  #written = '';

  constructor(private readonly workspace: Workspace) {}

  /** Opens the flow a shared link carries, if any (and not the one this page wrote there). */
  async openFromAddress(hash = location.hash): Promise<void> {
    const payload = flowPayloadFromHash(hash);
    if (!payload || payload === this.#written) return;
    try {
      const source = await decodeFlowPayload(payload);
      this.#written = payload;
      // A reload reads back the address this page itself wrote: that flow is already here, and
      // saying it was opened from a link would be wrong. Only a flow new to this workspace is told.
      const known = this.workspace.documents.some((document) => document.source === source);
      const document = this.workspace.openOrReuse('shared', source);
      if (known) return;
      this.notice = {
        kind: 'info',
        text: `Opened the flow from this link as “${document.name}”. It has not run: check it, then press Run.`,
      };
    } catch (error) {
      this.notice = { kind: 'error', text: (error as Error).message };
    }
  }

  /** Writes the shown flow into the address, at most every 400 ms while typing. */
  follow(source: string): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#write(source), 400);
  }

  /** The link to the flow shown now. */
  async link(source: string): Promise<string> {
    return shareLink(location.href, await encodeFlowPayload(source));
  }

  async #write(source: string): Promise<void> {
    const payload = await encodeFlowPayload(source);
    if (payload === this.#written) return;
    this.#written = payload;
    history.replaceState(history.state, '', shareLink(location.href, payload));
  }
}

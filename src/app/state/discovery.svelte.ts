import type { ComposableAction } from '../gateway/composable';

/**
 * What the gateway says a flow may compose (`flow_actions`): the discovery panel lists it,
 * completion and hover offer it, and the local compiler checks calls against it.
 */
export class Discovery {
  actions = $state.raw<ComposableAction[]>([]);
  /** When the list was last fetched, and from where. */
  fetchedAt = $state(0);
  source = $state('');
  loading = $state(false);
  error = $state('');
  filter = $state('');

  /** The actions whose name, description or port names contain the filter text. */
  filtered(): ComposableAction[] {
    const needle = this.filter.trim().toLowerCase();
    if (!needle) return this.actions;
    return this.actions.filter(
      (action) =>
        action.action.toLowerCase().includes(needle) ||
        action.description.toLowerCase().includes(needle) ||
        [...action.inputs, ...action.outputs].some((port) => port.port.toLowerCase().includes(needle)),
    );
  }

  find(name: string): ComposableAction | undefined {
    return this.actions.find((action) => action.action === name);
  }

  set(actions: ComposableAction[], source: string): void {
    this.actions = actions;
    this.source = source;
    this.fetchedAt = Date.now();
    this.error = '';
  }

  clear(): void {
    this.actions = [];
    this.source = '';
    this.fetchedAt = 0;
  }
}

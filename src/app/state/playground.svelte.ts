import { getContext, setContext } from 'svelte';
import { examples } from '../examples';
import { AddressSync } from './address.svelte';
import { Discovery } from './discovery.svelte';
import { EditorBridge } from './editor-bridge.svelte';
import { MicrophoneState } from './microphone.svelte';
import { ThemeState } from './theme.svelte';
import { Workspace } from './workspace.svelte';

/**
 * The whole page's state, one object per concern (the svelte.dev REPL's shape): components get
 * it from context and read the part they show.
 */
export class Playground {
  readonly theme = new ThemeState();
  readonly workspace = new Workspace({ name: 'hello', source: examples[0]!.source });
  readonly editor = new EditorBridge();
  readonly address = new AddressSync(this.workspace);
  readonly microphone = new MicrophoneState();
  readonly discovery = new Discovery();
}

const KEY = Symbol('playground');

export function providePlayground(playground: Playground): Playground {
  return setContext(KEY, playground);
}

export function usePlayground(): Playground {
  const playground = getContext<Playground | undefined>(KEY);
  if (!playground) throw new Error('usePlayground() outside <App>: the playground state is provided by App.svelte.');
  return playground;
}

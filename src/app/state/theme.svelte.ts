/** Which theme the page shows: the reader's explicit choice, or the system's when they made none. */
export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const STORAGE_KEY = 'flowplay.theme';
const CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

export class ThemeState {
  choice = $state<ThemeChoice>('system');
  #systemDark = $state(false);

  /** The theme in effect. */
  readonly theme: Theme = $derived(this.choice === 'system' ? (this.#systemDark ? 'dark' : 'light') : this.choice);

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null = globalThis.localStorage ?? null) {
    const saved = storage?.getItem(STORAGE_KEY);
    if (saved && (CHOICES as readonly string[]).includes(saved)) this.choice = saved as ThemeChoice;
    const query = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
    if (query) {
      this.#systemDark = query.matches;
      query.addEventListener('change', (event) => (this.#systemDark = event.matches));
    }
  }

  /** Light → dark → system → light: one button walks all three. */
  cycle(): void {
    const next = CHOICES[(CHOICES.indexOf(this.choice) + 1) % CHOICES.length]!;
    this.set(next);
  }

  set(choice: ThemeChoice): void {
    this.choice = choice;
    this.storage?.setItem(STORAGE_KEY, choice);
  }
}

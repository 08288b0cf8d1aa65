import hello from './hello.flow?raw';
import listenAndAnswer from './listen-and-answer.flow?raw';
import research from './research.flow?raw';
import shellPipeline from './shell-pipeline.flow?raw';

/** Where an example is meant to run: on the gateway (`flow_run`) or in this page. */
export type RunMode = 'gateway' | 'page';

export interface Example {
  id: string;
  title: string;
  summary: string;
  source: string;
  /** The flow of the source to run. */
  flow: string;
  mode: RunMode;
  /** Input values that make a first run work, by port. */
  inputs: Record<string, unknown>;
  /** Whether it needs the microphone (the menu says so; nothing starts it until Run). */
  microphone?: boolean;
  /** Whether it talks to a model (the LLM provider header matters). */
  model?: boolean;
}

export const examples: readonly Example[] = [
  {
    id: 'hello',
    title: 'Hello',
    summary: 'One input, one output, one pipe — the smallest flow.',
    source: hello,
    flow: 'hello',
    mode: 'page',
    inputs: { name: 'world' },
  },
  {
    id: 'listen-and-answer',
    title: 'Microphone → model',
    summary: 'Speak a sentence; the gateway recognises it and a model answers, word by word.',
    source: listenAndAnswer,
    flow: 'listen-and-answer',
    mode: 'gateway',
    inputs: { asr: {} },
    microphone: true,
    model: true,
  },
  {
    id: 'research',
    title: 'Research-style composition',
    summary: 'Read several files in parallel off the wire and have a model summarise them.',
    source: research,
    flow: 'summarise-files',
    mode: 'gateway',
    inputs: { dir: '/etc', limit: 3 },
    model: true,
  },
  {
    id: 'shell-pipeline',
    title: 'Shell pipelines',
    summary: 'Stream a command’s lines as they are printed; du | sort | head.',
    source: shellPipeline,
    flow: 'tick',
    mode: 'gateway',
    inputs: { count: 5 },
  },
];

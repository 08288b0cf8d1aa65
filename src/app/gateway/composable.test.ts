import { describe, expect, it } from 'vitest';
import { catalogueOf, freshStepName, readComposableActions, stepTemplate } from './composable';

const answer = [
  {
    action: 'shell_execute',
    description: 'Run a command.',
    runnable: true,
    inputs: [
      { port: 'command', type: 'text/plain', required: true, description: 'The command.' },
      { port: 'parameters', type: 'application/json' },
    ],
    outputs: [{ port: 'output_lines', type: 'text/plain', stream: true }],
  },
  {
    action: 'capture_audio',
    description: 'Record.',
    runnable: false,
    inputs: [
      { port: 'control_events', type: 'application/json;type=a11.sdk.AudioControlEvent', stream: true, required: true },
      { port: 'options', type: 'application/json;type=a11.sdk.AudioInputOptions', required: true },
    ],
    outputs: [
      { port: 'audio', type: 'application/x-msgpack;type=a11.sdk.AudioBuffer', stream: true },
      { port: 'events', type: 'application/json;type=a11.sdk.AudioCaptureEvent', stream: true },
    ],
  },
  { description: 'no name: skipped' },
];

describe('composable actions', () => {
  it('reads flow_actions, sorted, with stream and required marks', () => {
    const actions = readComposableActions(answer);
    expect(actions.map((action) => action.action)).toEqual(['capture_audio', 'shell_execute']);
    expect(actions[1]!.inputs).toEqual([
      { port: 'command', type: 'text/plain', stream: false, required: true, description: 'The command.' },
      { port: 'parameters', type: 'application/json', stream: false, required: false, description: '' },
    ]);
    expect(actions[0]!.outputs.every((port) => port.stream)).toBe(true);
    expect(readComposableActions({ actions: answer })).toHaveLength(2);
    expect(readComposableActions('nonsense')).toEqual([]);
  });

  it('gives the local compiler a catalogue of the same actions and ports', () => {
    const catalogue = catalogueOf(readComposableActions(answer));
    expect(catalogue.format).toBe('flow.catalogue/v1');
    const shell = catalogue.actions.find((action) => action.name === 'shell_execute')!;
    expect(shell.runnable).toBe(true);
    expect(shell.outputs).toEqual([{ name: 'output_lines', type: 'text/plain', description: '', required: false, unary: false }]);
  });

  it('inserts a step with the verb the gateway says and its required ports to fill in', () => {
    const [capture, shell] = readComposableActions(answer);
    expect(stepTemplate(shell!, 'flow x {}')).toBe('shell_execute = run shell_execute(command: ${command})\nskip shell_execute.output_lines');
    expect(stepTemplate(capture!, 'capture_audio = call capture_audio()')).toBe(
      'capture_audio2 = call capture_audio(control_events: ${control_events}, options: ${options})\n' +
        'skip capture_audio2.audio, capture_audio2.events',
    );
    expect(freshStepName('web-fetch', '')).toBe('web_fetch');
  });
});

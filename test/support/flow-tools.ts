/** What the flow tools' suites (flow_actions/flow_check, flow_run) share: a caller and its flows. */
import { flowCheckSchema } from '../../src/gateway/flow-tools/schemas.js';
import { listAudioInputsSchema } from '../../src/gateway/actions/audio/schemas.js';
import { ActionRegistry } from '../../src/wire/registry.js';
import type { Session } from '../../src/wire/session.js';
import { collectCall, startCall, type CallResult } from './actions.js';
import type { TestGateway } from './flowplay-gateway.js';

/** Two named flows: `shout` streams and takes a first value, `whisper` maps one value. */
export const SHOUT = `
flow shout {
  describe "Upper-cases words."
  in  words: string stream required "Words."
  out loud:  string stream "Upper-cased."
  out first: string "The first word, upper-cased."
  words | map upper(it) -> loud
  words | first 1 | map upper(it) -> first
}

flow whisper {
  in  word: string required
  out quiet: string
  word | map lower(it) -> quiet
}
`;

/** A caller that serves list_audio_inputs itself, so a flow has an action to `call` back on it. */
export function connectCaller(gateway: TestGateway): Promise<Session> {
  const registry = new ActionRegistry().register(listAudioInputsSchema, async (ctx) => {
    await ctx.write('inputs', { index: 0, name: 'the caller mic', host_api: 'test', max_input_channels: 1, max_output_channels: 0, default_sample_rate: 16000, is_default_input: true, is_default_output: false });
  });
  return gateway.connect({ registry });
}

export function checkFlow(client: Session, source: string, headers: Record<string, string> = {}): Promise<CallResult> {
  return collectCall(startCall(client, flowCheckSchema, { headers, inputs: { source: [source] } }));
}

/** Every log message of a call, one per line. */
export const logText = (result: CallResult): string => result.log.map((record) => String(record.message)).join('\n');

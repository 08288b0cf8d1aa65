import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechWav } from '../../../e2e/support/speech.js';
import { startTestGateway, type TestGateway } from '../../../test/support/flowplay-gateway.js';
import { REFERENCE_DIR, REFERENCE_MISSING, referencePath } from '../../../test/support/reference.js';
import { Chunk } from '../../wire/chunk.js';
import { ActionRegistry } from '../../wire/registry.js';
import type { Session } from '../../wire/session.js';
import { captureAudio } from '../actions/audio/handlers.js';
import { FileMicrophone } from '../actions/audio/microphone.js';
import { PocketsphinxBackend } from '../actions/audio/pocketsphinx.js';
import { captureAudioSchema } from '../actions/audio/schemas.js';
import { INTERACTION_TAG, interactionText, makeTextInteraction, parseInteraction } from '../actions/llm/interaction.js';
import { flowOutputNodeId, flowRunSchema } from '../flow-tools/schemas.js';

const FLOW = 'flows/vscode-plugin__flows__interact-on-full-sentence.flow';
const SENTENCE = 'what time is it';

const cannot =
  (REFERENCE_DIR ? undefined : REFERENCE_MISSING) ??
  (await new PocketsphinxBackend().unavailable()) ??
  (() => {
    try {
      execFileSync('espeak-ng', ['--version']);
      execFileSync('sox', ['--version']);
      return undefined;
    } catch {
      return 'espeak-ng and sox are needed to speak the sentence (scripts/install-test-deps.sh)';
    }
  })();

/**
 * The reference's microphone-to-model composition, on our gateway: the client serves
 * capture_audio from a WAV that espeak-ng spoke, the gateway transcribes it with pocketsphinx, and
 * the first full sentence goes to the echo provider. The sentence and the streamed reply arrive.
 */
describe.skipIf(!!cannot)(`interact-on-full-sentence.flow, microphone to model${cannot ? ` (${cannot})` : ''}`, () => {
  let gateway: TestGateway;
  let client: Session;
  let wav: string;

  beforeAll(async () => {
    gateway = await startTestGateway();
    wav = await speechWav(SENTENCE, { silenceSeconds: 3 });
    const registry = new ActionRegistry().register(captureAudioSchema, captureAudio(new FileMicrophone(wav)));
    client = await gateway.connect({ registry });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
  });

  it('hears the sentence and streams the reply back, with the turn to remember', async () => {
    const earlier = makeTextInteraction('Hello.', { systemPrompt: 'Answer briefly.' });
    const history = client.publish('mic-test-history');
    await history.put(Chunk.json(earlier, INTERACTION_TAG));
    history.close();

    const call = client.invoke(flowRunSchema, {
      id: 'mic-to-model-1',
      headers: new Map([
        ['x-a11-llm-provider', 'echo'],
        ['x-a11-deadline', String(Date.now() + 60_000)],
      ]),
    });
    const sentence = client.node(flowOutputNodeId(call.id, 'sentence')).reader();
    const reply = client.node(flowOutputNodeId(call.id, 'reply')).reader();
    const turn = client.node(flowOutputNodeId(call.id, 'turn')).collect();
    await call.input('source').finalize(Chunk.text(readFileSync(referencePath(FLOW), 'utf8')));
    await call.input('inputs').finalize(
      Chunk.json({
        asr: { words: [SENTENCE, 'hello', 'stop'] },
        device: { sample_rate: 16000, buffer_frames: 1600 },
        history: 'mic-test-history',
      }),
    );
    call.input('input_streams').close();
    call.input('flow').close();

    expect((await sentence.next())?.value).toBe('What time is it?');
    const tokens: string[] = [];
    for (let chunk = await reply.next(); chunk; chunk = await reply.next()) tokens.push(chunk.value as string);
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join('')).toBe('Echo: What time is it?');
    const status = await call.done;
    expect(status.toString()).toBe('OK');
    const remembered = (await turn).map((chunk) => parseInteraction(chunk.value));
    expect(remembered.map((interaction) => [interaction.role, interactionText(interaction)])).toEqual([
      ['user', 'What time is it?'],
      ['model', 'Echo: What time is it?'],
    ]);
  }, 90_000);
});

import { describe, expect, it } from 'vitest';
import { captureAudioSchema, captureTranscriptionSchema } from '../../gateway/actions/audio/schemas';
import { ActionRegistry } from '../../wire/registry';
import { registerCaptureActions } from './capture-actions';

// The gateway's catalogue test holds these schemas to the reference's catalogue; the page serves
// the very same objects, so a flow checked on the gateway finds every port it names here.
describe('capture actions served by the page', () => {
  it('registers the gateway’s own capture schemas, with handlers', () => {
    const registry = new ActionRegistry();
    registerCaptureActions(registry, async () => {
      throw new Error('no microphone in this test');
    }, { gateway: () => null });
    expect(registry.get('capture_audio')?.schema).toBe(captureAudioSchema);
    expect(registry.get('capture_transcription')?.schema).toBe(captureTranscriptionSchema);
    expect(registry.list().every((entry) => typeof entry.handler === 'function')).toBe(true);
  });
});

import { expect, test } from '@playwright/test';
import { setSource } from './support/page';
import { withSpeakingMicrophone } from './support/speech';

// The microphone feeding an open AudioBuffer input port (input_streams), in a flow run in the
// page whose `call` sends the audio to the gateway's transcribe_audio (pocketsphinx).
test('the microphone feeds an AudioBuffer input port and the gateway transcribes it', async ({ playwright }, testInfo) => {
  test.setTimeout(90_000);
  await withSpeakingMicrophone(playwright, 'hello streaming world', async (page) => {
    await setSource(
      page,
      `flow transcribe {
  in  audio: a11.sdk.AudioBuffer stream "What the microphone hears."
  in  asr:   object required
  out text:  string stream
  heard = call transcribe_audio(audio: audio, asr_options: asr)
  skip heard.events
  heard.transcription_pieces -> text
}
`,
    );
    await page.getByRole('radio', { name: 'In this page' }).check();
    await page.getByRole('checkbox', { name: /Feed from the microphone/ }).check();
    await page.getByRole('textbox', { name: /^asr/ }).fill('{"words": ["hello streaming world", "goodbye"]}');
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(page.getByRole('button', { name: /Mic live/ })).toBeVisible();
    await expect(page.locator('[data-port="text"]')).toContainText(/hello streaming world/i, { timeout: 45_000 });
    await page.getByRole('button', { name: 'Stop listening' }).click();
    await expect(page.getByText('Finished in')).toBeVisible({ timeout: 20_000 });

    await page.getByRole('tab', { name: /Inspector/ }).click();
    const ports = page.getByRole('list', { name: 'Ports of the run' });
    await expect(ports.getByText('audio', { exact: true })).toBeVisible();
    await expect(ports.getByText('transcribe_audio.transcription_pieces')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Values' }).getByRole('row').filter({ hasText: 'AudioBuffer' }).first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('microphone-input.png') });
  });
});

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectCall, startCall, type CallResult } from '../../../test/support/actions.js';
import { startTestGateway, type TestGateway } from '../../../test/support/flowplay-gateway.js';
import { SHOUT, connectCaller, logText } from '../../../test/support/flow-tools.js';
import { Chunk } from '../../wire/chunk.js';
import type { Session } from '../../wire/session.js';
import { Status, StatusCode } from '../../wire/status.js';
import { flowOutputNodeId, flowInputNodeId, flowRunSchema } from './schemas.js';

let gateway: TestGateway;
let client: Session;

beforeAll(async () => {
  gateway = await startTestGateway();
  client = await connectCaller(gateway);
});

afterAll(async () => {
  await gateway?.close();
});

function run(
  source: string,
  options: { inputs?: unknown; streams?: unknown; flow?: string; headers?: Record<string, string>; id?: string } = {},
): Promise<CallResult> {
  return collectCall(
    startCall(client, flowRunSchema, {
      ...(options.id ? { id: options.id } : {}),
      headers: options.headers ?? {},
      inputs: {
        source: [source],
        ...(options.inputs !== undefined ? { inputs: [options.inputs] } : {}),
        ...(options.streams !== undefined ? { input_streams: [options.streams] } : {}),
        ...(options.flow ? { flow: [options.flow] } : {}),
      },
    }),
  );
}

describe('flow_run', () => {
  it("runs the first named flow and returns its outputs: one value for a port, a list for a stream", async () => {
    const result = await run(SHOUT, { inputs: { words: ['one', 'two'] } });
    expect(result.status.toString()).toBe('OK');
    expect(result.outputs.result).toEqual([{ loud: ['ONE', 'TWO'], first: 'ONE' }]);
    expect(logText(result)).toContain('Ran the flow `shout`');
  });

  it('runs the flow named by the flow input; a bare value is a list of one', async () => {
    const result = await run(SHOUT, { flow: 'whisper', inputs: { word: 'HUSH' } });
    expect(result.outputs.result).toEqual([{ quiet: 'hush' }]);
    const missing = await run(SHOUT, { flow: 'shouting' });
    expect(missing.status.code).toBe(StatusCode.NOT_FOUND);
    expect(missing.status.message).toContain("'shouting'");
  });

  it('never runs an entry flow: the first named one runs, and a source with only an entry flow is refused', async () => {
    const entryFirst = `flow {\n  out exit_code: integer\n  0 -> exit_code\n}\n\nflow named {\n  out said: string\n  "named ran" -> said\n}\n`;
    const result = await run(entryFirst);
    expect(result.status.toString()).toBe('OK');
    expect(result.outputs.result).toEqual([{ said: 'named ran' }]);
    const onlyEntry = await run('flow {\n  out exit_code: integer\n  0 -> exit_code\n}\n');
    expect(onlyEntry.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(onlyEntry.status.message).toContain('no named flow');
  });

  it('refuses input ports the flow does not declare, named twice, or both given and left open', async () => {
    const undeclared = await run(SHOUT, { inputs: { wordz: ['x'] } });
    expect(undeclared.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(undeclared.status.message).toContain("no input port 'wordz'");
    const twice = await run(SHOUT, { streams: ['words', 'words'] });
    expect(twice.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(twice.status.message).toContain("names the port 'words' twice");
    const both = await run(SHOUT, { inputs: { words: ['a'] }, streams: ['words'] });
    expect(both.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(both.status.message).toContain("'words' is given a value in 'inputs' and also left open");
    const notAList = await run(SHOUT, { streams: 'words' });
    expect(notAList.status.code).toBe(StatusCode.INVALID_ARGUMENT);
  });

  it('leaves input_streams ports open for the caller and publishes outputs as they are written', async () => {
    const call = startCall(client, flowRunSchema, {
      id: 'live-1',
      inputs: { source: [SHOUT], input_streams: [['words']] },
    });
    const loud = client.node(flowOutputNodeId(call.id, 'loud')).reader();
    const words = client.publish(flowInputNodeId(call.id, 'words'));
    for (const word of ['alpha', 'beta']) {
      await words.put(Chunk.text(word));
      // Each answer arrives before the next word is sent: outputs are live, not collected.
      expect((await loud.next())?.value).toBe(word.toUpperCase());
    }
    words.close();
    const result = await collectCall(call);
    expect(result.status.toString()).toBe('OK');
    expect(result.outputs.result).toEqual([{ loud: ['ALPHA', 'BETA'], first: 'ALPHA' }]);
    expect(logText(result)).toContain('The caller filled words.');
  });

  it("shows the caller a teed run step's ports as they are written", async () => {
    const source = `
flow echoed {
  out said: string stream
  shell = run shell_execute(command: "echo one; echo two") tee id "teed-shell"
  shell.output_lines -> said
}
`;
    const teed = client.node('teed-shell#output_lines').reader();
    const result = await run(source);
    expect(result.status.toString()).toBe('OK');
    expect(result.outputs.result).toEqual([{ said: ['one', 'two'] }]);
    const seen: unknown[] = [];
    for (let chunk = await teed.next(); chunk !== undefined; chunk = await teed.next()) if (!chunk.isNull) seen.push(chunk.value);
    expect(seen).toEqual(['one', 'two']);
  });

  it('bounds a port the caller never closes by the deadline', async () => {
    const started = Date.now();
    const result = await run(SHOUT, { streams: ['words'], headers: { 'x-a11-deadline': String(Date.now() + 800) } });
    expect(result.status.code).toBe(StatusCode.DEADLINE_EXCEEDED);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("dispatches a call step back to the caller and gives the flow the caller's headers", async () => {
    const source = `
flow ask-caller {
  header "x-a11-test-tag" as tag
  out names: string stream
  out tagged: string
  mics = call list_audio_inputs()
  mics.inputs | map it.name -> names
  tag -> tagged
}`;
    const result = await run(source, { headers: { 'x-a11-test-tag': 'from-the-caller' } });
    expect(result.status.toString()).toBe('OK');
    expect(result.outputs.result).toEqual([{ names: ['the caller mic'], tagged: 'from-the-caller' }]);
  });

  it('narrates on the log only, never in the result', async () => {
    const source = `
flow narrated {
  in  n: string required
  out echoed: string
  n -> echoed
  logf "got %s" n after echoed
}`;
    const result = await run(source, { inputs: { n: 'x' } });
    expect(result.outputs.result).toEqual([{ echoed: 'x' }]);
    expect(logText(result)).toContain('got x');
  });

  it('kills what the flow started when its caller goes away, and the gateway carries on', async () => {
    const leaving = await gateway.connect();
    const marker = `sleep 7${Math.floor(Math.random() * 9000) + 1000}`;
    const source = `flow hang {\n  out lines: string stream\n  s = run shell_execute(command: "${marker}")\n  s.output_lines -> lines\n}\n`;
    startCall(leaving, flowRunSchema, { inputs: { source: [source] } });
    const running = () => execFileSync('ps', ['-A', '-o', 'args='], { encoding: 'utf8' }).includes(marker);
    for (let i = 0; i < 100 && !running(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running()).toBe(true);
    leaving.abort(new Status(StatusCode.CANCELLED, 'the caller left'));
    for (let i = 0; i < 100 && running(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running()).toBe(false);
    const still = await run(SHOUT, { inputs: { words: ['ok'] } });
    expect(still.outputs.result).toEqual([{ loud: ['OK'], first: 'OK' }]);
  });
});

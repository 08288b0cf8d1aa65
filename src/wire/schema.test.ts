import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Chunk } from './chunk.js';
import { LocalDispatcher } from './local-dispatcher.js';
import { portMediaType } from './media.js';
import { ActionRegistry } from './registry.js';
import { defineAction, port } from './schema.js';

describe('defineAction', () => {
  it('derives port schemas, JSON Schema and defaults from one declaration', () => {
    const schema = defineAction({
      name: 'greet',
      description: 'Greets.',
      inputs: { who: port.text({ required: true }), options: port.json(z.object({ loud: z.boolean() })) },
      outputs: { greetings: port.text({ stream: true }) },
    });
    expect(schema.inputs.map((p) => [p.name, p.type, p.unary, p.required])).toEqual([
      ['who', 'text/plain', true, true],
      ['options', 'application/json', true, false],
    ]);
    expect(schema.inputs[1]?.jsonSchema).toMatchObject({ type: 'object', properties: { loud: { type: 'boolean' } } });
    expect(schema.outputs[0]?.unary).toBe(false);
  });
});

describe('ports typed with a flow type name', () => {
  it('travel as text, bytes or JSON', () => {
    expect(portMediaType('string')).toBe('text/plain');
    expect(portMediaType('bytes')).toBe('application/octet-stream');
    expect(portMediaType('integer')).toBe('application/json');
    expect(portMediaType('list[string]')).toBe('application/json');
    expect(portMediaType('application/x-msgpack;type=a11.sdk.AudioBuffer')).toBe('application/x-msgpack;type=a11.sdk.AudioBuffer');
  });

  it('can be written by a handler with ctx.write', async () => {
    const count = defineAction({ name: 'count', description: 'Counts.', outputs: { n: { type: 'integer' } } });
    const call = new LocalDispatcher(new ActionRegistry().register(count, async (ctx) => ctx.write('n', 42))).invoke(count);
    const values = call.output('n').collect();
    expect((await call.done).toString()).toBe('OK');
    const [chunk] = await values;
    expect([chunk?.mimetype, chunk?.value, new TextDecoder().decode((chunk as Chunk).bytes)]).toEqual(['application/json', 42, '42']);
  });
});

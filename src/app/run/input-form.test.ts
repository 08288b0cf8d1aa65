import { describe, expect, it } from 'vitest';
import { collectInputs, inputFields, parseValue, textOf } from './input-form';

const fields = inputFields({
  name: { type: 'string', unary: true, required: true, description: 'Who.' },
  count: { type: 'integer', unary: true, required: false },
  ratio: { type: 'number', unary: true, required: false },
  loud: { type: 'bool', unary: true, required: false },
  words: { type: 'string', unary: false, required: false },
  options: { type: 'object', unary: true, required: false },
  items: { type: 'list[string]', unary: true, required: false },
  wait: { type: 'duration', unary: true, required: false },
  audio: { type: 'a11.sdk.AudioBuffer', unary: false, required: false },
  turn: { type: 'a11.sdk.Interaction', unary: true, required: false },
});
const field = (port: string) => fields.find((candidate) => candidate.port === port)!;

describe('inputs form', () => {
  it('gives each declared type its editor', () => {
    expect(fields.map((candidate) => [candidate.port, candidate.kind, candidate.stream])).toEqual([
      ['name', 'text', false],
      ['count', 'integer', false],
      ['ratio', 'number', false],
      ['loud', 'boolean', false],
      ['words', 'text', true],
      ['options', 'json', false],
      ['items', 'json', false],
      ['wait', 'duration', false],
      ['audio', 'audio', true],
      ['turn', 'json', false],
    ]);
  });

  it('parses and validates typed text', () => {
    expect(parseValue(field('count'), ' 3 ')).toEqual({ ok: true, value: 3 });
    expect(parseValue(field('count'), '3.5')).toEqual({ ok: false, error: 'a whole number is needed' });
    expect(parseValue(field('ratio'), 'abc')).toEqual({ ok: false, error: "'abc' is not a number" });
    expect(parseValue(field('options'), '{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseValue(field('options'), '[1]')).toMatchObject({ ok: false, error: expect.stringContaining('JSON object') });
    expect(parseValue(field('options'), '{oops')).toMatchObject({ ok: false, error: expect.stringContaining('not JSON') });
    expect(parseValue(field('items'), '["a"]')).toEqual({ ok: true, value: ['a'] });
    expect(parseValue(field('wait'), '1.5s')).toEqual({ ok: true, value: '1.5s' });
    expect(parseValue(field('wait'), '2')).toEqual({ ok: true, value: 2 });
    expect(parseValue(field('wait'), 'soon')).toMatchObject({ ok: false });
    expect(parseValue(field('turn'), '{"role": "user"}')).toEqual({ ok: true, value: { role: 'user' } });
  });

  it('collects values for flow_run: lists for streams, nothing for blank optional ports, open audio ports', () => {
    const collected = collectInputs(fields, {
      name: { texts: ['Ada'], fromMicrophone: false },
      count: { texts: [''], fromMicrophone: false },
      loud: { texts: ['false'], fromMicrophone: false },
      words: { texts: ['one', '', 'two'], fromMicrophone: false },
      audio: { texts: [], fromMicrophone: true },
    });
    expect(collected).toEqual({ values: { name: 'Ada', loud: false, words: ['one', 'two'] }, open: ['audio'], errors: {} });
  });

  it('says which port stops the form from being sent', () => {
    const collected = collectInputs(fields, { words: { texts: ['ok', ''], fromMicrophone: false }, ratio: { texts: ['x'], fromMicrophone: false } });
    expect(collected.errors).toEqual({ name: 'required', ratio: "'x' is not a number" });
    const stream = inputFields({ n: { type: 'integer', unary: false, required: false } });
    expect(collectInputs(stream, { n: { texts: ['1', 'two'], fromMicrophone: false } }).errors).toEqual({ n: "value 2: 'two' is not a number" });
  });

  it('writes values back as editable text', () => {
    expect(textOf(field('options'), { a: 1 })).toBe('{\n  "a": 1\n}');
    expect(textOf(field('count'), 3)).toBe('3');
  });
});

/**
 * The inputs form of a flow, derived from its declared `in` ports (the plan's `inputs`): which
 * editor each port gets, how its text becomes a value, and zod schemas that say what is wrong
 * with a value before anything is sent.
 */
import { z } from 'zod';
import { canonical } from '../../flow/vocabulary';

export type FieldKind = 'text' | 'integer' | 'number' | 'boolean' | 'duration' | 'json' | 'audio';

export interface PortDeclarationLike {
  type: string;
  unary: boolean;
  required: boolean;
  description?: string;
}

export interface InputField {
  port: string;
  kind: FieldKind;
  /** The type as the flow declares it. */
  type: string;
  stream: boolean;
  required: boolean;
  description: string;
  /** What one value must be. */
  schema: z.ZodType;
  /** What to show in an empty editor. */
  placeholder: string;
}

/** What the reader has typed for one port: one text per value (several for a stream). */
export interface InputDraft {
  texts: string[];
  /** For AudioBuffer ports: fed live from the microphone (left open with `input_streams`). */
  fromMicrophone: boolean;
}

const AUDIO_TAG = 'a11.sdk.AudioBuffer';
const DURATION = /^\d+(?:\.\d+)?(?:ns|us|ms|s|m|h)$/;

function kindOf(type: string): FieldKind {
  if (type === AUDIO_TAG) return 'audio';
  const base = canonical(type.split('[')[0] ?? type).trim();
  if (base === 'string' || base === 'text' || type.includes('/')) return 'text';
  if (base === 'integer' || base === 'int') return 'integer';
  if (base === 'number') return 'number';
  if (base === 'bool' || base === 'boolean') return 'boolean';
  if (base === 'duration') return 'duration';
  return 'json';
}

function schemaOf(kind: FieldKind, type: string): z.ZodType {
  switch (kind) {
    case 'text':
      return z.string();
    case 'integer':
      return z.number().int('a whole number is needed');
    case 'number':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'duration':
      return z.union([z.number().nonnegative(), z.string().regex(DURATION, 'a duration such as 1.5s, 300ms or 2m')]);
    case 'audio':
      return z.never();
    case 'json': {
      const base = canonical(type.split('[')[0] ?? type);
      if (base === 'object' || base === 'json') return z.record(z.string(), z.unknown(), 'a JSON object such as {"key": 1}');
      if (base === 'list' || base === 'array' || type.endsWith('[]')) return z.array(z.unknown(), 'a JSON list such as [1, 2]');
      return z.unknown();
    }
  }
}

const placeholders: Record<FieldKind, string> = {
  text: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: '',
  duration: 'e.g. 30s',
  json: 'JSON, e.g. {}',
  audio: '',
};

/** One form field per `in` port, in declaration order. */
export function inputFields(inputs: Record<string, PortDeclarationLike>): InputField[] {
  return Object.entries(inputs).map(([port, declared]) => {
    const kind = kindOf(declared.type);
    return {
      port,
      kind,
      type: declared.type,
      stream: !declared.unary,
      required: declared.required,
      description: declared.description ?? '',
      schema: schemaOf(kind, declared.type),
      placeholder: placeholders[kind],
    };
  });
}

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/** The value one typed text stands for, checked against the port's schema. */
export function parseValue(field: InputField, text: string): Parsed {
  let value: unknown = text;
  if (field.kind === 'integer' || field.kind === 'number') {
    const trimmed = text.trim();
    value = trimmed === '' ? Number.NaN : Number(trimmed);
    if (Number.isNaN(value)) return { ok: false, error: `'${text}' is not a number` };
  } else if (field.kind === 'boolean') {
    value = text === 'true';
  } else if (field.kind === 'duration') {
    value = /^\d+(?:\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : text.trim();
  } else if (field.kind === 'json') {
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { ok: false, error: `not JSON: ${(error as Error).message}` };
    }
  }
  const checked = field.schema.safeParse(value);
  if (!checked.success) return { ok: false, error: checked.error.issues.map((issue) => issue.message).join('; ') };
  return { ok: true, value: checked.data };
}

export interface CollectedInputs {
  /** For flow_run's `inputs`: a value per unary port, a list per stream port. */
  values: Record<string, unknown>;
  /** Ports left open for the page to write while the flow runs (`input_streams`). */
  open: string[];
  /** What is wrong, by port; empty when the form can be sent. */
  errors: Record<string, string>;
}

function blank(field: InputField, text: string): boolean {
  return field.kind !== 'boolean' && text.trim() === '';
}

/** Everything the form says, as flow_run wants it, or what stops it from being sent. */
export function collectInputs(fields: readonly InputField[], drafts: Record<string, InputDraft | undefined>): CollectedInputs {
  const collected: CollectedInputs = { values: {}, open: [], errors: {} };
  for (const field of fields) {
    const draft = drafts[field.port] ?? { texts: [], fromMicrophone: false };
    if (field.kind === 'audio') {
      if (draft.fromMicrophone) collected.open.push(field.port);
      else if (field.required) collected.errors[field.port] = 'an AudioBuffer port is fed from the microphone: switch it on';
      continue;
    }
    const texts = draft.texts.filter((text) => !blank(field, text));
    if (texts.length === 0) {
      if (field.required) collected.errors[field.port] = 'required';
      continue;
    }
    const values: unknown[] = [];
    for (const [index, text] of texts.entries()) {
      const parsed = parseValue(field, text);
      if (!parsed.ok) {
        collected.errors[field.port] = field.stream ? `value ${index + 1}: ${parsed.error}` : parsed.error;
        break;
      }
      values.push(parsed.value);
    }
    if (collected.errors[field.port]) continue;
    collected.values[field.port] = field.stream ? values : values[0];
  }
  return collected;
}

/** The text an editor shows for a value (examples and restored drafts). */
export function textOf(field: InputField, value: unknown): string {
  if (field.kind === 'json') return JSON.stringify(value, null, 2);
  return String(value);
}

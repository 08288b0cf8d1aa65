/**
 * Types only the host knows: a dotted registry tag such as `a11.sdk.Interaction`.
 *
 * A flow cannot import anything, so which tags exist is the host's decision: the gateway, the
 * browser or a test registers the types it serves, and `T{…}` / `x as T` validate into them.
 * A value of such a type is carried as a {@link HostValue}; {@link TaggedRecord} is the ordinary
 * one — a record that travels as JSON with its tag on the media type.
 */
import { Chunk } from '../../../wire/chunk.js';
import { Media, withTag } from '../../../wire/media.js';
import { StatusCode, StatusError } from '../../../wire/status.js';
import { lookup } from './access.js';
import { valuesEqual, truthy } from './compare.js';
import { compactJson } from './compact-json.js';
import { HostValue, kindOf, type FlowRecord, type Value } from './value.js';

export interface HostType {
  /** The tag, as a flow writes it: `a11.sdk.Interaction`. */
  readonly tag: string;
  /** Makes `value` a value of this type, or throws a StatusError (INVALID_ARGUMENT) saying why not. */
  coerce(value: Value): Value;
  /** Reads a chunk tagged with this type back into a value; the plain decoded value when absent. */
  fromChunk?(chunk: Chunk): Value;
}

/** The host types one run can use, by tag. */
export class HostTypes {
  readonly #types = new Map<string, HostType>();

  register(type: HostType): this {
    this.#types.set(type.tag, type);
    return this;
  }

  get(tag: string): HostType | undefined {
    return this.#types.get(tag);
  }

  tags(): string[] {
    return [...this.#types.keys()].sort();
  }
}

/** Nothing registered: casting to a tag is refused with the reference's words. */
export const NO_HOST_TYPES = new HostTypes();

export function unknownTypeError(tag: string): StatusError {
  return new StatusError(
    StatusCode.UNIMPLEMENTED,
    `Nothing here knows the type '${tag}'. A tag names a type a serialization registry has been told about, ` +
      `so the module defining it has to be imported where the flow runs.`,
  );
}

/** A record of a registered tag: reads like the record, travels as tagged JSON. */
export class TaggedRecord extends HostValue {
  constructor(
    readonly tag: string,
    readonly record: FlowRecord,
  ) {
    super();
  }

  text(): string {
    return compactJson(this.record);
  }

  truthy(): boolean {
    return truthy(this.record);
  }

  size(): number {
    return Object.keys(this.record).length;
  }

  field(name: string): Value {
    return lookup(this.record, name);
  }

  element(key: Value): Value {
    return lookup(this.record, key);
  }

  equals(other: HostValue): boolean {
    return other instanceof TaggedRecord && other.tag === this.tag && valuesEqual(this.record, other.record);
  }

  toChunk(): Chunk {
    return Chunk.fromBytes(withTag(Media.json, this.tag), new TextEncoder().encode(this.text()));
  }

  toJSON(): unknown {
    return this.record;
  }
}

/**
 * A host type that accepts any record (optionally checked by `validate`) and carries it as a
 * {@link TaggedRecord}: what a host registers for a type it knows the JSON shape of.
 */
export function taggedRecordType(tag: string, validate?: (record: FlowRecord) => FlowRecord): HostType {
  return {
    tag,
    coerce(value) {
      if (value instanceof TaggedRecord && value.tag === tag) return value;
      const record = value instanceof TaggedRecord ? value.record : value;
      if (kindOf(record) !== 'object') {
        throw new StatusError(StatusCode.INVALID_ARGUMENT, `${tag} is a record, and this is ${record === null ? 'nothing' : compactJson(record)}.`);
      }
      return new TaggedRecord(tag, validate ? validate(record as FlowRecord) : (record as FlowRecord));
    },
    fromChunk(chunk) {
      const decoded = chunk.value;
      return kindOf(decoded as Value) === 'object' ? new TaggedRecord(tag, decoded as FlowRecord) : (decoded as Value);
    },
  };
}

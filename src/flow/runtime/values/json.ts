/**
 * JSON both ways, as the language sees it.
 *
 * Written: `json.dumps(sort_keys=True)`'s spelling — sorted keys, `", "` and `": "` between
 * things, anything outside ASCII escaped — because a rendered record is part of what a flow
 * prints, and the reference prints exactly this.
 *
 * Read: a parser that keeps `2.0` a double and `2` an integer (JSON.parse cannot tell them
 * apart), and answers undefined rather than throwing on text that is not JSON.
 */
import { formatDouble, formatInteger } from './number-text.js';
import { double, kindOf, newRecord, type FlowRecord, type Value } from './value.js';

const HEX = '0123456789abcdef';

function escapeUnit(unit: number): string {
  return `\\u${HEX[(unit >> 12) & 15]}${HEX[(unit >> 8) & 15]}${HEX[(unit >> 4) & 15]}${HEX[unit & 15]}`;
}

/** A string as a JSON literal, escaped the way `json.dumps` escapes it (non-ASCII as `\uXXXX`). */
export function jsonString(text: string): string {
  let out = '"';
  let plain = 0;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit >= 0x20 && unit < 0x7f && unit !== 34 && unit !== 92) continue;
    out += text.slice(plain, at);
    plain = at + 1;
    switch (unit) {
      case 34:
        out += '\\"';
        break;
      case 92:
        out += '\\\\';
        break;
      case 10:
        out += '\\n';
        break;
      case 13:
        out += '\\r';
        break;
      case 9:
        out += '\\t';
        break;
      case 8:
        out += '\\b';
        break;
      case 12:
        out += '\\f';
        break;
      default:
        // Surrogate halves are already the pair `json.dumps` writes for an astral character.
        out += escapeUnit(unit);
    }
  }
  return `${out}${text.slice(plain)}"`;
}

/**
 * A value's JSON text. Values JSON has no spelling for (bytes, durations, instants, chunks,
 * host values) are written as the JSON string of their text, as the reference does.
 */
export function jsonText(value: Value, textOf: (value: Value) => string): string {
  switch (kindOf(value)) {
    case 'null':
      return 'null';
    case 'bool':
      return value ? 'true' : 'false';
    case 'integer':
      return formatInteger(value as number);
    case 'double': {
      const number = Number(value);
      if (Number.isNaN(number)) return 'NaN';
      if (!Number.isFinite(number)) return number > 0 ? 'Infinity' : '-Infinity';
      return formatDouble(number);
    }
    case 'string':
      return jsonString(value as string);
    case 'list':
      return `[${(value as readonly Value[]).map((item) => jsonText(item, textOf)).join(', ')}]`;
    case 'object': {
      const record = value as FlowRecord;
      const keys = Object.keys(record).sort(compareKeys);
      return `{${keys.map((key) => `${jsonString(key)}: ${jsonText(record[key]!, textOf)}`).join(', ')}}`;
    }
    default:
      return jsonString(textOf(value));
  }
}

/** Byte order of UTF-8, which for keys is what a sorted C++ map and Python's sort agree on. */
export function compareKeys(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

class JsonReader {
  at = 0;
  constructor(readonly text: string) {}

  fail(): never {
    throw new SyntaxError('not JSON');
  }

  space(): void {
    const text = this.text;
    while (this.at < text.length) {
      const unit = text.charCodeAt(this.at);
      if (unit === 32 || unit === 9 || unit === 10 || unit === 13) this.at++;
      else break;
    }
  }

  value(depth: number): Value {
    if (depth > 512) this.fail();
    this.space();
    const text = this.text;
    const letter = text[this.at];
    switch (letter) {
      case '{': {
        this.at++;
        const record = newRecord();
        this.space();
        if (text[this.at] === '}') {
          this.at++;
          return record;
        }
        for (;;) {
          this.space();
          if (text[this.at] !== '"') this.fail();
          const key = this.string();
          this.space();
          if (text[this.at++] !== ':') this.fail();
          record[key] = this.value(depth + 1);
          this.space();
          const next = text[this.at++];
          if (next === '}') return record;
          if (next !== ',') this.fail();
        }
      }
      case '[': {
        this.at++;
        const items: Value[] = [];
        this.space();
        if (text[this.at] === ']') {
          this.at++;
          return items;
        }
        for (;;) {
          items.push(this.value(depth + 1));
          this.space();
          const next = text[this.at++];
          if (next === ']') return items;
          if (next !== ',') this.fail();
        }
      }
      case '"':
        return this.string();
      case 't':
        return this.word('true', true);
      case 'f':
        return this.word('false', false);
      case 'n':
        return this.word('null', null);
      default:
        return this.number();
    }
  }

  word<T extends Value>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.at)) this.fail();
    this.at += word.length;
    return value;
  }

  number(): Value {
    const match = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.at, this.at + 400));
    if (!match) this.fail();
    this.at += match[0].length;
    const number = Number(match[0]);
    if (match[1] === undefined && match[2] === undefined && Number.isSafeInteger(number)) return number;
    return double(number);
  }

  string(): string {
    const text = this.text;
    this.at++;
    let out = '';
    let plain = this.at;
    for (;;) {
      if (this.at >= text.length) this.fail();
      const unit = text.charCodeAt(this.at);
      if (unit === 34) {
        out += text.slice(plain, this.at);
        this.at++;
        return out;
      }
      if (unit < 0x20) this.fail();
      if (unit !== 92) {
        this.at++;
        continue;
      }
      out += text.slice(plain, this.at);
      const escape = text[this.at + 1];
      this.at += 2;
      switch (escape) {
        case '"':
        case '\\':
        case '/':
          out += escape;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const hex = text.slice(this.at, this.at + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail();
          out += String.fromCharCode(parseInt(hex, 16));
          this.at += 4;
          break;
        }
        default:
          this.fail();
      }
      plain = this.at;
    }
  }
}

/** The value JSON text holds, or undefined when it is not JSON (a whole document, nothing after). */
export function parseJson(text: string): Value | undefined {
  const reader = new JsonReader(text);
  try {
    const value = reader.value(0);
    reader.space();
    return reader.at === text.length ? value : undefined;
  } catch {
    return undefined;
  }
}

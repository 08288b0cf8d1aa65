/**
 * What the reference lexer reports, found in one pass over the source: unterminated strings,
 * characters the language has no meaning for (`…` with its fix to `...`), duration units that
 * are not units, and numbers that are not numbers. These do not depend on where the parser is,
 * so they are read from the text rather than from the tree.
 */
import {
  ELLIPSIS,
  NEWLINE,
  isBlank,
  nameLength,
  punctuationLength,
  readNumber,
  readString,
  startsNumber,
  stringSource,
} from '../../../grammar/scan';
import { durationUnits } from '../vocabulary';
import { quoted, type Builder } from './builder';
import { numberValue } from './literals';

export function reportLexicalProblems(builder: Builder): void {
  const source = builder.source;
  const chars = stringSource(source);
  const units = Object.keys(durationUnits).join(', ');
  let at = 0;
  while (at < source.length) {
    const code = source.charCodeAt(at);
    if (code === NEWLINE || isBlank(code)) {
      at += 1;
    } else if (code === 35 /* # */) {
      const end = source.indexOf('\n', at);
      at = end < 0 ? source.length : end;
    } else if (code === 34 /* " */) {
      const shape = readString(chars, at);
      if (!shape.terminated) {
        builder.report(
          'flow.syntax.unterminated-string',
          shape.triple ? 'Unterminated """ string.' : 'Unterminated string.',
          { from: at, to: at + shape.length },
        );
      }
      at += shape.length;
    } else if (startsNumber(chars, at)) {
      const shape = readNumber(chars, at);
      const number = source.slice(at, at + shape.numberLength);
      if (!numberValue(number).valid) {
        builder.report('flow.form.bad-number', `Bad number ${quoted(number)}.`, { from: at, to: at + shape.numberLength });
      }
      if (shape.unitLength > 0) {
        const unit = source.slice(at + shape.numberLength, at + shape.length);
        if (!Object.hasOwn(durationUnits, unit)) {
          builder.report('flow.form.duration-unit', `Unknown duration unit ${quoted(unit)} (use ${units}).`, {
            from: at + shape.numberLength,
            to: at + shape.length,
          });
        }
      }
      at += shape.length;
    } else if (code === ELLIPSIS) {
      builder.report('flow.syntax.unexpected-character', "A spread is written '...'; '…' is not one.", { from: at, to: at + 1 }, 'error', [
        { label: "Write '...'", edits: [{ from: at, to: at + 1, text: '...' }] },
      ]);
      at += 1;
    } else {
      const name = nameLength(chars, at);
      if (name > 0) {
        at += name;
        continue;
      }
      const symbol = punctuationLength(chars, at);
      if (symbol > 0) {
        at += symbol;
        continue;
      }
      const width = code >= 0xd800 && code < 0xdc00 && at + 1 < source.length ? 2 : 1;
      builder.report('flow.syntax.unexpected-character', `Unexpected character ${quoted(source.slice(at, at + width))}.`, {
        from: at,
        to: at + width,
      });
      at += width;
    }
  }
}

/**
 * Where the cursor is, in the terms completion cares about, read from the text before it (the
 * syntax tree of half-typed code is mostly error recovery; the text is not): after `name.`,
 * after `run`/`call`, after a `|`, at an argument name inside `action(…)`, at a port's type, at
 * the start of a statement, or inside an expression.
 */
export type CursorContext =
  | { kind: 'member'; base: string; partial: string }
  | { kind: 'action'; partial: string }
  | { kind: 'stage'; partial: string }
  | { kind: 'argument'; action: string; partial: string; given: string[] }
  | { kind: 'type'; partial: string }
  | { kind: 'statement'; partial: string }
  | { kind: 'expression'; partial: string }
  | { kind: 'none' };

const NAME = String.raw`[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*(?:-[A-Za-z_$\d\u0080-\uffff][\w$\u0080-\uffff]*)*`;

/** Drops string literals and comments, keeping offsets (so brackets inside them do not count). */
function blankStringsAndComments(text: string): string {
  return text.replace(/"(?:[^"\\\n]|\\.)*"?|#[^\n]*/g, (match) => ' '.repeat(match.length));
}

/** The innermost `(` still open at the end of `text`, or -1. */
function openParen(text: string): number {
  let depth = 0;
  for (let at = text.length - 1; at >= 0; at--) {
    const char = text[at];
    if (char === ')' || char === ']' || char === '}') depth++;
    else if (char === '(' || char === '[' || char === '{') {
      if (depth === 0) return char === '(' ? at : -1;
      depth--;
    }
  }
  return -1;
}

/** The argument names already written at the top level of an argument list's text. */
function givenArguments(list: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let segment = '';
  const flush = () => {
    const match = new RegExp(`^\\s*(${NAME})\\s*:`).exec(segment);
    if (match?.[1]) names.push(match[1]);
    segment = '';
  };
  for (const char of list) {
    if ('([{'.includes(char)) depth++;
    if (')]}'.includes(char)) depth--;
    if (char === ',' && depth === 0) flush();
    else segment += char;
  }
  return names;
}

/** The context at the end of `before` (the document up to the cursor). */
export function cursorContext(before: string): CursorContext {
  const line = before.slice(before.lastIndexOf('\n') + 1);
  // In a comment, or in a string still open on this line: nothing to complete.
  const lineWithoutStrings = line.replace(/"(?:[^"\\\n]|\\.)*"/g, (match) => ' '.repeat(match.length));
  if (lineWithoutStrings.includes('#') || lineWithoutStrings.includes('"')) return { kind: 'none' };

  const text = blankStringsAndComments(before);
  let match = new RegExp(`\\b(?:in|out)\\s+${NAME}\\s*:\\s*(${NAME}(?:\\.${NAME})*\\.?)?$`).exec(text);
  if (match) return { kind: 'type', partial: match[1] ?? '' };
  match = new RegExp(`(${NAME})\\.(${NAME})?$`).exec(text);
  if (match?.[1]) return { kind: 'member', base: match[1], partial: match[2] ?? '' };
  match = new RegExp(`\\b(?:run|call|RUN|CALL)\\s+(${NAME}(?:\\.${NAME})*\\.?)?$`).exec(text);
  if (match) return { kind: 'action', partial: match[1] ?? '' };
  match = new RegExp(`\\|\\s*(?:try\\s+)?(${NAME})?$`).exec(text);
  if (match) return { kind: 'stage', partial: match[1] ?? '' };

  const paren = openParen(text);
  if (paren >= 0) {
    const head = new RegExp(`\\b(?:run|call|RUN|CALL)\\s+(${NAME}(?:\\.${NAME})*)\\s*$`).exec(text.slice(0, paren));
    const list = text.slice(paren + 1);
    const current = /(?:^|,)([^,]*)$/.exec(list)?.[1] ?? '';
    const atName = new RegExp(`^\\s*(${NAME})?$`).exec(current);
    if (head?.[1] && atName) {
      return { kind: 'argument', action: head[1], partial: atName[1] ?? '', given: givenArguments(list) };
    }
  }

  const word = new RegExp(`(${NAME})?$`).exec(text)?.[1] ?? '';
  const lineStart = text.slice(0, text.length - word.length).split('\n').pop() ?? '';
  if (/^\s*$/.test(lineStart) || /[{]\s*$/.test(lineStart)) return { kind: 'statement', partial: word };
  return { kind: 'expression', partial: word };
}

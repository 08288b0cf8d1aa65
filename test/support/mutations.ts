/**
 * Seeded mutations of flow sources, for the differential suite and `bench/agreement.ts`.
 *
 * Each mutation is one small, realistic mistake — a dropped or doubled token, a misspelt
 * keyword, stage, builtin, type or status code, swapped modifiers, an unbound name, a bad
 * duration, an unclosed string or bracket — applied at a random site of one source. The same
 * seed always gives the same mutations, so a failure can be reproduced and looked at.
 */

import { builtins, stages, statementWords, statusCodes, types } from '../../src/flow/vocabulary.js';

export type MutationKind =
  | 'drop-token'
  | 'duplicate-token'
  | 'misspell-keyword'
  | 'misspell-stage'
  | 'misspell-builtin'
  | 'misspell-type'
  | 'misspell-status-code'
  | 'swap-modifiers'
  | 'unbound-name'
  | 'bad-duration'
  | 'unclosed-string'
  | 'unclosed-bracket'
  | 'drop-line'
  | 'duplicate-line'
  | 'swap-lines'
  | 'flip-direction';

export const mutationKinds: readonly MutationKind[] = [
  'drop-token',
  'duplicate-token',
  'misspell-keyword',
  'misspell-stage',
  'misspell-builtin',
  'misspell-type',
  'misspell-status-code',
  'swap-modifiers',
  'unbound-name',
  'bad-duration',
  'unclosed-string',
  'unclosed-bracket',
  'drop-line',
  'duplicate-line',
  'swap-lines',
  'flip-direction',
];

export interface Mutation {
  /** Which source it came from. */
  origin: string;
  kind: MutationKind;
  /** What was changed, for a person reading a mismatch. */
  note: string;
  source: string;
}

/** A mutation as a named case of an agreement measure: `origin.flow [kind]`, with its note. */
export function mutationCase(mutation: Mutation): { name: string; kind: MutationKind; source: string; note: string } {
  return { name: `${mutation.origin} [${mutation.kind}]`, kind: mutation.kind, source: mutation.source, note: mutation.note };
}

/** A small, fast, seeded PRNG (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Token {
  kind: 'word' | 'number' | 'string' | 'punct' | 'comment';
  text: string;
  from: number;
  to: number;
}

const PUNCTUATION = ['...', '..', '->', '<-', '==', '!=', '<=', '>=', '|', '=', '<', '>', '+', '-', '.', ':', ',', '{', '}', '(', ')', '[', ']'];

/** A rough lexer: good enough to find sites, not a reference for the language. */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const c = source[at]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      at++;
      continue;
    }
    const start = at;
    if (c === '#') {
      while (at < source.length && source[at] !== '\n') at++;
      tokens.push({ kind: 'comment', text: source.slice(start, at), from: start, to: at });
      continue;
    }
    if (c === '"') {
      const triple = source.startsWith('"""', at);
      at += triple ? 3 : 1;
      while (at < source.length) {
        if (triple ? source.startsWith('"""', at) : source[at] === '"') {
          at += triple ? 3 : 1;
          break;
        }
        if (!triple && source[at] === '\n') break;
        if (source[at] === '\\') at++;
        at++;
      }
      tokens.push({ kind: 'string', text: source.slice(start, at), from: start, to: at });
      continue;
    }
    if (/[0-9]/.test(c)) {
      while (at < source.length && /[0-9.a-z]/.test(source[at]!) && !source.startsWith('..', at)) at++;
      tokens.push({ kind: 'number', text: source.slice(start, at), from: start, to: at });
      continue;
    }
    if (/[A-Za-z_$\u0080-\uffff]/.test(c)) {
      while (at < source.length && (/[A-Za-z0-9_$\u0080-\uffff]/.test(source[at]!) || (source[at] === '-' && /[A-Za-z_]/.test(source[at + 1] ?? '')))) at++;
      tokens.push({ kind: 'word', text: source.slice(start, at), from: start, to: at });
      continue;
    }
    const punct = PUNCTUATION.find((p) => source.startsWith(p, at)) ?? c;
    at += punct.length;
    tokens.push({ kind: 'punct', text: punct, from: start, to: at });
  }
  return tokens;
}

const typeNames = new Set(types.map((type) => type.name));
const stageNames = new Set(stages.map((stage) => stage.name));
const builtinNames = new Set(builtins.map((builtin) => builtin.name));
const keywordNames = new Set([...statementWords, 'flow', 'in', 'out', 'describe', 'header', 'else', 'parallel', 'after', 'timeout', 'via', 'tee', 'stream', 'required']);
const codeNames = new Set([...statusCodes, ...statusCodes.map((code) => code.toUpperCase())]);

/** A plausible typo: a letter dropped, doubled, swapped with its neighbour, or replaced. */
function misspell(word: string, random: () => number): string {
  const at = Math.floor(random() * word.length);
  const choice = Math.floor(random() * 4);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  switch (choice) {
    case 0:
      return word.length > 2 ? word.slice(0, at) + word.slice(at + 1) : `${word}x`;
    case 1:
      return word.slice(0, at + 1) + word[at] + word.slice(at + 1);
    case 2:
      return at + 1 < word.length ? word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2) : `${word}e`;
    default: {
      const letter = letters[Math.floor(random() * letters.length)]!;
      const replaced = word.slice(0, at) + letter + word.slice(at + 1);
      return replaced === word ? `${word}z` : replaced;
    }
  }
}

function replace(source: string, token: Token, text: string): string {
  return source.slice(0, token.from) + text + source.slice(token.to);
}

function pick<T>(items: readonly T[], random: () => number): T | undefined {
  return items.length ? items[Math.floor(random() * items.length)] : undefined;
}

/** One mutation of a kind at a random site, or null when the source has no such site. */
export function mutate(source: string, kind: MutationKind, random: () => number): { source: string; note: string } | null {
  const tokens = tokenize(source).filter((token) => token.kind !== 'comment');
  const previous = (token: Token) => tokens[tokens.indexOf(token) - 1];
  const next = (token: Token) => tokens[tokens.indexOf(token) + 1];
  switch (kind) {
    case 'drop-token': {
      const token = pick(tokens, random);
      return token ? { source: replace(source, token, ''), note: `dropped '${token.text}' at ${token.from}` } : null;
    }
    case 'duplicate-token': {
      const token = pick(tokens, random);
      return token ? { source: replace(source, token, `${token.text} ${token.text}`), note: `doubled '${token.text}' at ${token.from}` } : null;
    }
    case 'misspell-keyword':
    case 'misspell-stage':
    case 'misspell-builtin':
    case 'misspell-type':
    case 'misspell-status-code': {
      const sites = tokens.filter((token) => {
        if (token.kind !== 'word') return false;
        const before = previous(token);
        const after = next(token);
        switch (kind) {
          case 'misspell-keyword':
            return keywordNames.has(token.text);
          case 'misspell-stage':
            return stageNames.has(token.text) && (before?.text === '|' || before?.text === 'try');
          case 'misspell-builtin':
            return builtinNames.has(token.text) && after?.text === '(';
          case 'misspell-type':
            return typeNames.has(token.text) && (before?.text === ':' || before?.text === 'as' || before?.text === '[');
          default:
            return codeNames.has(token.text) && (before?.text === 'fail' || before?.text === 'abort' || previous(before ?? token)?.text === 'abort');
        }
      });
      const token = pick(sites, random);
      if (!token) return null;
      const spelled = misspell(token.text, random);
      return { source: replace(source, token, spelled), note: `'${token.text}' → '${spelled}' at ${token.from}` };
    }
    case 'swap-modifiers': {
      // A port modifier moved in front of the type, or two adjacent modifier words swapped.
      const modifiers = new Set(['stream', 'required', 'tee', 'unordered', 'desc']);
      const sites = tokens.filter((token) => token.kind === 'word' && modifiers.has(token.text));
      const token = pick(sites, random);
      if (!token) return null;
      const before = previous(token);
      if (!before || before.kind === 'punct') return null;
      const swapped = source.slice(0, before.from) + token.text + source.slice(before.to, token.from) + before.text + source.slice(token.to);
      return { source: swapped, note: `swapped '${before.text}' and '${token.text}' at ${before.from}` };
    }
    case 'unbound-name': {
      const sites = tokens.filter(
        (token) => token.kind === 'word' && !keywordNames.has(token.text) && !stageNames.has(token.text) && !builtinNames.has(token.text) && !typeNames.has(token.text) && previous(token)?.text !== '.' && next(token)?.text !== '(' && next(token)?.text !== ':',
      );
      const token = pick(sites, random);
      return token ? { source: replace(source, token, `${token.text}_unbound`), note: `renamed '${token.text}' at ${token.from}` } : null;
    }
    case 'bad-duration': {
      const sites = tokens.filter((token) => token.kind === 'number' && /[0-9](ns|us|ms|s|m|h)$/.test(token.text));
      const token = pick(sites, random);
      if (!token) return null;
      const broken = pick(['x', 'sec', 'd', 'mss', 'hr'], random)!;
      const text = token.text.replace(/(ns|us|ms|s|m|h)$/, broken);
      return { source: replace(source, token, text), note: `'${token.text}' → '${text}' at ${token.from}` };
    }
    case 'unclosed-string': {
      const sites = tokens.filter((token) => token.kind === 'string' && !token.text.startsWith('"""') && token.text.length >= 2 && token.text.endsWith('"'));
      const token = pick(sites, random);
      return token ? { source: replace(source, token, token.text.slice(0, -1)), note: `unclosed the string at ${token.from}` } : null;
    }
    case 'drop-line':
    case 'duplicate-line':
    case 'swap-lines': {
      // Whole statements: the mistakes that still parse, and leave the checker to find them.
      const lines = source.split('\n');
      const candidates = lines.map((line, index) => index).filter((index) => /^\s+\S/.test(lines[index]!) && !/^\s*#/.test(lines[index]!));
      const at = pick(candidates, random);
      if (at === undefined) return null;
      const changed = [...lines];
      if (kind === 'drop-line') changed.splice(at, 1);
      else if (kind === 'duplicate-line') changed.splice(at, 0, lines[at]!);
      else {
        const other = candidates[candidates.indexOf(at) + 1];
        if (other === undefined) return null;
        [changed[at], changed[other]] = [lines[other]!, lines[at]!];
      }
      return { source: changed.join('\n'), note: `${kind} at line ${at + 1}` };
    }
    case 'flip-direction': {
      const sites = tokens.filter((token) => token.kind === 'word' && (token.text === 'in' || token.text === 'out') && source.lastIndexOf('\n', token.from) >= source.lastIndexOf('{', token.from) && /^\s*$/.test(source.slice(source.lastIndexOf('\n', token.from) + 1, token.from)));
      const token = pick(sites, random);
      if (!token) return null;
      const flipped = token.text === 'in' ? 'out' : 'in';
      return { source: replace(source, token, flipped), note: `'${token.text}' → '${flipped}' at ${token.from}` };
    }
    case 'unclosed-bracket': {
      const sites = tokens.filter((token) => token.kind === 'punct' && (token.text === ')' || token.text === '}' || token.text === ']'));
      const token = pick(sites, random);
      return token ? { source: replace(source, token, ''), note: `dropped '${token.text}' at ${token.from}` } : null;
    }
  }
}

/**
 * `count` mutations spread over the kinds and the sources, from `seed`. A kind with no site in
 * the chosen source simply makes nothing that round; the kinds take turns.
 */
export function generateMutations(sources: readonly { name: string; source: string }[], count: number, seed: number): Mutation[] {
  const random = seededRandom(seed);
  const mutations: Mutation[] = [];
  const seen = new Set<string>();
  let attempts = 0;
  while (mutations.length < count && attempts < count * 50) {
    // Round-robin over the kinds by attempt, so a kind with few sites cannot stall the rest.
    const kind = mutationKinds[attempts % mutationKinds.length]!;
    attempts++;
    const origin = pick(sources, random);
    if (!origin) break;
    const made = mutate(origin.source, kind, random);
    if (!made || made.source === origin.source || seen.has(made.source)) continue;
    seen.add(made.source);
    mutations.push({ origin: origin.name, kind, note: made.note, source: made.source });
  }
  return mutations;
}

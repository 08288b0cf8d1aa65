import { describe, expect, it } from 'vitest';
import { cursorContext } from './context';

describe('cursor context', () => {
  it('knows a member access, even half typed', () => {
    expect(cursorContext('  sh.')).toEqual({ kind: 'member', base: 'sh', partial: '' });
    expect(cursorContext('  x -> model.inter')).toEqual({ kind: 'member', base: 'model', partial: 'inter' });
    expect(cursorContext('  web-fetch.te')).toEqual({ kind: 'member', base: 'web-fetch', partial: 'te' });
  });

  it('knows an action name after run or call', () => {
    expect(cursorContext('  sh = run ')).toEqual({ kind: 'action', partial: '' });
    expect(cursorContext('  mic = call capture_a')).toEqual({ kind: 'action', partial: 'capture_a' });
  });

  it('knows a stage after a pipe, with or without try', () => {
    expect(cursorContext('  x | ')).toEqual({ kind: 'stage', partial: '' });
    expect(cursorContext('  x | try ma')).toEqual({ kind: 'stage', partial: 'ma' });
  });

  it('knows an argument name inside an action’s parentheses, and which are given', () => {
    expect(cursorContext('  sh = run shell_execute(')).toEqual({ kind: 'argument', action: 'shell_execute', partial: '', given: [] });
    expect(cursorContext('  sh = run shell_execute(command: f("a,(b"), par')).toEqual({
      kind: 'argument',
      action: 'shell_execute',
      partial: 'par',
      given: ['command'],
    });
    expect(cursorContext('  m = run interact_with_llm(\n    interactions: x,\n    ')).toMatchObject({ kind: 'argument', given: ['interactions'] });
    // A value position is not an argument name.
    expect(cursorContext('  sh = run shell_execute(command: le')).toEqual({ kind: 'expression', partial: 'le' });
  });

  it('knows a type after a port declaration', () => {
    expect(cursorContext('  in name: str')).toEqual({ kind: 'type', partial: 'str' });
    expect(cursorContext('  in audio: a11.sdk.')).toEqual({ kind: 'type', partial: 'a11.sdk.' });
  });

  it('tells a statement start from an expression, and stays out of strings and comments', () => {
    expect(cursorContext('flow a {\n  sk')).toEqual({ kind: 'statement', partial: 'sk' });
    expect(cursorContext('  x = le')).toEqual({ kind: 'expression', partial: 'le' });
    expect(cursorContext('  "abc. de')).toEqual({ kind: 'none' });
    expect(cursorContext('  # see sh.')).toEqual({ kind: 'none' });
  });
});

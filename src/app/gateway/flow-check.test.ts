import { describe, expect, it } from 'vitest';
import { Status, StatusCode } from '../../wire/status';
import { placeRefusal } from './flow-check';

const source = 'flow a {\n  out x: string\n  s = run nope_action(q: 1)\n  s.y -> x\n}\n';

describe('placing the gateway’s refusal', () => {
  it('reads flow:L:C into the word at that place', () => {
    const problem = placeRefusal(source, new Status(StatusCode.INVALID_ARGUMENT, "flow:3:11: Unknown action 'nope_action'."));
    expect(problem).toEqual({ code: 'INVALID_ARGUMENT', message: "Unknown action 'nope_action'.", from: source.indexOf('nope_action'), to: source.indexOf('nope_action') + 11 });
  });

  it('marks the call that names a refused action', () => {
    const problem = placeRefusal(source, new Status(StatusCode.PERMISSION_DENIED, "This flow calls 'nope_action', which is not an action you are allowed to call."));
    expect(source.slice(problem.from, problem.to)).toBe('nope_action');
    expect(problem.code).toBe('PERMISSION_DENIED');
  });

  it('falls back to the first line', () => {
    expect(placeRefusal(source, new Status(StatusCode.UNAVAILABLE, 'gone'))).toMatchObject({ from: 0, to: 8 });
  });
});

import { describe, expect, it } from 'vitest';
import { compileFlow } from '../../flow/compile';
import { remoteLintDiagnostic, toLintDiagnostic } from './lint';

describe('diagnostics in the editor', () => {
  it('say line:column code message, keep UTF-16 offsets, and carry the compiler’s fixes', () => {
    const source = 'flow spread {\n  in  r: object\n  out x: object\n  {…r} -> x\n}\n';
    const [diagnostic] = compileFlow(source).diagnostics;
    const shown = toLintDiagnostic(diagnostic!);
    expect(shown.message).toBe(`4:4 flow.syntax.unexpected-character ${diagnostic!.message}`);
    expect(source.slice(shown.from, shown.to)).toBe('…');
    expect(shown.severity).toBe('error');
    expect(shown.actions?.map((action) => action.name)).toEqual([diagnostic!.fixes[0]!.label]);
  });

  it('place the gateway’s refusal with its position', () => {
    const source = 'flow a {\n  s = run nope()\n}\n';
    const shown = remoteLintDiagnostic({ code: 'NOT_FOUND', message: "No action 'nope'.", from: 19, to: 23 }, source);
    expect(shown.message).toBe("2:11 gateway NOT_FOUND No action 'nope'.");
  });
});

import { describe, expect, it } from 'vitest';
import { discoveryUrl, embeddedGatewayUrl, gatewayUrlProblem, hideTokens, takeLaunchToken, withoutToken } from './address';

function memory() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('gateway address', () => {
  it('takes the launch token out of the page address and keeps it for reloads', () => {
    const storage = memory();
    let address = 'http://127.0.0.1:8011/?token=abc123#flow=zxy';
    const location = { get href() { return address; } } as Location;
    const history = { state: null, replaceState: (_state: unknown, _title: string, url: string) => (address = url) } as unknown as History;
    expect(takeLaunchToken(location, history, storage)).toBe('abc123');
    expect(address).toBe('http://127.0.0.1:8011/#flow=zxy');
    expect(takeLaunchToken(location, history, storage)).toBe('abc123');
  });

  it('derives the embedded gateway from the page', () => {
    expect(embeddedGatewayUrl('http://127.0.0.1:8650/#flow=z', 'tok')).toBe('ws://127.0.0.1:8650/a11?token=tok');
    expect(embeddedGatewayUrl('https://example.test/x/', '')).toBe('wss://example.test/a11');
    expect(discoveryUrl('ws://127.0.0.1:8650/a11?token=tok')).toBe('http://127.0.0.1:8650/actions?token=tok');
  });

  it('hides the token on screen and explains a bad address', () => {
    expect(withoutToken('ws://h:1/a11?token=secret')).toBe('ws://h:1/a11?token=…');
    expect(gatewayUrlProblem('ws://127.0.0.1:8011/a11')).toBe('');
    expect(gatewayUrlProblem('http://127.0.0.1:8011/a11')).toMatch(/ws:\/\//);
    expect(gatewayUrlProblem('nonsense')).toMatch(/not a URL/);
  });

  it('hides every token quoted in a message, keeping the rest of it', () => {
    expect(hideTokens('Cannot connect to ws://127.0.0.1:8650/a11?token=ZmN7Cw1j-5M_16E: connection failed.')).toBe(
      'Cannot connect to ws://127.0.0.1:8650/a11?token=…: connection failed.',
    );
    expect(hideTokens("'ws://h/a11?x=1&token=s3cret&y=2' and (wss://g/a11?token=other)")).toBe("'ws://h/a11?x=1&token=…&y=2' and (wss://g/a11?token=…)");
    expect(hideTokens('no address here')).toBe('no address here');
  });
});

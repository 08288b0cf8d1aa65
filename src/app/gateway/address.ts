/**
 * Where the page's gateway is, and the token that lets the page in.
 *
 * `flowplay serve` prints the page's address with a per-launch `?token=`; the page presents the
 * same token on its WebSocket (`/a11?token=…`). The token is read once, kept in session storage
 * (so a reload still connects) and taken out of the address bar, so a copied or shared address
 * never carries it.
 */
export const TOKEN_PARAMETER = 'token';
const TOKEN_STORAGE_KEY = 'flowplay.token';
const GATEWAY_STORAGE_KEY = 'flowplay.gateway';
export const A11_PATH = '/a11';

type SessionStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Reads the launch token from the page address (removing it there) or from session storage. */
export function takeLaunchToken(location: Location, history: History, storage: SessionStore | null): string {
  const url = new URL(location.href);
  const fromAddress = url.searchParams.get(TOKEN_PARAMETER);
  if (fromAddress) {
    storage?.setItem(TOKEN_STORAGE_KEY, fromAddress);
    url.searchParams.delete(TOKEN_PARAMETER);
    history.replaceState(history.state, '', url.toString());
    return fromAddress;
  }
  return storage?.getItem(TOKEN_STORAGE_KEY) ?? '';
}

/** The embedded gateway's WebSocket: the page's own host, `/a11`, with the token. */
export function embeddedGatewayUrl(pageUrl: string, token: string): string {
  const url = new URL(A11_PATH, pageUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (token) url.searchParams.set(TOKEN_PARAMETER, token);
  return url.toString();
}

/** A URL with its token hidden, for showing on screen. */
export function withoutToken(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.searchParams.has(TOKEN_PARAMETER)) parsed.searchParams.set(TOKEN_PARAMETER, '…');
    return parsed.toString().replace(/%E2%80%A6/g, '…');
  } catch {
    return url;
  }
}

/**
 * A message with every `token=` value in it hidden: errors from below (the WebSocket adapter says
 * which address it could not reach) quote the address with its token, and the page shows them.
 */
export function hideTokens(text: string): string {
  return text.replace(new RegExp(`([?&]${TOKEN_PARAMETER}=)[^&#\\s'"():,;]+`, 'g'), '$1…');
}

/** Checks a gateway address the reader typed; returns the problem, or '' when it is usable. */
export function gatewayUrlProblem(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return `'${text}' is not a URL; a gateway address looks like ws://127.0.0.1:8011/a11.`;
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    return `A gateway is reached over WebSocket: the address starts with ws:// or wss://, not ${url.protocol}//.`;
  }
  return '';
}

/** The HTTP discovery endpoint beside a gateway's WebSocket (`GET /actions`), token kept. */
export function discoveryUrl(gatewayUrl: string): string {
  const url = new URL(gatewayUrl);
  url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  url.pathname = '/actions';
  return url.toString();
}

/** The gateway the reader chose last (empty: the embedded one). Never holds a token. */
export function savedGateway(storage: Pick<Storage, 'getItem'> | null): string {
  return storage?.getItem(GATEWAY_STORAGE_KEY) ?? '';
}

export function saveGateway(storage: Pick<Storage, 'setItem' | 'removeItem'> | null, url: string): void {
  if (!storage) return;
  if (url) storage.setItem(GATEWAY_STORAGE_KEY, url);
  else storage.removeItem(GATEWAY_STORAGE_KEY);
}

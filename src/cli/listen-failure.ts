/**
 * Why `flowplay serve` could not listen, as one line a person can act on. These are facts about
 * the machine (a port taken, an address this host does not have), not bugs, so they get a
 * sentence and an exit status rather than a stack trace.
 */
export function describeListenFailure(error: unknown, host: string, port: number): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is already in use (another flowplay serve?). Stop that program, or pick another port with --port N (--port 0 takes any free one).`;
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges). Pick another port with --port N.`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: this machine has no interface with that address. Give --host an address it has (127.0.0.1 by default).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${where}: '${host}' does not resolve to an address. Give --host an IP address or a name this machine resolves.`;
    default:
      return undefined;
  }
}

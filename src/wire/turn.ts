/**
 * Resolves after the event loop has had a turn (I/O, timers), not just after pending microtasks:
 * long enough for a producer that was just woken to write what it has, short enough not to add
 * noticeable latency. `setImmediate` in Node; a MessageChannel hop in browsers, whose timers are
 * clamped to 4 ms when nested.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => schedule(resolve));
}

const schedule: (callback: () => void) => void = (() => {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  if (typeof immediate === 'function') return (callback) => void immediate(callback);
  if (typeof MessageChannel === 'function') {
    const pending: (() => void)[] = [];
    const channel = new MessageChannel();
    channel.port1.onmessage = () => pending.shift()?.();
    return (callback) => {
      pending.push(callback);
      channel.port2.postMessage(null);
    };
  }
  return (callback) => void setTimeout(callback, 0);
})();

let counter = 0;

/** A fresh call id: valid as a wire name, unique within this process and very likely beyond. */
export function newCallId(prefix = 'call'): string {
  const random =
    typeof globalThis.crypto?.randomUUID === 'function'
      ? globalThis.crypto.randomUUID().replaceAll('-', '').slice(0, 16)
      : Math.random().toString(36).slice(2, 12);
  return `${prefix}_${random}_${(++counter).toString(36)}`;
}

// Relay global ids ("Type:uuid", base64), as the server's schema uses them on every input.
// Works in browsers and in Node (both have atob/btoa).
const toBase64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));
const fromBase64 = (s: string) => new TextDecoder().decode(Uint8Array.from(atob(s), (c) => c.charCodeAt(0)));

export function toGlobalId(typename: string, id: string): string {
  return toBase64(`${typename}:${id}`);
}

/** The type and raw id of a global id, or null when it is not one. */
export function fromGlobalId(globalId: string): { typename: string; id: string } | null {
  try {
    const decoded = fromBase64(globalId);
    const i = decoded.indexOf(':');
    return i > 0 ? { typename: decoded.slice(0, i), id: decoded.slice(i + 1) } : null;
  } catch {
    return null;
  }
}

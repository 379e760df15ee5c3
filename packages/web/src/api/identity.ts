/**
 * Who the person at this browser is. The UI writes as a human (role `user`);
 * the display name and an optional server token live in localStorage so
 * they survive reloads.
 */
export interface Identity {
  id: string;
  name: string;
  /** Bearer token for servers started with BATON_TOKEN; empty when none. */
  token: string;
}

const KEY = 'baton.identity';

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `web-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function loadIdentity(): Identity {
  try {
    const raw = localStorage.getItem(KEY);
    if (raw) {
      const parsed = JSON.parse(raw) as Partial<Identity>;
      if (typeof parsed.id === 'string' && parsed.id.length > 0) {
        return { id: parsed.id, name: typeof parsed.name === 'string' ? parsed.name : '', token: parsed.token ?? '' };
      }
    }
  } catch {
    // A corrupt entry is replaced below.
  }
  const fresh: Identity = { id: randomId(), name: '', token: '' };
  saveIdentity(fresh);
  return fresh;
}

export function saveIdentity(identity: Identity): void {
  localStorage.setItem(KEY, JSON.stringify(identity));
}

/** The identity headers of every REST request (packages/server/src/http/request-context.ts). */
export function identityHeaders(identity: Identity): Record<string, string> {
  const headers: Record<string, string> = { 'x-baton-actor': identity.id, 'x-baton-role': 'user', 'x-baton-runtime': 'web' };
  if (identity.name.trim()) headers['x-baton-actor-name'] = identity.name.trim();
  if (identity.token) headers.authorization = `Bearer ${identity.token}`;
  return headers;
}

/** Browsers cannot set headers on a WebSocket: the live feed takes the same identity as query parameters. */
export function identityQuery(identity: Identity): URLSearchParams {
  const query = new URLSearchParams({ actor: identity.id, role: 'user', runtime: 'web' });
  if (identity.name.trim()) query.set('actorName', identity.name.trim());
  if (identity.token) query.set('token', identity.token);
  return query;
}

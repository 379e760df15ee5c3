/** `/contexts/:id/:tab`: the context and tab a path names, or null for any other path. */
export function contextRoute(path: string): { contextId: string; tab: string | undefined } | null {
  const match = /^\/contexts\/([^/]+)(?:\/([a-z]+))?\/?$/.exec(path);
  if (!match?.[1]) return null;
  try {
    return { contextId: decodeURIComponent(match[1]), tab: match[2] };
  } catch {
    return null;
  }
}

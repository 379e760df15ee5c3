import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The web UI's files (packages/web, built by Vite into dist/web of this
 * package). From src/http and from dist/http alike, ../../dist/web is the
 * same directory.
 */
export const DEFAULT_WEB_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'web');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Paths that belong to the server's own surfaces: never answered with the UI. */
const RESERVED = ['/api/', '/mcp', '/yjs/', '/a2a', '/map', '/.well-known/', '/healthz'];

export interface WebAssets {
  /** The response for a GET/HEAD the API did not claim, or null to fall through to a 404. */
  serve(method: string, path: string): Promise<Response | null>;
}

/**
 * Serves the single-page UI: its hashed assets (cached for good) and
 * index.html for every other page path, so /contexts/:id/conversations
 * survives a reload (the UI routes in the browser).
 */
export function webAssets(root: string = DEFAULT_WEB_ROOT): WebAssets {
  const base = resolve(root);
  const index = join(base, 'index.html');
  return {
    async serve(method, path) {
      if (method !== 'GET' && method !== 'HEAD') return null;
      if (RESERVED.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix))) return null;
      if (!existsSync(index)) {
        return new Response('The web UI is not built: run `npm run build` (it builds packages/web into the server).\n', {
          status: 404,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        });
      }
      let decoded: string;
      try {
        decoded = decodeURIComponent(path);
      } catch {
        return null;
      }
      const file = normalize(join(base, decoded));
      // Never serve outside the UI's directory, whatever `..` the path carries.
      const inside = file.startsWith(base + sep);
      if (inside && extname(file) !== '' && (await isFile(file))) {
        const hashed = file.startsWith(join(base, 'assets') + sep);
        return fileResponse(file, method, hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      }
      if (decoded.startsWith('/assets/')) return null;
      return fileResponse(index, method, 'no-cache');
    },
  };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function fileResponse(path: string, method: string, cacheControl: string): Promise<Response> {
  const body = await readFile(path);
  const headers = {
    'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
    'content-length': String(body.byteLength),
    'cache-control': cacheControl,
    'x-content-type-options': 'nosniff',
  };
  return new Response(method === 'HEAD' ? null : body, { status: 200, headers });
}

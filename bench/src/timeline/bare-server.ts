import { serve } from '@hono/node-server';

/**
 * The HTTP ceiling the append benchmark is measured against: a bare
 * @hono/node-server handler that reads the body, JSON.parses it and answers
 * 201. Run as its own process, like `baton serve`; prints its URL.
 */
const server = serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (request) => {
      JSON.parse(await request.text());
      return new Response('{"ok":true}', { status: 201, headers: { 'content-type': 'application/json' } });
    },
  },
  (info) => process.stdout.write(`listening on http://127.0.0.1:${info.port}\n`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));

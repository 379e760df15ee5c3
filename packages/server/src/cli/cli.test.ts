import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, postgresFactory, tempDir } from '../test-support/databases.js';
import { assertBuilt, cleanEnv, runToEnd, type ServeProcess, startServe } from '../test-support/serve-process.js';

const TOKEN = 'test-token-0123456789abcdef';
const json = (reply: Response) => reply.json() as Promise<Record<string, unknown>>;

/** The real binary, as a user runs it: `node packages/server/dist/cli/main.js` (build first). */
describe('baton CLI', () => {
  const running: ServeProcess[] = [];
  const cleanups: (() => unknown)[] = [];
  const serve = async (...args: Parameters<typeof startServe>) => {
    const proc = await startServe(...args);
    running.push(proc);
    return proc;
  };
  const dataDir = () => {
    const tmp = tempDir('baton-cli-');
    cleanups.push(tmp.remove);
    return tmp.dir;
  };

  beforeAll(() => assertBuilt());
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop('SIGKILL')));
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('has --help on every command', async () => {
    const top = await runToEnd(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/^Usage: baton/);
    const commands = [...top.stdout.split('Commands:')[1]!.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1] as string);
    expect(commands).toEqual(expect.arrayContaining(['serve', 'migrate']));
    for (const command of commands.filter((c) => c !== 'help')) {
      const help = await runToEnd([command, '--help']);
      expect([command, help.code, help.stderr]).toEqual([command, 0, '']);
      expect(help.stdout).toMatch(new RegExp(`^Usage: baton ${command}`));
      expect(help.stdout).toContain('Options:');
    }
    const serveHelp = await runToEnd(['serve', '--help']);
    for (const flag of ['--port', '--host', '--data', '--db', '--token']) expect(serveHelp.stdout).toContain(flag);
  }, 60_000);

  it('serves, prints its URL, and stops cleanly on SIGTERM and on SIGINT with the data kept', async () => {
    const data = dataDir();
    const first = await serve(['--port', '0', '--data', data]);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.stdout()).toContain(`SQLite in ${data}`);
    expect(await (await fetch(`${first.url}/healthz`)).json()).toEqual({ ok: true, store: 'sqlite' });
    const created = await fetch(`${first.url}/api/v1/contexts`, { method: 'POST', body: JSON.stringify({ id: 'kept', title: 'kept' }) });
    expect(created.status).toBe(201);
    expect(await first.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(existsSync(join(data, 'baton.db'))).toBe(true);

    const second = await serve(['--port', '0', '--data', data]);
    expect(await json(await fetch(`${second.url}/api/v1/contexts/kept`))).toMatchObject({ title: 'kept' });
    expect(await second.stop('SIGINT')).toEqual({ code: 0, signal: null });
    expect(second.stderr()).not.toMatch(/error/i);
  });

  it('lets a request in flight finish when told to stop', async () => {
    const server = await serve(['--port', '0', '--data', dataDir()]);
    await fetch(`${server.url}/api/v1/contexts`, { method: 'POST', body: '{"id":"drain"}' });
    const body = Buffer.from(JSON.stringify({ kind: 'note', noteType: 'status', title: 'sent across a SIGTERM' }));
    const half = Math.floor(body.length / 2);
    const reply = new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/api/v1/contexts/drain/events`,
        { method: 'POST', headers: { 'content-length': body.length } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write(body.subarray(0, half));
      // The signal arrives while the body is half sent; the rest follows later.
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end(body.subarray(half)), 300);
      }, 200);
    });
    expect(await reply).toBe(201);
    const replied = performance.now();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    // Idle keep-alive connections do not hold the exit up to the grace period.
    expect(performance.now() - replied).toBeLessThan(2000);
  });

  it('keeps its data in ./.baton by default, or in $BATON_DATA', async () => {
    const cwd = dataDir();
    const byDefault = await serve(['--port', '0'], { cwd });
    expect(byDefault.stdout()).toContain(join(cwd, '.baton'));
    await byDefault.stop();
    expect(existsSync(join(cwd, '.baton', 'baton.db'))).toBe(true);

    const elsewhere = join(dataDir(), 'from-env');
    const fromEnv = await serve(['--port', '0'], { cwd, env: cleanEnv({ BATON_DATA: elsewhere }) });
    await fromEnv.stop();
    expect(existsSync(join(elsewhere, 'baton.db'))).toBe(true);
  });

  it('refuses to listen beyond loopback without a token, with a clear message', async () => {
    const result = await runToEnd(['serve', '--port', '0', '--host', '0.0.0.0', '--data', dataDir()]);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('listening');
    expect(result.stderr).toContain('refusing to listen on 0.0.0.0 without a token');
    expect(result.stderr).toContain('--token');
  });

  it('reports bad flags and settings in one line, without a stack trace', async () => {
    const short = await runToEnd(['serve', '--port', '0', '--token', 'short', '--data', dataDir()]);
    expect(short.code).toBe(1);
    expect(short.stderr.trim()).toBe('baton serve: --token must be at least 16 characters');
    const badPort = await runToEnd(['serve', '--port', '99999']);
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toContain('must be a port number from 0 to 65535');
    const badEnv = await runToEnd(['serve', '--data', dataDir()], { env: cleanEnv({ BATON_PORT: 'abc' }) });
    expect(badEnv.code).toBe(1);
    expect(badEnv.stderr).toMatch(/^baton serve: invalid environment: BATON_PORT .+\n$/);
    const badDb = await runToEnd(['migrate', '--db', 'mysql://localhost/x']);
    expect(badDb.code).toBe(1);
    expect(badDb.stderr.trim()).toBe('baton migrate: --db must be a postgres:// URL');
    for (const result of [short, badPort, badEnv, badDb]) expect(result.stderr).not.toContain('    at ');
  });

  it('says so when the port is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => blocker.close(resolve)));
    const port = (blocker.address() as { port: number }).port;
    const result = await runToEnd(['serve', '--port', String(port), '--data', dataDir()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('EADDRINUSE');
    expect(result.stderr).not.toContain('    at ');
  });

  it('enforces --token as bearer auth on the API', async () => {
    const server = await serve(['--port', '0', '--data', dataDir(), '--token', TOKEN]);
    const list = (headers: Record<string, string> = {}) => fetch(`${server.url}/api/v1/contexts`, { headers });
    const anonymous = await list();
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toContain('application/json');
    expect(await json(anonymous)).toMatchObject({ error: { code: 'unauthenticated' } });
    expect((await list({ authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await list({ authorization: TOKEN })).status).toBe(401);
    const rejectedWrite = await fetch(`${server.url}/api/v1/contexts`, { method: 'POST', body: '{"id":"sneaky"}' });
    expect(rejectedWrite.status).toBe(401);
    const allowed = await list({ authorization: `Bearer ${TOKEN}` });
    expect(allowed.status).toBe(200);
    expect(await json(allowed)).toMatchObject({ contexts: [] });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });

  it('migrates an SQLite data directory and then reports it up to date', async () => {
    const data = dataDir();
    const first = await runToEnd(['migrate', '--data', data]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^applied \d+ migration\(s\); schema is at \S+\n$/);
    expect(first.stderr).toContain('migrated');
    const again = await runToEnd(['migrate', '--data', data]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^schema is up to date at \S+\n$/);
  });

  describe.skipIf(postgresFactory().unavailable !== null)('with PostgreSQL', () => {
    it('migrates a PostgreSQL database and then reports it up to date', async () => {
      const db = await freshPostgresDatabase();
      cleanups.push(db.drop);
      expect((await runToEnd(['migrate', '--db', db.url])).stdout).toMatch(/^applied \d+ migration/);
      const again = await runToEnd(['migrate', '--db', db.url]);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/^schema is up to date at \S+\n$/);
    });

    it('serves from PostgreSQL with --db, and the data outlives the process', async () => {
      const db = await freshPostgresDatabase();
      cleanups.push(db.drop);
      const first = await serve(['--port', '0', '--db', db.url]);
      expect(first.stdout()).toContain('store: PostgreSQL');
      expect(first.stdout()).not.toContain(db.url);
      expect(await (await fetch(`${first.url}/healthz`)).json()).toEqual({ ok: true, store: 'postgres' });
      await fetch(`${first.url}/api/v1/contexts`, { method: 'POST', body: '{"id":"pg-ctx"}' });
      const appended = await fetch(`${first.url}/api/v1/contexts/pg-ctx/events`, {
        method: 'POST',
        body: JSON.stringify({ kind: 'note', noteType: 'status', title: 'from the CLI' }),
      });
      expect(appended.status).toBe(201);
      expect(await first.stop('SIGINT')).toEqual({ code: 0, signal: null });
      const second = await serve(['--port', '0'], { env: cleanEnv({ BATON_DB: db.url }) });
      const page = (await json(await fetch(`${second.url}/api/v1/contexts/pg-ctx/events`))) as { events: { title: string }[] };
      expect(page.events.map((e) => e.title)).toEqual(['from the CLI']);
      expect(await second.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    });
  });
});

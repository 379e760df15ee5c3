import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
const run = promisify(execFile);
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, startHubServer } from '../../packages/server/src/index.js';
const dir = mkdtempSync(join(tmpdir(), 'grp-'));
const server = await startHubServer({ dataDir: dir, databaseUrl: undefined, host: '127.0.0.1', port: 0, token: undefined, bodyLimit: 8 << 20 } as never, createLogger('warn'));
const store = server.store;
let writes = 0;
const orig = store.write.bind(store);
(store as { write: typeof store.write }).write = (fn) => { writes++; return orig(fn); };
const ctx = await (await fetch(`${server.url}/api/v1/contexts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"x"}' })).json() as { id: string };
const body = JSON.stringify({ kind: 'activity', activityType: 'agent_action', actor: { id: 'claude', name: 'Claude Code', runtime: 'claude-code' }, content: [{ type: 'text', text: 'x'.repeat(120) }] });
writeFileSync(join(dir, 'r.lua'), `wrk.method = "POST"\nwrk.headers["content-type"] = "application/json"\nwrk.body = [==[${body}]==]\n`);
for (const c of [32]) {
  writes = 0;
  const out = (await run('wrk', ['-t1', `-c${c}`, '-d8s', '-s', join(dir, 'r.lua'), `${server.url}/api/v1/contexts/${ctx.id}/events`])).stdout;
  const n = Number(/(\d+) requests in/.exec(out)?.[1]);
  console.log(`c=${c}: ${n} requests, ${writes} transactions, ${(n / writes).toFixed(1)} per tx;`, /Requests\/sec:\s+\S+/.exec(out)?.[0]);
}
await server.close();

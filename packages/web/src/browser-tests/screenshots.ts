/**
 * `npm run screenshots -w @baton/web`: the README's screenshots
 * (docs/screenshots/*.png), taken from a real hub with a seeded context in
 * headless Chromium. Needs the built UI (`npm run build`).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, startHub } from './harness.js';
import { Seeder, seedPipeline } from './seed.js';

const out = join(import.meta.dirname, '..', '..', '..', '..', 'docs', 'screenshots');
mkdirSync(out, { recursive: true });
const text = (t: string) => [{ type: 'text' as const, text: t }];

const server = await startHub();
const chrome = await launchChromium(server.hub.url);
try {
  const seeder = new Seeder(server.hub.url);
  const codex = { id: 'codex-7', name: 'Codex', runtime: 'codex' };
  await seeder.context('Billing export', 'CSV and Parquet export of invoices.');
  await seeder.context('Docs site', 'Move the docs to the new generator.');
  const context = await seeder.context('Auth rewrite', 'Replace password login with **OAuth** (Google, GitHub) and add token refresh.');
  const id = context.id;
  await seeder.event(id, {
    kind: 'activity',
    activityType: 'agent_action',
    content: text('Created the auth middleware scaffold in `src/auth/middleware.ts`'),
  });
  await seedPipeline(seeder, id);
  await seeder.event(id, { kind: 'activity', activityType: 'milestone', content: text('Middleware compiles; 14 tests pass') }, codex);
  await seeder.event(id, {
    kind: 'activity',
    activityType: 'blocker',
    content: text('OAuth library throws CORS errors in dev: `Access-Control-Allow-Origin` missing'),
  });
  await seeder.event(
    id,
    { kind: 'activity', activityType: 'decision', content: text('Keep sessions server-side; JWT only for the API') },
    codex,
  );
  await seeder.event(id, {
    kind: 'note',
    noteType: 'alert',
    title: 'Staging is down until 14:00',
    urgency: 'blocking',
    scope: 'space',
    tags: ['infra'],
  });
  await seeder.event(id, {
    kind: 'note',
    noteType: 'request',
    title: 'Review needed on #42',
    summary: 'The OAuth PR waits for a human review',
    urgency: 'attention',
  });
  await seeder.event(id, { kind: 'note', noteType: 'decision', title: 'Prefer small PRs', urgency: 'background', scope: 'global' });
  const a = await seeder.task(id, 'OAuth middleware');
  const b = await seeder.task(id, 'Token refresh');
  await seeder.task(id, 'Docs for the new login');
  await seeder.moveTask(a.id, 'working');
  await seeder.moveTask(b.id, 'working');
  await seeder.moveTask(b.id, 'input-required');
  await seeder.checkpoint({
    agentId: 'claude-code',
    sessionId: 'sess-4f2',
    label: 'Before the middleware refactor',
    contextId: id,
    metadata: { branch: 'feat/oauth', commit: '9c1e2ab', filesTouched: ['src/auth/middleware.ts', 'src/app.ts'], tokens: 48210 },
    artifacts: [{ name: 'transcript', content: 'user: add OAuth\nassistant: …' }],
  });

  const page = await chrome.browser.newPage();
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.emulateMedia({ colorScheme: 'light' });
  const shot = async (path: string, name: string, ready: string) => {
    await page.goto(server.hub.url + path);
    await page.locator(ready).first().waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(out, `${name}.png`) });
    console.log(`wrote docs/screenshots/${name}.png`);
  };
  await shot('/', 'contexts', '.context-card');
  await shot(`/contexts/${id}/overview`, 'overview', '.swimlanes svg');
  await shot(`/contexts/${id}/activity`, 'activity', '.feed article');
  await shot(`/contexts/${id}/conversations`, 'conversations', 'article.turn');
  await shot(`/contexts/${id}/conversations?phases=critique,execute&q=`, 'conversations-filtered', 'article.turn');
  await shot(`/contexts/${id}/notes`, 'notes', '.note');
  await shot(`/contexts/${id}/tasks`, 'tasks', '.task');
  await shot(`/contexts/${id}/checkpoints`, 'checkpoints', '.checkpoint');
} finally {
  await chrome.close();
  await server.close();
}

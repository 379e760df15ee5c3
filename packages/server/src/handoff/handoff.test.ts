import { type BatonError, countTokens, type NewEventInput } from '@baton/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatonClient } from '../client/baton-client.js';
import { type ApiHarness, startApiServer } from '../test-support/api-harness.js';
import { storeFactories } from '../test-support/databases.js';
import { assertBuilt, cleanEnv, runToEnd } from '../test-support/serve-process.js';

const text = (t: string) => [{ type: 'text' as const, text: t }];
const JAPANESE = '本番データベースの移行は金曜日の夜に行う';

/** One agent's long session: 400 turns, decisions, tasks, a blocker, and the clutter a real session leaves. */
async function longSession(agent: BatonClient): Promise<{ blockerId: string; taskIds: string[] }> {
  await agent.createContext({ id: 'plan', title: 'Release plan' });
  await agent.putState('user:claude-code-1:language', 'Japanese, short answers');
  await agent.putState('thread:plan:focus', 'Ship the events-table migration');
  const batch: NewEventInput[] = [];
  for (let i = 0; i < 400; i++) {
    batch.push({
      kind: 'turn',
      direction: i % 2 ? 'response' : 'prompt',
      phase: 'execute',
      content: text(
        i === 123 ? `決定: ${JAPANESE}。バックアップを先に取る。` : `Step ${i}: ran the test suite, ${i % 7} failures left to look at.`,
      ),
    });
  }
  for (let i = 0; i < 400; i += 200) await agent.appendEvents('plan', batch.slice(i, i + 200));
  // Clutter: many small discoveries, one huge one, an expired alert, a resolved blocker, a private note.
  await agent.appendEvents(
    'plan',
    Array.from({ length: 300 }, (_, i) => ({ kind: 'note' as const, noteType: 'discovery' as const, title: `Minor finding ${i}` })),
  );
  await agent.appendEvent('plan', {
    kind: 'note',
    noteType: 'discovery',
    title: 'Full schema dump',
    content: text('CREATE TABLE t (id int); '.repeat(20_000)),
  });
  await agent.appendEvent('plan', { kind: 'note', noteType: 'alert', title: 'Expired alert', urgency: 'blocking', ttlSeconds: 1 });
  const oldBlocker = await agent.appendEvent('plan', {
    kind: 'activity',
    activityType: 'blocker',
    content: text('Old blocker: CI was red'),
  });
  await agent.resolveBlocker(oldBlocker.id, 'CI fixed');
  await agent.appendEvent('plan', {
    kind: 'note',
    noteType: 'discovery',
    title: 'Private scratch thought',
    visibility: 'private',
    urgency: 'attention',
  });
  await agent.appendEvent('plan', {
    kind: 'note',
    noteType: 'decision',
    title: 'Use logical replication',
    summary: 'No downtime; the table is 1 TB',
  });
  await agent.appendEvent('plan', {
    kind: 'activity',
    activityType: 'decision',
    content: text('Migrate on Friday night: lowest traffic of the week'),
  });
  const blocker = await agent.appendEvent('plan', {
    kind: 'activity',
    activityType: 'blocker',
    content: text('Waiting for DBA approval of the replication slot'),
  });
  const a = await agent.createTask('plan', { title: 'Write the migration script', state: 'working' });
  const b = await agent.createTask('plan', { title: 'Dry-run on staging', requiredCapabilities: ['code_execution'] });
  await agent.createTask('plan', { title: 'Old finished task', state: 'completed' });
  await new Promise((r) => setTimeout(r, 1_100)); // let the 1 s alert expire
  return { blockerId: blocker.id, taskIds: [a.id, b.id] };
}

for (const factory of storeFactories()) {
  describe.skipIf(factory.unavailable !== null)(`handoff over HTTP: ${factory.name}`, () => {
    let api: ApiHarness;
    let first: BatonClient;
    let second: BatonClient;

    beforeEach(async () => {
      api = await startApiServer(factory);
      first = new BatonClient({ url: api.url, actor: { id: 'claude-code-1', name: 'Claude', runtime: 'claude-code', role: 'agent' } });
      second = new BatonClient({ url: api.url, actor: { id: 'openclaw-1', name: 'Claw', runtime: 'openclaw', role: 'agent' } });
    });
    afterEach(async () => {
      await api.close();
    });

    it('a second agent gets the open blocker, the last decisions and the active tasks first, within 2,000 tokens', {
      timeout: 60_000,
    }, async () => {
      const { blockerId, taskIds } = await longSession(first);
      const shared = await second.sharedContext('plan', { tokenBudget: 2_000, format: 'markdown' });
      expect(shared.totalTokens).toBeLessThanOrEqual(2_000);
      expect(countTokens(shared.rendering)).toBe(shared.totalTokens);
      expect(shared.blockedItems.map((i) => i.id)).toEqual([blockerId]);
      expect(shared.recentDecisions.map((i) => i.title)).toEqual([
        'Migrate on Friday night: lowest traffic of the week',
        'Use logical replication',
      ]);
      expect(shared.recentDecisions[1]?.detail).toContain('No downtime');
      expect(shared.activeTasks.map((t) => t.id).sort()).toEqual([...taskIds].sort());
      expect(shared.currentFocus[0]?.detail).toBe('Ship the events-table migration');
      expect(shared.identity.map((i) => i.detail)).toContain('Japanese, short answers');
      const md = shared.rendering;
      expect(md.indexOf('## Blocked')).toBeLessThan(md.indexOf('## Recent decisions'));
      expect(md).toContain('Waiting for DBA approval');
      for (const gone of ['Expired alert', 'Old blocker', 'Private scratch thought', 'Old finished task']) expect(md).not.toContain(gone);
      expect(Object.values(shared.omitted).reduce((x, y) => x + (y ?? 0), 0)).toBeGreaterThan(0);

      // The writer's own runtime still sees its private note.
      const own = await first.sharedContext('plan', { tokenBudget: 2_000 });
      expect(own.blockedItems.map((i) => i.title)).toContain('Private scratch thought');

      // Chat runtimes get short text, programs JSON; both within budget.
      const chat = await second.sharedContext('plan', { tokenBudget: 500 });
      expect(chat.format).toBe('text');
      expect(chat.rendering.startsWith('Shared context: Release plan\n')).toBe(true);
      expect(chat.totalTokens).toBeLessThanOrEqual(500);
      const json = await second.sharedContext('plan', { tokenBudget: 4_000, runtime: 'web' });
      expect(json.format).toBe('json');
      expect(JSON.parse(json.rendering).blocked[0].id).toBe(blockerId);
      expect(json.totalTokens).toBeLessThanOrEqual(4_000);
      const tiny = await second.sharedContext('plan', { tokenBudget: 50 });
      expect(tiny.totalTokens).toBeLessThanOrEqual(50);
      expect(tiny.blockedItems.map((i) => i.id)).toEqual([blockerId]);
    });

    it('baton search finds the Japanese phrase the first agent wrote', { timeout: 60_000 }, async () => {
      assertBuilt();
      await longSession(first);
      const run = await runToEnd(['search', '--url', api.url, '本番データベースの移行'], { env: cleanEnv() });
      expect(run.stderr).toContain('1 hit');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('«本番»«データベース»«の»«移行»');
      expect(run.stdout).toContain('plan #');
      const json = await runToEnd(['search', '--url', api.url, '--json', '-k', 'turn', '金曜日'], { env: cleanEnv() });
      expect(JSON.parse(json.stdout).hits[0].event.content[0].text).toContain(JAPANESE);
      const bad = await runToEnd(['search', '--url', api.url, '???'], { env: cleanEnv() });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('q: must contain at least one letter or digit');
    });

    it('records thread and task state changes on their timelines, and user or team state on none', async () => {
      await first.createContext({ id: 'state-log', title: 'State log' });
      const task = await first.createTask('state-log', { title: 'Tune the index' });
      await first.putState('thread:state-log:focus', 'the migration');
      await first.putState(`task:${task.id}:attempts`, 2);
      await first.putState('user:claude-code-1:tone', 'terse');
      await first.putState('team:style', { tabs: false });
      await first.deleteState('thread:state-log:focus');
      const page = await second.listEvents('state-log', { kind: 'activity', activityType: 'system_event' });
      const changes = page.events
        .map((e) => [
          e.kind === 'activity' ? e.content.find((b) => b.type === 'data' && 'stateKey' in (b.data as object)) : null,
          e.taskId,
          e.actor.id,
        ])
        .filter(([block]) => block);
      expect(changes).toEqual([
        [{ type: 'data', data: { stateKey: 'thread:state-log:focus', op: 'set', value: 'the migration' } }, null, 'claude-code-1'],
        [{ type: 'data', data: { stateKey: `task:${task.id}:attempts`, op: 'set', value: 2 } }, task.id, 'claude-code-1'],
        [{ type: 'data', data: { stateKey: 'thread:state-log:focus', op: 'delete' } }, null, 'claude-code-1'],
      ]);
      // The task's creation is on the timeline too; nothing else is.
      expect((await second.getContext('state-log')).eventCount).toBe(page.events.length);
      expect(page.events).toHaveLength(4);
    });

    it('routes a task to a runtime that has its capabilities and keeps it queued away from one that lacks them', async () => {
      await first.registerRuntime({ id: 'claude-code', capabilities: { code_execution: 'native', file_operations: 'native' } });
      await first.registerRuntime({ id: 'openclaw', capabilities: { code_execution: 'via-api', messaging: 'native' } });
      await first.registerRuntime({ id: 'web', capabilities: { messaging: 'via-api' } });
      await first.createContext({ id: 'work', title: 'Work' });
      const task = await first.createTask('work', { title: 'Refactor', requiredCapabilities: ['file_operations', 'code_execution'] });

      const { matches } = await second.matchRuntimes(task.id);
      expect(matches.filter((m) => m.capable).map((m) => m.runtime)).toEqual(['claude-code']);
      expect(matches.find((m) => m.runtime === 'openclaw')).toMatchObject({
        capable: false,
        missing: ['file_operations'],
        viaApi: ['code_execution'],
      });

      const refused = (await second.claimTask(task.id, 'openclaw').catch((e: unknown) => e)) as BatonError;
      expect(refused.code).toBe('conflict');
      expect(refused.message).toContain('lacks file_operations needed by task');
      expect(refused.message).toContain('queued for claude-code');
      expect((await second.getTask(task.id)).state).toBe('submitted');
      expect((await second.runtimeQueue('openclaw', 'work')).tasks).toEqual([]);
      expect((await first.runtimeQueue('claude-code', 'work')).tasks.map((t) => t.id)).toEqual([task.id]);

      const claimed = await first.claimTask(task.id, 'claude-code');
      expect(claimed.state).toBe('working');
      expect(claimed.metadata.runtime).toBe('claude-code');
      expect((await first.runtimeQueue('claude-code', 'work')).tasks).toEqual([]);
    });

    it('rejects bad handoff input with errors naming the field, storing nothing', async () => {
      await first.createContext({ id: 'c', title: 'C' });
      const before = await api.stored();
      const budget = await api.send('GET', '/api/v1/contexts/c/shared?tokenBudget=-1');
      expect(budget.status).toBe(400);
      expect(budget.body.error.details.issues?.[0]?.path).toBe('tokenBudget');
      const runtime = await api.send('POST', '/api/v1/runtimes', { json: { id: 'x', capabilities: { bash: 'sometimes' } } });
      expect(runtime.status).toBe(400);
      expect(runtime.body.error.details.issues?.[0]?.path).toBe('capabilities.bash');
      const key = await api.send('POST', '/api/v1/state/colour', { json: { value: 'blue' } });
      expect(key.status).toBe(400);
      expect(key.body.error.message).toContain('user:<userId>:<name>');
      const search = await api.send('GET', '/api/v1/search?q=x&limit=1000');
      expect(search.status).toBe(400);
      expect(search.body.error.details.issues?.[0]?.path).toBe('limit');
      expect(await api.stored()).toEqual(before);
      expect((await api.send('GET', '/api/v1/contexts/missing/shared')).status).toBe(404);
    });
  });
}

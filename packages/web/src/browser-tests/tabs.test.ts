import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, startHub } from './harness.js';
import { Seeder, seedPipeline } from './seed.js';

const text = (t: string) => [{ type: 'text' as const, text: t }];

describe.skipIf(!chromiumAvailable())('Notes, Tasks, Checkpoints and Overview in Chromium', () => {
  let server: Awaited<ReturnType<typeof startHub>>;
  let chrome: Awaited<ReturnType<typeof launchChromium>>;
  let seeder: Seeder;
  let contextId: string;
  let page: Page;
  const go = async (tab: string) => {
    await page.goto(`${server.hub.url}/contexts/${contextId}/${tab}`);
  };

  beforeAll(async () => {
    server = await startHub();
    chrome = await launchChromium(server.hub.url);
    seeder = new Seeder(server.hub.url);
    contextId = (await seeder.context('Release 2.0', 'Ship **OAuth** and the billing export.')).id;
    page = await chrome.browser.newPage();
  });
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  it('Notes: grouped by urgency, scopes filter, expired hidden, consume moves a note to Consumed', async () => {
    const note = (title: string, urgency: string, extra: Record<string, unknown> = {}) =>
      seeder.event(contextId, { kind: 'note', noteType: 'status', title, urgency, ...extra } as never);
    await note('Staging is down', 'blocking', { scope: 'space', noteType: 'alert', tags: ['infra'] });
    await note('Prefer small PRs', 'background', { scope: 'global', noteType: 'decision' });
    await note('Review needed on #42', 'attention', { noteType: 'request', summary: 'The auth PR waits for review' });
    await note('Old news', 'attention', { expiresAt: new Date(Date.now() - 60_000).toISOString() });
    await go('notes');
    const groupTitles = () =>
      page.locator('.note-group:not(.consumed) h3').evaluateAll((els) => els.map((e) => e.firstChild?.textContent?.trim()));
    await expect.poll(groupTitles).toEqual(['Blocking', 'Attention', 'Background']);
    expect(await page.getByRole('article', { name: 'Note: Old news' }).count()).toBe(0);
    expect(await page.getByRole('article', { name: 'Note: Review needed on #42' }).textContent()).toContain('The auth PR waits for review');

    await page.getByRole('group', { name: 'Scopes' }).getByRole('button', { name: 'Global' }).click();
    await expect.poll(groupTitles).toEqual(['Blocking', 'Attention']);
    await page.reload();
    await expect.poll(groupTitles).toEqual(['Blocking', 'Attention']);
    await page.getByRole('group', { name: 'Scopes' }).getByRole('button', { name: 'All' }).click();

    await page.getByRole('article', { name: 'Note: Staging is down' }).getByRole('button', { name: 'Consume' }).click();
    await expect.poll(groupTitles).toEqual(['Attention', 'Background']);
    await page.getByText('Consumed (1)').click();
    await expect.poll(() => page.getByRole('article', { name: 'Note: Staging is down' }).textContent()).toMatch(/Consumed by web-/);
  });

  it('Tasks: grouped by state, active first, updated live', async () => {
    const a = await seeder.task(contextId, 'Write OAuth middleware');
    const b = await seeder.task(contextId, 'Billing export');
    await seeder.task(contextId, 'Docs');
    await seeder.moveTask(a.id, 'working');
    await seeder.moveTask(b.id, 'working');
    await seeder.moveTask(b.id, 'completed');
    await go('tasks');
    const groups = () => page.locator('.task-group h3 .pill').allTextContents();
    await expect.poll(groups).toEqual(['Submitted', 'Working', 'Completed']);
    expect(await page.getByRole('region', { name: 'Working tasks' }).getByRole('article').allTextContents()).toEqual([
      expect.stringContaining('Write OAuth middleware'),
    ]);
    await seeder.moveTask(a.id, 'input-required');
    await expect.poll(groups).toEqual(['Submitted', 'Input required', 'Completed']);
  });

  it('Checkpoints: label, agent, metadata and artifacts', async () => {
    await seeder.checkpoint({
      agentId: 'claude-code',
      sessionId: 'sess-1',
      label: 'Before refactor',
      contextId,
      metadata: { branch: 'feat/oauth', commit: 'abc123', filesTouched: ['src/auth.ts', 'src/app.ts'] },
      artifacts: [{ name: 'transcript', mediaType: 'text/plain', content: 'hello transcript' }],
    });
    await go('checkpoints');
    const card = page.getByRole('article', { name: 'Checkpoint: Before refactor' });
    await card.waitFor();
    expect(await card.locator('.badge').textContent()).toBe('claude-code');
    expect(await card.locator('dt').allTextContents()).toEqual(['branch', 'commit', 'filesTouched']);
    expect(await card.locator('dd').first().textContent()).toBe('feat/oauth');
    expect(await card.locator('dd').nth(2).textContent()).toContain('"src/auth.ts"');
    const href = await card.getByRole('link', { name: 'transcript' }).getAttribute('href');
    const artifact = await fetch(server.hub.url + href);
    expect(await artifact.text()).toBe('hello transcript');
  });

  it('Overview: open blockers and active tasks first, usage charts per phase and agent, swimlanes', async () => {
    await seedPipeline(seeder, contextId);
    await seeder.event(contextId, { kind: 'activity', activityType: 'blocker', content: text('Need prod credentials') });
    await go('overview');
    const attention = page.getByRole('region', { name: 'Needs attention' });
    await expect.poll(() => attention.locator('h3').allTextContents()).toEqual(['Open blockers (1)', 'Active tasks (2)']);
    expect(await attention.textContent()).toContain('Need prod credentials');
    // Attention comes before the charts.
    const order = await page.locator('.overview > *').evaluateAll((els) => els.map((e) => e.className));
    expect(order.indexOf('attention')).toBeLessThan(order.indexOf('charts'));

    const tokensPerPhase = page.getByRole('img', { name: 'Tokens per phase' });
    expect(await tokensPerPhase.locator('.chart-label').allTextContents()).toEqual([
      'Plan',
      'Critique',
      'Adjudicate',
      'Review',
      'Execute',
      'Verify',
      'Triage',
    ]);
    // Plan: 1,200 + 800 + 1,100 + 650 tokens.
    expect(await tokensPerPhase.locator('.chart-value').first().textContent()).toBe('3,750');
    const costPerAgent = page.getByRole('img', { name: 'Cost per agent' });
    expect(await costPerAgent.locator('.chart-label').first().textContent()).toBe('executor');
    expect(await costPerAgent.locator('.chart-value').first().textContent()).toBe('$0.0500');
    const lanes = page.getByRole('img', { name: "Timeline of each agent's activity" });
    const laneLabels = await lanes.locator('.chart-label').allTextContents();
    expect(laneLabels).toEqual(expect.arrayContaining(['claude-planner', 'codex-critic', 'executor', 'Claude Code']));
    expect(await lanes.locator('.mark-blocker').count()).toBe(1);
  });
});

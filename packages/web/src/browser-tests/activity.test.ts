import type { ActivityEvent } from '@baton/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, startHub } from './harness.js';
import { Seeder } from './seed.js';

const text = (t: string) => [{ type: 'text' as const, text: t }];

describe.skipIf(!chromiumAvailable())('Activity tab in Chromium', () => {
  let server: Awaited<ReturnType<typeof startHub>>;
  let chrome: Awaited<ReturnType<typeof launchChromium>>;
  let seeder: Seeder;
  let contextId: string;
  let blocker: ActivityEvent;
  let page: Page;
  const codex = { id: 'codex-7', name: 'Codex', runtime: 'codex' };

  const feedTexts = async () =>
    (await page.getByRole('list', { name: 'Activity feed' }).locator('article .markdown').allTextContents()).map((t) => t.trim());

  beforeAll(async () => {
    server = await startHub();
    chrome = await launchChromium(server.hub.url);
    seeder = new Seeder(server.hub.url);
    contextId = (await seeder.context('Auth rewrite')).id;
    await seeder.event(contextId, { kind: 'activity', activityType: 'agent_action', content: text('Created auth middleware scaffold') });
    await seeder.event(contextId, { kind: 'activity', activityType: 'milestone', content: text('Middleware compiles') }, codex);
    blocker = (await seeder.event(contextId, {
      kind: 'activity',
      activityType: 'blocker',
      content: text('OAuth library throws CORS errors in dev'),
    })) as ActivityEvent;
    page = await chrome.browser.newPage();
    await page.goto(`${server.hub.url}/contexts/${contextId}/activity`);
    await page.getByRole('list', { name: 'Activity feed' }).locator('article').nth(2).waitFor();
  });
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  it('shows the feed newest first, with open blockers pinned and standing out', async () => {
    expect(await feedTexts()).toEqual([
      'OAuth library throws CORS errors in dev',
      'Middleware compiles',
      'Created auth middleware scaffold',
    ]);
    const pinned = page.getByRole('region', { name: 'Open blockers' });
    expect(await pinned.locator('article').count()).toBe(1);
    expect(await pinned.locator('article').getAttribute('class')).toContain('open-blocker');
    const background = await pinned.locator('article').evaluate((e) => getComputedStyle(e).backgroundColor);
    const plain = await page.getByRole('article', { name: 'Milestone by Codex' }).evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(background).not.toBe(plain);
  });

  it('shows a new entry live, without a reload', async () => {
    await seeder.event(contextId, { kind: 'activity', activityType: 'decision', content: text('Use trustHost in dev') }, codex);
    await expect.poll(async () => (await feedTexts())[0]).toBe('Use trustHost in dev');
  });

  it('filters by type and by actor, kept in the URL across a reload', async () => {
    const types = page.getByRole('group', { name: 'Activity types' });
    await types.getByRole('button', { name: /^Agent action/ }).click();
    await types.getByRole('button', { name: /^Blocker/ }).click();
    await expect.poll(feedTexts).toEqual(['Use trustHost in dev', 'Middleware compiles']);
    await page.getByLabel('Actor').selectOption({ label: 'Claude Code' });
    await expect.poll(feedTexts).toEqual([]);
    await types.getByRole('button', { name: 'All' }).click();
    await expect.poll(feedTexts).toEqual(['OAuth library throws CORS errors in dev', 'Created auth middleware scaffold']);
    await page.getByLabel('Actor').selectOption({ label: 'Codex' });
    await types.getByRole('button', { name: /^Decision/ }).click();
    await expect.poll(feedTexts).toEqual(['Middleware compiles']);
    const url = new URL(page.url());
    expect(url.searchParams.get('actor')).toBe('codex-7');
    await page.reload();
    await expect.poll(feedTexts).toEqual(['Middleware compiles']);
    expect(await page.getByLabel('Actor').inputValue()).toBe('codex-7');
    await page.goto(`${server.hub.url}/contexts/${contextId}/activity`);
    await expect.poll(async () => (await feedTexts()).length).toBe(4);
  });

  it('resolves a blocker, and everyone sees who resolved it', async () => {
    const other = await chrome.browser.newPage();
    await other.goto(`${server.hub.url}/contexts/${contextId}/activity`);
    await other.getByRole('region', { name: 'Open blockers' }).waitFor();

    await page.getByRole('region', { name: 'Open blockers' }).getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Open blockers' }).count()).toBe(0);
    const entry = page.locator(`article[data-event-id="${blocker.id}"]`);
    await expect.poll(() => entry.locator('.resolved').textContent()).toMatch(/^Resolved by web-[0-9a-f]+/);
    // The other page learns of it over the live feed.
    await expect.poll(() => other.getByRole('region', { name: 'Open blockers' }).count()).toBe(0);
    await expect.poll(() => other.locator(`article[data-event-id="${blocker.id}"] .resolved`).count()).toBe(1);
    await other.close();
    const [stored] = await seeder.list(contextId, '&activityType=blocker');
    expect(stored?.kind === 'activity' && stored.resolved).toBe(true);
  });

  it('posts human feedback on an event, as the person named in the identity menu, for agents to read', async () => {
    await page.getByRole('button', { name: /Set your name|You:/ }).click();
    await page.getByLabel('Display name').fill('Ada');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'You: Ada' }).count()).toBe(1);

    const milestone = page.getByRole('article', { name: 'Milestone by Codex' });
    await milestone.getByRole('button', { name: 'Give feedback' }).click();
    await milestone.getByLabel('Feedback on this entry').fill('Please add a test for the refresh path.');
    await milestone.getByRole('button', { name: 'Send feedback' }).click();
    await expect.poll(async () => (await feedTexts())[0]).toBe('Please add a test for the refresh path.');
    const posted = page.getByRole('article', { name: 'Human feedback by Ada' });
    expect(await posted.locator('.thread-parent').textContent()).toContain('Milestone by Codex — Middleware compiles');

    // What an agent reading the context (REST, as MCP does through the hub) gets.
    const [feedback] = await seeder.list(contextId, '&activityType=human_feedback');
    const target = (await seeder.list(contextId, '&activityType=milestone'))[0]!;
    expect(feedback).toMatchObject({
      kind: 'activity',
      activityType: 'human_feedback',
      parentId: target.id,
      refs: [target.id],
      actor: { name: 'Ada', role: 'user', runtime: 'web' },
      content: [{ type: 'text', text: 'Please add a test for the refresh path.' }],
    });

    // General feedback, about nothing in particular.
    await page.getByLabel('Post feedback to the agents').fill('Ship it by Friday.');
    await page.getByRole('button', { name: 'Send feedback' }).first().click();
    await expect.poll(async () => (await feedTexts())[0]).toBe('Ship it by Friday.');
  });
});

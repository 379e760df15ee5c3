import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, startHub } from './harness.js';
import { Seeder } from './seed.js';

describe('the web UI is served by baton serve', () => {
  let server: Awaited<ReturnType<typeof startHub>>;
  beforeAll(async () => {
    server = await startHub();
  });
  afterAll(() => server.close());

  it('serves index.html at / and for every page path, assets with long caching, and keeps JSON 404s for the API', async () => {
    const root = await fetch(`${server.hub.url}/`);
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toContain('text/html');
    const html = await root.text();
    expect(html).toContain('<div id="root">');

    const deep = await fetch(`${server.hub.url}/contexts/abc/conversations?phases=plan`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(html);

    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const js = await fetch(server.hub.url + asset);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect(js.headers.get('cache-control')).toContain('immutable');

    const missingAsset = await fetch(`${server.hub.url}/assets/nope.js`);
    expect(missingAsset.status).toBe(404);
    const traversal = await fetch(`${server.hub.url}/%2e%2e/%2e%2e/package.json`);
    expect(await traversal.text()).toBe(html);

    const api = await fetch(`${server.hub.url}/api/v1/nothing-here`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});

describe.skipIf(!chromiumAvailable())('contexts list and navigation in Chromium', () => {
  let server: Awaited<ReturnType<typeof startHub>>;
  let chrome: Awaited<ReturnType<typeof launchChromium>>;
  let seeder: Seeder;
  let page: Page;
  beforeAll(async () => {
    server = await startHub();
    chrome = await launchChromium(server.hub.url);
    seeder = new Seeder(server.hub.url);
  });
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  it('lists contexts most recent first, searches them, and keeps counts live', async () => {
    const older = await seeder.context('Auth rewrite', 'OAuth for the API');
    const newer = await seeder.context('Billing export');
    await seeder.event(older.id, { kind: 'activity', activityType: 'agent_action', content: [{ type: 'text', text: 'started' }] });
    await seeder.event(newer.id, { kind: 'activity', activityType: 'agent_action', content: [{ type: 'text', text: 'started' }] });

    page = await chrome.browser.newPage();
    await page.goto(`${server.hub.url}/`);
    const cards = page.locator('.context-card .context-title');
    await expect.poll(() => cards.allTextContents()).toEqual(['Billing export', 'Auth rewrite']);

    // A new event moves its context to the top and bumps its count, without a reload.
    await seeder.event(older.id, { kind: 'activity', activityType: 'milestone', content: [{ type: 'text', text: 'done' }] });
    await expect.poll(() => cards.allTextContents()).toEqual(['Auth rewrite', 'Billing export']);
    await expect.poll(() => page.locator('.context-card').first().getByTestId('event-count').textContent()).toBe('2 events');

    // A context created after the page loaded appears.
    const third = await seeder.context('Docs site');
    await seeder.event(third.id, { kind: 'activity', activityType: 'agent_action', content: [{ type: 'text', text: 'hello' }] });
    await expect.poll(() => cards.allTextContents()).toContain('Docs site');

    // Server-side search, kept in the URL across a reload.
    await page.getByLabel('Search contexts').fill('oauth');
    await expect.poll(() => cards.allTextContents()).toEqual(['Auth rewrite']);
    expect(new URL(page.url()).searchParams.get('q')).toBe('oauth');
    await page.reload();
    await expect.poll(() => cards.allTextContents()).toEqual(['Auth rewrite']);
    expect(await page.getByLabel('Search contexts').inputValue()).toBe('oauth');
  });

  it('opens a context at a tab with its own URL, and a reload restores that tab', async () => {
    const context = await seeder.context('Tabs check');
    await page.goto(`${server.hub.url}/`);
    await page.getByRole('link', { name: /Tabs check/ }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/contexts/${context.id}/overview`);
    for (const tab of ['Activity', 'Conversations', 'Notes', 'Tasks', 'Checkpoints']) {
      await page.getByRole('link', { name: tab, exact: true }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/contexts/${context.id}/${tab.toLowerCase()}`);
      await page.reload();
      await expect.poll(() => page.locator('.tab[aria-current="page"]').textContent()).toBe(tab);
    }
    await page.goBack();
    await expect.poll(() => page.locator('.tab[aria-current="page"]').textContent()).toBe('Tasks');
  });
});

import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, startHub } from './harness.js';
import { Seeder } from './seed.js';

/**
 * Events are listed with their content cut to a preview (GET …/events?preview=N):
 * a 5 MB turn costs the first screen a few kilobytes. "Show full" loads it
 * (GET /events/:id), and the copy actions copy the whole content.
 */
const LINE = 'A long tool output line that goes on and on, repeated to make a 5 MB turn.\n';
const BIG = `${LINE.repeat(Math.ceil((5 * 1024 * 1024) / LINE.length))}THE END OF THE BIG TURN`;
const BIG_LINES = BIG.split('\n').length;

describe.skipIf(!chromiumAvailable())('content previews in Chromium', () => {
  let server: Awaited<ReturnType<typeof startHub>>;
  let chrome: Awaited<ReturnType<typeof launchChromium>>;
  let seeder: Seeder;
  let contextId: string;
  let bigId: string;
  let page: Page;
  const status = () => page.getByRole('status').textContent();
  /** The clipboard's length and whether it holds `marker`, read in the page (5 MB does not need to cross the wire). */
  const clipboardHas = (marker: string) =>
    page.evaluate(async (m) => {
      const text = await navigator.clipboard.readText();
      return { length: text.length, has: text.includes(m) };
    }, marker);
  const hasText = (selector: string, marker: string) =>
    page.locator(selector).evaluate((el, m) => el.textContent?.includes(m) ?? false, marker);

  beforeAll(async () => {
    server = await startHub();
    chrome = await launchChromium(server.hub.url);
    seeder = new Seeder(server.hub.url);
    contextId = (await seeder.context('Big output')).id;
    await seeder.event(contextId, {
      kind: 'turn',
      direction: 'prompt',
      phase: 'execute',
      speaker: 'planner',
      content: [{ type: 'text', text: 'Run the build.' }],
    });
    bigId = (
      await seeder.event(contextId, {
        kind: 'turn',
        direction: 'response',
        phase: 'execute',
        speaker: 'executor',
        content: [{ type: 'text', text: BIG }],
      })
    ).id;
    await seeder.event(contextId, {
      kind: 'note',
      noteType: 'status',
      title: 'Build log',
      content: [{ type: 'text', text: `${'log line\n'.repeat(2000)}END OF THE LOG` }],
    });
    page = await chrome.browser.newPage();
  });
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  it('lists a 5 MB turn as a preview: kilobytes on the wire, the start on screen, its full size on "Show full"', async () => {
    const listings: Response[] = [];
    page.on('response', (r) => {
      if (/\/api\/v1\/contexts\/[^/]+\/events\?/.test(r.url())) listings.push(r);
    });
    await page.goto(`${server.hub.url}/contexts/${contextId}/conversations`);
    await expect.poll(() => page.locator('[aria-live="polite"]').first().textContent()).toBe('2 of 2 turns');
    const bytes = await Promise.all(listings.map(async (r) => (await r.body()).length));
    expect(bytes.reduce((a, b) => a + b, 0)).toBeLessThan(50_000);
    expect(listings.every((r) => new URL(r.url()).searchParams.has('preview'))).toBe(true);

    const big = page.locator(`article[data-turn-id="${bigId}"]`);
    expect(await big.textContent()).toContain(LINE.trim());
    expect(await hasText(`article[data-turn-id="${bigId}"]`, 'THE END OF THE BIG TURN')).toBe(false);
    await expect
      .poll(() => big.getByRole('button', { name: /^Show full/ }).textContent())
      .toBe(`Show full (${BIG_LINES.toLocaleString('en-US')} lines)`);
  });

  it('copies the whole 5 MB turn as markdown, loading it first', async () => {
    const big = page.locator(`article[data-turn-id="${bigId}"]`);
    const loaded = page.waitForResponse((r) => r.url().endsWith(`/api/v1/events/${bigId}`));
    await big.getByRole('button', { name: /Copy turn #\d+ as markdown/ }).click();
    await loaded;
    await expect.poll(status).toMatch(/Copied turn #\d+ as markdown/);
    const copied = await clipboardHas('THE END OF THE BIG TURN');
    expect(copied.has).toBe(true);
    expect(copied.length).toBeGreaterThan(BIG.length);
    // Loaded whole now, and still shown cut until asked.
    expect(await hasText(`article[data-turn-id="${bigId}"]`, 'THE END OF THE BIG TURN')).toBe(false);
  });

  it('shows the whole turn on "Show full", and the start again on "Show less"', async () => {
    await page.reload();
    await expect.poll(() => page.locator('[aria-live="polite"]').first().textContent()).toBe('2 of 2 turns');
    const big = page.locator(`article[data-turn-id="${bigId}"]`);
    const loaded = page.waitForResponse((r) => r.url().endsWith(`/api/v1/events/${bigId}`));
    await big.getByRole('button', { name: /^Show full/ }).click();
    await loaded;
    await expect.poll(() => hasText(`article[data-turn-id="${bigId}"]`, 'THE END OF THE BIG TURN'), { timeout: 20_000 }).toBe(true);
    await big.getByRole('button', { name: 'Show less' }).click();
    await expect.poll(() => hasText(`article[data-turn-id="${bigId}"]`, 'THE END OF THE BIG TURN')).toBe(false);
    await expect.poll(() => big.getByRole('button', { name: /^Show full/ }).count()).toBe(1);
  });

  it('copies the whole thread with every turn in full', async () => {
    await page.reload();
    await expect.poll(() => page.locator('[aria-live="polite"]').first().textContent()).toBe('2 of 2 turns');
    await page.getByRole('button', { name: 'Copy whole thread as markdown' }).click();
    await expect.poll(status).toBe('Copied the whole thread as markdown');
    const copied = await clipboardHas('THE END OF THE BIG TURN');
    expect(copied.has).toBe(true);
    expect(await clipboardHas('Run the build.')).toMatchObject({ has: true });
  });

  it('cuts a long note in the Notes tab, with "Show full" loading the rest', async () => {
    await page.goto(`${server.hub.url}/contexts/${contextId}/notes`);
    const note = page.getByRole('article', { name: 'Note: Build log' });
    await expect.poll(() => note.getByRole('button', { name: /^Show full/ }).textContent()).toBe('Show full (2,001 lines)');
    expect(await note.textContent()).not.toContain('END OF THE LOG');
    await note.getByRole('button', { name: /^Show full/ }).click();
    await expect.poll(() => note.textContent()).toContain('END OF THE LOG');
    expect(await note.getByRole('button', { name: /^Show full/ }).count()).toBe(0);
  });
});

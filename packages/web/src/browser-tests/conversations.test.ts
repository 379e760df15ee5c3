import type { Event } from '@baton/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, startHub } from './harness.js';
import { Seeder, seedPipeline } from './seed.js';

describe.skipIf(!chromiumAvailable())('Conversations tab in Chromium', () => {
  let server: Awaited<ReturnType<typeof startHub>>;
  let chrome: Awaited<ReturnType<typeof launchChromium>>;
  let seeder: Seeder;
  let contextId: string;
  let turns: Event[];
  let page: Page;
  let longId: string;

  const turnCards = () => page.locator('article.turn');
  const speakers = () => page.locator('article.turn .speaker').allTextContents();
  const groups = () => page.locator('.phase-group').evaluateAll((els) => els.map((e) => e.firstChild?.textContent ?? ''));
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  beforeAll(async () => {
    server = await startHub();
    chrome = await launchChromium(server.hub.url);
    seeder = new Seeder(server.hub.url);
    const context = await seeder.context('Dual-plan run');
    contextId = context.id;
    turns = await seedPipeline(seeder, contextId);
    page = await chrome.browser.newPage();
    // Tall enough that the virtualized list renders every turn of this small thread.
    await page.setViewportSize({ width: 1280, height: 4000 });
    await page.goto(`${server.hub.url}/contexts/${contextId}/conversations`);
    await page
      .locator('article.turn')
      .nth(turns.length - 1)
      .waitFor();
  });
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  it('groups turns by phase in time order, with every phase as a chip, all on', async () => {
    expect(await groups()).toEqual(['Plan', 'Critique', 'Adjudicate', 'Review', 'Execute', 'Verify', 'Triage']);
    expect(await speakers()).toEqual([
      'claude-planner',
      'codex-planner',
      'codex-critic',
      'claude-critic',
      'adjudicator',
      'reviewer',
      'reviewer',
      'executor',
      'verifier',
      'triager',
    ]);
    const chips = page.getByRole('group', { name: 'Phases' }).locator('button.chip');
    expect(await chips.evaluateAll((els) => els.map((e) => e.firstChild?.textContent))).toEqual([
      'Plan',
      'Review',
      'Execute',
      'Verify',
      'Revision',
      'Critique',
      'Adjudicate',
      'Triage',
    ]);
    expect(await chips.evaluateAll((els) => els.every((e) => e.getAttribute('aria-pressed') === 'true'))).toBe(true);
  });

  it('shows speaker, phase, model, tokens and cost, with — where the provider did not say', async () => {
    const reviewer = page.locator('article.turn', { hasText: 'Approved.' });
    expect(await reviewer.locator('.speaker').textContent()).toBe('reviewer');
    expect(await reviewer.locator('.phase').textContent()).toBe('Review');
    expect(await reviewer.locator('.model').textContent()).toBe('claude-opus-4');
    expect(await reviewer.locator('.turn-usage').textContent()).toMatch(/in 400\s*out —\s*cost —/);
    const planner = page.locator('article.turn', { hasText: 'Plan A' }).first();
    expect(await planner.locator('.turn-usage').textContent()).toMatch(/in 1,200\s*out 800\s*cost \$0\.0156/);
    // Speaker badges are colored by provider: the two anthropic speakers share a color, openai differs.
    const color = (name: string) =>
      page
        .locator('article.turn .speaker', { hasText: name })
        .first()
        .evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(await color('claude-planner')).toBe(await color('claude-critic'));
    expect(await color('claude-planner')).not.toBe(await color('codex-planner'));
  });

  it('renders markdown with highlighted code, and shows thinking, tool use and tool results distinctly', async () => {
    const planner = page.locator('article.turn', { hasText: 'Plan A' }).first();
    expect(await planner.locator('.markdown h2').textContent()).toBe('Plan A');
    expect(await planner.locator('pre code.language-ts .hljs-keyword').first().textContent()).toBe('export');
    const executor = page.locator('article.turn', { hasText: 'read_file' });
    expect(await executor.getByRole('region', { name: 'Thinking' }).textContent()).toContain('I should read the middleware first.');
    expect(await executor.getByRole('region', { name: 'Tool use read_file' }).textContent()).toContain('"path": "src/auth/middleware.ts"');
    expect(await executor.getByRole('region', { name: 'Tool result' }).textContent()).toContain('export function auth() {}');
  });

  it('cuts content over 30 lines with "Show full", and collapses a turn', async () => {
    const verifier = page.getByRole('article', { name: 'verifier · Verify · response' });
    expect(await verifier.textContent()).toContain('check line 30');
    expect(await verifier.textContent()).not.toContain('check line 31');
    await verifier.getByRole('button', { name: /Show full \(45 lines\)/ }).click();
    await expect.poll(() => verifier.textContent()).toContain('check line 45');
    await verifier.getByRole('button', { name: 'Show less' }).click();
    await verifier.getByRole('button', { name: 'Collapse' }).click();
    await expect.poll(() => verifier.locator('.turn-content').count()).toBe(0);
    await verifier.getByRole('button', { name: 'Expand' }).click();
    await expect.poll(() => verifier.locator('.turn-content').count()).toBe(1);
  });

  it('shows which plan a critique answers and jumps to it', async () => {
    const critique = page.locator('article.turn', { hasText: 'Plan A forgets token refresh.' });
    const link = critique.locator('.thread-parent button');
    const planA = turns.find((t) => t.kind === 'turn' && t.speaker === 'claude-planner')!;
    expect(await link.textContent()).toBe(`claude-planner · Plan · response · round 1 (#${planA.seq})`);
    await link.click();
    await expect.poll(() => page.locator('.virtual-row.flash article').getAttribute('data-turn-id')).toBe(planA.id);
  });

  it('copies one turn as markdown', async () => {
    const reviewer = page.locator('article.turn', { hasText: 'Approved.' });
    await reviewer.getByRole('button', { name: /Copy turn #\d+ as markdown/ }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/Copied turn #\d+ as markdown/);
    const approved = turns.find((t) => t.kind === 'turn' && t.content.some((b) => b.type === 'text' && b.text === 'Approved.'))!;
    expect(await clipboard()).toBe(
      [
        '### reviewer · Review · response',
        '',
        `_anthropic / claude-opus-4 · tokens in 400 · out — · cost — · ${approved.createdAt}_`,
        '',
        'Approved.',
        '',
      ].join('\n'),
    );

    const critique = page.locator('article.turn', { hasText: 'Plan A forgets token refresh.' });
    await critique.getByRole('button', { name: /Copy turn/ }).click();
    await expect.poll(clipboard).toContain('↳ answers: claude-planner · Plan · response · round 1');

    const executor = page.locator('article.turn', { hasText: 'read_file' });
    await executor.getByRole('button', { name: /Copy turn/ }).click();
    await expect.poll(clipboard).toContain('**Tool use: `read_file`** (toolu_1)\n\n```json\n{\n  "path": "src/auth/middleware.ts"\n}\n```');
    expect(await clipboard()).toContain('> **Thinking**\n>\n> I should read the middleware first.');
  });

  it('copies the whole thread as markdown, phase by phase', async () => {
    await page.getByRole('button', { name: 'Copy whole thread as markdown' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Copied the whole thread as markdown');
    const text = await clipboard();
    expect(text.startsWith('# Dual-plan run\n\n## Plan\n\n### claude-planner · Plan · response · round 1\n')).toBe(true);
    // Phase headings (the turns' own markdown has "## Plan A" and such too).
    const headings = text.split('\n').filter((l) => /^## [A-Z][a-z]+$/.test(l));
    expect(headings).toEqual(['## Plan', '## Critique', '## Adjudicate', '## Review', '## Execute', '## Verify', '## Triage']);
    expect(text.split('\n').filter((l) => l.startsWith('### ')).length).toBe(turns.length);
    expect(text).toContain('check line 45');
  });

  it('filters by phase chips (multi-select), kept in the URL across a reload', async () => {
    const chips = page.getByRole('group', { name: 'Phases' });
    await chips.getByRole('button', { name: /^Plan/ }).click();
    await chips.getByRole('button', { name: /^Critique/ }).click();
    await expect.poll(speakers).not.toContain('claude-planner');
    expect(await speakers()).not.toContain('codex-critic');
    expect(await speakers()).toContain('executor');
    expect(await chips.getByRole('button', { name: /^Plan/ }).getAttribute('aria-pressed')).toBe('false');
    const phases = new URL(page.url()).searchParams.get('phases')?.split(',').sort();
    expect(phases).toEqual(['adjudicate', 'execute', 'review', 'revision', 'triage', 'verify']);

    await page.reload();
    await expect.poll(speakers).toEqual(['adjudicator', 'reviewer', 'reviewer', 'executor', 'verifier', 'triager']);
    expect(await chips.getByRole('button', { name: /^Plan/ }).getAttribute('aria-pressed')).toBe('false');

    await chips.getByRole('button', { name: 'All' }).click();
    await expect.poll(() => turnCards().count()).toBe(turns.length);
    expect(new URL(page.url()).searchParams.has('phases')).toBe(false);
  });

  it('searches content and speaker, kept in the URL across a reload', async () => {
    const search = page.getByLabel('Search turns');
    await search.fill('typeerror');
    await expect.poll(speakers).toEqual(['executor']);
    await search.fill('CRITIC');
    await expect.poll(speakers).toEqual(['codex-critic', 'claude-critic']);
    expect(new URL(page.url()).searchParams.get('q')).toBe('CRITIC');
    await page.reload();
    await expect.poll(speakers).toEqual(['codex-critic', 'claude-critic']);
    expect(await search.inputValue()).toBe('CRITIC');
    await search.fill('no such words anywhere');
    await expect.poll(() => page.locator('.empty').textContent()).toBe('No turns match the filters.');
    await search.fill('');
    await expect.poll(() => turnCards().count()).toBe(turns.length);
  });

  it('shows a new turn live, without a reload', async () => {
    await seeder.event(contextId, {
      kind: 'turn',
      direction: 'response',
      phase: 'revision',
      speaker: 'claude-reviser',
      provider: 'anthropic',
      content: [{ type: 'text', text: 'Revised plan with token refresh.' }],
    });
    await expect.poll(speakers).toContain('claude-reviser');
    expect(await groups()).toContain('Revision');
  });

  it('renders only the visible part of a long thread (virtualized)', async () => {
    const long = await seeder.context('Long thread');
    longId = long.id;
    await seeder.events(
      long.id,
      Array.from({ length: 2000 }, (_, i) => ({
        kind: 'turn' as const,
        direction: i % 2 === 0 ? ('prompt' as const) : ('response' as const),
        phase: 'execute',
        speaker: `agent-${i % 3}`,
        content: [{ type: 'text' as const, text: `turn ${i}\n\nsome output` }],
      })),
    );
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.hub.url}/contexts/${long.id}/conversations`);
    await expect.poll(() => page.locator('[aria-live="polite"]').first().textContent()).toBe('2,000 of 2,000 turns');
    const rendered = await turnCards().count();
    expect(rendered).toBeGreaterThan(2);
    expect(rendered).toBeLessThan(60);
    await page.getByTestId('turn-list').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect.poll(() => page.locator('article.turn', { hasText: 'turn 1999' }).count()).toBe(1);
    expect(await turnCards().count()).toBeLessThan(60);
  });

  it('loads every turn of a thread whose events interleave with another context’s', async () => {
    // The timeline loads in parallel seq windows: none may drop or repeat an event.
    const mine = await seeder.context('Interleaved A');
    const other = await seeder.context('Interleaved B');
    const batch = (label: string, from: number) =>
      Array.from({ length: 250 }, (_, i) => ({
        kind: 'turn' as const,
        direction: 'response' as const,
        phase: 'plan',
        speaker: label,
        content: [{ type: 'text' as const, text: `${label} ${from + i}` }],
      }));
    for (let round = 0; round < 6; round++) {
      await seeder.events(mine.id, batch('mine', round * 250));
      await seeder.events(other.id, batch('other', round * 250));
    }
    await page.goto(`${server.hub.url}/contexts/${mine.id}/conversations`);
    await expect.poll(() => page.locator('[aria-live="polite"]').first().textContent()).toBe('1,500 of 1,500 turns');
    // The copied thread holds every loaded turn in order.
    await page.getByRole('button', { name: 'Copy whole thread as markdown' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Copied the whole thread as markdown');
    const texts = (await clipboard()).split('\n').filter((l) => /^mine \d+$/.test(l));
    expect(texts).toEqual(Array.from({ length: 1500 }, (_, i) => `mine ${i}`));
  });

  it('searches a large thread with the server’s full-text index', async () => {
    // 2,000 turns: over the threshold for server-side search.
    await page.goto(`${server.hub.url}/contexts/${longId}/conversations`);
    await page.getByLabel('Search turns').fill('1999');
    await expect.poll(() => page.locator('[aria-live="polite"]').first().textContent()).toBe('1 of 2,000 turns · searched on the server');
    expect(await page.locator('article.turn .markdown').first().textContent()).toContain('turn 1999');
    // Speakers are matched in the browser alongside the server's content hits.
    await page.getByLabel('Search turns').fill('agent-2');
    await expect.poll(() => page.locator('[aria-live="polite"]').first().textContent()).toBe('666 of 2,000 turns · searched on the server');
  });
});

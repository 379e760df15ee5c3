import { describe, expect, it } from 'vitest';
import { cutToBudget } from './budget.js';
import { CONTEXT_FORMATS, SHARED_RANK, type SharedItem } from './shared-items.js';
import { countTokens } from './tokens.js';

function item(section: SharedItem['section'], rank: number, title: string, detail = ''): SharedItem {
  return { section, rank, id: null, title, detail, label: null, by: 'claude-code', at: '2026-01-01T10:00:00.000Z' };
}

const huge = 'The migration rewrites every row of the events table and must not run during business hours. '.repeat(6_000);

describe('cutToBudget', () => {
  it('the huge note is really over 100k tokens', () => {
    expect(countTokens(huge)).toBeGreaterThan(100_000);
  });

  for (const format of CONTEXT_FORMATS) {
    for (const budget of [50, 500, 4_000]) {
      it(`${format}, ${budget} tokens: one 100k-token blocking note is cut visibly and the total stays within budget`, () => {
        const items = [
          item('blocked', SHARED_RANK.blocking, 'Production database is read-only', huge),
          item('decisions', SHARED_RANK.decision, 'Use PostgreSQL 16', 'because logical replication'),
          item('tasks', SHARED_RANK.task, 'Migrate events table', 'working'),
        ];
        const result = cutToBudget({ contextId: 'c1', title: 'Plan', items }, format, budget);
        expect(result.totalTokens).toBeLessThanOrEqual(budget);
        expect(result.totalTokens).toBe(countTokens(result.rendering));
        expect(result.blockedItems).toHaveLength(1);
        expect(result.rendering).toContain('Production database is read-only');
        expect(result.rendering).toMatch(/truncated: \d+ more tokens/);
        expect(result.truncated).toBe(1);
      });

      it(`${format}, ${budget} tokens: thousands of tiny notes fill the budget in rank order`, () => {
        const items: SharedItem[] = [];
        for (let i = 0; i < 3_000; i++) items.push(item('summaries', SHARED_RANK.summary, `tiny ${i}`));
        items.push(item('tasks', SHARED_RANK.task, 'Active task A'));
        items.push(item('decisions', SHARED_RANK.decision, 'Decision D', 'reasoning R'));
        items.push(item('blocked', SHARED_RANK.attention, 'Attention note'));
        items.push(item('blocked', SHARED_RANK.blocking, 'Blocking note'));
        const result = cutToBudget({ contextId: 'c1', title: 'Plan', items }, format, budget);
        expect(result.totalTokens).toBeLessThanOrEqual(budget);
        expect(result.totalTokens).toBe(countTokens(result.rendering));
        const order = ['Blocking note', 'Attention note', 'Decision D', 'Active task A'];
        const present = order.map((t) => result.rendering.includes(t));
        // Whatever survives is a prefix of the rank order: nothing lower survives while something higher is cut.
        expect(present.indexOf(false) === -1 || present.slice(present.indexOf(false)).every((p) => !p)).toBe(true);
        expect(present[0]).toBe(true);
        if (budget >= 500) expect(present.every(Boolean)).toBe(true);
        expect(Object.values(result.omitted).reduce((a, b) => a + (b ?? 0), 0)).toBeGreaterThan(0);
      });
    }
  }

  it('keeps the rendering empty rather than exceed a zero budget', () => {
    const result = cutToBudget({ contextId: 'c1', title: 'Plan', items: [item('blocked', 0, 'x')] }, 'markdown', 0);
    expect(result.totalTokens).toBe(0);
    expect(result.rendering).toBe('');
  });

  it('renders markdown, short text and JSON', () => {
    const items = [item('decisions', SHARED_RANK.decision, 'Use PostgreSQL', 'replication')];
    const md = cutToBudget({ contextId: 'c1', title: 'Plan', items }, 'markdown', 500).rendering;
    expect(md).toContain('## Recent decisions');
    expect(md).toContain('- **Use PostgreSQL** — replication');
    const text = cutToBudget({ contextId: 'c1', title: 'Plan', items }, 'text', 500).rendering;
    expect(text).toBe('Shared context: Plan\nRecent decisions:\n- Use PostgreSQL: replication\n');
    const json = JSON.parse(cutToBudget({ contextId: 'c1', title: 'Plan', items }, 'json', 500).rendering);
    expect(json.decisions[0]).toMatchObject({ title: 'Use PostgreSQL', detail: 'replication' });
  });
});

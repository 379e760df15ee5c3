import { renderHeader, renderHeading, renderItem, renderOmitted, renderSharedContext } from './render.js';
import type { ContextFormat, SharedContext, SharedContextSource, SharedItem, SharedSection } from './shared-items.js';
import { countTokens, encodeTokens, TOKENIZER, truncateToTokens } from './tokens.js';

/** After this many items in a row did not fit, the budget is as full as it will get. */
const MAX_MISSES = 16;

/** At most what who/when add to an item's line (a name, a runtime and a minute-precision time). */
const META_TOKENS = 48;

/** Below this many tokens left, an item is skipped rather than cut to a stub. */
const MIN_ITEM_TOKENS = 12;

/**
 * No single item may take more than a quarter of the budget (but at least
 * this many tokens): one 100k-token note must not crowd out every decision.
 */
const MIN_ITEM_CAP = 40;

/** Chat runtimes get short lines (reference/002: a condensed ~2K context for Telegram). */
const TEXT_ITEM_CAP = 60;

/**
 * Chooses items by rank (then recency) and renders them so that the
 * rendering's token count never exceeds `tokenBudget`. Greedy selection on
 * per-line counts, then an exact count of the final text; BPE counts are
 * nearly additive across line breaks, and whatever slack remains is removed
 * by dropping the lowest-ranked item until the exact count fits.
 */
export function cutToBudget(source: SharedContextSource, format: ContextFormat, tokenBudget: number): SharedContext {
  const budget = Math.max(0, Math.floor(tokenBudget));
  const ordered = source.items.map((item, index) => ({ item, index })).sort((a, b) => a.item.rank - b.item.rank || a.index - b.index);
  const quarter = Math.max(MIN_ITEM_CAP, Math.floor(budget / 4));
  const itemCap = format === 'text' ? Math.min(quarter, TEXT_ITEM_CAP) : quarter;

  let used = countTokens(
    format === 'json'
      ? renderSharedContext({ format, contextId: source.contextId, title: source.title, items: [], omitted: 0 })
      : renderHeader(format, source.title, source.contextId),
  );
  const headings = new Set<SharedSection>();
  const chosen: { item: SharedItem; index: number }[] = [];
  // Room for the "N more left out" line, so the first exact count usually fits (large budgets only:
  // at 50 tokens the line is worth less than an item).
  const reserve = budget >= 200 ? countTokens(renderOmitted(format, source.items.length)) : 0;
  let truncated = 0;
  let misses = 0;
  for (const entry of ordered) {
    if (misses >= MAX_MISSES || budget - used - reserve < MIN_ITEM_TOKENS) break;
    const headingCost = headings.has(entry.item.section) ? 0 : countTokens(renderHeading(format, entry.item.section));
    const room = budget - used - headingCost - reserve;
    const fitted = room < MIN_ITEM_TOKENS ? null : fitItem(format, entry.item, room, itemCap);
    if (!fitted) {
      misses++;
      continue;
    }
    misses = 0;
    if (fitted.item !== entry.item) truncated++;
    used += headingCost + fitted.tokens;
    headings.add(entry.item.section);
    chosen.push({ item: fitted.item, index: entry.index });
  }

  // The "N more left out" line is shown when it fits; the counts are in `omitted` either way.
  const render = (items: readonly { item: SharedItem }[], footer: boolean) =>
    renderSharedContext({
      format,
      contextId: source.contextId,
      title: source.title,
      items: items.map((c) => c.item),
      omitted: footer ? source.items.length - items.length : 0,
    });
  let rendering = render(chosen, true);
  let total = countTokens(rendering);
  if (total > budget) {
    rendering = render(chosen, false);
    total = countTokens(rendering);
  }
  while (total > budget && chosen.length > 0) {
    chosen.pop();
    rendering = render(chosen, false);
    total = countTokens(rendering);
  }
  if (total > budget) {
    // Not even the header fits: cut the rendering itself, visibly.
    const cut = truncateToTokens(rendering, budget);
    rendering = cut.text;
    total = cut.tokens;
  }

  const kept = chosen.sort((a, b) => a.index - b.index).map((c) => c.item);
  const omitted: Partial<Record<SharedSection, number>> = {};
  const keptIds = new Set(chosen.map((c) => c.index));
  source.items.forEach((item, index) => {
    if (!keptIds.has(index)) omitted[item.section] = (omitted[item.section] ?? 0) + 1;
  });
  const pick = (section: SharedSection) => kept.filter((item) => item.section === section);
  return {
    contextId: source.contextId,
    title: source.title,
    format,
    tokenBudget: budget,
    totalTokens: total,
    tokenizer: TOKENIZER,
    identity: pick('identity'),
    currentFocus: pick('focus'),
    blockedItems: pick('blocked'),
    recentDecisions: pick('decisions'),
    activeTasks: pick('tasks'),
    recentInteractionSummaries: pick('summaries'),
    omitted,
    truncated,
    rendering,
  };
}

/**
 * The item as it fits (its line and line break, in tokens): whole when it
 * fits the room left and the per-item cap; without who/when when that is
 * enough; cut visibly when it is larger than the cap. An ordinary item that
 * only misses the room left is skipped, not cut to a stub.
 */
function fitItem(format: ContextFormat, item: SharedItem, room: number, cap: number): { item: SharedItem; tokens: number } | null {
  const cost = (candidate: SharedItem) => countTokens(`${renderItem(format, candidate)}\n`);
  const maxTokens = Math.min(room, cap);
  const full = cost(item);
  if (full <= maxTokens) return { item, tokens: full };
  const compact = { ...item, by: null, at: null };
  // Who and when take a few tokens; when dropping them cannot be enough, do not count.
  const compactCost = full - META_TOKENS > maxTokens ? full : cost(compact);
  if (compactCost <= maxTokens) return { item: compact, tokens: compactCost };
  if (full <= cap) return null;
  const bare = { ...compact, detail: '' };
  if (item.detail) {
    const encoded = encodeTokens(item.detail);
    for (let allow = maxTokens - cost(bare); allow > 0; allow -= Math.max(1, Math.ceil(allow / 10))) {
      const cut = truncateToTokens(item.detail, allow, encoded).text;
      if (!cut) break;
      const shorter = { ...compact, detail: cut };
      const tokens = cost(shorter);
      if (tokens <= maxTokens) return { item: shorter, tokens };
    }
  }
  const encodedTitle = encodeTokens(item.title);
  for (let allow = maxTokens - cost({ ...bare, title: '' }); allow > 0; allow -= Math.max(2, Math.ceil(allow / 10))) {
    const shorter = { ...bare, title: truncateToTokens(item.title, allow, encodedTitle).text };
    const tokens = cost(shorter);
    if (tokens <= maxTokens) return { item: shorter, tokens };
  }
  return null;
}

/**
 * The parts of a shared context (DESIGN §4, reference/002 question 4), as
 * plain data the server assembles from the timeline and the core cuts to a
 * token budget and renders. No I/O here: the web UI renders the same way.
 */
/** In the order they are rendered: what a starting agent must act on comes first. */
export const SHARED_SECTIONS = ['blocked', 'decisions', 'tasks', 'focus', 'identity', 'summaries'] as const;
export type SharedSection = (typeof SHARED_SECTIONS)[number];

export const CONTEXT_FORMATS = ['markdown', 'text', 'json'] as const;
export type ContextFormat = (typeof CONTEXT_FORMATS)[number];

/**
 * Which item survives when the budget is short: lower ranks first. Blocking
 * outranks attention, then decisions, active tasks, identity, status, and
 * summaries (issue 6). Identity sits below tasks: a one-line preference is
 * worth less to a starting agent than an open blocker it must not walk past.
 */
export const SHARED_RANK = {
  blocking: 0,
  attention: 1,
  decision: 2,
  task: 3,
  identity: 4,
  status: 5,
  summary: 6,
} as const;

export interface SharedItem {
  section: SharedSection;
  rank: number;
  /** The event, task or state key it came from. */
  id: string | null;
  title: string;
  /** Reasoning, summary, value or excerpt. */
  detail: string;
  /** A short tag: `blocking`, `working`, `decision`, a state key's scope. */
  label: string | null;
  /** Who wrote it (name or id, with runtime). */
  by: string | null;
  at: string | null;
}

export interface SharedContextSource {
  contextId: string;
  title: string;
  /** Newest first within each rank. */
  items: readonly SharedItem[];
}

export interface SharedContext {
  contextId: string;
  title: string;
  format: ContextFormat;
  tokenBudget: number;
  /** Tokens of `rendering`, counted with `tokenizer`; never above `tokenBudget`. */
  totalTokens: number;
  tokenizer: string;
  identity: SharedItem[];
  currentFocus: SharedItem[];
  blockedItems: SharedItem[];
  recentDecisions: SharedItem[];
  activeTasks: SharedItem[];
  recentInteractionSummaries: SharedItem[];
  /** Items left out to stay within the budget, per section. */
  omitted: Partial<Record<SharedSection, number>>;
  /** Items shortened to fit (their text ends with a visible marker). */
  truncated: number;
  rendering: string;
}

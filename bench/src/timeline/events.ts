import { type ActorInput, NewEvent, type NewEventInput } from '@baton/core';
import type { StoreWriter } from 'baton';

/**
 * Deterministic, plausible timeline content. Text is drawn from a word list
 * with a seeded generator, so every run writes the same bytes and neither
 * store gets an unfair edge from repetition.
 */
export type PreparedEvent = Parameters<StoreWriter['appendEvents']>[0][number];

export type Random = () => number;

/** mulberry32: small, fast, seeded. */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: Random, list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;

/** A few hundred words agents write, plus generated identifiers, numbers and paths, so the search index sees a real vocabulary. */
const WORDS = (
  'ran tests fixed build store append event context task blocker handoff agent review plan diff commit branch merge rebase ' +
  'migration index query latency schema route server client runtime token budget note decision milestone deploy rollback ' +
  'npm vitest passed failed retry timeout websocket subscriber cursor seq backlog projection checkpoint artifact transcript ' +
  'import export sqlite postgres function method class interface type module package dependency version release changelog ' +
  'error warning exception stack trace log metric alert dashboard queue worker job scheduler cron lock mutex transaction ' +
  'commit rollback savepoint isolation snapshot replica primary shard partition cache eviction hit miss ttl expiry session ' +
  'auth token scope permission role user admin owner member invite password secret key certificate tls handshake proxy ' +
  'request response header body payload json yaml toml csv parse serialize validate schema field column row table view ' +
  'refactor rename extract inline split combine simplify optimize benchmark profile flame graph allocation garbage heap ' +
  'memory leak cpu core thread process child spawn signal exit code status health readiness liveness probe container image ' +
  'docker compose kubernetes pod node cluster namespace volume mount config env variable flag option default override ' +
  'the a to of and in for with on from after before because so then next now still again already only also but not ' +
  'added removed updated changed moved kept dropped skipped found missing broken flaky slow fast stable green red ' +
  'please check confirm verify investigate reproduce bisect isolate narrow suspect cause fix patch hotfix workaround'
).split(' ');

const PATHS = [
  'src/hub/hub.ts',
  'src/store/kysely-store.ts',
  'src/http/app.ts',
  'packages/core/src/schemas/event.ts',
  'README.md',
  'bench/src/run.ts',
];

function word(rand: Random): string {
  const roll = rand();
  if (roll < 0.04) return String(Math.floor(rand() * 5000));
  if (roll < 0.06)
    return Math.floor(rand() * 0xffffffff)
      .toString(16)
      .padStart(8, '0');
  if (roll < 0.08) return pick(rand, PATHS);
  if (roll < 0.1) return `${pick(rand, WORDS)}_${pick(rand, WORDS)}`;
  return pick(rand, WORDS);
}

/** Words until the text is about `chars` long. */
export function prose(rand: Random, chars: number): string {
  let text = '';
  while (text.length < chars) text += (text ? ' ' : '') + word(rand);
  return `${text.slice(0, chars).trimEnd()}.`;
}

export const ACTORS: readonly ActorInput[] = [
  { id: 'claude-code-7f3a', name: 'Claude Code', runtime: 'claude-code' },
  { id: 'codex-2b91', name: 'Codex', runtime: 'codex' },
  { id: 'openclaw-55d0', name: 'OpenClaw', runtime: 'openclaw' },
  { id: 'pipeline-review', name: 'review pipeline', runtime: 'pipeline' },
];

/**
 * The typical activity event of the size target: an agent_action with a
 * ~120-character text, an actor with name and runtime, a taskId on some.
 */
export function activityEvent(rand: Random, taskIds: readonly string[]): NewEventInput {
  return {
    kind: 'activity',
    activityType: 'agent_action',
    actor: pick(rand, ACTORS),
    taskId: taskIds.length > 0 && rand() < 1 / 3 ? pick(rand, taskIds) : null,
    content: [{ type: 'text', text: prose(rand, 120) }],
  };
}

const OTHER_ACTIVITY = ['milestone', 'decision', 'system_event', 'human_feedback', 'blocker'] as const;
const PHASES = ['plan', 'review', 'execute', 'verify'] as const;

/**
 * A timeline as agents write it: mostly actions, some other activity, model
 * turns (prompt and response, ~2.5 KB of text each, with usage) and notes.
 * Average stored size is about 1 KB, so a million events make a ~1 GB store.
 */
export function timelineEvent(rand: Random, taskIds: readonly string[]): NewEventInput {
  const roll = rand();
  if (roll < 0.66) return activityEvent(rand, taskIds);
  const actor = pick(rand, ACTORS);
  const taskId = taskIds.length > 0 && rand() < 0.5 ? pick(rand, taskIds) : null;
  if (roll < 0.72) {
    return {
      kind: 'activity',
      activityType: pick(rand, OTHER_ACTIVITY),
      actor,
      taskId,
      content: [{ type: 'text', text: prose(rand, 200) }],
    };
  }
  if (roll < 0.96) {
    const response = rand() < 0.5;
    return {
      kind: 'turn',
      direction: response ? 'response' : 'prompt',
      phase: pick(rand, PHASES),
      round: Math.floor(rand() * 4),
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      actor,
      taskId,
      content: [{ type: 'text', text: prose(rand, 2000 + Math.floor(rand() * 1000)) }],
      usage: response
        ? { inputTokens: 1200 + Math.floor(rand() * 4000), outputTokens: 300 + Math.floor(rand() * 900), costUsd: 0.0123 }
        : null,
    };
  }
  return {
    kind: 'note',
    noteType: 'discovery',
    title: prose(rand, 50),
    summary: prose(rand, 160),
    tags: ['store', 'perf'],
    urgency: 'attention',
    actor,
    taskId,
  };
}

/** What the hub would hand the store for `input` (which must name its actor): validated, defaults filled, id and context set. */
export function prepare(input: NewEventInput, contextId: string, id: string): PreparedEvent {
  const parsed = NewEvent.parse(input) as Record<string, unknown>;
  if ('ttlSeconds' in parsed || !parsed.actor) throw new Error('benchmark events name their actor and use expiresAt, not ttlSeconds');
  return { ...parsed, id, contextId } as PreparedEvent;
}

let counter = 0;
/** Sortable unique ids, like the hub's ULIDs but cheap to make in bulk. */
export function benchId(prefix = 'e'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter.toString(36).padStart(6, '0')}${Math.floor(Math.random() * 1e9).toString(36)}`;
}

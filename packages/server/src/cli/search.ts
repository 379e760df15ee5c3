import { BatonError, SEARCH_MODES, type SearchHit, type SearchMode } from '@baton/core';
import { Command, InvalidArgumentError, Option } from 'commander';
import pc from 'picocolors';
import { BatonClient } from '../client/baton-client.js';
import { loadConfig } from '../config.js';

const list = (value: string, previous: string[] = []) => [...previous, ...value.split(',').filter(Boolean)];

function limit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new InvalidArgumentError('must be a whole number from 1 to 100');
  return n;
}

interface SearchFlags {
  url?: string;
  token?: string;
  context?: string[];
  kind?: string[];
  type?: string[];
  actor?: string[];
  phase?: string[];
  since?: string;
  until?: string;
  limit?: number;
  mode?: SearchMode;
  json?: boolean;
}

/** One hit as two lines: where and who, then the snippet with matches in bold (« » kept when not a terminal). */
export function formatHit(hit: SearchHit, color: boolean): string {
  const e = hit.event;
  const type = e.kind === 'activity' ? e.activityType : e.kind === 'note' ? e.noteType : (e.phase ?? e.direction);
  const who = e.actor.runtime ? `${e.actor.id}@${e.actor.runtime}` : e.actor.id;
  const head = `${hit.score.toFixed(3)}  ${e.contextId} #${e.seq}  ${e.kind}/${type}  ${who}  ${e.createdAt}`;
  const snippet = color ? hit.snippet.replace(/«([^»]*)»/g, (_, w: string) => pc.bold(pc.yellow(w))) : hit.snippet;
  return `${color ? pc.dim(head) : head}\n  ${snippet}`;
}

export function searchCommand(): Command {
  return new Command('search')
    .description(
      'search the timeline in any language: full text (words must all occur; "quoted words" in order), or by meaning on a hub with embeddings',
    )
    .argument('<query...>', 'the words to find')
    .option('--url <url>', 'the hub (env BATON_URL, default http://127.0.0.1:7337)')
    .option('--token <token>', 'bearer token (env BATON_TOKEN)')
    .option('-c, --context <ids>', 'only these contexts (comma-separated or repeated)', list)
    .option('-k, --kind <kinds>', 'only these kinds: turn, activity, note', list)
    .option('-t, --type <types>', 'only these activity or note types (e.g. decision,blocker)', list)
    .option('--actor <ids>', 'only events by these actors', list)
    .option('--phase <phases>', 'only turns in these phases', list)
    .option('--since <time>', 'only events at or after this ISO time')
    .option('--until <time>', 'only events before this ISO time')
    .option('-n, --limit <n>', 'at most this many hits (default 20)', limit)
    .addOption(
      new Option(
        '-m, --mode <mode>',
        'text, semantic (by meaning) or hybrid (both); default hybrid on a hub with embeddings, else text',
      ).choices(SEARCH_MODES),
    )
    .option('--json', 'print the result as JSON')
    .action(async (words: string[], flags: SearchFlags) => {
      const config = loadConfig();
      const client = new BatonClient({
        url: flags.url ?? config.url,
        token: flags.token ?? config.token,
        actor: { id: 'cli', role: 'user' },
      });
      try {
        const result = await client.search({
          q: words.join(' '),
          ...(flags.context ? { context: flags.context } : {}),
          ...(flags.kind ? { kind: flags.kind } : {}),
          ...(flags.type ? { type: flags.type } : {}),
          ...(flags.actor ? { actor: flags.actor } : {}),
          ...(flags.phase ? { phase: flags.phase } : {}),
          ...(flags.since ? { since: flags.since } : {}),
          ...(flags.until ? { until: flags.until } : {}),
          ...(flags.limit ? { limit: flags.limit } : {}),
          ...(flags.mode ? { mode: flags.mode } : {}),
        });
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
          return;
        }
        const color = process.stdout.isTTY === true && pc.isColorSupported;
        for (const hit of result.hits) process.stdout.write(`${formatHit(hit, color)}\n`);
        const notes = [result.mode === 'text' ? '' : ` (${result.mode})`];
        if (!result.index.complete) notes.push(` (index catching up: ${result.index.indexedSeq} of ${result.index.headSeq} events)`);
        const vectors = result.semantic.index;
        if (result.semantic.status === 'used' && vectors && !vectors.complete) {
          notes.push(` (embeddings cover events ${vectors.fromSeq + 1}–${vectors.indexedSeq} of ${vectors.headSeq})`);
        }
        if (result.semantic.status === 'unavailable') {
          notes.push(`\nsemantic search unavailable, full-text hits only: ${result.semantic.reason ?? 'the embedding provider failed'}`);
        }
        process.stderr.write(`${result.hits.length} hit${result.hits.length === 1 ? '' : 's'}${notes.join('')}\n`);
        if (result.hits.length === 0) process.exitCode = 1;
      } catch (error) {
        const message = error instanceof BatonError ? error.message : String(error);
        process.stderr.write(`baton search: ${message}\n`);
        process.exitCode = error instanceof BatonError && error.code === 'invalid_argument' ? 2 : 1;
      }
    });
}

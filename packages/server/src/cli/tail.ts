import { ActivityType, EventKind, type LiveFilter, LiveFilter as LiveFilterSchema, NoteType, Urgency } from '@baton/core';
import { Command, InvalidArgumentError, Option } from 'commander';
import { LiveClient } from '../client/live-client.js';
import { loadConfig } from '../config.js';
import { formatEvent } from './format-event.js';

const list = (value: string, previous: string[] = []) => [...previous, ...value.split(',').filter(Boolean)];

function seq(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a seq number (0 for the whole history)');
  return n;
}

interface TailFlags {
  url?: string;
  token?: string;
  context?: string[];
  kind?: string[];
  type?: string[];
  minUrgency?: string;
  tag?: string[];
  runtime?: string[];
  actor?: string[];
  since?: number;
  json?: boolean;
}

/** Splits --type values into activity and note types, so one flag serves both kinds. */
function filterFrom(flags: TailFlags): LiveFilter {
  const types = flags.type ?? [];
  const activityTypes = types.filter((t) => ActivityType.safeParse(t).success);
  const noteTypes = types.filter((t) => NoteType.safeParse(t).success);
  const unknown = types.filter((t) => !activityTypes.includes(t) && !noteTypes.includes(t));
  if (unknown.length) throw new InvalidArgumentError(`unknown --type ${unknown.join(', ')}; use activity types or note types`);
  const kinds = [...(flags.kind ?? [])];
  if (types.length && kinds.length === 0) {
    if (activityTypes.length) kinds.push('activity');
    if (noteTypes.length) kinds.push('note');
  }
  const parsed = LiveFilterSchema.safeParse({
    ...(flags.context?.length ? { contextIds: flags.context } : {}),
    ...(kinds.length ? { kinds } : {}),
    ...(activityTypes.length ? { activityTypes } : {}),
    ...(noteTypes.length ? { noteTypes } : {}),
    ...(flags.minUrgency ? { minUrgency: flags.minUrgency } : {}),
    ...(flags.tag?.length ? { tags: flags.tag } : {}),
    ...(flags.runtime?.length ? { runtimes: flags.runtime } : {}),
    ...(flags.actor?.length ? { actors: flags.actor } : {}),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidArgumentError(`${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}

export function tailCommand(): Command {
  return new Command('tail')
    .description('follow contexts live in the terminal: new events as they are written (or the history with --since 0)')
    .option('--url <url>', 'the hub (env BATON_URL, default http://127.0.0.1:7337)')
    .option('--token <token>', 'bearer token (env BATON_TOKEN)')
    .option('-c, --context <ids>', 'only these contexts (comma-separated or repeated)', list)
    .addOption(new Option('-k, --kind <kinds>', `only these kinds: ${EventKind.options.join(', ')}`).argParser(list))
    .option('-t, --type <types>', 'only these activity or note types (e.g. blocker,decision,alert)', list)
    .addOption(new Option('--min-urgency <urgency>', 'notes at least this urgent').choices(Urgency.options))
    .option('--tag <tags>', 'only notes with one of these tags', list)
    .option('--runtime <runtimes>', 'only events written from these runtimes', list)
    .option('--actor <ids>', 'only events written by these actors', list)
    .option('--since <seq>', 'start after this seq (0 = from the beginning); default: from now', seq)
    .option('--json', 'print one JSON event per line instead of formatted text')
    .action(async (flags: TailFlags) => {
      const config = loadConfig();
      let filter: LiveFilter;
      try {
        filter = filterFrom(flags);
      } catch (error) {
        process.stderr.write(`baton tail: ${(error as Error).message}\n`);
        process.exit(2);
      }
      const url = flags.url ?? config.url;
      let warned = false;
      const live = new LiveClient({
        url,
        token: flags.token ?? config.token,
        actor: { id: `tail-${process.pid}`, role: 'user' },
        onError: (error) => {
          if (!warned) process.stderr.write(`baton tail: ${error.message} (retrying)\n`);
          warned = true;
        },
      });
      const width = process.stdout.columns ?? 160;
      const subscription = live.subscribe({ filter, ...(flags.since !== undefined ? { since: flags.since } : {}) }, (event) => {
        warned = false;
        process.stdout.write(flags.json ? `${JSON.stringify(event)}\n` : `${formatEvent(event, width)}\n`);
      });
      void subscription.ready.then(() =>
        process.stderr.write(
          `baton tail: following ${url}${flags.context ? ` (contexts ${flags.context.join(', ')})` : ''}; Ctrl-C to stop\n`,
        ),
      );
      const stop = () => void live.close().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
}

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { createRecorder, type Recorder } from 'baton/recorder';
import OpenAI from 'openai';
import { type FakeReply, type FakeRequest, startFakeProvider } from './fake-provider.js';

/**
 * What both examples share: command-line options, a local fake provider for
 * the SDK clients to talk to, the recorder, and printing the recorded thread.
 *
 *   --hub URL        record to a running hub (`baton serve`); default: an embedded store in --data
 *   --data DIR       embedded store directory (default: a new temp directory)
 *   --context ID     the thread to record into (default: a new one per run)
 *   --journal DIR    the recorder's write-ahead journal directory (default: the recorder's own)
 *   --hang-in PHASE  the fake provider never answers that phase's call (to try kill -9)
 *   --delay-ms N     every fake provider call takes N ms
 *   --json           print one JSON summary instead of the table
 */
export interface ExampleRun {
  recorder: Recorder;
  anthropic: Anthropic;
  openai: OpenAI;
  contextId: string;
  json: boolean;
  finish(result: unknown): Promise<void>;
}

/** How the fake provider answers: the phase a request belongs to (for --hang-in) and its reply. */
export type Answer = (request: FakeRequest) => { phase: string; reply: FakeReply };

export async function startExample(name: string, answer: Answer): Promise<ExampleRun> {
  const { values } = parseArgs({
    options: {
      hub: { type: 'string' },
      data: { type: 'string' },
      context: { type: 'string' },
      journal: { type: 'string' },
      'hang-in': { type: 'string' },
      'delay-ms': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const delayMs = Number(values['delay-ms'] ?? 0);
  const provider = await startFakeProvider((request) => {
    const { phase, reply } = answer(request);
    return { ...reply, delayMs, hang: phase === values['hang-in'] };
  });
  const contextId = values.context ?? `${name}-${Date.now().toString(36)}`;
  const target = values.hub ? { url: values.hub } : { dataDir: values.data ?? mkdtempSync(join(tmpdir(), `baton-${name}-`)) };
  const recorder = createRecorder({
    ...target,
    ...(values.journal ? { journalDir: values.journal } : {}),
    contextId,
    context: { title: `${name} example` },
    actor: { id: name, runtime: 'example-pipeline' },
  });
  const anthropic = new Anthropic({ apiKey: 'not-needed-for-the-fake', baseURL: provider.anthropicBaseURL, maxRetries: 0 });
  const openai = new OpenAI({ apiKey: 'not-needed-for-the-fake', baseURL: provider.openaiBaseURL, maxRetries: 0 });
  return {
    recorder,
    anthropic,
    openai,
    contextId,
    json: values.json,
    finish: async (result) => {
      await provider.close();
      await recorder.flush(2000);
      // Reading the thread back needs the hub; when it is down, the pipeline's result still stands.
      const turns = await recorder.listTurns().then(
        (page) => page.turns,
        () => null,
      );
      await recorder.close(2000);
      if (values.json) {
        process.stdout.write(`${JSON.stringify({ contextId, result, stats: recorder.stats(), turns })}\n`);
        return;
      }
      process.stdout.write(`\nthread ${contextId} (${target.url ?? `embedded store in ${target.dataDir}`})\n`);
      for (const t of turns ?? []) {
        const usage = t.usage ? ` in=${t.usage.inputTokens ?? '—'} out=${t.usage.outputTokens ?? '—'} $${t.usage.costUsd ?? '—'}` : '';
        const parent = (t.parentId ? ` ← ${t.parentId}` : '') + (t.refs.length ? ` refs ${t.refs.join(', ')}` : '');
        process.stdout.write(`  ${pad(t.phase, 8)} ${pad(t.direction, 8)} ${pad(t.speaker, 18)} ${pad(t.model, 18)}${usage}${parent}\n`);
      }
      if (!turns) process.stdout.write('  (the hub could not be read back)\n');
      process.stdout.write(`recorder: ${JSON.stringify(recorder.stats())}\n`);
    },
  };
}

function pad(value: string | null, width: number): string {
  return (value ?? '—').padEnd(width);
}

/** The text of an Anthropic message or an OpenAI completion. */
export function textOf(content: readonly { type: string; text?: string }[]): string {
  return content
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('');
}

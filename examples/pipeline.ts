import { pathToFileURL } from 'node:url';
import type Anthropic from '@anthropic-ai/sdk';
import { type Recorder, wrapAnthropic, wrapOpenAI } from 'baton/recorder';
import type OpenAI from 'openai';
import { startExample, textOf } from './example-run.js';

/**
 * A four-phase pipeline — plan → review → execute → verify — in which every
 * model call is recorded by wrapping the SDK clients once. The pipeline code
 * itself only names its phases (`recorder.scope`); what each model was asked
 * and answered lands on the thread as a prompt turn and a response turn.
 *
 *   npm run build && node --import tsx examples/pipeline.ts            # embedded store in a temp dir
 *   node --import tsx examples/pipeline.ts --hub http://127.0.0.1:7337  # a running `baton serve`
 *
 * A local fake provider (examples/fake-provider.ts) stands in for Anthropic
 * and OpenAI; point the clients at the real services to record real calls.
 */
export interface PipelineResult {
  plan: string;
  review: string;
  diff: string;
  verdict: string;
}

export async function runPipeline(recorder: Recorder, anthropic: Anthropic, openai: OpenAI, task: string): Promise<PipelineResult> {
  const claude = wrapAnthropic(anthropic, recorder);
  const gpt = wrapOpenAI(openai, recorder);

  const plan = await recorder.scope({ phase: 'plan', stepId: 'plan-1', speaker: 'claude-planner' }, async () => {
    const message = await claude.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 2048,
      system: 'You are the planner. Write a short numbered plan.',
      messages: [{ role: 'user', content: task }],
    });
    return textOf(message.content);
  });

  const review = await recorder.scope({ phase: 'review', stepId: 'review-1', speaker: 'gpt-reviewer' }, async () => {
    const completion = await gpt.chat.completions.create({
      model: 'gpt-4.1',
      messages: [
        { role: 'developer', content: 'You review plans. Answer APPROVED or list the problems.' },
        { role: 'user', content: plan },
      ],
    });
    return completion.choices[0]?.message.content ?? '';
  });

  // The executor streams; the recorder stores its answer when the stream completes.
  const diff = await recorder.scope({ phase: 'execute', stepId: 'execute-1', speaker: 'claude-executor' }, async () => {
    const stream = await claude.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 8192,
      stream: true,
      system: 'You are the executor. Output a unified diff.',
      messages: [{ role: 'user', content: `Plan:\n${plan}\n\nReview:\n${review}` }],
    });
    let text = '';
    for await (const event of stream)
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    return text;
  });

  const verdict = await recorder.scope({ phase: 'verify', stepId: 'verify-1', speaker: 'gpt-verifier' }, async () => {
    const response = await gpt.responses.create({
      model: 'gpt-5-mini',
      instructions: 'You verify a diff against its plan. Answer PASS or FAIL with a reason.',
      input: `Plan:\n${plan}\n\nDiff:\n${diff}`,
    });
    return response.output_text;
  });

  return { plan, review, diff, verdict };
}

async function main(): Promise<void> {
  const run = await startExample('pipeline', (request) => {
    if (request.api === 'anthropic' && request.body.stream !== true)
      return { phase: 'plan', reply: { text: '1. Add a login form.\n2. Validate the input.\n3. Call the session API.' } };
    if (request.api === 'chat') return { phase: 'review', reply: { text: 'APPROVED' } };
    if (request.api === 'anthropic') return { phase: 'execute', reply: { text: '--- a/login.tsx\n+++ b/login.tsx\n+<form>…</form>' } };
    return { phase: 'verify', reply: { text: 'PASS: the diff implements every step.' } };
  });
  const result = await runPipeline(run.recorder, run.anthropic, run.openai, 'Add a login page to the web app.');
  if (!run.json) process.stdout.write(`verdict: ${result.verdict}\n`);
  await run.finish(result);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

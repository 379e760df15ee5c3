import { pathToFileURL } from 'node:url';
import type Anthropic from '@anthropic-ai/sdk';
import { type Recorder, responseIdOf, wrapAnthropic, wrapOpenAI } from 'baton/recorder';
import type OpenAI from 'openai';
import { startExample, textOf } from './example-run.js';

/**
 * Dual-plan dialogue (reference/003): two planners write plans side by side,
 * each plan is critiqued by the other side, and an adjudicator reads both
 * critiques and decides. Five prompt–response pairs, all in phase `plan`;
 * each critique's prompt points (parentId) at the plan it critiques, and the
 * adjudication points (refs) at both critiques, so the dialogue reads as a
 * tree in the thread.
 *
 *   npm run build && node --import tsx examples/dual-plan.ts [--hub URL]
 */
export interface DualPlanResult {
  plans: { claude: string; gpt: string };
  critiques: { ofClaude: string; ofGpt: string };
  decision: string;
  /** The call ids, to find each pair again with `recorder.conversation(id)`. */
  calls: { claudePlan: string; gptPlan: string; critiqueOfClaude: string; critiqueOfGpt: string; adjudication: string };
}

export async function runDualPlan(recorder: Recorder, anthropic: Anthropic, openai: OpenAI, task: string): Promise<DualPlanResult> {
  const claude = wrapAnthropic(anthropic, recorder);
  const gpt = wrapOpenAI(openai, recorder);
  const ask = {
    claude: async (system: string, content: string) =>
      textOf(
        (await claude.messages.create({ model: 'claude-opus-4-5', max_tokens: 2048, system, messages: [{ role: 'user', content }] }))
          .content,
      ),
    gpt: async (system: string, content: string) =>
      (
        await gpt.chat.completions.create({
          model: 'gpt-5',
          messages: [
            { role: 'developer', content: system },
            { role: 'user', content },
          ],
        })
      ).choices[0]?.message.content ?? '',
  };
  // Ids chosen up front: a critique can name the plan it answers before that call has even started.
  const calls = {
    claudePlan: recorder.newCallId(),
    gptPlan: recorder.newCallId(),
    critiqueOfClaude: recorder.newCallId(),
    critiqueOfGpt: recorder.newCallId(),
    adjudication: recorder.newCallId(),
  };
  const plan = { phase: 'plan', stepId: 'dual-plan-1' };

  const [claudePlan, gptPlan] = await Promise.all([
    recorder.scope({ ...plan, callId: calls.claudePlan, speaker: 'claude-planner' }, () => ask.claude('You are a planner.', task)),
    recorder.scope({ ...plan, callId: calls.gptPlan, speaker: 'gpt-planner' }, () => ask.gpt('You are a planner.', task)),
  ]);

  // Each side critiques the other's plan.
  const [ofClaude, ofGpt] = await Promise.all([
    recorder.scope({ ...plan, callId: calls.critiqueOfClaude, speaker: 'gpt-critic', parentId: responseIdOf(calls.claudePlan) }, () =>
      ask.gpt('You critique plans: list risks and gaps.', claudePlan),
    ),
    recorder.scope({ ...plan, callId: calls.critiqueOfGpt, speaker: 'claude-critic', parentId: responseIdOf(calls.gptPlan) }, () =>
      ask.claude('You critique plans: list risks and gaps.', gptPlan),
    ),
  ]);

  const decision = await recorder.scope(
    {
      ...plan,
      callId: calls.adjudication,
      speaker: 'adjudicator',
      refs: [responseIdOf(calls.critiqueOfClaude), responseIdOf(calls.critiqueOfGpt)],
    },
    () =>
      ask.claude(
        'You adjudicate between two plans given their critiques. Name the winner and why.',
        `Plan A (claude):\n${claudePlan}\n\nCritique of A:\n${ofClaude}\n\nPlan B (gpt):\n${gptPlan}\n\nCritique of B:\n${ofGpt}`,
      ),
  );

  return { plans: { claude: claudePlan, gpt: gptPlan }, critiques: { ofClaude, ofGpt }, decision, calls };
}

async function main(): Promise<void> {
  const run = await startExample('dual-plan', (request) => {
    const system = String(request.body.system ?? request.body.messages?.[0]?.content ?? '');
    const who = request.api === 'anthropic' ? 'Claude' : 'GPT';
    if (system.startsWith('You are a planner'))
      return { phase: 'plan', reply: { text: `${who}'s plan: 1. form 2. validation 3. session.` } };
    if (system.startsWith('You critique')) return { phase: 'plan', reply: { text: `${who}'s critique: step 3 lacks error handling.` } };
    return { phase: 'plan', reply: { text: 'Plan A wins: its critique found fewer gaps.' } };
  });
  const result = await runDualPlan(run.recorder, run.anthropic, run.openai, 'Add a login page to the web app.');
  if (!run.json) process.stdout.write(`decision: ${result.decision}\n`);
  await run.finish(result);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TurnEvent } from '@baton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/databases.js';
import { memoryLogger, startTestHub, type TestHub } from '../test-support/recorder-harness.js';
import { createRecorder } from './index.js';
import { promptIdOf, responseIdOf } from './turns.js';

/**
 * The examples under examples/ run as users run them (`node --import tsx
 * examples/….ts`, importing `baton/recorder` from the built package), each as
 * a child process with its own fake provider, recording into a real hub.
 * Needs `npm run build` first.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

interface Child {
  process: ChildProcess;
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function runExample(file: string, args: string[]): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', `examples/${file}`, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal === null) process.stderr.write(`examples/${file} failed:\n${err}\n`);
      resolve({ code, signal });
    });
  });
  return { process: child, stdout: () => out, exited };
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const summary = (turns: TurnEvent[]) => turns.map((t) => `${t.phase}:${t.direction}`);

/** The thread's turns, or none while the child has not created it yet. */
const turnsSoFar = (on: TestHub, contextId: string) => on.turns(contextId).catch(() => [] as TurnEvent[]);

let hub: TestHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(async () => {
  await hub.close();
});

describe('examples/pipeline.ts', () => {
  it('runs plan → review → execute → verify; every phase shows one prompt and one response, in order', async () => {
    const child = runExample('pipeline.ts', ['--hub', hub.url, '--context', 'readme-pipeline', '--json']);
    expect(await child.exited).toEqual({ code: 0, signal: null });
    const output = JSON.parse(child.stdout());
    expect(output.result.verdict).toBe('PASS: the diff implements every step.');
    expect(output.stats).toMatchObject({ calls: 4, turnsWritten: 8, failures: 0 });
    const turns = await hub.turns('readme-pipeline');
    expect(summary(turns)).toEqual(['plan', 'review', 'execute', 'verify'].flatMap((p) => [`${p}:prompt`, `${p}:response`]));
    for (let i = 0; i < turns.length; i += 2) {
      const [prompt, response] = [turns[i], turns[i + 1]];
      expect(response?.parentId).toBe(prompt?.id);
      expect(response?.stepId).toBe(`${prompt?.phase}-1`);
      expect(response?.usage?.costUsd).toBeGreaterThan(0);
    }
    expect(turns.map((t) => t.speaker)).toEqual(
      ['claude-planner', 'gpt-reviewer', 'claude-executor', 'gpt-verifier'].flatMap((s) => [s, s]),
    );
  });

  it('killed with SIGKILL while the executor is thinking, it leaves the execute prompt in the store', async () => {
    const child = runExample('pipeline.ts', ['--hub', hub.url, '--context', 'killed-pipeline', '--hang-in', 'execute']);
    const prompt = await until(async () => (await turnsSoFar(hub, 'killed-pipeline')).find((t) => t.phase === 'execute'));
    expect(prompt.direction).toBe('prompt');
    child.process.kill('SIGKILL');
    expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(summary(await hub.turns('killed-pipeline'))).toEqual([
      'plan:prompt',
      'plan:response',
      'review:prompt',
      'review:response',
      'execute:prompt',
    ]);
  });

  it('killed while its hub is down, it leaves its turns in the journal, and the next recorder for that hub stores them', async () => {
    const journal = tempDir('baton-journal-');
    const down = await startTestHub();
    const { port } = new URL(down.url);
    const dataDir = down.dataDir;
    await down.server.close(); // the hub stops; its data directory stays
    let revived: TestHub | null = null;
    try {
      const child = runExample('pipeline.ts', [
        '--hub',
        down.url,
        '--context',
        'journaled',
        '--hang-in',
        'execute',
        '--journal',
        journal.dir,
      ]);
      const journaled = () => readdirSync(journal.dir).map((name) => readFileSync(join(journal.dir, name), 'utf8'));
      // The execute prompt is journaled before the provider call, which hangs: kill it there.
      await until(async () => (journaled().some((text) => text.includes('"phase":"execute"')) ? true : undefined));
      child.process.kill('SIGKILL');
      expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' });

      revived = await startTestHub({ port: Number(port), dataDir });
      expect(await revived.turns('journaled').catch(() => [])).toEqual([]);
      const next = createRecorder({ url: revived.url, contextId: 'next-run', journalDir: journal.dir, logger: memoryLogger() });
      const replayed = await until(async () => {
        const turns = await turnsSoFar(revived as TestHub, 'journaled');
        return turns.length === 5 ? turns : undefined;
      });
      expect(summary(replayed)).toEqual(['plan:prompt', 'plan:response', 'review:prompt', 'review:response', 'execute:prompt']);
      expect(next.stats().turnsReplayed).toBe(5);
      await next.close();
      expect(readdirSync(journal.dir)).toEqual([]);
    } finally {
      await revived?.close();
      rmSync(dataDir, { recursive: true, force: true });
      journal.remove();
    }
  });

  it('keeps going when the hub stops in the middle of the run', async () => {
    const doomed = await startTestHub();
    let stopped = false;
    try {
      const child = runExample('pipeline.ts', ['--hub', doomed.url, '--context', 'hub-stops', '--delay-ms', '300', '--json']);
      await until(async () => ((await turnsSoFar(doomed, 'hub-stops')).length > 0 ? true : undefined));
      await doomed.close();
      stopped = true;
      expect(await child.exited).toEqual({ code: 0, signal: null });
      const output = JSON.parse(child.stdout());
      expect(output.result.verdict).toBe('PASS: the diff implements every step.');
      expect(output.stats.calls).toBe(4);
      expect(output.stats.failures).toBeGreaterThan(0);
      expect(output.turns).toBeNull();
    } finally {
      if (!stopped) await doomed.close();
    }
  });
});

describe('examples/dual-plan.ts', () => {
  it('records five prompt–response pairs in phase plan, critiques threaded to their plans, the adjudication to both critiques', async () => {
    const child = runExample('dual-plan.ts', ['--hub', hub.url, '--context', 'dual-plan', '--json']);
    expect(await child.exited).toEqual({ code: 0, signal: null });
    const { result } = JSON.parse(child.stdout());
    const { calls } = result;
    const turns = await hub.turns('dual-plan');
    expect(turns).toHaveLength(10);
    expect(turns.every((t) => t.phase === 'plan')).toBe(true);
    const byId = new Map(turns.map((t) => [t.id, t]));
    for (const callId of Object.values(calls) as string[]) {
      expect(byId.get(promptIdOf(callId))?.direction).toBe('prompt');
      expect(byId.get(responseIdOf(callId))?.parentId).toBe(promptIdOf(callId));
    }
    expect(byId.get(promptIdOf(calls.critiqueOfClaude))).toMatchObject({ speaker: 'gpt-critic', parentId: responseIdOf(calls.claudePlan) });
    expect(byId.get(promptIdOf(calls.critiqueOfGpt))).toMatchObject({ speaker: 'claude-critic', parentId: responseIdOf(calls.gptPlan) });
    expect(byId.get(promptIdOf(calls.adjudication))).toMatchObject({
      speaker: 'adjudicator',
      refs: [responseIdOf(calls.critiqueOfClaude), responseIdOf(calls.critiqueOfGpt)],
    });
    expect(byId.get(responseIdOf(calls.adjudication))?.content).toEqual([
      { type: 'text', text: 'Plan A wins: its critique found fewer gaps.' },
    ]);
    // Every critique is recorded after the plan it critiques, the adjudication after both critiques.
    const seq = (id: string) => byId.get(id)?.seq ?? 0;
    expect(seq(promptIdOf(calls.critiqueOfClaude))).toBeGreaterThan(seq(responseIdOf(calls.claudePlan)));
    expect(seq(promptIdOf(calls.adjudication))).toBeGreaterThan(
      Math.max(seq(responseIdOf(calls.critiqueOfClaude)), seq(responseIdOf(calls.critiqueOfGpt))),
    );
  });
});

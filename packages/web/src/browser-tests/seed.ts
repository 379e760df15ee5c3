import type { Context, Event, NewEventInput, Task } from '@baton/core';

/** Writes through the REST API as an agent would: the UI must show what agents recorded. */
export class Seeder {
  constructor(
    readonly url: string,
    readonly actor = { id: 'claude-code-1', name: 'Claude Code', runtime: 'claude-code' },
  ) {}

  async #post<T>(path: string, body: unknown, actor = this.actor): Promise<T> {
    const response = await fetch(`${this.url}/api/v1${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-baton-actor': actor.id,
        'x-baton-actor-name': actor.name,
        'x-baton-runtime': actor.runtime,
        'x-baton-role': 'agent',
      },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as T;
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  }

  context(title: string, description = ''): Promise<Context> {
    return this.#post('/contexts', { title, description });
  }

  event(contextId: string, event: NewEventInput, actor = this.actor): Promise<Event> {
    return this.#post(`/contexts/${contextId}/events`, event, actor);
  }

  async events(contextId: string, events: NewEventInput[]): Promise<Event[]> {
    const out: Event[] = [];
    for (let i = 0; i < events.length; i += 1000) {
      const page = await this.#post<{ events: Event[] }>(`/contexts/${contextId}/events`, { events: events.slice(i, i + 1000) });
      out.push(...page.events);
    }
    return out;
  }

  task(contextId: string, title: string): Promise<Task> {
    return this.#post(`/contexts/${contextId}/tasks`, { title });
  }

  async moveTask(id: string, state: string): Promise<Task> {
    const response = await fetch(`${this.url}/api/v1/tasks/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-baton-actor': this.actor.id },
      body: JSON.stringify({ state }),
    });
    if (!response.ok) throw new Error(`PATCH task: ${response.status} ${await response.text()}`);
    return (await response.json()) as Task;
  }

  checkpoint(body: Record<string, unknown>): Promise<{ id: string }> {
    return this.#post('/checkpoints', body);
  }

  async list(contextId: string, query = ''): Promise<Event[]> {
    const response = await fetch(`${this.url}/api/v1/contexts/${contextId}/events?limit=1000${query}`);
    return ((await response.json()) as { events: Event[] }).events;
  }
}

const text = (t: string) => [{ type: 'text' as const, text: t }];

/**
 * A dual-plan pipeline run (reference/003): two planners, two critiques
 * threaded to the plan they answer, an adjudicator, then review, execute
 * (with tool use, a tool result and thinking), verify, and a phase of
 * the pipeline's own ("triage"). Returns the turns in order.
 */
export async function seedPipeline(seeder: Seeder, contextId: string): Promise<Event[]> {
  const turn = (fields: Partial<NewEventInput> & Record<string, unknown>) =>
    ({ kind: 'turn', direction: 'response', ...fields }) as NewEventInput;
  const [planA] = await seeder.events(contextId, [
    turn({
      phase: 'plan',
      round: 1,
      speaker: 'claude-planner',
      provider: 'anthropic',
      model: 'claude-sonnet-4',
      usage: { inputTokens: 1200, outputTokens: 800, costUsd: 0.0156 },
      content: text('## Plan A\n\n1. Add OAuth middleware\n2. Write tests\n\n```ts\nexport const trustHost = true;\n```'),
    }),
  ]);
  const [planB] = await seeder.events(contextId, [
    turn({
      phase: 'plan',
      round: 1,
      speaker: 'codex-planner',
      provider: 'openai',
      model: 'gpt-5',
      usage: { inputTokens: 1100, outputTokens: 650, costUsd: 0.011 },
      content: text('## Plan B\n\nUse email + password with bcrypt.'),
    }),
  ]);
  await seeder.events(contextId, [
    turn({
      phase: 'critique',
      speaker: 'codex-critic',
      provider: 'openai',
      model: 'gpt-5',
      parentId: planA!.id,
      usage: { inputTokens: 900, outputTokens: 300, costUsd: 0.006 },
      content: text('Plan A forgets token refresh.'),
    }),
    turn({
      phase: 'critique',
      speaker: 'claude-critic',
      provider: 'anthropic',
      model: 'claude-sonnet-4',
      parentId: planB!.id,
      content: text('Plan B stores passwords: avoid.'),
    }),
    turn({
      phase: 'adjudicate',
      speaker: 'adjudicator',
      provider: 'openrouter',
      model: 'o3',
      content: text('Plan A wins, with token refresh added.'),
    }),
    turn({
      phase: 'review',
      direction: 'prompt',
      speaker: 'reviewer',
      provider: 'anthropic',
      model: 'claude-opus-4',
      content: text('Review the plan.'),
    }),
    turn({
      phase: 'review',
      speaker: 'reviewer',
      provider: 'anthropic',
      model: 'claude-opus-4',
      usage: { inputTokens: 400, outputTokens: null, costUsd: null },
      content: text('Approved.'),
    }),
    turn({
      phase: 'execute',
      speaker: 'executor',
      provider: 'anthropic',
      model: 'claude-sonnet-4',
      usage: { inputTokens: 5000, outputTokens: 2500, costUsd: 0.05 },
      content: [
        { type: 'thinking', thinking: 'I should read the middleware first.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'src/auth/middleware.ts' } },
        { type: 'tool_result', toolUseId: 'toolu_1', content: text('export function auth() {}'), isError: false },
        { type: 'text', text: 'Ran the tests:\n\nTypeError: cannot read properties of undefined (reading "token")' },
      ],
    }),
    turn({
      phase: 'verify',
      speaker: 'verifier',
      provider: 'openai',
      model: 'gpt-5-mini',
      content: text(Array.from({ length: 45 }, (_, i) => `check line ${i + 1}`).join('\n')),
    }),
    turn({ phase: 'triage', speaker: 'triager', provider: 'mistral', model: 'mistral-large', content: text('Nothing to triage.') }),
  ]);
  return seeder.list(contextId, '&kind=turn');
}

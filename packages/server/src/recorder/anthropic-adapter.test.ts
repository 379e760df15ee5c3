import Anthropic from '@anthropic-ai/sdk';
import type { TurnEvent } from '@baton/core';
import { describe, expect, it } from 'vitest';
import type { FakeReply } from '../../../../examples/fake-provider.js';
import { useProviderHarness } from '../test-support/recorder-harness.js';
import { type Recorder, wrapAnthropic } from './index.js';

/** The real `@anthropic-ai/sdk` client, pointed at a local server speaking the Messages API (JSON and SSE). */
const harness = useProviderHarness();

function setup(next: FakeReply = {}): { raw: Anthropic; client: Anthropic; rec: Recorder; turns: () => Promise<TurnEvent[]> } {
  const { rec, turns } = harness.thread('anthropic', next);
  const raw = new Anthropic({ apiKey: 'test-key', baseURL: harness.fake.anthropicBaseURL, maxRetries: 0 });
  const client = wrapAnthropic(raw, rec, { speaker: 'claude' });
  return { raw, client, rec, turns };
}

const REQUEST = {
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  system: 'You plan software changes.',
  tools: [
    { name: 'read_file', description: 'Read a file', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } } } },
  ],
  messages: [
    { role: 'user' as const, content: 'Plan the login page.' },
    {
      role: 'assistant' as const,
      content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'read_file', input: { path: 'login.tsx' } }],
    },
    {
      role: 'user' as const,
      content: [
        { type: 'tool_result' as const, tool_use_id: 'toolu_1', content: 'export function Login() {}' },
        { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBORw0KGgo=' } },
      ],
    },
  ],
};

const ANSWER: FakeReply = {
  text: 'Step 1: add a form.',
  thinking: 'The user wants a login page.',
  toolCalls: [{ id: 'toolu_2', name: 'read_file', input: { path: 'routes.ts' } }],
  usage: { input: 1000, output: 200, cacheRead: 4000, cacheWrite: 500 },
};

// claude-sonnet-4-6: $3 input, $15 output, $0.30 cache hits, $3.75 cache writes per million tokens.
const COST = (1000 * 3 + 200 * 15 + 4000 * 0.3 + 500 * 3.75) / 1e6;

describe('wrapAnthropic', () => {
  it('records messages.create: content blocks, model, usage and cost; the result is what the bare SDK returns', async () => {
    const { raw, client, turns } = setup(ANSWER);
    const recorded = await client.messages.create(REQUEST);
    const bare = await raw.messages.create(REQUEST);
    expect(JSON.stringify(recorded)).toBe(JSON.stringify(bare));
    expect(recorded._request_id).toBe('req_fake');

    const [prompt, response] = await turns();
    expect(prompt).toMatchObject({
      direction: 'prompt',
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      speaker: 'claude',
      content: [
        { type: 'text', text: 'You plan software changes.' },
        { type: 'text', text: 'Plan the login page.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'login.tsx' } },
        { type: 'tool_result', toolUseId: 'toolu_1', content: [{ type: 'text', text: 'export function Login() {}' }], isError: false },
        { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      ],
      metadata: {
        messages: [
          { role: 'system', blocks: 1 },
          { role: 'user', blocks: 1 },
          { role: 'assistant', blocks: 1 },
          { role: 'user', blocks: 2 },
        ],
        request: { model: 'claude-sonnet-4-6', max_tokens: 1024, tools: REQUEST.tools },
      },
    });
    expect(response).toMatchObject({
      direction: 'response',
      parentId: prompt?.id,
      model: 'claude-sonnet-4-6',
      content: [
        { type: 'thinking', thinking: 'The user wants a login page.', signature: 'sig_fake' },
        { type: 'text', text: 'Step 1: add a form.' },
        { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'routes.ts' } },
      ],
      usage: { inputTokens: 5500, outputTokens: 200, costUsd: COST },
      metadata: { responseId: 'msg_fake', stopReason: 'tool_use' },
      error: null,
    });
  });

  it('records a stream when it completes, with the same events reaching the caller', async () => {
    const { raw, client, turns } = setup(ANSWER);
    const seen: unknown[] = [];
    for await (const event of await client.messages.create({ ...REQUEST, stream: true })) seen.push(event);
    const bare: unknown[] = [];
    for await (const event of await raw.messages.create({ ...REQUEST, stream: true })) bare.push(event);
    expect(seen).toEqual(bare);
    const [, response] = await turns();
    expect(response).toMatchObject({
      content: [
        { type: 'thinking', thinking: 'The user wants a login page.', signature: 'sig_fake' },
        { type: 'text', text: 'Step 1: add a form.' },
        { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'routes.ts' } },
      ],
      usage: { inputTokens: 5500, outputTokens: 200, costUsd: COST },
      metadata: { stopReason: 'tool_use' },
      error: null,
    });
  });

  it('records the messages.stream() helper once, and finalMessage() is unchanged', async () => {
    const { client, turns } = setup({ text: 'Streamed plan.' });
    const message = await client.messages
      .stream({ model: 'claude-haiku-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Go.' }] })
      .finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'Streamed plan.', citations: null }]);
    const recorded = await turns();
    expect(recorded.map((t) => t.direction)).toEqual(['prompt', 'response']);
    expect(recorded[1]?.content).toEqual([{ type: 'text', text: 'Streamed plan.' }]);
  });

  it('records a broken stream as failed, with the part that arrived', async () => {
    const { client, turns } = setup({ text: 'abcdefghi', breakAfterEvents: 4 });
    const stream = await client.messages.create({ ...REQUEST, stream: true });
    let caught: unknown;
    try {
      for await (const _ of stream);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    const [, response] = await turns();
    expect(response?.content[0]).toEqual({ type: 'text', text: 'abc' });
    expect(response?.error?.message).toContain((caught as Error).message);
  });

  it("records the provider's error event mid-stream with its type as the code", async () => {
    const { client, turns } = setup({ text: 'abcdefghi', errorEventAfter: 3 });
    const stream = await client.messages.create({ ...REQUEST, stream: true });
    await expect(async () => {
      for await (const _ of stream);
    }).rejects.toBeInstanceOf(Anthropic.APIError);
    const [, response] = await turns();
    expect(response?.error).toMatchObject({ code: 'overloaded_error' });
  });

  it('records a caller that stops reading early as an incomplete stream', async () => {
    const { client, turns } = setup({ text: 'abcdefghi' });
    const stream = await client.messages.create({ ...REQUEST, stream: true });
    for await (const event of stream) if (event.type === 'content_block_delta') break;
    const [, response] = await turns();
    expect(response?.error).toEqual({
      message: 'StreamIncompleteError: the stream ended before the provider finished its answer (the caller stopped reading or aborted it)',
      code: 'StreamIncompleteError',
    });
    expect(response?.content[0]).toEqual({ type: 'text', text: 'abc' });
  });

  it('records an HTTP error as an error response and rethrows the SDK error unchanged', async () => {
    const { client, turns } = setup({ error: { status: 400, type: 'invalid_request_error', message: 'max_tokens: too large' } });
    const error = await client.messages.create(REQUEST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
    const [prompt, response] = await turns();
    expect(prompt?.direction).toBe('prompt');
    expect(response?.error).toEqual({ message: expect.stringContaining('max_tokens: too large'), code: 'invalid_request_error' });
  });

  it('keeps withResponse() and asResponse() working', async () => {
    const { client, turns } = setup({ text: 'hi' });
    const { data, response } = await client.messages.create(REQUEST).withResponse();
    expect(data.content[0]).toMatchObject({ type: 'text', text: 'hi' });
    expect(response.headers.get('request-id')).toBe('req_fake');
    const rawResponse = await client.messages.create(REQUEST).asResponse();
    expect(((await rawResponse.json()) as { content: { text: string }[] }).content[0]?.text).toBe('hi');
    const recorded = await turns();
    expect(recorded.map((t) => t.direction)).toEqual(['prompt', 'response', 'prompt', 'response']);
    expect(recorded[3]?.metadata.rawResponse).toEqual({ status: 200, note: 'the caller read the raw HTTP response' });
  });

  it('leaves the original client unrecorded, and withOptions() keeps recording', async () => {
    const { raw, client, turns } = setup({ text: 'x' });
    await raw.messages.create(REQUEST);
    await client.withOptions({ timeout: 5000 }).messages.create(REQUEST);
    expect(await turns()).toHaveLength(2);
  });
});

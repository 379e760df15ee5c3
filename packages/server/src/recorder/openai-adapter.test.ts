import type { TurnEvent } from '@baton/core';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { FakeReply } from '../../../../examples/fake-provider.js';
import { useProviderHarness } from '../test-support/recorder-harness.js';
import { type Recorder, wrapOpenAI } from './index.js';

/** The real `openai` client, pointed at a local server speaking Chat Completions and Responses (JSON and SSE). */
const harness = useProviderHarness();

function setup(next: FakeReply = {}, meta = {}): { raw: OpenAI; client: OpenAI; rec: Recorder; turns: () => Promise<TurnEvent[]> } {
  const { rec, turns } = harness.thread('openai', next);
  const raw = new OpenAI({ apiKey: 'test-key', baseURL: harness.fake.openaiBaseURL, maxRetries: 0 });
  return { raw, client: wrapOpenAI(raw, rec, meta), rec, turns };
}

const ANSWER: FakeReply = {
  text: 'Approved with one note.',
  toolCalls: [{ id: 'call_1', name: 'run_tests', input: { suite: 'login' } }],
  usage: { input: 800, output: 120, cacheRead: 1200 },
};

const CHAT = {
  model: 'gpt-4.1-2025-04-14',
  messages: [
    { role: 'developer' as const, content: 'You review plans.' },
    {
      role: 'user' as const,
      content: [
        { type: 'text' as const, text: 'Review this plan.' },
        { type: 'image_url' as const, image_url: { url: 'https://example.com/diagram.png' } },
      ],
    },
    {
      role: 'assistant' as const,
      content: null,
      tool_calls: [{ id: 'call_0', type: 'function' as const, function: { name: 'read_plan', arguments: '{"id":7}' } }],
    },
    { role: 'tool' as const, tool_call_id: 'call_0', content: 'Step 1: add a form.' },
  ],
  tools: [{ type: 'function' as const, function: { name: 'run_tests', parameters: { type: 'object', properties: {} } } }],
};

// gpt-4.1: $2 input, $0.50 cached input, $8 output per million tokens.
const CHAT_COST = (800 * 2 + 1200 * 0.5 + 120 * 8) / 1e6;

describe('wrapOpenAI: chat.completions', () => {
  it('records create: messages, tool calls, usage with cached tokens and cost; the result is what the bare SDK returns', async () => {
    const { raw, client, turns } = setup(ANSWER);
    const recorded = await client.chat.completions.create(CHAT);
    expect(JSON.stringify(recorded)).toBe(JSON.stringify(await raw.chat.completions.create(CHAT)));
    const [prompt, response] = await turns();
    expect(prompt).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1-2025-04-14',
      content: [
        { type: 'text', text: 'You review plans.' },
        { type: 'text', text: 'Review this plan.' },
        { type: 'image', mediaType: 'image/*', uri: 'https://example.com/diagram.png' },
        { type: 'tool_use', id: 'call_0', name: 'read_plan', input: { id: 7 } },
        { type: 'tool_result', toolUseId: 'call_0', content: [{ type: 'text', text: 'Step 1: add a form.' }] },
      ],
      metadata: {
        messages: [
          { role: 'developer', blocks: 1 },
          { role: 'user', blocks: 2 },
          { role: 'assistant', blocks: 1 },
          { role: 'tool', blocks: 1 },
        ],
      },
    });
    expect(response).toMatchObject({
      content: [
        { type: 'text', text: 'Approved with one note.' },
        { type: 'tool_use', id: 'call_1', name: 'run_tests', input: { suite: 'login' } },
      ],
      usage: { inputTokens: 2000, outputTokens: 120, costUsd: CHAT_COST },
      metadata: { responseId: 'chatcmpl-fake', choices: [{ index: 0, blocks: 2, finishReason: 'tool_calls' }] },
    });
  });

  it('records a stream when it completes; usage only when the caller asked for it (the recorder never changes the request)', async () => {
    const { raw, client, turns } = setup(ANSWER);
    const seen: unknown[] = [];
    for await (const chunk of await client.chat.completions.create({ ...CHAT, stream: true, stream_options: { include_usage: true } }))
      seen.push(chunk);
    const bare: unknown[] = [];
    for await (const chunk of await raw.chat.completions.create({ ...CHAT, stream: true, stream_options: { include_usage: true } }))
      bare.push(chunk);
    expect(seen).toEqual(bare);
    for await (const _ of await client.chat.completions.create({ ...CHAT, stream: true }));
    expect(harness.fake.requests.at(-1)?.body.stream_options).toBeUndefined();
    const [, withUsage, , withoutUsage] = await turns();
    expect(withUsage).toMatchObject({
      content: [
        { type: 'text', text: 'Approved with one note.' },
        { type: 'tool_use', id: 'call_1', name: 'run_tests', input: { suite: 'login' } },
      ],
      usage: { inputTokens: 2000, outputTokens: 120, costUsd: CHAT_COST },
      error: null,
    });
    expect(withoutUsage).toMatchObject({ usage: { inputTokens: null, outputTokens: null, costUsd: null }, error: null });
  });

  it('records a broken stream as failed with what arrived', async () => {
    const { client, turns } = setup({ text: 'abcdefghi', breakAfterEvents: 3 });
    await expect(async () => {
      for await (const _ of await client.chat.completions.create({ ...CHAT, stream: true }));
    }).rejects.toThrow();
    const [, response] = await turns();
    expect(response?.content).toEqual([
      { type: 'text', text: 'abcdef' },
      { type: 'text', text: 'The provider call failed: TypeError: terminated' },
    ]);
    expect(response?.error).toEqual({ message: 'TypeError: terminated', code: 'TypeError' });
  });

  it('records the chat.completions.stream() helper once', async () => {
    const { client, turns } = setup({ text: 'streamed' });
    const completion = await client.chat.completions
      .stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
      .finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe('streamed');
    const recorded = await turns();
    expect(recorded.map((t) => t.direction)).toEqual(['prompt', 'response']);
    expect(recorded[1]?.content).toEqual([{ type: 'text', text: 'streamed' }]);
  });

  it('records chat.completions.parse() (built on create()._thenUnwrap) once, with its parsed result intact', async () => {
    const { client, turns } = setup({ text: '{"approved":true}' });
    const completion = await client.chat.completions.parse({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Approve?' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'verdict',
          strict: true,
          schema: { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'], additionalProperties: false },
        },
      },
    });
    expect(completion.choices[0]?.message.parsed).toEqual({ approved: true });
    const recorded = await turns();
    expect(recorded.map((t) => t.direction)).toEqual(['prompt', 'response']);
    expect(recorded[1]?.content).toEqual([{ type: 'text', text: '{"approved":true}' }]);
  });

  it('records an HTTP error and rethrows the SDK error; a provider name can be set for compatible services', async () => {
    const { client, turns } = setup(
      { error: { status: 429, type: 'rate_limit_exceeded', message: 'Slow down' } },
      { provider: 'openrouter' },
    );
    await expect(client.chat.completions.create(CHAT)).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    const [prompt, response] = await turns();
    expect(prompt?.provider).toBe('openrouter');
    expect(response?.error).toEqual({ message: expect.stringContaining('Slow down'), code: 'rate_limit_exceeded' });
  });
});

const RESPONSES = {
  model: 'gpt-5-mini',
  instructions: 'You verify changes.',
  input: [
    { role: 'user' as const, content: [{ type: 'input_text' as const, text: 'Verify the diff.' }] },
    { type: 'function_call' as const, call_id: 'call_0', name: 'diff', arguments: '{}' },
    { type: 'function_call_output' as const, call_id: 'call_0', output: '+ <form>' },
  ],
};

describe('wrapOpenAI: responses', () => {
  it('records create: instructions, input items, reasoning, output and usage', async () => {
    const { raw, client, turns } = setup({ ...ANSWER, thinking: 'Checking the form.' });
    const recorded = await client.responses.create(RESPONSES);
    expect(recorded.output_text).toBe('Approved with one note.');
    expect(JSON.stringify(recorded)).toBe(JSON.stringify(await raw.responses.create(RESPONSES)));
    const [prompt, response] = await turns();
    expect(prompt?.content).toEqual([
      { type: 'text', text: 'You verify changes.' },
      { type: 'text', text: 'Verify the diff.' },
      { type: 'tool_use', id: 'call_0', name: 'diff', input: {} },
      { type: 'tool_result', toolUseId: 'call_0', content: [{ type: 'text', text: '+ <form>' }], isError: false },
    ]);
    expect(response).toMatchObject({
      model: 'gpt-5-mini',
      content: [
        { type: 'thinking', thinking: 'Checking the form.' },
        { type: 'text', text: 'Approved with one note.' },
        { type: 'tool_use', id: 'call_1', name: 'run_tests', input: { suite: 'login' } },
      ],
      // gpt-5-mini: $0.25 input, $0.025 cached, $2 output per million tokens.
      usage: { inputTokens: 2000, outputTokens: 120, costUsd: (800 * 0.25 + 1200 * 0.025 + 120 * 2) / 1e6 },
      metadata: { responseId: 'resp_fake', status: 'completed' },
    });
  });

  it('records a stream from its response.completed event, and the responses.stream() helper once', async () => {
    const { client, turns } = setup({ text: 'All checks pass.', usage: { input: 50, output: 5 } });
    const events: string[] = [];
    for await (const event of await client.responses.create({ ...RESPONSES, stream: true })) events.push(event.type);
    expect(events.at(-1)).toBe('response.completed');
    const final = await client.responses.stream({ model: 'gpt-5-mini', input: 'again' }).finalResponse();
    expect(final.output_text).toBe('All checks pass.');
    const recorded = await turns();
    expect(recorded.map((t) => t.direction)).toEqual(['prompt', 'response', 'prompt', 'response']);
    for (const response of [recorded[1], recorded[3]]) {
      expect(response).toMatchObject({
        content: [{ type: 'text', text: 'All checks pass.' }],
        usage: { inputTokens: 50, outputTokens: 5 },
        error: null,
      });
    }
  });

  it("records the stream's error event as the failure", async () => {
    const { client, turns } = setup({ text: 'abcdefghi', errorEventAfter: 3 });
    const seen: string[] = [];
    for await (const event of await client.responses.create({ ...RESPONSES, stream: true })) seen.push(event.type);
    expect(seen.at(-1)).toBe('error');
    const [, response] = await turns();
    expect(response?.error?.message).toBe('Error: The server had an error while processing your request.');
  });
});

import type { FakeApi, FakeReply } from './fake-provider.js';

/**
 * The fake provider's wire formats: what the Anthropic Messages API, OpenAI
 * Chat Completions and OpenAI Responses answer, as JSON bodies and as the
 * server-sent events their SDKs parse.
 */
export interface Answer {
  text: string;
  thinking: string | undefined;
  toolCalls: { id: string; name: string; input: unknown }[];
  model: string;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are whatever the SDK sent.
export function complete(reply: FakeReply, body: any): Answer {
  const text = reply.text ?? `echo: ${lastUserText(body)}`;
  return {
    text,
    thinking: reply.thinking,
    toolCalls: reply.toolCalls ?? [],
    model: reply.model ?? String(body.model ?? 'fake-model'),
    usage: { cacheRead: 0, cacheWrite: 0, ...(reply.usage ?? { input: 10, output: Math.max(1, Math.ceil(text.length / 4)) }) },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are whatever the SDK sent.
function lastUserText(body: any): string {
  if (typeof body.input === 'string') return body.input;
  const messages: unknown[] = body.messages ?? body.input ?? [];
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const last = [...messages].reverse().find((m: any) => m?.role === 'user') as any;
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  return (last.content ?? []).map((p: any) => p.text ?? '').join('');
}

export function sse(event: string | null, data: unknown): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

export function errorEvent(api: FakeApi): unknown {
  if (api === 'anthropic') return { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
  if (api === 'chat') return { error: { type: 'server_error', message: 'The server had an error while processing your request.' } };
  return {
    type: 'error',
    code: 'server_error',
    message: 'The server had an error while processing your request.',
    param: null,
    sequence_number: 99,
  };
}

type Event = { event: string | null; data: unknown };
// biome-ignore lint/suspicious/noExplicitAny: request bodies are whatever the SDK sent.
export const WIRE: Record<FakeApi, { json(a: Answer, body: any): unknown; events(a: Answer, body: any): Event[] }> = {
  anthropic: {
    json: (a) => ({
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model: a.model,
      content: [
        ...(a.thinking ? [{ type: 'thinking', thinking: a.thinking, signature: 'sig_fake' }] : []),
        { type: 'text', text: a.text, citations: null },
        ...a.toolCalls.map((t) => ({ type: 'tool_use', id: t.id, name: t.name, input: t.input })),
      ],
      stop_reason: a.toolCalls.length ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: anthropicUsage(a),
    }),
    events: (a) => {
      const e = (type: string, rest: object): Event => ({ event: type, data: { type, ...rest } });
      const out: Event[] = [
        e('message_start', {
          message: {
            id: 'msg_fake',
            type: 'message',
            role: 'assistant',
            model: a.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { ...anthropicUsage(a), output_tokens: 1 },
          },
        }),
      ];
      let index = 0;
      if (a.thinking) {
        out.push(e('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
        out.push(e('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: a.thinking } }));
        out.push(e('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'sig_fake' } }));
        out.push(e('content_block_stop', { index: index++ }));
      }
      out.push(e('content_block_start', { index, content_block: { type: 'text', text: '', citations: null } }));
      out.push({ event: 'ping', data: { type: 'ping' } });
      for (const piece of split(a.text)) out.push(e('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
      out.push(e('content_block_stop', { index: index++ }));
      for (const t of a.toolCalls) {
        const json = JSON.stringify(t.input);
        out.push(e('content_block_start', { index, content_block: { type: 'tool_use', id: t.id, name: t.name, input: {} } }));
        for (const piece of split(json))
          out.push(e('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
        out.push(e('content_block_stop', { index: index++ }));
      }
      out.push(
        e('message_delta', {
          delta: { stop_reason: a.toolCalls.length ? 'tool_use' : 'end_turn', stop_sequence: null },
          usage: { output_tokens: a.usage.output },
        }),
      );
      out.push(e('message_stop', {}));
      return out;
    },
  },
  chat: {
    json: (a) => ({
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_760_000_000,
      model: a.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: a.text,
            refusal: null,
            ...(a.toolCalls.length ? { tool_calls: a.toolCalls.map(chatToolCall) } : {}),
          },
          finish_reason: a.toolCalls.length ? 'tool_calls' : 'stop',
          logprobs: null,
        },
      ],
      usage: chatUsage(a),
    }),
    events: (a, body) => {
      const chunk = (choices: unknown[], extra: object = {}): Event => ({
        event: null,
        data: { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_760_000_000, model: a.model, choices, ...extra },
      });
      const out: Event[] = [chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }])];
      for (const piece of split(a.text)) out.push(chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]));
      a.toolCalls.forEach((t, i) => {
        out.push(
          chunk([
            {
              index: 0,
              delta: { tool_calls: [{ index: i, id: t.id, type: 'function', function: { name: t.name, arguments: '' } }] },
              finish_reason: null,
            },
          ]),
        );
        for (const piece of split(JSON.stringify(t.input)))
          out.push(chunk([{ index: 0, delta: { tool_calls: [{ index: i, function: { arguments: piece } }] }, finish_reason: null }]));
      });
      out.push(chunk([{ index: 0, delta: {}, finish_reason: a.toolCalls.length ? 'tool_calls' : 'stop' }]));
      if (body.stream_options?.include_usage) out.push(chunk([], { usage: chatUsage(a) }));
      return out;
    },
  },
  responses: {
    json: (a) => responseObject(a, 'completed'),
    events: (a) => {
      const final = responseObject(a, 'completed') as { output: unknown[] };
      const e = (type: string, rest: object, seq: number): Event => ({ event: type, data: { type, sequence_number: seq, ...rest } });
      let seq = 0;
      const out: Event[] = [e('response.created', { response: { ...responseObject(a, 'in_progress'), output: [], usage: null } }, seq++)];
      final.output.forEach((item, output_index) => {
        const it = item as { type: string; id: string };
        out.push(
          e('response.output_item.added', { output_index, item: { ...it, ...(it.type === 'message' ? { content: [] } : {}) } }, seq++),
        );
        if (it.type === 'message') {
          const part = { item_id: it.id, output_index, content_index: 0 };
          out.push(e('response.content_part.added', { ...part, part: { type: 'output_text', text: '', annotations: [] } }, seq++));
          for (const delta of split(a.text)) out.push(e('response.output_text.delta', { ...part, delta, logprobs: [] }, seq++));
          out.push(e('response.output_text.done', { ...part, text: a.text, logprobs: [] }, seq++));
          out.push(e('response.content_part.done', { ...part, part: { type: 'output_text', text: a.text, annotations: [] } }, seq++));
        }
        out.push(e('response.output_item.done', { output_index, item }, seq++));
      });
      out.push(e('response.completed', { response: final }, seq++));
      return out;
    },
  },
};

function split(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.length ? pieces : [''];
}

function anthropicUsage(a: Answer) {
  return {
    input_tokens: a.usage.input,
    output_tokens: a.usage.output,
    cache_creation_input_tokens: a.usage.cacheWrite,
    cache_read_input_tokens: a.usage.cacheRead,
    service_tier: 'standard',
  };
}

function chatUsage(a: Answer) {
  const prompt = a.usage.input + a.usage.cacheRead;
  return {
    prompt_tokens: prompt,
    completion_tokens: a.usage.output,
    total_tokens: prompt + a.usage.output,
    prompt_tokens_details: { cached_tokens: a.usage.cacheRead },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

function chatToolCall(t: Answer['toolCalls'][number]) {
  return { id: t.id, type: 'function', function: { name: t.name, arguments: JSON.stringify(t.input) } };
}

function responseObject(a: Answer, status: string): Record<string, unknown> {
  const prompt = a.usage.input + a.usage.cacheRead;
  return {
    id: 'resp_fake',
    object: 'response',
    created_at: 1_760_000_000,
    status,
    model: a.model,
    output: [
      ...(a.thinking ? [{ type: 'reasoning', id: 'rs_fake', summary: [{ type: 'summary_text', text: a.thinking }] }] : []),
      {
        type: 'message',
        id: 'msg_fake',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: a.text, annotations: [] }],
      },
      ...a.toolCalls.map((t, i) => ({
        type: 'function_call',
        id: `fc_${i}`,
        call_id: t.id,
        name: t.name,
        arguments: JSON.stringify(t.input),
        status: 'completed',
      })),
    ],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: {
      input_tokens: prompt,
      input_tokens_details: { cached_tokens: a.usage.cacheRead },
      output_tokens: a.usage.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: prompt + a.usage.output,
    },
  };
}

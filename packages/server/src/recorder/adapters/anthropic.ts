import type { ToolResultContent } from '@baton/core';
import type { z } from 'zod';
import type { Recorder } from '../recorder.js';
import type { CallMeta, ContentBlockInput, PromptRecord, ResponseRecord, UsageInput } from '../types.js';
import { type Endpoint, proxyClient, proxyResource, recordedCreate, type StreamAccumulator, toJson } from './api-call.js';
import { checked, imageFromUrl, int, list, obj, PromptBuilder, parseArguments, str, strOrNull, type Wire } from './blocks.js';

/**
 * Records `client.messages.create` of an `@anthropic-ai/sdk` client (and the
 * helpers built on it: `messages.stream`, `messages.parse`). The client is
 * wrapped, not changed: the original keeps working unrecorded.
 *
 * ```ts
 * const anthropic = wrapAnthropic(new Anthropic(), recorder, { speaker: 'claude-planner' });
 * await recorder.scope({ phase: 'plan', stepId }, () => anthropic.messages.create({ … }));
 * ```
 */
export function wrapAnthropic<C extends object>(client: C, recorder: Recorder, meta: CallMeta = {}): C {
  const base: CallMeta = { provider: 'anthropic', ...meta };
  const context = { start: (model: string | null, prompt: PromptRecord) => recorder.start(model ? { model } : {}, prompt, base) };
  let wrapped: C;
  const resources = {
    messages: (messages: object) => {
      const create = (messages as { create: Parameters<typeof recordedCreate>[0] }).create;
      return proxyResource(messages, recordedCreate(create, messages, ANTHROPIC_MESSAGES, context), () => wrapped);
    },
  };
  wrapped = proxyClient(client, resources, (other) => wrapAnthropic(other, recorder, meta));
  return wrapped;
}

export const ANTHROPIC_MESSAGES: Endpoint = {
  provider: 'anthropic',
  model: (body) => strOrNull(obj(body).model),
  streaming: (body) => obj(body).stream === true,
  prompt: anthropicPrompt,
  response: anthropicResponse,
  accumulator: () => new AnthropicStream(),
};

export function anthropicPrompt(body: unknown): PromptRecord {
  const { messages, system, ...params } = obj(body);
  const prompt = new PromptBuilder();
  if (typeof system === 'string') prompt.add('system', system ? [{ type: 'text', text: system }] : []);
  else prompt.add('system', list(system).map(fromBlock));
  for (const message of list(messages)) {
    const m = obj(message);
    prompt.add(str(m.role) || 'user', typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : list(m.content).map(fromBlock));
  }
  return { content: prompt.blocks, metadata: { request: toJson(params), messages: prompt.layout } };
}

export function anthropicResponse(data: unknown): ResponseRecord {
  const message = obj(data);
  const usage = obj(message.usage);
  return {
    content: list(message.content).map(fromBlock),
    model: strOrNull(message.model),
    usage: anthropicUsage(usage),
    metadata: {
      responseId: strOrNull(message.id),
      stopReason: strOrNull(message.stop_reason),
      usage: toJson(message.usage ?? null),
    },
  };
}

/** Anthropic's input_tokens exclude cache reads and writes; a turn's inputTokens count the whole prompt. */
function anthropicUsage(usage: Wire): UsageInput | null {
  const input = int(usage.input_tokens);
  const output = int(usage.output_tokens);
  if (input === null && output === null) return null;
  const cacheRead = int(usage.cache_read_input_tokens) ?? 0;
  const cacheWrite = int(usage.cache_creation_input_tokens) ?? 0;
  return {
    inputTokens: input === null ? null : input + cacheRead + cacheWrite,
    outputTokens: output,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}

/** One Anthropic content block (request or response side) as a baton block. */
function fromBlock(value: unknown): ContentBlockInput {
  const b = obj(value);
  switch (b.type) {
    case 'text':
      return checked({ type: 'text', text: str(b.text) }, value);
    case 'thinking':
      return checked(
        { type: 'thinking', thinking: str(b.thinking), ...(typeof b.signature === 'string' ? { signature: b.signature } : {}) },
        value,
      );
    case 'redacted_thinking':
      return checked({ type: 'redacted_thinking', data: str(b.data) }, value);
    case 'tool_use':
    case 'server_tool_use':
      return checked({ type: b.type, id: str(b.id), name: str(b.name), input: toJson(b.input ?? {}) }, value);
    case 'tool_result':
      return checked(
        {
          type: 'tool_result',
          toolUseId: str(b.tool_use_id),
          content: typeof b.content === 'string' ? [{ type: 'text', text: b.content }] : list(b.content).map(fromResultPart),
          isError: b.is_error === true,
        },
        value,
      );
    case 'web_search_tool_result':
      return checked({ type: 'web_search_tool_result', toolUseId: str(b.tool_use_id), content: toJson(b.content ?? null) }, value);
    case 'image':
      return checked(fromImage(obj(b.source)), value);
    default:
      return { type: 'data', data: toJson(value) };
  }
}

function fromImage(source: Wire): ContentBlockInput {
  if (source.type === 'base64') return { type: 'image', mediaType: str(source.media_type), data: str(source.data) };
  if (source.type === 'url') return imageFromUrl(str(source.url));
  if (source.type === 'file') return { type: 'file', uri: `anthropic-file:${str(source.file_id)}`, mediaType: 'image/*' };
  return { type: 'data', data: toJson(source) };
}

type ResultPart = z.input<typeof ToolResultContent>;

function fromResultPart(value: unknown): ResultPart {
  const b = obj(value);
  if (b.type === 'text') return { type: 'text', text: str(b.text) };
  if (b.type === 'image') {
    const image = fromImage(obj(b.source));
    if (image.type === 'image' || image.type === 'file') return image;
  }
  return { type: 'data', data: toJson(value) };
}

/** Rebuilds a Message from `message_start`, `content_block_*`, `message_delta` and `message_stop` events. */
class AnthropicStream implements StreamAccumulator {
  complete = false;
  error: Error | null = null;
  #message: Wire = {};
  #usage: Wire = {};
  readonly #blocks: Wire[] = [];
  readonly #json = new Map<number, string>();

  add(event: unknown): void {
    const e = obj(event);
    const index = int(e.index) ?? 0;
    switch (e.type) {
      case 'message_start':
        this.#message = { ...obj(e.message) };
        this.#usage = { ...obj(this.#message.usage) };
        break;
      case 'content_block_start': {
        const block = { ...obj(e.content_block) };
        this.#blocks[index] = block;
        if (block.type === 'tool_use' || block.type === 'server_tool_use') this.#json.set(index, '');
        break;
      }
      case 'content_block_delta':
        this.#delta(index, obj(e.delta));
        break;
      case 'content_block_stop':
        this.#finishJson(index);
        break;
      case 'message_delta':
        Object.assign(this.#message, obj(e.delta));
        for (const [key, value] of Object.entries(obj(e.usage))) if (value !== null && value !== undefined) this.#usage[key] = value;
        break;
      case 'message_stop':
        this.complete = true;
        break;
      case 'error':
        this.error = new Error(str(obj(e.error).message) || 'the stream reported an error');
        break;
    }
  }

  #delta(index: number, delta: Wire): void {
    const block = this.#blocks[index];
    if (!block) return;
    if (delta.type === 'text_delta') block.text = str(block.text) + str(delta.text);
    else if (delta.type === 'thinking_delta') block.thinking = str(block.thinking) + str(delta.thinking);
    else if (delta.type === 'signature_delta') block.signature = str(delta.signature);
    else if (delta.type === 'input_json_delta') this.#json.set(index, (this.#json.get(index) ?? '') + str(delta.partial_json));
  }

  #finishJson(index: number): void {
    const json = this.#json.get(index);
    const block = this.#blocks[index];
    if (json === undefined || !block) return;
    block.input = parseArguments(json);
    this.#json.delete(index);
  }

  record(): ResponseRecord {
    for (const index of [...this.#json.keys()]) this.#finishJson(index);
    return anthropicResponse({ ...this.#message, content: this.#blocks.filter(Boolean), usage: this.#usage });
  }
}

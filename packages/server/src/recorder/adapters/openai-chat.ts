import type { ContentBlockInput, PromptRecord, ResponseRecord, UsageInput } from '../types.js';
import { type Endpoint, type StreamAccumulator, toJson } from './api-call.js';
import { checked, imageFromUrl, int, list, obj, PromptBuilder, parseArguments, str, strOrNull, type Wire } from './blocks.js';

/** `chat.completions.create`: messages in, choices out; streamed as `chat.completion.chunk`s. */
export const OPENAI_CHAT: Endpoint = {
  provider: 'openai',
  model: (body) => strOrNull(obj(body).model),
  streaming: (body) => obj(body).stream === true,
  prompt: chatPrompt,
  response: chatResponse,
  accumulator: () => new ChatStream(),
};

export function chatPrompt(body: unknown): PromptRecord {
  const { messages, ...params } = obj(body);
  const prompt = new PromptBuilder();
  for (const message of list(messages)) {
    const m = obj(message);
    const role = str(m.role) || 'user';
    if (role === 'tool' || role === 'function') {
      const id = str(m.tool_call_id) || str(m.name);
      prompt.add(role, [checked({ type: 'tool_result', toolUseId: id, content: resultParts(m.content) }, message)]);
      continue;
    }
    const blocks = typeof m.content === 'string' ? textBlocks(m.content) : list(m.content).map(fromPart);
    if (typeof m.refusal === 'string' && m.refusal) blocks.push({ type: 'text', text: m.refusal });
    for (const call of list(m.tool_calls)) blocks.push(fromToolCall(call));
    prompt.add(role, blocks);
  }
  return { content: prompt.blocks, metadata: { request: toJson(params), messages: prompt.layout } };
}

export function chatResponse(data: unknown): ResponseRecord {
  const completion = obj(data);
  const choices = list(completion.choices).map(obj);
  const content: ContentBlockInput[] = [];
  const layout: { index: number; blocks: number; finishReason: string | null }[] = [];
  for (const choice of choices) {
    const blocks = messageBlocks(obj(choice.message));
    content.push(...blocks);
    layout.push({ index: int(choice.index) ?? layout.length, blocks: blocks.length, finishReason: strOrNull(choice.finish_reason) });
  }
  return {
    content,
    model: strOrNull(completion.model),
    usage: chatUsage(obj(completion.usage)),
    metadata: { responseId: strOrNull(completion.id), choices: layout, usage: toJson(completion.usage ?? null) },
  };
}

/** prompt_tokens include the cached ones (prompt_tokens_details.cached_tokens). */
function chatUsage(usage: Wire): UsageInput | null {
  const input = int(usage.prompt_tokens);
  const output = int(usage.completion_tokens);
  if (input === null && output === null) return null;
  return { inputTokens: input, outputTokens: output, cacheReadTokens: int(obj(usage.prompt_tokens_details).cached_tokens) ?? 0 };
}

/**
 * An assistant message: reasoning text (gateways such as OpenRouter and
 * DeepSeek send `reasoning`/`reasoning_content`), content, refusal, tool calls.
 */
function messageBlocks(message: Wire): ContentBlockInput[] {
  const blocks: ContentBlockInput[] = [];
  const reasoning = str(message.reasoning_content) || str(message.reasoning);
  if (reasoning) blocks.push({ type: 'thinking', thinking: reasoning });
  if (typeof message.content === 'string') blocks.push(...textBlocks(message.content));
  else blocks.push(...list(message.content).map(fromPart));
  if (typeof message.refusal === 'string' && message.refusal) blocks.push({ type: 'text', text: message.refusal });
  for (const call of list(message.tool_calls)) blocks.push(fromToolCall(call));
  const legacy = obj(message.function_call);
  if (legacy.name)
    blocks.push(
      checked({ type: 'tool_use', id: 'function_call', name: str(legacy.name), input: parseArguments(str(legacy.arguments)) }, legacy),
    );
  return blocks;
}

function textBlocks(text: string): ContentBlockInput[] {
  return text ? [{ type: 'text', text }] : [];
}

function fromToolCall(value: unknown): ContentBlockInput {
  const call = obj(value);
  const fn = obj(call.function);
  if (call.type === 'custom') {
    const custom = obj(call.custom);
    return checked({ type: 'tool_use', id: str(call.id), name: str(custom.name), input: str(custom.input) }, value);
  }
  return checked({ type: 'tool_use', id: str(call.id), name: str(fn.name), input: parseArguments(str(fn.arguments)) }, value);
}

function fromPart(value: unknown): ContentBlockInput {
  const part = obj(value);
  switch (part.type) {
    case 'text':
      return { type: 'text', text: str(part.text) };
    case 'refusal':
      return { type: 'text', text: str(part.refusal) };
    case 'image_url':
      return checked(imageFromUrl(str(obj(part.image_url).url)), value);
    case 'file': {
      const file = obj(part.file);
      const uri = strOrNull(file.file_data) ?? (file.file_id ? `openai-file:${str(file.file_id)}` : '');
      return checked({ type: 'file', uri, ...(file.filename ? { name: str(file.filename) } : {}) }, value);
    }
    default:
      return { type: 'data', data: toJson(value) };
  }
}

function resultParts(content: unknown): Extract<ContentBlockInput, { type: 'text' }>[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return list(content).map((part) => ({ type: 'text', text: str(obj(part).text) }));
}

interface ChoiceState {
  content: string;
  reasoning: string;
  refusal: string;
  calls: { id: string; type: string; name: string; arguments: string }[];
  finishReason: string | null;
}

/** Rebuilds a chat completion from its chunks; usage arrives only when the caller set `stream_options.include_usage`. */
class ChatStream implements StreamAccumulator {
  #id: string | null = null;
  #model: string | null = null;
  #usage: unknown = null;
  readonly #choices = new Map<number, ChoiceState>();

  get complete(): boolean {
    return this.#choices.size > 0 && [...this.#choices.values()].every((c) => c.finishReason !== null);
  }

  add(event: unknown): void {
    const chunk = obj(event);
    this.#id ??= strOrNull(chunk.id);
    this.#model ??= strOrNull(chunk.model);
    if (chunk.usage) this.#usage = chunk.usage;
    for (const value of list(chunk.choices)) {
      const choice = obj(value);
      const index = int(choice.index) ?? 0;
      let state = this.#choices.get(index);
      if (!state) {
        state = { content: '', reasoning: '', refusal: '', calls: [], finishReason: null };
        this.#choices.set(index, state);
      }
      const delta = obj(choice.delta);
      state.content += str(delta.content);
      state.reasoning += str(delta.reasoning_content) + str(delta.reasoning);
      state.refusal += str(delta.refusal);
      for (const callValue of list(delta.tool_calls)) {
        const call = obj(callValue);
        const at = int(call.index) ?? state.calls.length;
        const existing = state.calls[at] ?? { id: '', type: 'function', name: '', arguments: '' };
        state.calls[at] = existing;
        const fn = obj(call.function);
        if (call.id) existing.id = str(call.id);
        if (call.type) existing.type = str(call.type);
        existing.name += str(fn.name);
        existing.arguments += str(fn.arguments);
      }
      if (choice.finish_reason) state.finishReason = str(choice.finish_reason);
    }
  }

  record(): ResponseRecord {
    const choices = [...this.#choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({
        index,
        finish_reason: c.finishReason,
        message: {
          content: c.content,
          reasoning: c.reasoning,
          refusal: c.refusal || null,
          tool_calls: c.calls
            .filter(Boolean)
            .map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
        },
      }));
    return chatResponse({ id: this.#id, model: this.#model, choices, usage: this.#usage });
  }
}

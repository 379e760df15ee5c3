import type { ContentBlockInput, PromptRecord, ResponseRecord, UsageInput } from '../types.js';
import { type Endpoint, type StreamAccumulator, toJson } from './api-call.js';
import { checked, imageFromUrl, int, list, obj, PromptBuilder, parseArguments, str, strOrNull, type Wire } from './blocks.js';

/** `responses.create`: instructions and input items in, output items out; streamed as `response.*` events. */
export const OPENAI_RESPONSES: Endpoint = {
  provider: 'openai',
  model: (body) => strOrNull(obj(body).model),
  streaming: (body) => obj(body).stream === true,
  prompt: responsesPrompt,
  response: responsesResponse,
  accumulator: () => new ResponsesStream(),
};

export function responsesPrompt(body: unknown): PromptRecord {
  const { input, instructions, ...params } = obj(body);
  const prompt = new PromptBuilder();
  if (typeof instructions === 'string' && instructions) prompt.add('system', [{ type: 'text', text: instructions }]);
  if (typeof input === 'string') prompt.add('user', input ? [{ type: 'text', text: input }] : []);
  for (const value of list(input)) {
    const item = obj(value);
    if (item.role !== undefined && (item.type === undefined || item.type === 'message')) {
      prompt.add(str(item.role), typeof item.content === 'string' ? textBlocks(item.content) : list(item.content).map(fromPart));
    } else {
      prompt.add(itemRole(item), [fromItem(value)]);
    }
  }
  return { content: prompt.blocks, metadata: { request: toJson(params), messages: prompt.layout } };
}

export function responsesResponse(data: unknown): ResponseRecord {
  const response = obj(data);
  const content: ContentBlockInput[] = [];
  for (const value of list(response.output)) {
    const item = obj(value);
    if (item.type === 'message') content.push(...list(item.content).map(fromPart));
    else content.push(fromItem(value));
  }
  return {
    content,
    model: strOrNull(response.model),
    usage: responsesUsage(obj(response.usage)),
    metadata: {
      responseId: strOrNull(response.id),
      status: strOrNull(response.status),
      incompleteDetails: toJson(response.incomplete_details ?? null),
      usage: toJson(response.usage ?? null),
    },
  };
}

/** input_tokens include the cached ones (input_tokens_details.cached_tokens). */
function responsesUsage(usage: Wire): UsageInput | null {
  const input = int(usage.input_tokens);
  const output = int(usage.output_tokens);
  if (input === null && output === null) return null;
  return { inputTokens: input, outputTokens: output, cacheReadTokens: int(obj(usage.input_tokens_details).cached_tokens) ?? 0 };
}

function itemRole(item: Wire): string {
  if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') return 'tool';
  return 'assistant';
}

function textBlocks(text: string): ContentBlockInput[] {
  return text ? [{ type: 'text', text }] : [];
}

/** A non-message item: tool calls and their outputs, reasoning; anything else is kept as data. */
function fromItem(value: unknown): ContentBlockInput {
  const item = obj(value);
  switch (item.type) {
    case 'function_call':
      return checked({ type: 'tool_use', id: str(item.call_id), name: str(item.name), input: parseArguments(str(item.arguments)) }, value);
    case 'custom_tool_call':
      return checked({ type: 'tool_use', id: str(item.call_id), name: str(item.name), input: str(item.input) }, value);
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const output = item.output;
      const parts =
        typeof output === 'string'
          ? [{ type: 'text' as const, text: output }]
          : list(output).map((p) => ({ type: 'text' as const, text: str(obj(p).text) }));
      return checked({ type: 'tool_result', toolUseId: str(item.call_id), content: parts }, value);
    }
    case 'reasoning': {
      const text = [...list(item.summary), ...list(item.content)].map((p) => str(obj(p).text)).filter(Boolean);
      return text.length > 0 ? { type: 'thinking', thinking: text.join('\n\n') } : { type: 'data', data: toJson(value) };
    }
    default:
      return { type: 'data', data: toJson(value) };
  }
}

function fromPart(value: unknown): ContentBlockInput {
  const part = obj(value);
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return { type: 'text', text: str(part.text) };
    case 'refusal':
      return { type: 'text', text: str(part.refusal) };
    case 'input_image':
      if (typeof part.image_url === 'string') return checked(imageFromUrl(part.image_url), value);
      return checked({ type: 'file', uri: `openai-file:${str(part.file_id)}`, mediaType: 'image/*' }, value);
    case 'input_file': {
      const uri = strOrNull(part.file_url) ?? strOrNull(part.file_data) ?? `openai-file:${str(part.file_id)}`;
      return checked({ type: 'file', uri, ...(part.filename ? { name: str(part.filename) } : {}) }, value);
    }
    default:
      return { type: 'data', data: toJson(value) };
  }
}

/**
 * The final `response.completed` (or `response.incomplete`) event carries the
 * whole response; until then, finished output items and text deltas give the
 * partial answer recorded when a stream breaks.
 */
class ResponsesStream implements StreamAccumulator {
  complete = false;
  error: Error | null = null;
  #final: Wire | null = null;
  #started: Wire = {};
  readonly #items: unknown[] = [];
  readonly #text = new Map<number, string>();

  add(event: unknown): void {
    const e = obj(event);
    switch (e.type) {
      case 'response.created':
        this.#started = obj(e.response);
        break;
      case 'response.output_item.done':
        this.#items[int(e.output_index) ?? this.#items.length] = e.item;
        break;
      case 'response.output_text.delta': {
        const at = int(e.output_index) ?? 0;
        this.#text.set(at, (this.#text.get(at) ?? '') + str(e.delta));
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
        this.#final = obj(e.response);
        this.complete = true;
        break;
      case 'response.failed': {
        this.#final = obj(e.response);
        const failure = obj(this.#final.error);
        this.error = new Error(str(failure.message) || 'the response failed');
        break;
      }
      case 'error':
        this.error = new Error(str(e.message) || 'the stream reported an error');
        break;
    }
  }

  record(): ResponseRecord {
    if (this.#final) return responsesResponse(this.#final);
    const output: unknown[] = [];
    const indexes = new Set([...this.#items.keys(), ...this.#text.keys()]);
    for (const at of [...indexes].sort((a, b) => a - b)) {
      const item = this.#items[at];
      if (item !== undefined) output.push(item);
      else output.push({ type: 'message', content: [{ type: 'output_text', text: this.#text.get(at) ?? '' }] });
    }
    return responsesResponse({ ...this.#started, output });
  }
}

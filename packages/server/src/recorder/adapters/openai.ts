import type { Recorder } from '../recorder.js';
import type { CallMeta, PromptRecord } from '../types.js';
import { type Endpoint, proxyClient, proxyResource, recordedCreate } from './api-call.js';
import { OPENAI_CHAT } from './openai-chat.js';
import { OPENAI_RESPONSES } from './openai-responses.js';

type Create = Parameters<typeof recordedCreate>[0];

/**
 * Records `client.chat.completions.create` and `client.responses.create` of an
 * `openai` client, and the SDK helpers built on them (`chat.completions.parse`,
 * `.stream`, `responses.parse`, `.stream`). Pass `{ provider: 'openrouter' }`
 * (or any name) when the client talks to another OpenAI-compatible service.
 */
export function wrapOpenAI<C extends object>(client: C, recorder: Recorder, meta: CallMeta = {}): C {
  const base: CallMeta = { provider: 'openai', ...meta };
  const context = { start: (model: string | null, prompt: PromptRecord) => recorder.start(model ? { model } : {}, prompt, base) };
  let wrapped: C;
  const recorded = (resource: object, endpoint: Endpoint) => {
    const create = (resource as { create: Create }).create;
    return proxyResource(resource, recordedCreate(create, resource, endpoint, context), () => wrapped);
  };
  wrapped = proxyClient(
    client,
    {
      chat: (chat) =>
        new Proxy(chat, {
          get(target, prop, receiver) {
            const value: unknown = Reflect.get(target, prop, receiver);
            if (prop !== 'completions' || value === null || typeof value !== 'object') return value;
            return completions(value);
          },
        }),
      responses: (responses) => recorded(responses, OPENAI_RESPONSES),
    },
    (other) => wrapOpenAI(other, recorder, meta),
  );
  let cache: { from: object; to: object } | null = null;
  function completions(resource: object): object {
    if (cache?.from !== resource) cache = { from: resource, to: recorded(resource, OPENAI_CHAT) };
    return cache.to;
  }
  return wrapped;
}

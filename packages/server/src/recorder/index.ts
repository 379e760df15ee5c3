/**
 * `baton/recorder`: every model call a pipeline makes becomes a prompt turn and
 * a response turn on a baton thread, without risking the pipeline (DESIGN §2,
 * reference/003).
 */

export { wrapAnthropic } from './adapters/anthropic.js';
export { StreamIncompleteError } from './adapters/api-call.js';
export { wrapOpenAI } from './adapters/openai.js';
export { createRecorder, type RecorderOptions } from './create-recorder.js';
export type { RecorderLogger } from './logger.js';
export { costOf, MODEL_PRICES, type ModelPrice, normalizeModel, PRICES_TAKEN_ON, priceOf, type TokenCounts } from './prices.js';
export { type PendingCall, Recorder } from './recorder.js';
export { MAX_TURNS_PER_PAGE } from './thread-queries.js';
export { promptIdOf, responseIdOf } from './turns.js';
export type {
  CallMeta,
  ContentBlockInput,
  Conversation,
  PromptInput,
  PromptRecord,
  RecorderStats,
  ResponseReader,
  ResponseRecord,
  TurnPage,
  TurnQuery,
  UsageInput,
} from './types.js';

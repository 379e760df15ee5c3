import {
  ActivityEvent,
  Artifact,
  DataBlock,
  FileBlock,
  NoteEvent,
  RedactedThinkingBlock,
  ServerToolUseBlock,
  Task,
  TextBlock,
  ThinkingBlock,
  ToolResultBlock,
  ToolUseBlock,
  WebSearchToolResultBlock,
} from '@baton/core';
import { z } from 'zod';

/**
 * The core event and task schemas as tool output schemas. One difference:
 * image data is described as a string, not with JSON Schema's `base64`
 * format, which the JSON Schema validators MCP clients use (Ajv) do not know
 * and warn about on every tools/list. What the hub returns is unchanged.
 */
const ImageOut = z.object({
  type: z.literal('image'),
  mediaType: z.string(),
  data: z.string().optional().describe('base64 bytes'),
  uri: z.string().optional(),
});

const ToolResultOut = ToolResultBlock.extend({
  content: z.array(z.discriminatedUnion('type', [TextBlock, ImageOut, FileBlock, DataBlock])),
});

const ContentOut = z.discriminatedUnion('type', [
  TextBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  ToolUseBlock,
  ToolResultOut,
  ServerToolUseBlock,
  WebSearchToolResultBlock,
  ImageOut,
  FileBlock,
  DataBlock,
]);

const content = { content: z.array(ContentOut) };

export const ActivityEventOut = ActivityEvent.extend(content);
export const NoteEventOut = NoteEvent.extend(content);
export const TaskOut = Task.extend({ artifacts: z.array(Artifact.extend({ parts: z.array(ContentOut) })) });

import { z } from 'zod';

/**
 * Content blocks follow MCP and the model SDKs (DESIGN §1, §5): tool calls,
 * results and thinking are first-class, so nothing a model did is lost. A2A is
 * only a lossy projection of these at the edge.
 */
export const TextBlock = z.object({ type: z.literal('text'), text: z.string() });

export const ThinkingBlock = z.object({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().optional(),
});

export const RedactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string() });

export const ToolUseBlock = z.object({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.json(),
});

export const ServerToolUseBlock = z.object({
  type: z.literal('server_tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.json(),
});

export const ImageBlock = z
  .object({
    type: z.literal('image'),
    mediaType: z.string().min(1).max(255),
    /** base64 bytes, or */
    data: z.base64().optional(),
    /** a link to them. */
    uri: z.string().min(1).optional(),
  })
  .refine((b) => (b.data === undefined) !== (b.uri === undefined), {
    message: 'an image needs exactly one of data or uri',
    path: ['data'],
  });

export const FileBlock = z.object({
  type: z.literal('file'),
  uri: z.string().min(1),
  mediaType: z.string().min(1).max(255).optional(),
  name: z.string().max(1024).optional(),
});

export const DataBlock = z.object({ type: z.literal('data'), data: z.json() });

/** What a tool result may carry. */
export const ToolResultContent = z.discriminatedUnion('type', [TextBlock, ImageBlock, FileBlock, DataBlock]);

export const ToolResultBlock = z.object({
  type: z.literal('tool_result'),
  toolUseId: z.string().min(1),
  content: z.array(ToolResultContent).default([]),
  isError: z.boolean().default(false),
});

export const WebSearchToolResultBlock = z.object({
  type: z.literal('web_search_tool_result'),
  toolUseId: z.string().min(1),
  content: z.json(),
});

export const ContentBlock = z.discriminatedUnion('type', [
  TextBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  ToolUseBlock,
  ToolResultBlock,
  ServerToolUseBlock,
  WebSearchToolResultBlock,
  ImageBlock,
  FileBlock,
  DataBlock,
]);
export type ContentBlock = z.infer<typeof ContentBlock>;
export type ContentBlockType = ContentBlock['type'];
export type TextBlock = z.infer<typeof TextBlock>;

/** The plain text of a list of blocks (text and thinking), for search and previews. */
export function contentText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'thinking') parts.push(block.thinking);
    else if (block.type === 'tool_result') {
      for (const inner of block.content) if (inner.type === 'text') parts.push(inner.text);
    }
  }
  return parts.join('\n');
}

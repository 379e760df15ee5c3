import type { ContentBlock } from './schemas/content.js';

/**
 * The text a content block shows as: text and thinking as written, tool
 * inputs, search results and data as indented JSON, a tool result's parts
 * one per line. The web UI renders and measures blocks by it, and the hub
 * cuts list previews by the same measure.
 */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'thinking':
      return block.thinking;
    case 'tool_use':
    case 'server_tool_use':
      return JSON.stringify(block.input, null, 2) ?? '';
    case 'tool_result':
      return block.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
    case 'web_search_tool_result':
      return JSON.stringify(block.content, null, 2) ?? '';
    case 'data':
      return JSON.stringify(block.data, null, 2) ?? '';
    default:
      return '';
  }
}

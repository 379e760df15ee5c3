import { contentText, type Event } from '@baton/core';

/** Tool inputs are indexed up to this many characters: enough for commands and paths, not whole files. */
const TOOL_INPUT_CHARS = 2_000;

/**
 * The searchable text of an event: note titles and summaries, text and
 * thinking blocks, tool results, tool names with their inputs, turn errors.
 * Images, files and data blocks carry no text of their own.
 */
export function eventSearchText(event: Event): string {
  const parts: string[] = [];
  if (event.kind === 'note') {
    parts.push(event.title);
    if (event.summary) parts.push(event.summary);
  }
  const text = contentText(event.content);
  if (text) parts.push(text);
  for (const block of event.content) {
    if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      const input = JSON.stringify(block.input) ?? '';
      parts.push(`${block.name} ${input.length > TOOL_INPUT_CHARS ? input.slice(0, TOOL_INPUT_CHARS) : input}`);
    }
  }
  if (event.kind === 'turn' && event.error) parts.push(event.error.message);
  return parts.join('\n');
}

import { blockText, type ContentBlock, type Event, type EventPage } from '@baton/core';

export type ContentCut = NonNullable<EventPage['cut']>[number];

function blockSize(block: ContentBlock, text: string): number {
  return block.type === 'image' ? (block.data?.length ?? 0) : text.length;
}

function countLines(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** The first `chars` UTF-16 units of `text`, never splitting a surrogate pair. */
function head(text: string, chars: number): string {
  const code = text.charCodeAt(chars - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? chars - 1 : chars);
}

/** A block cut to `chars` characters, keeping its kind where it is text; structured blocks become their JSON, fenced. */
function cutBlock(block: ContentBlock, text: string, chars: number): ContentBlock | null {
  const cut = head(text, chars);
  if (cut.length === 0) return null;
  switch (block.type) {
    case 'text':
      return { ...block, text: cut };
    case 'thinking':
      return { ...block, thinking: cut };
    case 'tool_result':
      return { ...block, content: [{ type: 'text', text: cut }] };
    case 'image':
      return null;
    default:
      return { type: 'text', text: `\`\`\`json\n${cut}\n\`\`\`` };
  }
}

/**
 * Events with their content cut to about `budget` characters each (GET
 * /contexts/:id/events?preview=N), for lists that show the start of each
 * event: a 5 MB turn is then a few kilobytes on the wire and in the browser.
 * Blocks are kept whole while they fit, the one that does not is cut, the
 * rest dropped. Each cut event is named with its full size.
 */
export function previewEvents(events: readonly Event[], budget: number): { events: Event[]; cut: ContentCut[] } {
  const cut: ContentCut[] = [];
  const out = events.map((event) => {
    const texts = event.content.map(blockText);
    const sizes = event.content.map((block, i) => blockSize(block, texts[i] ?? ''));
    const chars = sizes.reduce((sum, size) => sum + size, 0);
    if (chars <= budget) return event;
    const content: ContentBlock[] = [];
    let left = budget;
    for (const [i, block] of event.content.entries()) {
      const size = sizes[i] ?? 0;
      if (size <= left) {
        content.push(block);
        left -= size;
        continue;
      }
      const part = left > 0 ? cutBlock(block, texts[i] ?? '', left) : null;
      if (part) content.push(part);
      break;
    }
    cut.push({ id: event.id, chars, lines: texts.reduce((sum, text) => sum + countLines(text), 0) });
    return { ...event, content } as Event;
  });
  return { events: out, cut };
}

import { type ContentBlock, contentText, type Event, KNOWN_PHASES, type TurnEvent } from '@baton/core';
import { formatCost, formatCount, titleCase } from '../../ui/format.js';

/** The group of turns without a phase. */
export const NO_PHASE = '(none)';

export function phaseKey(turn: TurnEvent): string {
  return turn.phase ?? NO_PHASE;
}

export function phaseLabel(phase: string): string {
  return phase === NO_PHASE ? 'No phase' : titleCase(phase);
}

/** The seven named phases always, then any other phase present, in order of first appearance. */
export function phaseOptions(turns: readonly TurnEvent[]): { phase: string; count: number }[] {
  const counts = new Map<string, number>(KNOWN_PHASES.map((p) => [p, 0]));
  for (const turn of turns) counts.set(phaseKey(turn), (counts.get(phaseKey(turn)) ?? 0) + 1);
  return [...counts].map(([phase, count]) => ({ phase, count }));
}

export type Row = { type: 'group'; phase: string; count: number } | { type: 'turn'; turn: TurnEvent };

/**
 * Turns grouped by phase, groups in order of their first turn, turns in time
 * (seq) order within each group (reference/003: "phase-grouped turns, ordered by time").
 */
export function groupRows(turns: readonly TurnEvent[]): Row[] {
  const groups = new Map<string, TurnEvent[]>();
  for (const turn of turns) {
    const key = phaseKey(turn);
    let group = groups.get(key);
    if (!group) {
      group = [];
      groups.set(key, group);
    }
    group.push(turn);
  }
  const rows: Row[] = [];
  for (const [phase, members] of groups) {
    rows.push({ type: 'group', phase, count: members.length });
    for (const turn of members) rows.push({ type: 'turn', turn });
  }
  return rows;
}

/**
 * A row's likely height before it is measured: header and usage lines plus
 * the visible (at most 30) lines of content. Close estimates keep the
 * scrollbar steady and jumps on target while rows are measured.
 */
export function estimateRowHeight(row: Row | undefined): number {
  if (!row) return 200;
  if (row.type === 'group') return 48;
  let lines = 0;
  for (const block of row.turn.content) {
    const text = blockText(block);
    let count = 1;
    for (let at = text.indexOf('\n'); at !== -1 && count < 30; at = text.indexOf('\n', at + 1)) count++;
    lines += Math.min(count, 30);
    if (lines >= 30) break;
  }
  return 96 + Math.min(lines, 30) * 21;
}

export function isTurn(event: Event): event is TurnEvent {
  return event.kind === 'turn';
}

const haystacks = new WeakMap<TurnEvent, string>();

/** Lower-cased speaker + content text, computed once per turn. */
function haystack(turn: TurnEvent): string {
  let text = haystacks.get(turn);
  if (text === undefined) {
    text = `${turn.speaker ?? ''}\n${turn.actor.name ?? ''}\n${turn.actor.id}\n${searchableText(turn.content)}`.toLowerCase();
    haystacks.set(turn, text);
  }
  return text;
}

function searchableText(blocks: readonly ContentBlock[]): string {
  const parts = [contentText(blocks)];
  for (const block of blocks) {
    if (block.type === 'tool_use' || block.type === 'server_tool_use') parts.push(block.name, JSON.stringify(block.input));
    if (block.type === 'data') parts.push(JSON.stringify(block.data));
  }
  return parts.join('\n');
}

export function matchesSpeaker(turn: TurnEvent, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (needle === '') return true;
  return [turn.speaker, turn.actor.name, turn.actor.id].some((name) => name?.toLowerCase().includes(needle));
}

export function matchesSearch(turn: TurnEvent, query: string): boolean {
  const needle = query.trim().toLowerCase();
  return needle === '' || haystack(turn).includes(needle);
}

/** Content cut to the first `maxLines` lines (and `maxChars` characters, for megabyte-long single lines). */
export function truncateBlocks(
  blocks: readonly ContentBlock[],
  maxLines = 30,
  maxChars = 8000,
): { blocks: ContentBlock[]; truncated: boolean; totalLines: number } {
  let lines = 0;
  let chars = 0;
  let truncated = false;
  let totalLines = 0;
  const out: ContentBlock[] = [];
  for (const block of blocks) {
    const text = blockText(block);
    const blockLines = countLines(text);
    totalLines += blockLines;
    if (truncated) continue;
    if (lines + blockLines <= maxLines && chars + text.length <= maxChars) {
      out.push(block);
      lines += blockLines;
      chars += text.length;
      continue;
    }
    truncated = true;
    const cut = cutText(text, maxLines - lines, maxChars - chars);
    if (cut.length > 0) out.push(withText(block, cut));
  }
  return { blocks: out, truncated, totalLines };
}

function countLines(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function cutText(text: string, lines: number, chars: number): string {
  if (lines <= 0 || chars <= 0) return '';
  let end = -1;
  for (let i = 0; i < lines; i++) {
    end = text.indexOf('\n', end + 1);
    if (end === -1) break;
  }
  const byLines = end === -1 ? text : text.slice(0, end);
  return byLines.length > chars ? byLines.slice(0, chars) : byLines;
}

/** The text a block shows, for line counting and cutting. */
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

/** A cut block keeps its kind (so it still renders as a tool call, thinking…) with the cut text. */
function withText(block: ContentBlock, text: string): ContentBlock {
  switch (block.type) {
    case 'text':
      return { ...block, text };
    case 'thinking':
      return { ...block, thinking: text };
    case 'tool_result':
      return { ...block, content: [{ type: 'text', text }] };
    default:
      return { type: 'text', text: `\`\`\`json\n${text}\n\`\`\`` };
  }
}

// ── markdown export ─────────────────────────────────────────────────────────

function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

export function blocksToMarkdown(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((block) => {
      switch (block.type) {
        case 'text':
          return block.text;
        case 'thinking':
          return `> **Thinking**\n>\n${block.thinking
            .split('\n')
            .map((l) => `> ${l}`)
            .join('\n')}`;
        case 'redacted_thinking':
          return '> **Thinking** (redacted)';
        case 'tool_use':
        case 'server_tool_use':
          return `**Tool use: \`${block.name}\`** (${block.id})\n\n${fence(JSON.stringify(block.input, null, 2) ?? 'null', 'json')}`;
        case 'tool_result':
          return `**Tool result** (${block.toolUseId})${block.isError ? ' — error' : ''}\n\n${fence(blockText(block))}`;
        case 'web_search_tool_result':
          return `**Web search result** (${block.toolUseId})\n\n${fence(blockText(block), 'json')}`;
        case 'image':
          return block.uri ? `![image](${block.uri})` : `*[image: ${block.mediaType}]*`;
        case 'file':
          return `[${block.name ?? block.uri}](${block.uri})`;
        case 'data':
          return fence(blockText(block), 'json');
        default:
          return '';
      }
    })
    .join('\n\n');
}

export function turnHeading(turn: TurnEvent): string {
  const parts = [turn.speaker ?? turn.actor.name ?? turn.actor.id, phaseLabel(phaseKey(turn)), turn.direction];
  if (turn.round !== null) parts.push(`round ${turn.round}`);
  return parts.join(' · ');
}

export function usageLine(turn: TurnEvent): string {
  const usage = turn.usage;
  return `tokens in ${formatCount(usage?.inputTokens)} · out ${formatCount(usage?.outputTokens)} · cost ${formatCost(usage?.costUsd)}`;
}

/** One turn as markdown: speaker + phase heading, model and usage, threading, then the content. */
export function turnToMarkdown(turn: TurnEvent, byId?: ReadonlyMap<string, Event>, level = 3): string {
  const lines = [`${'#'.repeat(level)} ${turnHeading(turn)}`, ''];
  const meta = [turn.provider, turn.model].filter(Boolean).join(' / ');
  lines.push(`_${meta ? `${meta} · ` : ''}${usageLine(turn)} · ${turn.createdAt}_`);
  const parent = turn.parentId ? byId?.get(turn.parentId) : undefined;
  if (parent && parent.kind === 'turn') lines.push('', `↳ answers: ${turnHeading(parent)} (#${parent.seq})`);
  if (turn.error) lines.push('', `**Error:** ${turn.error.message}`);
  lines.push('', blocksToMarkdown(turn.content));
  return `${lines.join('\n')}\n`;
}

/** The whole thread, phase by phase, for "Copy whole thread as markdown". */
export function threadToMarkdown(title: string, turns: readonly TurnEvent[], byId: ReadonlyMap<string, Event>): string {
  const out = [`# ${title || 'Conversation'}`, ''];
  for (const row of groupRows(turns)) {
    if (row.type === 'group') out.push(`## ${phaseLabel(row.phase)}`, '');
    else out.push(turnToMarkdown(row.turn, byId));
  }
  return out.join('\n');
}

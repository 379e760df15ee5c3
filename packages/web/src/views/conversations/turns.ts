import type { ContentBlock, Event, TurnEvent } from '@baton/core';
import { blockText } from '@baton/core/plain';
import { formatCost, formatCount, titleCase } from '../../ui/format.js';
import { KNOWN_PHASES } from '../../ui/vocabulary.js';

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

/** Pixel sizes of the card layout (styles/conversations.css), for estimates. */
const LINE = 21; // 14px text × 1.5
const CODE_LINE = 18; // 0.85em monospace × 1.5
const CARD = 83; // padding, border, header, usage line and the row's gap
const HEADING = 37;
const PARAGRAPH_GAP = 7;
const CODE_BLOCK = 28; // padding, border and margin of a <pre>
const BLOCK_GAP = 8;
const LABELLED_BLOCK = 30; // a tool call's, result's or thinking's label and frame
const SHOW_FULL = 34;
/** Average glyph widths of the text and monospace fonts. */
const CHAR = 6.7;
const MONO_CHAR = 7.2;

const estimates = new WeakMap<TurnEvent, { width: number; height: number }>();

/**
 * A row's likely height before it is measured, for a list `width` pixels
 * wide: the card's frame plus the shown part of its content (the first 30
 * lines, 8,000 characters), laid out roughly as the markdown renders —
 * paragraphs wrapped at the width, headings and code blocks line by line.
 * Close estimates keep the scrollbar steady, make jumps land right the
 * first time, and spare the list re-laying out every row below one that
 * turned out a different size.
 */
export function estimateRowHeight(row: Row | undefined, width = 1200): number {
  if (!row) return 200;
  if (row.type === 'group') return 48;
  const cached = estimates.get(row.turn);
  if (cached?.width === width) return cached.height;
  const height = estimateTurn(row.turn, width);
  estimates.set(row.turn, { width, height });
  return height;
}

function estimateTurn(turn: TurnEvent, width: number): number {
  const textWidth = Math.max(200, width - 70);
  const layout: Layout = {
    perLine: Math.floor(textWidth / CHAR),
    perCodeLine: Math.floor((textWidth - 30) / MONO_CHAR),
    linesLeft: 30,
    charsLeft: 8000,
  };
  let height = CARD + (turn.parentId ? LINE + PARAGRAPH_GAP : 0) + (turn.error ? LINE + 2 * PARAGRAPH_GAP : 0);
  let truncated = false;
  for (const [index, block] of turn.content.entries()) {
    if (layout.linesLeft <= 0 || layout.charsLeft <= 0) {
      truncated = true;
      break;
    }
    if (index > 0) height += BLOCK_GAP;
    if (block.type === 'text' || block.type === 'thinking') {
      if (block.type === 'thinking') height += LABELLED_BLOCK;
      const shown = markdownHeight(block.type === 'text' ? block.text : block.thinking, layout);
      height += shown.height;
      truncated ||= shown.more;
    } else if (block.type === 'image') {
      height += 200;
    } else if (block.type === 'redacted_thinking' || block.type === 'file') {
      height += LABELLED_BLOCK;
    } else {
      const shown = codeHeight(blockText(block), layout);
      height += LABELLED_BLOCK + CODE_BLOCK + shown.height;
      truncated ||= shown.more;
    }
  }
  return Math.round(height + (truncated ? SHOW_FULL : 0));
}

/** The room left in a card (it shows 30 lines, 8,000 characters) and the wrap widths, in characters. */
interface Layout {
  perLine: number;
  perCodeLine: number;
  linesLeft: number;
  charsLeft: number;
}

const SPACE = 32;
const TAB = 9;
const BACKTICK = 96;
const TILDE = 126;
const HASH = 35;

/** Whether a line starting at `at` opens a list item or a quote (`- `, `* `, `+ `, `> `, `1. `, `1) `). */
function startsItem(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c === 45 || c === 42 || c === 43 || c === 62) return text.charCodeAt(at + 1) === SPACE;
  let i = at;
  while (text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
  const d = text.charCodeAt(i);
  return i > at && (d === 46 || d === 41) && text.charCodeAt(i + 1) === SPACE;
}

/**
 * The height of the shown lines of markdown: paragraphs wrap at the width,
 * headings and fenced code take their lines. One pass over the text, no
 * copies: estimates run for every row of a 10,000-turn thread.
 */
function markdownHeight(text: string, layout: Layout): { height: number; more: boolean } {
  let height = 0;
  let paragraph = 0;
  let code = -1; // lines of the open code fence, or -1 outside one
  const flush = () => {
    if (paragraph > 0) height += Math.ceil(paragraph / layout.perLine) * LINE + PARAGRAPH_GAP;
    paragraph = 0;
  };
  let at = 0;
  for (; layout.linesLeft > 0 && layout.charsLeft > 0; layout.linesLeft--) {
    const newline = text.indexOf('\n', at);
    const end = newline === -1 ? text.length : newline;
    const length = Math.min(end - at, layout.charsLeft);
    layout.charsLeft -= end - at + 1;
    let first = at;
    while (first < end && (text.charCodeAt(first) === SPACE || text.charCodeAt(first) === TAB)) first++;
    const c = text.charCodeAt(first);
    if ((c === BACKTICK || c === TILDE) && text.startsWith(c === BACKTICK ? '```' : '~~~', first)) {
      if (code === -1) {
        flush();
        code = 0;
      } else {
        height += CODE_BLOCK + Math.max(1, code) * CODE_LINE;
        code = -1;
      }
    } else if (code !== -1) {
      code += Math.max(1, Math.ceil(length / layout.perCodeLine));
    } else if (first === end) {
      flush();
    } else if (c === HASH && /^#{1,6}\s/.test(text.slice(first, first + 8))) {
      flush();
      height += HEADING;
    } else {
      if (startsItem(text, first)) flush();
      paragraph += length + 1;
    }
    at = end + 1;
    if (newline === -1) {
      layout.linesLeft--;
      break;
    }
  }
  flush();
  if (code !== -1) height += CODE_BLOCK + Math.max(1, code) * CODE_LINE;
  return { height: Math.max(LINE, height - PARAGRAPH_GAP), more: at < text.length };
}

/** The height of the shown lines of preformatted text (tool inputs and results), wrapped at the width. */
function codeHeight(text: string, layout: Layout): { height: number; more: boolean } {
  let lines = 0;
  let at = 0;
  for (; layout.linesLeft > 0 && layout.charsLeft > 0; layout.linesLeft--) {
    const newline = text.indexOf('\n', at);
    const end = newline === -1 ? text.length : newline;
    lines += Math.max(1, Math.ceil(Math.min(end - at, layout.charsLeft) / layout.perCodeLine));
    layout.charsLeft -= end - at + 1;
    at = end + 1;
    if (newline === -1) {
      layout.linesLeft--;
      break;
    }
  }
  return { height: Math.max(1, lines) * CODE_LINE, more: at < text.length };
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

/** The plain text of blocks (text, thinking, tool results' text), as core's `contentText`. */
function plainText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'thinking') parts.push(block.thinking);
    else if (block.type === 'tool_result') for (const inner of block.content) if (inner.type === 'text') parts.push(inner.text);
  }
  return parts.join('\n');
}

function searchableText(blocks: readonly ContentBlock[]): string {
  const parts = [plainText(blocks)];
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

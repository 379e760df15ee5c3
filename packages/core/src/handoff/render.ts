import type { ContextFormat, SharedItem, SharedSection } from './shared-items.js';
import { SHARED_SECTIONS } from './shared-items.js';

/**
 * Renderings per runtime kind (reference/002 question 2, "context
 * resolution"): markdown for coding agents, short plain text for chat
 * runtimes, compact JSON for programs and the UI.
 */
const HEADINGS: Record<SharedSection, string> = {
  identity: 'Identity and preferences',
  focus: 'Current focus',
  blocked: 'Blocked',
  decisions: 'Recent decisions',
  tasks: 'Active tasks',
  summaries: 'Recent activity',
};

export interface RenderInput {
  format: ContextFormat;
  contextId: string;
  title: string;
  items: readonly SharedItem[];
  omitted: number;
}

function meta(item: SharedItem): string {
  return [item.label, item.by, item.at?.slice(0, 16).replace('T', ' ')].filter((x) => x).join(' · ');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function renderItem(format: ContextFormat, item: SharedItem): string {
  if (format === 'json') return JSON.stringify(jsonItem(item));
  const detail = oneLine(item.detail);
  if (format === 'text') {
    const tag = item.label ? ` [${item.label}]` : '';
    return `- ${oneLine(item.title)}${tag}${detail ? `: ${detail}` : ''}`;
  }
  const m = meta(item);
  const id = item.id ? ` \`${item.id}\`` : '';
  return `- **${oneLine(item.title)}**${detail ? ` — ${detail}` : ''}${m ? ` _(${m})_` : ''}${id}`;
}

function jsonItem(item: SharedItem): Record<string, string> {
  const out: Record<string, string> = { title: item.title };
  if (item.detail) out.detail = item.detail;
  if (item.label) out.label = item.label;
  if (item.id) out.id = item.id;
  if (item.by) out.by = item.by;
  if (item.at) out.at = item.at;
  return out;
}

export function renderHeader(format: ContextFormat, title: string, contextId: string): string {
  if (format === 'markdown') return `# Shared context: ${oneLine(title)} (\`${contextId}\`)\n`;
  if (format === 'text') return `Shared context: ${oneLine(title)}\n`;
  return '';
}

export function renderHeading(format: ContextFormat, section: SharedSection): string {
  if (format === 'markdown') return `\n## ${HEADINGS[section]}\n`;
  if (format === 'text') return `${HEADINGS[section]}:\n`;
  return `"${section}":[],`;
}

export function renderOmitted(format: ContextFormat, omitted: number): string {
  if (omitted === 0) return '';
  if (format === 'markdown') return `\n_${omitted} more left out for the token budget_\n`;
  if (format === 'text') return `(${omitted} more left out)\n`;
  return `"omitted":${omitted},`;
}

export function renderSharedContext(input: RenderInput): string {
  const { format, items } = input;
  const bySection = new Map<SharedSection, SharedItem[]>();
  for (const item of items) {
    const list = bySection.get(item.section) ?? [];
    list.push(item);
    bySection.set(item.section, list);
  }
  if (format === 'json') {
    const doc: Record<string, unknown> = { context: { id: input.contextId, title: input.title } };
    for (const section of SHARED_SECTIONS) {
      const list = bySection.get(section);
      if (list) doc[section] = list.map(jsonItem);
    }
    if (input.omitted > 0) doc.omitted = input.omitted;
    return JSON.stringify(doc);
  }
  let out = renderHeader(format, input.title, input.contextId);
  for (const section of SHARED_SECTIONS) {
    const list = bySection.get(section);
    if (!list) continue;
    out += renderHeading(format, section);
    for (const item of list) out += `${renderItem(format, item)}\n`;
  }
  return out + renderOmitted(format, input.omitted);
}

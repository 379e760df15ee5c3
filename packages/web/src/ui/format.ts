import type { Actor } from '@baton/core';

const integer = new Intl.NumberFormat('en-US');

/** "—" stands for a value the provider did not report (reference/003: tokens and cost are nullable). */
export const UNKNOWN = '—';

export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? UNKNOWN : integer.format(value);
}

export function formatCost(value: number | null | undefined): string {
  if (value === null || value === undefined) return UNKNOWN;
  // Model calls often cost fractions of a cent: below a dollar, four decimals.
  return `$${value >= 1 || value === 0 ? value.toFixed(2) : value.toFixed(4)}`;
}

// toLocaleString builds a formatter on every call (a third of a millisecond): one, made once, serves every card.
const dateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const calendarDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

export function formatTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `${hours} h ago`;
  return calendarDate.format(new Date(iso));
}

export function actorLabel(actor: Actor): string {
  return actor.name ?? actor.id;
}

export function titleCase(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1).replaceAll(/[_-]/g, ' ');
}

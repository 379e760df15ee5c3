import type { Event, TurnEvent } from '@baton/core';
import { actorLabel } from '../../ui/format.js';
import { phaseKey, phaseLabel } from '../conversations/turns.js';

export interface UsageTotals {
  key: string;
  label: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  turns: number;
  /** Turns whose provider reported no usage: the totals are lower bounds then. */
  unknown: number;
}

function totalsBy(turns: readonly TurnEvent[], keyOf: (t: TurnEvent) => string, labelOf: (key: string) => string): UsageTotals[] {
  const map = new Map<string, UsageTotals>();
  for (const turn of turns) {
    const key = keyOf(turn);
    let totals = map.get(key);
    if (!totals) {
      totals = { key, label: labelOf(key), inputTokens: 0, outputTokens: 0, costUsd: 0, turns: 0, unknown: 0 };
      map.set(key, totals);
    }
    totals.turns++;
    const usage = turn.usage;
    if (!usage || (usage.inputTokens === null && usage.outputTokens === null && usage.costUsd === null)) totals.unknown++;
    totals.inputTokens += usage?.inputTokens ?? 0;
    totals.outputTokens += usage?.outputTokens ?? 0;
    totals.costUsd += usage?.costUsd ?? 0;
  }
  return [...map.values()];
}

export function usageByPhase(turns: readonly TurnEvent[]): UsageTotals[] {
  return totalsBy(turns, phaseKey, phaseLabel);
}

/** Per agent: the turn's speaker (e.g. claude-planner), else the writing actor. */
export function usageByAgent(turns: readonly TurnEvent[]): UsageTotals[] {
  return totalsBy(
    turns,
    (t) => t.speaker ?? actorLabel(t.actor),
    (k) => k,
  ).sort((a, b) => b.inputTokens + b.outputTokens - (a.inputTokens + a.outputTokens));
}

export interface Lane {
  key: string;
  label: string;
  events: Event[];
}

/** One lane per actor (or per speaker for turns), in order of first appearance. */
export function swimlanes(events: readonly Event[]): Lane[] {
  const lanes = new Map<string, Lane>();
  for (const event of events) {
    const label = event.kind === 'turn' && event.speaker ? event.speaker : actorLabel(event.actor);
    let lane = lanes.get(label);
    if (!lane) {
      lane = { key: label, label, events: [] };
      lanes.set(label, lane);
    }
    lane.events.push(event);
  }
  return [...lanes.values()];
}

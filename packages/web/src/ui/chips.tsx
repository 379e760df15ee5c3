import type { CSSProperties } from 'react';

export interface ChipOption {
  value: string;
  label: string;
  count?: number;
  hue?: number;
}

/**
 * Multi-select filter chips: real toggle buttons (aria-pressed). `selected`
 * null means all on, the default.
 */
export function Chips({
  label,
  options,
  selected,
  onChange,
}: {
  label: string;
  options: readonly ChipOption[];
  selected: ReadonlySet<string> | null;
  onChange(next: Set<string> | null): void;
}) {
  const isOn = (value: string) => selected === null || selected.has(value);
  const toggle = (value: string) => {
    const next = new Set(selected ?? options.map((o) => o.value));
    if (next.has(value)) next.delete(value);
    else next.add(value);
    onChange(next.size === options.length ? null : next);
  };
  return (
    <fieldset className="chips">
      <legend className="visually-hidden">{label}</legend>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className="chip"
          aria-pressed={isOn(option.value)}
          style={option.hue !== undefined ? ({ '--hue': option.hue } as CSSProperties) : undefined}
          onClick={() => toggle(option.value)}
        >
          {option.label}
          {option.count !== undefined && <span className="chip-count">{option.count.toLocaleString('en-US')}</span>}
        </button>
      ))}
      <button type="button" className="chip-all" onClick={() => onChange(null)} disabled={selected === null}>
        All
      </button>
    </fieldset>
  );
}

/** Chip selections in the URL: absent = all, otherwise a comma list (an empty selection is "-"). */
export function parseSelection(param: string): Set<string> | null {
  if (!param) return null;
  if (param === '-') return new Set();
  return new Set(param.split(',').filter(Boolean));
}

export function formatSelection(selection: ReadonlySet<string> | null): string {
  if (selection === null) return '';
  if (selection.size === 0) return '-';
  return [...selection].join(',');
}

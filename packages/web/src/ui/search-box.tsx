import { useEffect, useId, useState } from 'react';

/**
 * A labelled search input that reports its value after the person pauses
 * typing, so a URL update or a filter over thousands of items does not run
 * on every keystroke.
 */
export function SearchBox({
  label,
  placeholder,
  value,
  onChange,
  delayMs = 200,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
  delayMs?: number;
}) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  useEffect(() => {
    if (draft === value) return;
    const timer = setTimeout(() => onChange(draft), delayMs);
    return () => clearTimeout(timer);
  }, [draft, value, onChange, delayMs]);
  return (
    <div className="search-box">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input id={id} type="search" placeholder={placeholder} value={draft} onChange={(e) => setDraft(e.target.value)} />
    </div>
  );
}

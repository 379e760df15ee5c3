/** One benchmark's results: every bench/src/*-bench.ts module returns one from `run()`. */
export interface BenchTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  notes?: string[];
}

/** A markdown table with its title as a heading and its notes as a list below. */
export function renderTable(table: BenchTable): string {
  const cell = (value: string | number) => (typeof value === 'number' ? value.toLocaleString('en-US') : value).replaceAll('|', '\\|');
  const lines = [`### ${table.title}`, '', `| ${table.columns.map(cell).join(' | ')} |`, `|${table.columns.map(() => ' --- |').join('')}`];
  for (const row of table.rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
  if (table.notes?.length) {
    lines.push('');
    for (const note of table.notes) lines.push(`- ${note}`);
  }
  return `${lines.join('\n')}\n`;
}

import { readdirSync, readFileSync } from 'node:fs';

const dir = process.argv[2];
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
const prof = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8'));
const self = new Map();
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const dt = {};
for (let i = 0; i < prof.samples.length; i++) {
  const id = prof.samples[i];
  dt[id] = (dt[id] ?? 0) + (prof.timeDeltas[i] ?? 0);
}
const total = Object.values(dt).reduce((a, b) => a + b, 0);
// self time by function+url
for (const n of prof.nodes) {
  const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*node_modules\//, '').replace(/.*\/work\/main\//, '')}:${n.callFrame.lineNumber}`;
  self.set(k, (self.get(k) ?? 0) + (dt[n.id] ?? 0));
}
// inclusive by package
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const pkg = new Map();
for (const n of prof.nodes) {
  const t = dt[n.id];
  if (!t) continue;
  const seen = new Set();
  let cur = n.id;
  while (cur !== undefined) {
    const nn = byId.get(cur);
    const u = nn.callFrame.url;
    const p = u.includes('node_modules/')
      ? u
          .replace(/.*node_modules\//, '')
          .split('/')
          .slice(0, u.includes('node_modules/@') ? 2 : 1)
          .join('/')
      : u.includes('/work/main/')
        ? u
            .replace(/.*\/work\/main\//, '')
            .split('/')
            .slice(0, 4)
            .join('/')
        : u
          ? 'node:' + u.split('/').pop()
          : nn.callFrame.functionName;
    if (!seen.has(p)) {
      seen.add(p);
      pkg.set(p, (pkg.get(p) ?? 0) + t);
    }
    cur = parent.get(cur);
  }
}
console.log('total ms', (total / 1000).toFixed(0));
console.log(
  [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 35)
    .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}% ${k}`)
    .join('\n'),
);
console.log('--- inclusive by module');
console.log(
  [...pkg]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 30)
    .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}% ${k}`)
    .join('\n'),
);

import { readFileSync, readdirSync } from 'node:fs';
const dir = process.argv[2]; const pats = process.argv.slice(3);
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
const prof = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n])); const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const dt = {}; for (let i = 0; i < prof.samples.length; i++) dt[prof.samples[i]] = (dt[prof.samples[i]] ?? 0) + (prof.timeDeltas[i] ?? 0);
const total = Object.values(dt).reduce((a, b) => a + b, 0);
const name = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*node_modules\//, '').replace(/.*\/work\/main\//, '')}:${n.callFrame.lineNumber}`;
for (const pat of pats) {
  let t = 0; const chains = new Map();
  for (const n of prof.nodes) { const d = dt[n.id]; if (!d) continue; let cur = n.id; let hit = null; const chain = [];
    while (cur !== undefined) { const nn = byId.get(cur); chain.push(nn.callFrame.functionName); if (name(nn).includes(pat)) hit = cur; cur = parent.get(cur); }
    if (hit !== null) { t += d; let c = parent.get(hit); const up = []; for (let k = 0; k < 6 && c !== undefined; k++) { up.push(byId.get(c).callFrame.functionName || '(anon)'); c = parent.get(c); } const key = up.join(' < '); chains.set(key, (chains.get(key) ?? 0) + d); } }
  console.log(`${(100 * t / total).toFixed(1)}% inclusive: ${pat}`);
  for (const [k, v] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, 3)) console.log(`     ${(100 * v / total).toFixed(1)}% via ${k}`);
}

import { benchScale } from '../src/scale.js';
import { httpAppendBench, medianCpu, medianRate, medianP99 } from '../src/timeline/http-appends.js';
const r = await httpAppendBench(benchScale());
for (const row of r.rows) console.log(`c=${row.concurrency}`, 'baton', medianRate(row.baton).toFixed(0), '/s p99', medianP99(row.baton).toFixed(2), 'cpu', medianCpu(row.baton).toFixed(0), 'µs | bare', medianRate(row.bare).toFixed(0), '/s p99', medianP99(row.bare).toFixed(2), 'cpu', medianCpu(row.bare).toFixed(0), 'µs');
console.log('stored', r.stored, 'ack', r.acknowledged);

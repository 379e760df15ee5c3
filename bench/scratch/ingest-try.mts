import { benchScale } from '../src/scale.js';
import { ingestBench, ingestMedians } from '../src/timeline/ingest.js';
const r = await ingestBench(benchScale());
console.log(ingestMedians(r));

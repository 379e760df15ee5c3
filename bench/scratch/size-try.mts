import { sizeBench } from '../src/timeline/size.js';

console.log(await sizeBench());

/**
 * `@baton/core/plain`: what @baton/core offers that needs no zod at run time
 * (the closed vocabularies, how blocks read as text), for the web UI, whose
 * bundle would otherwise carry the schemas it never runs.
 */
export { blockText } from './display-text.js';
export * from './vocabulary.js';

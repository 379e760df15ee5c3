import { pino } from 'pino';

export type Logger = pino.Logger;

/**
 * Structured JSON logs, always on stderr: `baton mcp`'s stdout belongs to the
 * protocol, and `baton serve` keeps stdout for the one line that says where
 * it listens.
 */
export function createLogger(level: string, name = 'baton'): Logger {
  return pino({ name, level }, pino.destination({ fd: 2, sync: false }));
}

import { createLogger } from '../log.js';

/** The subset of a pino logger the recorder uses; inject your own to route its messages. */
export interface RecorderLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** JSON lines on stderr, never stdout: a pipeline's stdout is its own. */
export function defaultRecorderLogger(): RecorderLogger {
  return createLogger('info', 'baton-recorder');
}

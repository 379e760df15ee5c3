import pg from 'pg';

/** The channel every appending transaction NOTIFYs at commit (DESIGN §3: poke + pull). */
export const CHANGES_CHANNEL = 'baton_events';

/**
 * One dedicated connection LISTENing for pokes. It reconnects with backoff
 * after errors and pokes once after each reconnect, since notifications sent
 * while it was away are lost: the listener's next pull heals that.
 */
export function listenForChanges(url: string, listener: () => void): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let delay = 100;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', () => listener());
    next.on('error', () => scheduleReconnect());
    next.on('end', () => scheduleReconnect());
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      next.removeAllListeners('end');
      await next.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    delay = 100;
  };

  const scheduleReconnect = () => {
    if (closed || retry) return;
    const dead = client;
    client = null;
    dead?.removeAllListeners('end');
    void dead?.end().catch(() => {});
    retry = setTimeout(() => {
      retry = null;
      connect().then(
        () => listener(),
        () => {
          delay = Math.min(delay * 2, 5000);
          scheduleReconnect();
        },
      );
    }, delay);
  };

  return connect().then(() => async () => {
    closed = true;
    if (retry) clearTimeout(retry);
    const c = client;
    client = null;
    if (c) {
      c.removeAllListeners('end');
      await c.end().catch(() => {});
    }
  });
}

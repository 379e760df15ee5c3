import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type HubServer, startHubServer } from 'baton';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it). */
export const CHROMIUM_PATH = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Whether browser tests can run here. Without a Chromium they are skipped
 * with one line of explanation, except under CI (CI=true), where a missing
 * browser is a failure: a green run must have exercised the UI.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true' || process.env.CI === '1') {
    throw new Error(`CI: no Chromium at ${CHROMIUM_PATH}; the browser tests must run in CI (apt-get install chromium)`);
  }
  // Several test files ask; the run's parent process id keys one notice per `npm test`.
  try {
    writeFileSync(join(tmpdir(), `baton-web-no-chromium-${process.ppid}`), '', { flag: 'wx' });
    console.log(`web: no Chromium at ${CHROMIUM_PATH} — skipping the browser tests (apt-get install chromium to run them)`);
  } catch {
    // Already said in this run.
  }
  return false;
}

const WEB_INDEX = join(import.meta.dirname, '..', '..', '..', 'server', 'dist', 'web', 'index.html');

/** A real hub on 127.0.0.1 port 0 over a fresh SQLite file, serving the built UI. */
export async function startHub(): Promise<{ hub: HubServer; close(): Promise<void> }> {
  if (!existsSync(WEB_INDEX)) throw new Error(`the web UI is not built (${WEB_INDEX} is missing): run npm run build`);
  const dir = mkdtempSync(join(tmpdir(), 'baton-web-'));
  const hub = await startHubServer(
    { dataDir: dir, databaseUrl: undefined, host: '127.0.0.1', port: 0, token: undefined, bodyLimit: 16 * 1024 * 1024 },
    createLogger('silent'),
  );
  return {
    hub,
    close: async () => {
      await hub.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Headless Chromium with the flags that work on these machines (STACK.md), clipboard allowed for `origin`. */
export async function launchChromium(origin: string): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'chr-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

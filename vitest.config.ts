import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'bench/src/**/*.test.ts'],
    globalSetup: ['packages/server/src/test-support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: keep parallel files few so timing-sensitive tests stay honest.
    maxWorkers: 2,
  },
});

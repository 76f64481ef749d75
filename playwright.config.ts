import { defineConfig } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';

// Debian's Chromium (or CHROMIUM_PATH); never download a browser (see README). Its headless
// shell (Debian's chromium-headless-shell: the same Blink and V8 without the desktop browser
// around them, what Playwright itself runs headless) when installed: the same tests cost about
// 17 % less CPU than in the full browser (docs/testing.md#chromium). Started through
// tests/e2e/chromium.sh, which turns off what costs CPU in every new context and no test uses.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromium = process.env.CHROMIUM_PATH || (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
// The wrapper starts what this names (the workers read this file too).
process.env.CHROMIUM_PATH = chromium;
const executablePath = fs.existsSync(chromium) ? path.resolve(import.meta.dirname, 'tests/e2e/chromium.sh') : undefined;

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  // No retries (the default): a test that passes only on its second run is hiding a bug (issue 22).
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    launchOptions: {
      executablePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});

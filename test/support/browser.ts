/** Headless Chromium for the page tests (the machine's /usr/bin/chromium, driven by playwright-core), and where their screenshots go. */
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

/** Where test artefacts go (git ignores it). */
export const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

/** Chromium's flags on the test machines: no sandbox nor GPU, and (the network is closed) no background connections, no component updates. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });

// Shared by the e2e tests and the browser benchmark: serves web/dist on a free loopback port and
// drives Debian's Chromium headless through playwright-core (no browser downloads).
import { createRequire } from 'node:module';
import { after, before } from 'node:test';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/static-server.mjs';

export const root = resolve(fileURLToPath(import.meta.url), '../../..');
const require = createRequire(resolve(root, 'web/package.json'));
const { chromium } = require('playwright-core');

export const CHROMIUM = process.env.WEFT_CHROMIUM ?? '/usr/bin/chromium';
const QUIET_FLAGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'];

/** Starts the server and a browser; `webgpu` adds --enable-unsafe-webgpu. Call close() when done. */
export async function startBrowser({ webgpu = true } = {}) {
  const { server, url } = await serve(resolve(root, 'web/dist'), 0);
  const args = [...QUIET_FLAGS, ...(process.env.WEFT_EXTRA_FLAGS ?? '').split(' ').filter(Boolean)];
  if (webgpu) args.push('--enable-unsafe-webgpu');
  let browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    url,
    browser,
    async close() {
      await browser.close().catch(() => {});
      await new Promise((done) => server.close(done));
    },
  };
}

/**
 * A browser for the tests of the enclosing describe() (or file): started before them, closed
 * after. Returns the session as startBrowser would, readable once the tests run.
 */
export function useBrowser(options) {
  let live;
  before(async () => {
    live = await startBrowser(options);
  });
  after(async () => {
    await live?.close();
  });
  return {
    get url() {
      return live.url;
    },
    get browser() {
      return live.browser;
    },
  };
}

/**
 * Opens the app with the given query and waits until window.weft is ready and frames advance.
 * Console errors and page errors are collected in `errors`.
 */
export async function openApp(session, query = '', { width = 800, height = 600, deviceScaleFactor = 1, hasTouch = false } = {}) {
  const page = await session.browser.newPage({ viewport: { width, height }, deviceScaleFactor, hasTouch });
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${session.url}${query}`);
  await page.waitForFunction(() => window.weft && window.weft.stats().frame > 0, null, { timeout: 60_000 });
  return { page, errors };
}

/** The bounding box of the first element matching `selector` (null when it is not laid out). */
export const box = (page, selector) => page.locator(selector).first().boundingBox();

/** Whether two boxes (as box() returns them) overlap. */
export const overlap = (a, b) => !!a && !!b && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The panel's controller (lil-gui) whose name is `name`. */
export const panelController = (page, name) =>
  page.locator('.lil-gui .lil-controller', { has: page.locator('.lil-name', { hasText: new RegExp(`^${name}$`) }) });

/** Types a value into a panel slider's box, as a user does. */
export async function typeIntoPanel(page, name, value) {
  await panelController(page, name).locator('input').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(value);
  await page.keyboard.press('Enter');
}

/** Polls fn in the page until it returns truthy (no fixed sleeps). */
export function waitFor(page, fn, arg, timeout = 30_000) {
  return page.waitForFunction(fn, arg, { timeout, polling: 50 });
}

/** Pauses, resets and steps n frames (window.weft hooks); returns the positions and stats. */
export function runFrames(page, frames) {
  return page.evaluate(async (n) => {
    window.weft.pause();
    await window.weft.reset();
    await window.weft.step(n);
    return { positions: Array.from(await window.weft.positions()), stats: window.weft.stats() };
  }, frames);
}

/** Largest coordinate difference between two xyzw position arrays (w ignored). */
export const maxDifference = (a, b) => a.reduce((m, v, i) => (i % 4 === 3 ? m : Math.max(m, Math.abs(v - b[i]))), 0);

/**
 * Opens the app with ?solver=gpu and waits until the GPU solver runs. In headless Chromium the first
 * present can lose the renderer's device some time after start; the page then recovers on a fresh
 * device and puts the cloth back on the GPU, so the wait covers that too.
 */
export async function openGpuApp(session, query, options) {
  const opened = await openApp(session, query, options);
  await waitFor(opened.page, () => window.weft.stats().solver === 'gpu', undefined, 60_000).catch(() => {});
  return opened;
}

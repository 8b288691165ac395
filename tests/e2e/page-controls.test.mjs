// Page controls a new user tries (a second review): the panel's "scene's own collider" with no file
// collider loaded, what the toolbar and the drop overlay say the page accepts, long messages on a
// phone on its side; (a third) one frame at a time without the console. Real clicks, keys, drags
// and drops (WebGL2: quick in headless Chromium).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { box, openApp, overlap, panelController, useBrowser, waitFor } from './harness.mjs';

const session = useBrowser({ webgpu: false });

describe('the panel\'s "scene\'s own collider"', () => {
  test('with no collider from a file it says so (it did nothing at all); after a file it goes back', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=sphere&grid=16', { width: 1100, height: 700 });
    const button = panelController(page, "scene's own collider").locator('button');
    try {
      await button.click();
      const note = page.locator('#messages .message', { hasText: 'own collider' });
      await note.waitFor({ timeout: 5000 });
      assert.match(await note.textContent(), /no collider from a file/i);
      assert.equal((await page.evaluate(() => window.weft.stats().spheres)).length, 1, 'the sphere stays');
      // With a file's collider, the button brings the sphere back (and says nothing more).
      const loaded = await page.evaluate(() => window.weft.loadObj('v -1 0 -1\nv 1 0 -1\nv 0 0 1\nf 1 2 3\n'));
      assert.equal(loaded.ok, true);
      assert.equal((await page.evaluate(() => window.weft.stats().spheres)).length, 0);
      await button.click();
      await waitFor(page, () => window.weft.stats().mesh === null && window.weft.stats().spheres.length === 1);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('what the page says it accepts', () => {
  test('the toolbar hint and the drop overlay name .gltf too (the page takes it; they said ".obj or .glb")', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=hang&grid=16', { width: 1100, height: 700 });
    try {
      assert.match(await page.locator('#toolbar .hint').textContent(), /\.obj, \.glb or \.gltf/);
      const dataTransfer = await page.evaluateHandle(() => {
        const transfer = new DataTransfer();
        transfer.items.add(new File(['{}'], 'scene.gltf', { type: 'model/gltf+json' }));
        return transfer;
      });
      await page.dispatchEvent('#view', 'dragenter', { dataTransfer });
      const overlay = page.locator('#drop');
      await overlay.waitFor({ state: 'visible' });
      assert.match(await overlay.textContent(), /\.gltf/);
      await page.dispatchEvent('#view', 'dragleave', { dataTransfer });
      await overlay.waitFor({ state: 'hidden' });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('long messages on a phone on its side', () => {
  test('844×390: three long messages stay clear of the HUD; the newest shows whole, the older scroll', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=flag&grid=16', { width: 844, height: 390, hasTouch: true });
    try {
      await waitFor(page, () => document.querySelector('#hud .text').textContent.includes('frame'));
      const long = (what) =>
        `${what}: ${'a-collider-file-with-a-long-name.obj:12: vertex index 99 is out of range (the file has 3 vertices) '.repeat(3)}`;
      await page.evaluate(
        (texts) => texts.forEach(([text, level]) => window.weft.notify(text, level)),
        [
          [long('first'), 'warning'],
          [long('second'), 'warning'],
          [long('Simulation stopped'), 'error'],
        ],
      );
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      // Both in one layout: the HUD may grow between two calls (a loaded machine's slow-motion line),
      // and the dock follows it in the next frame (ResizeObserver).
      const [hud, messages] = await page.evaluate(() =>
        ['#hud', '#messages'].map((selector) => {
          const r = document.querySelector(selector).getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        }),
      );
      await page.screenshot({ path: `${process.env.WEFT_SHOTS ?? '/tmp'}/messages-844x390.png` });
      assert.ok(!overlap(hud, messages), `the messages (top ${messages.y}) cover the HUD (bottom ${hud.y + hud.height})`);
      const newest = await box(page, '#messages .message.error');
      assert.ok(newest.y >= messages.y && newest.y + newest.height <= messages.y + messages.height + 0.5, 'the newest is whole');
      const toolbar = await box(page, '#toolbar');
      assert.ok(toolbar.y + toolbar.height <= 390, 'the toolbar stays in the window');
      // The oldest is still there to read and close: scrolled to, its close button works.
      const first = page.locator('#messages .message', { hasText: 'first:' });
      await first.locator('.close').click();
      await first.waitFor({ state: 'detached' });
      assert.ok(
        errors.every((e) => /Simulation stopped/.test(e)),
        `console: ${errors.join(' | ')}`,
      );
    } finally {
      await page.close();
    }
  });

  test('700×280 in strain mode (HUD, legend and toolbar fill the window): the newest message still shows a line', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=flag&grid=16&mode=strain', { width: 700, height: 280 });
    try {
      await page.evaluate(() => window.weft.notify('Could not use bad.obj as the collider: bad.obj:3: a reason. '.repeat(3), 'warning'));
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: `${process.env.WEFT_SHOTS ?? '/tmp'}/messages-700x280.png` });
      const messages = await box(page, '#messages');
      assert.ok(messages.height >= 30, `the messages got ${messages.height} px`);
      const toolbar = await box(page, '#toolbar');
      assert.ok(toolbar.y + toolbar.height <= 280, 'the toolbar stays in the window');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe("the panel's solver without WebGPU", () => {
  test('choosing gpu says it needs WebGPU and leaves the running cloth as it is (it restarted it from rest)', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=hang&grid=16', { width: 1100, height: 700 });
    const solver = panelController(page, 'solver').locator('select');
    try {
      await waitFor(page, () => window.weft.stats().frame > 60);
      await solver.selectOption('gpu');
      await page.locator('#messages .message.warning', { hasText: 'needs WebGPU' }).waitFor();
      const stats = await page.evaluate(() => window.weft.stats());
      assert.equal(stats.solver, 'wasm');
      assert.ok(stats.frame > 60, `the cloth went on (frame ${stats.frame}), not back to rest`);
      assert.equal(await solver.inputValue(), 'wasm', 'the panel says which solver runs');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('one frame at a time (the page said "or steps" but only window.weft.step() could)', () => {
  test(". pauses a running cloth, then steps one frame a press; the toolbar's step button does the same", async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=hang&grid=16', { width: 1100, height: 700 });
    const frame = () => page.evaluate(() => window.weft.stats().frame);
    // The cloth's positions as a string (a step moves the hanging cloth: it still swings).
    const hash = () => page.evaluate(async () => Array.from(await window.weft.positions()).join(','));
    try {
      await waitFor(page, () => window.weft.stats().frame > 5);
      await page.mouse.click(300, 300); // the focus on the page, not the panel
      await page.keyboard.press('Period');
      await waitFor(page, () => window.weft.stats().paused);
      const paused = await frame();
      await page.waitForTimeout(300);
      assert.equal(await frame(), paused, 'paused: no frame passes');
      const before = await hash();
      await page.keyboard.press('Period');
      await waitFor(page, (f) => window.weft.stats().frame === f + 1, paused);
      assert.notEqual(await hash(), before, 'the step moved the cloth');
      await page.keyboard.press('Period');
      await waitFor(page, (f) => window.weft.stats().frame === f + 2, paused);
      await page.waitForTimeout(300);
      assert.equal(await frame(), paused + 2, 'exactly one frame a press');
      const button = page.locator('#toolbar button[data-action="step"]');
      await button.click();
      await waitFor(page, (f) => window.weft.stats().frame === f + 3, paused);
      assert.equal(await page.evaluate(() => window.weft.stats().paused), true, 'still paused');
      // Running again (Space), the button pauses it first.
      await page.keyboard.press('Space');
      await waitFor(page, (f) => window.weft.stats().frame > f + 5, paused);
      await button.click();
      await waitFor(page, () => window.weft.stats().paused);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('the panel and the window size', () => {
  test('made small, the window closes the panel; made large again, it opens it again, unless the user closed it', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=hang&grid=16', { width: 1280, height: 800 });
    const closed = () => page.evaluate(() => document.querySelector('.weft-panel').classList.contains('lil-closed'));
    try {
      assert.equal(await closed(), false, 'open on a large window');
      await page.setViewportSize({ width: 480, height: 320 });
      await waitFor(page, () => document.querySelector('.weft-panel').classList.contains('lil-closed'));
      await page.setViewportSize({ width: 1280, height: 800 });
      await waitFor(page, () => !document.querySelector('.weft-panel').classList.contains('lil-closed'));
      // Closed by the user (its title), it stays closed through the same resizes.
      await page.locator('.weft-panel > .lil-title').first().click();
      await waitFor(page, () => document.querySelector('.weft-panel').classList.contains('lil-closed'));
      await page.setViewportSize({ width: 480, height: 320 });
      await page.waitForTimeout(200);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.waitForTimeout(300);
      assert.equal(await closed(), true, "the user's choice is kept");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('the HUD on a small window', () => {
  test('I hides the HUD (it covered the top of the sphere at 480×320) and shows it again', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=sphere&grid=16', { width: 480, height: 320 });
    const hidden = () => page.evaluate(() => document.getElementById('hud').getBoundingClientRect().height === 0);
    try {
      await waitFor(page, () => document.getElementById('hud').textContent.includes('frame'));
      assert.equal(await hidden(), false);
      await page.mouse.click(240, 200);
      await page.keyboard.press('i');
      await waitFor(page, () => document.getElementById('hud').getBoundingClientRect().height === 0);
      await page.keyboard.press('i');
      await waitFor(page, () => document.getElementById('hud').getBoundingClientRect().height > 0);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('the toolbar strip', () => {
  test('the wheel over its hint and the gaps zooms the view (the strip took it: 630 × 28 px where nothing zoomed)', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=hang&grid=16', { width: 1100, height: 700 });
    try {
      await page.evaluate(() => window.weft.pause());
      const hint = await box(page, '#toolbar .hint');
      const before = await page.evaluate(() => window.weft.stats().camera.distance);
      await page.mouse.move(hint.x + hint.width / 2, hint.y + hint.height / 2);
      await page.mouse.wheel(0, -300);
      await waitFor(page, (d) => window.weft.stats().camera.distance < 0.95 * d, before);
      // The buttons still take their clicks.
      await page.locator('#toolbar button[data-action="help"]').click();
      await waitFor(page, () => !document.getElementById('help-overlay').hidden);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('the cloth as an OBJ from the page (a review: only the CLI wrote OBJ)', () => {
  test("the toolbar's OBJ button and O download the cloth as it is now, the CLI's text: every particle, every triangle", async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=sphere&grid=16', { width: 1100, height: 700 });
    try {
      await page.evaluate(() => window.weft.pause());
      const stats = await page.evaluate(() => window.weft.stats());
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#toolbar button[data-action="obj"]').click()]);
      assert.equal(download.suggestedFilename(), `weft-sphere-frame${stats.frame}.obj`);
      const text = (await import('node:fs')).readFileSync(await download.path(), 'utf8');
      const lines = text.split('\n');
      assert.match(lines[0], new RegExp(`^# weft cloth, frame ${stats.frame}, t = `));
      const count = (prefix) => lines.filter((l) => l.startsWith(prefix)).length;
      assert.equal(count('v '), stats.particles);
      assert.equal(count('vt '), stats.particles);
      assert.equal(count('vn '), stats.particles);
      assert.equal(count('f '), 2 * 15 * 15);
      // The positions are the cloth's (6 decimals).
      const positions = await page.evaluate(async () => Array.from(await window.weft.positions()));
      const first = lines
        .find((l) => l.startsWith('v '))
        .split(' ')
        .slice(1)
        .map(Number);
      assert.ok(
        first.every((v, k) => Math.abs(v - positions[k]) < 1e-6),
        `${first} vs ${positions.slice(0, 3)}`,
      );
      // O does the same, and window.weft.obj() gives the text.
      const [again] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('o')]);
      assert.equal((await import('node:fs')).readFileSync(await again.path(), 'utf8'), text);
      assert.equal(await page.evaluate(() => window.weft.obj()), text);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

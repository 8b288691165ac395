// Issue 13, points 4, 5, 6, 8, 9: messages (info fades, errors stay until closed, at most three,
// never over the panel); the help overlay (?, H, F1, the button; Esc closes); small screens (the
// panel starts collapsed below 700 px, the HUD stays visible, every control is reachable at 390×844
// and 900×500); the screenshot (P and the button download a PNG of the view); files that are not
// OBJ text, and collider errors that name the file and line. Real keys, clicks and drops.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { box, openApp, overlap, panelController, typeIntoPanel, waitFor, useBrowser } from './harness.mjs';
import { imageStats } from './pixels.mjs';

const messageCount = (page) => page.locator('#messages .message:not(.leaving)').count();

const session = useBrowser({ webgpu: true });

describe('messages', () => {
  test('bad URL values: at most three messages, each closable, none over the panel at 1000 px', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=abc&mode=zzz&solver=qq&renderer=xx', { width: 1000, height: 800 });
    try {
      const count = await messageCount(page);
      assert.ok(count >= 1 && count <= 3, `${count} messages shown`);
      const panel = await box(page, '.lil-gui.weft-panel');
      for (const message of await page.locator('#messages .message').all()) {
        assert.ok(!overlap(await message.boundingBox(), panel), `"${await message.textContent()}" is clear of the panel`);
      }
      // More messages never stack past three.
      for (let i = 0; i < 5; i++)
        await page.evaluate((n) => window.weft.notify(`extra warning ${n}, a long one that wraps over the width`, 'warning'), i);
      assert.equal(await messageCount(page), 3);
      for (const message of await page.locator('#messages .message').all()) assert.ok(!overlap(await message.boundingBox(), panel));
      // The close button removes one.
      await page.locator('#messages .message .close').first().click();
      assert.equal(await messageCount(page), 2);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('info fades after a few seconds; an error stays until its close button', async () => {
    const { page } = await openApp(session, '?scene=hang&grid=12');
    try {
      await page.evaluate(() => window.weft.notify('an error that must be read', 'error'));
      await page.evaluate(() => window.weft.notify('just so you know', 'info'));
      const start = Date.now();
      await waitFor(
        page,
        () => ![...document.querySelectorAll('#messages .message')].some((m) => m.textContent.includes('just so you know')),
        undefined,
        12_000,
      );
      const faded = (Date.now() - start) / 1000;
      assert.ok(faded >= 3 && faded < 10, `info gone after ${faded} s`);
      const error = page.locator('#messages .message.error', { hasText: 'an error that must be read' });
      assert.equal(await error.count(), 1, 'the error is still there');
      await error.locator('.close').click();
      assert.equal(await error.count(), 0, 'closed');
    } finally {
      await page.close();
    }
  });
});

describe('help', () => {
  test('? opens the help with every control, Esc closes; H, F1 and the button too', async () => {
    const { page, errors } = await openApp(session, '?scene=hang&grid=12', { width: 1280, height: 800 });
    try {
      const overlay = page.locator('#help-overlay');
      assert.equal(await overlay.isVisible(), false);
      await page.focus('#view');
      await page.keyboard.press('?');
      await overlay.waitFor({ state: 'visible' });
      const text = await overlay.textContent();
      for (const control of [
        'drag on the cloth',
        'Shift + drag',
        'wheel',
        'double-click',
        'two fingers',
        'Space',
        'R',
        'S',
        'F',
        'P',
        'Esc',
        'drop an .obj',
      ])
        assert.ok(text.includes(control), `the help mentions ${control}`);
      const shot = await page.screenshot();
      await import('node:fs').then((fs) => fs.writeFileSync(`${process.env.WEFT_SHOTS ?? '/tmp'}/help-1280.png`, shot));
      await page.keyboard.press('Escape');
      await overlay.waitFor({ state: 'hidden' });
      await page.keyboard.press('h');
      await overlay.waitFor({ state: 'visible' });
      await page.keyboard.press('h');
      await overlay.waitFor({ state: 'hidden' });
      await page.keyboard.press('F1');
      await overlay.waitFor({ state: 'visible' });
      await overlay.locator('.close').click();
      await overlay.waitFor({ state: 'hidden' });
      await page.locator('#toolbar button[data-action=help]').click();
      await overlay.waitFor({ state: 'visible' });
      await page.keyboard.press('Escape');
      await overlay.waitFor({ state: 'hidden' });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

const PANEL_CONTROLS = '.lil-gui.weft-panel .lil-controller, .lil-gui.weft-panel .lil-title';
const TOOLBAR = '#toolbar button';

/**
 * Every shown control of `selector` can be scrolled to (the panel scrolls inside the window) and is
 * then inside the window and the element hit at its centre. In the page: one pass over the DOM.
 */
async function everyControlReachable(page, selector, least) {
  const problems = await page.evaluate(
    async ([query, minimum]) => {
      // Controls the page hides (lil-gui's hidden class: "sphere moves" without a sphere, "ridge lifts"
      // without a mesh) are not on the screen to be reached.
      const targets = [...document.querySelectorAll(query)].filter((target) => target.getClientRects().length > 0);
      if (targets.length < minimum) return [`only ${targets.length} controls`];
      const found = [];
      for (const target of targets) {
        target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
        await new Promise((done) => requestAnimationFrame(done));
        const b = target.getBoundingClientRect();
        const name = target.textContent.trim().slice(0, 40);
        if (b.left < 0 || b.top < 0 || b.right > innerWidth + 1 || b.bottom > innerHeight + 1) found.push(`${name} outside the window`);
        else if (!target.contains(document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2)))
          found.push(`${name} is covered`);
      }
      return found;
    },
    [selector, least],
  );
  assert.deepEqual(problems, []);
}

describe('small screens', () => {
  test('390×844: the panel starts collapsed, the HUD shows, every control is reachable', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=16', { width: 390, height: 844, hasTouch: true });
    try {
      const panel = page.locator('.lil-gui.weft-panel');
      assert.ok(await panel.evaluate((e) => e.classList.contains('lil-closed')), 'collapsed at start');
      const hud = await box(page, '#hud');
      assert.ok(hud.x >= 0 && hud.x + hud.width <= 390 && hud.y + hud.height < 844 * 0.4, `HUD on screen: ${JSON.stringify(hud)}`);
      assert.ok(!overlap(hud, await panel.boundingBox()), 'the collapsed panel leaves the HUD visible');
      assert.ok((await panel.boundingBox()).width < 390 * 0.5, 'the collapsed panel is small');
      const shot = await page.screenshot();
      await import('node:fs').then((fs) => fs.writeFileSync(`${process.env.WEFT_SHOTS ?? '/tmp'}/small-390.png`, shot));
      // The toolbar with the panel collapsed; then every panel control with it open (a tap on its title).
      await everyControlReachable(page, TOOLBAR, 4);
      const title = panel.locator('.lil-title').first();
      await title.click();
      // lil-gui says it is open at once (aria-expanded) and drops the class lil-closed on the next
      // animation frame, adding lil-transition while the opening animates: wait for both to finish.
      assert.equal(await title.getAttribute('aria-expanded'), 'true', 'opens on a tap');
      await waitFor(page, () => {
        const classes = document.querySelector('.lil-gui.weft-panel').classList;
        return !classes.contains('lil-closed') && !classes.contains('lil-transition');
      });
      await everyControlReachable(page, PANEL_CONTROLS, 30);
      // Every number box shows its whole value ("1.00", not "1.0(").
      const clipped = await page.evaluate(() =>
        [...document.querySelectorAll('.lil-gui.weft-panel .lil-controller.lil-number input')]
          .filter((input) => input.scrollWidth > input.clientWidth)
          .map((input) => `${input.closest('.lil-controller').querySelector('.lil-name').textContent}: ${input.value}`),
      );
      assert.deepEqual(clipped, [], 'number boxes too narrow for their values');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('900×500: the panel scrolls inside the window, every control is reachable, nothing white under it', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=16&renderer=webgl2', { width: 900, height: 500 });
    try {
      const panel = await box(page, '.lil-gui.weft-panel');
      assert.ok(panel.y + panel.height <= 500, `the panel ends inside the window: ${JSON.stringify(panel)}`);
      assert.ok(!overlap(panel, await box(page, '#toolbar')), 'toolbar clear of the panel');
      await everyControlReachable(page, `${PANEL_CONTROLS}, ${TOOLBAR}`, 34);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('screenshot', () => {
  test('P and the PNG button download a PNG of the current view', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=24', { width: 640, height: 480 });
    try {
      await page.evaluate(async () => {
        window.weft.pause();
        await window.weft.step(60); // draped over the sphere
      });
      await page.focus('#view');
      for (const how of ['key', 'button']) {
        const download = page.waitForEvent('download');
        if (how === 'key') await page.keyboard.press('p');
        else await page.locator('#toolbar button[data-action=screenshot]').click();
        const file = await download;
        assert.match(file.suggestedFilename(), /^weft-sphere-frame\d+\.png$/, how);
        const bytes = await readFile(await file.path());
        assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${how}: a PNG`);
        const pixels = await imageStats(page, `data:image/png;base64,${bytes.toString('base64')}`);
        assert.equal(pixels.width, 640);
        assert.equal(pixels.height, 480);
        assert.ok(
          pixels.distinctColours > 40 && pixels.reddishFraction > 0.005,
          `${how}: the view with the cloth: ${JSON.stringify(pixels)}`,
        );
      }
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('fullscreen', () => {
  test('the full screen button and Shift+F toggle fullscreen', async () => {
    const { page, errors } = await openApp(session, '?scene=hang&grid=12');
    try {
      await page.locator('#toolbar button[data-action=fullscreen]').click();
      await waitFor(page, () => !!document.fullscreenElement);
      await page.focus('#view');
      await page.keyboard.press('Shift+F');
      await waitFor(page, () => !document.fullscreenElement);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('where the browser has no fullscreen for pages (iPhone Safari), the button says so instead of doing nothing', async () => {
    const { page, errors } = await openApp(session, '?scene=hang&grid=12', { width: 390, height: 844, hasTouch: true });
    try {
      await page.evaluate(() => Object.defineProperty(Element.prototype, 'requestFullscreen', { value: undefined, configurable: true }));
      await page.locator('#toolbar button[data-action=fullscreen]').click();
      await waitFor(page, () => document.getElementById('messages').textContent.includes('no fullscreen for web pages'));
      assert.equal(await page.evaluate(() => document.fullscreenElement), null);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('files', () => {
  /** Drops a file of these bytes on the canvas (a real DragEvent with a File made in the page). */
  const dropBytes = (page, name, bytes, type) =>
    page.evaluate(
      ([fileName, content, mime]) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(content)], fileName, { type: mime }));
        const target = document.getElementById('view');
        for (const t of ['dragenter', 'dragover', 'drop'])
          target.dispatchEvent(new DragEvent(t, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      },
      [name, [...bytes], type],
    );

  test('a PNG is "not an OBJ text file" (name:1:); a huge coordinate names the file and its line, not a C function', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=16');
    try {
      const png = [
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0,
      ];
      await dropBytes(page, 'photo.png', png, 'image/png');
      await waitFor(page, () => /not an OBJ text file/.test(document.getElementById('messages').textContent));
      let text = await page.textContent('#messages');
      assert.match(text, /photo\.png:1: not an OBJ text file \(it is a PNG image\)/);
      assert.doesNotMatch(text, /unknown statement/);
      assert.doesNotMatch(text, /trying to read it as one/, 'no second message about it');
      const huge = new TextEncoder().encode('# far away\nv 0 0 0\nv 1 0 0\nv 1e30 1 0\nf 1 2 3\n');
      await dropBytes(page, 'huge.obj', huge, 'model/obj');
      await waitFor(page, () => /huge\.obj/.test(document.getElementById('messages').textContent));
      text = await page.textContent('#messages');
      assert.match(text, /huge\.obj:4: vertex 3 has a non-finite or huge coordinate/);
      assert.doesNotMatch(text, /weft_[a-z_]+:/, 'no C function names');
      assert.equal(await page.evaluate(() => window.weft.stats().spheres.length), 1, 'the scene keeps its sphere');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('panel numbers', () => {
  test("a slider's box shows its step's decimals (shear log₁₀ 1e-7 reads -7.0, the flag's wind 8.5); a typed value beyond its range is reported", async () => {
    const { page, errors } = await openApp(session, '?scene=flag&grid=16', { width: 1000, height: 700 });
    try {
      await page.evaluate(() => window.weft.pause());
      const shown = (name) => panelController(page, name).locator('input').inputValue();
      assert.equal(await shown('shear log₁₀α'), '-7.0');
      assert.equal(await shown('stretch log₁₀α'), '-8.0');
      const air = await page.evaluate(() => window.weft.stats().air);
      const speed = Math.hypot(air.wind.x, air.wind.z);
      assert.equal(await shown('wind m/s'), speed.toFixed(1), `wind ${speed} m/s`);
      assert.equal(await shown('air density kg/m³'), air.airDensity.toFixed(3));
      // A typed value beyond the range is clamped, and the page says so.
      await typeIntoPanel(page, 'wind m/s', '1e9');
      await waitFor(page, () => [...document.querySelectorAll('#messages .message')].some((m) => m.textContent.includes('wind m/s')));
      const text = await page.locator('#messages .message', { hasText: 'wind m/s' }).first().textContent();
      assert.match(text, /1e9 is outside 0 … 30; set to 30/);
      const wind = await page.evaluate(() => window.weft.stats().air.wind);
      assert.ok(Math.abs(Math.hypot(wind.x, wind.z) - 30) < 1e-3, `wind ${JSON.stringify(wind)}`);
      await typeIntoPanel(page, 'wind m/s', '12');
      assert.equal(await shown('wind m/s'), '12.0');
      // Something that is not a number leaves the value as it was, and the page says so too.
      await typeIntoPanel(page, 'wind m/s', 'abc');
      await waitFor(page, () => [...document.querySelectorAll('#messages .message')].some((m) => m.textContent.includes('not a number')));
      const kept = await page.locator('#messages .message', { hasText: 'not a number' }).first().textContent();
      assert.match(kept, /wind m\/s: "abc" is not a number; kept 12/);
      assert.equal(await shown('wind m/s'), '12.0');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('keys after the panel', () => {
  test('a panel control keeps focus after a click, yet F, Space, S and R still act on the scene (not on the drop-down or checkbox)', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=16', { width: 1000, height: 700 });
    try {
      const scene = panelController(page, 'scene').locator('select');
      const shading = panelController(page, 'shading').locator('select');
      const selfCollision = panelController(page, 'self-collision').locator('input');
      // A drop-down focused by a click (its list closed again): F frames instead of picking "flag".
      await scene.click();
      await page.keyboard.press('Escape');
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'SELECT');
      // Far off (F brings the camera back to the cloth).
      const before = await page.evaluate(() => window.weft.setCamera({ distance: 30 }).distance);
      await page.keyboard.press('f');
      await waitFor(page, (distance) => window.weft.stats().camera.distance < distance - 1, before);
      assert.equal(await scene.inputValue(), 'sphere', 'F left the scene drop-down alone');
      // Space pauses; R resets (the scene is the same one).
      await page.keyboard.press('Space');
      assert.equal(await page.evaluate(() => window.weft.stats().paused), true, 'Space paused');
      assert.equal(await scene.inputValue(), 'sphere');
      // The shading drop-down focused: S stops the sphere, the shading stays.
      const mode = await shading.inputValue();
      await shading.focus();
      const moving = await page.evaluate(() => window.weft.stats().sphereMoving);
      await page.keyboard.press('s');
      assert.equal(await page.evaluate(() => window.weft.stats().sphereMoving), !moving, 'S toggled the sphere');
      assert.equal(await shading.inputValue(), mode, 'S left the shading drop-down alone');
      // The self-collision checkbox clicked (it keeps focus): Space resumes, the checkbox stays.
      await selfCollision.click();
      const on = await page.evaluate(() => window.weft.stats().selfCollision);
      await page.keyboard.press('Space');
      assert.equal(await page.evaluate(() => window.weft.stats().paused), false, 'Space resumed');
      assert.equal(await page.evaluate(() => window.weft.stats().selfCollision), on, 'Space left the checkbox alone');
      assert.equal(await selfCollision.isChecked(), on);
      // A text box still takes its keys: typing "1.5" into damping does not reset or pause.
      await typeIntoPanel(page, 'damping 1/s', '1.5');
      assert.equal(await page.evaluate(() => window.weft.stats().paused), false);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('held keys', () => {
  test('a key held down acts once: Space pauses, P downloads one PNG, H opens the help, K starts one recording', async () => {
    const { page, errors } = await openApp(session, '?scene=hang&grid=16', { width: 1000, height: 700 });
    const downloads = [];
    page.on('download', (download) => downloads.push(download.suggestedFilename()));
    // A press and three repeats (playwright sends repeat: true for a key already down), then the release.
    const hold = async (key) => {
      for (let i = 0; i < 4; i++) await page.keyboard.down(key);
      await page.keyboard.up(key);
    };
    try {
      await page.locator('canvas').first().focus();
      await hold(' ');
      assert.equal(await page.evaluate(() => window.weft.stats().paused), true, 'Space held: paused, once');
      await hold('p');
      // The first PNG (its encoding can take seconds on a loaded machine), then time for any second.
      const pngs = () => downloads.filter((name) => name.endsWith('.png')).length;
      for (const start = Date.now(); pngs() === 0 && Date.now() - start < 15_000;) await page.waitForTimeout(50);
      await page.waitForTimeout(500);
      assert.deepEqual(
        downloads.filter((name) => name.endsWith('.png')),
        [`weft-hang-frame${await page.evaluate(() => window.weft.stats().frame)}.png`],
        'P held: one PNG',
      );
      await hold('h');
      assert.equal(await page.locator('#help-overlay').isVisible(), true, 'H held: the help is open');
      await page.keyboard.press('Escape');
      await hold('k');
      await waitFor(page, () => !document.getElementById('recording').hidden);
      await page.waitForTimeout(300);
      assert.equal(await page.locator('#recording').isVisible(), true, 'K held: recording');
      assert.equal(downloads.filter((name) => name.endsWith('.glb')).length, 0, 'no recording stopped and downloaded');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('the sphere control', () => {
  test('"sphere moves (S)" shows only in a scene with a sphere; S elsewhere says the scene has none', async () => {
    const { page, errors } = await openApp(session, '?scene=hang&grid=16', { width: 1000, height: 700 });
    try {
      const control = panelController(page, 'sphere moves \\(S\\)');
      assert.equal(await control.isVisible(), false, 'no sphere in hang: no control');
      await page.locator('canvas').first().focus();
      await page.keyboard.press('s');
      await waitFor(page, () => document.getElementById('messages').textContent.includes('this scene has none'));
      await panelController(page, 'scene').locator('select').selectOption('sphere');
      await waitFor(page, () => window.weft.stats().spheres.length === 1);
      await waitFor(page, () => {
        const names = [...document.querySelectorAll('.lil-controller')].filter((c) => c.textContent.includes('sphere moves'));
        return names.length === 1 && names[0].offsetParent !== null;
      });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("a sphere stopped with S stays stopped after R (and after the panel's reset), as its checkbox says", async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=16', { width: 1000, height: 700 });
    try {
      const checkbox = panelController(page, 'sphere moves \\(S\\)').locator('input');
      const sphere = () => page.evaluate(() => window.weft.stats().spheres[0]);
      await page.evaluate(() => window.weft.pause());
      await page.locator('canvas').first().focus();
      await page.keyboard.press('s');
      await waitFor(page, () => window.weft.stats().sphereMoving === false);
      assert.equal(await checkbox.isChecked(), false, 'the checkbox follows S');
      for (const reset of [() => page.keyboard.press('r'), () => page.locator('.lil-function button', { hasText: 'reset (R)' }).click()]) {
        await page.evaluate(() => window.weft.step(5));
        await reset();
        await waitFor(page, () => window.weft.stats().frame === 0);
        const start = await sphere();
        await page.evaluate(() => window.weft.step(30));
        assert.deepEqual(await sphere(), start, 'the sphere stays put after the reset');
        assert.equal(await page.evaluate(() => window.weft.stats().sphereMoving), false);
        assert.equal(await checkbox.isChecked(), false, 'and the checkbox says so');
      }
      // Started again with S, a reset keeps it moving.
      await page.keyboard.press('s');
      await page.keyboard.press('r');
      await waitFor(page, () => window.weft.stats().frame === 0);
      const start = await sphere();
      await page.evaluate(() => window.weft.step(30));
      const end = await sphere();
      assert.ok(Math.hypot(end.x - start.x, end.y - start.y, end.z - start.z) > 0.01, 'moving again after S and R');
      assert.equal(await checkbox.isChecked(), true);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('phone sizes', () => {
  test('844×390 (a phone on its side): the panel starts collapsed, opens when the window grows; a window that shrinks to 390×844 collapses it', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=16', { width: 844, height: 390, hasTouch: true });
    const collapsed = () => page.locator('.lil-gui.weft-panel').evaluate((e) => e.classList.contains('lil-closed'));
    try {
      assert.equal(await collapsed(), true, 'collapsed on a landscape phone');
      // Made large, the window opens it (it was closed for the size, not by the user).
      await page.setViewportSize({ width: 1280, height: 800 });
      await waitFor(page, () => !document.querySelector('.lil-gui.weft-panel').classList.contains('lil-closed'));
      await page.setViewportSize({ width: 390, height: 844 });
      await waitFor(page, () => document.querySelector('.lil-gui.weft-panel').classList.contains('lil-closed'));
      // Opened again at the small size, it stays open (the user asked for it).
      await page.locator('.lil-gui.weft-panel .lil-title').first().click();
      await waitFor(page, () => !document.querySelector('.lil-gui.weft-panel').classList.contains('lil-closed'));
      await page.setViewportSize({ width: 391, height: 844 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      assert.equal(await collapsed(), false, 'a resize within the small sizes leaves it open');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("844×390: the HUD is a phone's compact one (it covered 40% of the view), clear of the panel", async () => {
    const { page, errors } = await openApp(session, '?scene=flag&grid=16', { width: 844, height: 390, hasTouch: true });
    try {
      await waitFor(page, () => document.querySelector('#hud .text').textContent.includes('frame'));
      const font = (p) => p.locator('#hud .text').evaluate((e) => getComputedStyle(e).fontSize);
      const hud = await box(page, '#hud');
      // A loaded machine adds the "slow motion" line (a line of its own, shown only then): the HUD's
      // size is measured without it.
      const slow = await page
        .locator('#hud .slow-motion')
        .evaluate((e) => (e.hidden ? 0 : e.getBoundingClientRect().height + parseFloat(getComputedStyle(e).marginTop)));
      assert.ok(hud.height - slow <= 0.3 * 390, `the HUD is ${hud.height} px of 390 high (${slow} px of it slow motion)`);
      assert.ok(!overlap(hud, await box(page, '.lil-gui.weft-panel')), 'clear of the panel');
      const upright = await openApp(session, '?scene=flag&grid=16', { width: 390, height: 844, hasTouch: true });
      try {
        assert.equal(await font(page), await font(upright.page), 'the same text size as on the phone upright');
      } finally {
        await upright.page.close();
      }
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

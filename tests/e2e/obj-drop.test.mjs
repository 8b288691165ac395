// A user's OBJ as the collider: a real (synthetic) drag-and-drop of a File made in the page, the
// window.weft.loadObj hook, malformed files (the page says which line and why, nothing changes),
// and the bunny scene drawing its bunny. WebGPU path here (capture() reads it off-screen); the hook
// test runs on WebGL2 too, where it costs one page.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openApp, waitFor, useBrowser } from './harness.mjs';
import { colourfulDifference } from './pixels.mjs';

// A unit box, 6 quads (12 triangles once fan-triangulated), faces counter-clockwise from outside.
const BOX = readFileSync(new URL('./fixtures/box.obj', import.meta.url), 'utf8');

// Each refused with the line that is wrong in the message.
const MALFORMED = [
  { what: 'a bad number', text: 'v 0 0 0\nv 1 0 0\nv 0 1.5.2 0\nf 1 2 3\n', line: 3 },
  { what: 'an out-of-range index', text: 'v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 9\n', line: 5 },
  { what: 'a zero index', text: 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n', line: 4 },
  { what: 'binary junk', text: 'v 0 0 0\n\u0000\u0001\u00ff\u0002PNG\u0000\nf 1 1 1\n', line: 2 },
  { what: 'a huge index', text: 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999\n', line: 4 },
  { what: 'an empty file', text: '', line: 1 },
];

/** Dispatches dragenter → dragover → drop on the canvas with a File made in the page. */
function dropFile(page, name, text) {
  return page.evaluate(
    ([fileName, content]) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([content], fileName, { type: 'model/obj' }));
      const target = document.getElementById('view');
      const fire = (type) => target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      fire('dragenter');
      const overlayShown = !document.getElementById('drop').hidden;
      const accepted = !fire('dragover'); // a cancelled dragover is what lets the browser drop
      fire('drop');
      return { overlayShown, accepted, overlayAfter: !document.getElementById('drop').hidden };
    },
    [name, text],
  );
}

/** The y of the particle in the middle of the grid. */
async function centreY(page) {
  return page.evaluate(async () => {
    const positions = await window.weft.positions();
    const n = Math.round(Math.sqrt(positions.length / 4));
    const centre = (n >> 1) * n + (n >> 1);
    return positions[centre * 4 + 1];
  });
}

describe('WebGPU', () => {
  const session = useBrowser({ webgpu: true });

  test('dropping a box .obj replaces the sphere with the box and the cloth comes to rest on top of it', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=32');
    try {
      const before = await page.evaluate(() => window.weft.stats());
      assert.equal(before.spheres.length, 1);
      assert.equal(before.mesh, null);
      await page.evaluate(() => window.weft.pause());

      const drag = await dropFile(page, 'box.obj', BOX);
      assert.deepEqual(drag, { overlayShown: true, accepted: true, overlayAfter: false });
      await waitFor(page, () => window.weft.stats().mesh?.source === 'obj');
      const stats = await page.evaluate(() => window.weft.stats());
      assert.equal(stats.mesh.triangles, 12);
      assert.equal(stats.mesh.name, 'box.obj');
      assert.equal(stats.spheres.length, 0, 'the dropped mesh replaces the sphere');
      assert.equal(stats.frame, 0, 'the cloth starts over');
      assert.match(await page.textContent('#messages'), /box\.obj: 12 triangles/);

      // Without the box the centre would fall to the ground (about 1 m lower): it rests on the box's top.
      await page.evaluate(() => window.weft.step(240));
      const y = await centreY(page);
      const top = stats.mesh.max.y;
      assert.ok(top - stats.mesh.min.y > 0.2, `the box is fitted to a real height: ${JSON.stringify(stats.mesh)}`);
      assert.ok(y >= top && y < top + 0.05, `centre particle y ${y} rests on the box top ${top}`);
      const frame = await page.evaluate(() => window.weft.stats().frame);
      assert.equal(frame, 240);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('a pyramid wound inward (issue 12) is oriented outward: the cloth drapes over it instead of falling through', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=32');
    try {
      await page.evaluate(() => window.weft.pause());
      const inward = 'v -1 0 -1\nv 1 0 -1\nv 1 0 1\nv -1 0 1\nv 0 1.5 0\n' + 'f 1 2 5\nf 2 3 5\nf 3 4 5\nf 4 1 5\nf 1 3 2\nf 1 4 3\n';
      const result = await page.evaluate((text) => window.weft.loadObj(text), inward);
      assert.ok(result.ok, `loadObj: ${JSON.stringify(result)}`);
      await waitFor(page, () => window.weft.stats().mesh?.source === 'obj');
      const mesh = await page.evaluate(() => window.weft.stats().mesh);
      await page.evaluate(() => window.weft.step(240));
      // Fallen through, the centre would lie on the ground at the pyramid's base; draped, it stays
      // near the apex.
      const y = await centreY(page);
      const draped = mesh.min.y + 0.6 * (mesh.max.y - mesh.min.y);
      assert.ok(y > draped, `centre particle y ${y}, pyramid ${JSON.stringify(mesh)}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('a malformed .obj dropped on the page is refused with its line and reason; the scene runs on unchanged', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=32');
    try {
      await page.evaluate(() => window.weft.pause());
      await page.evaluate(() => window.weft.step(30));
      const frameBefore = await page.evaluate(() => window.weft.stats().frame);
      const positionsBefore = await page.evaluate(async () => [...(await window.weft.positions())]);
      await dropFile(page, 'broken.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n');
      await waitFor(page, () => /broken\.obj/.test(document.getElementById('messages').textContent));
      const message = await page.textContent('#messages');
      assert.match(message, /broken\.obj:4: .*index 7 out of range/);
      assert.match(message, /scene keeps running unchanged/);
      const stats = await page.evaluate(() => window.weft.stats());
      assert.equal(stats.frame, frameBefore, 'not reset');
      assert.equal(stats.spheres.length, 1, 'the sphere is still the collider');
      assert.equal(stats.mesh, null);
      assert.deepEqual(await page.evaluate(async () => [...(await window.weft.positions())]), positionsBefore);
      // And it goes on simulating.
      await page.evaluate(() => window.weft.step(5));
      assert.equal(await page.evaluate(() => window.weft.stats().frame), frameBefore + 5);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('the bunny scene draws the bunny: its capture differs from the sphere scene where the bunny stands', async () => {
    const { page, errors } = await openApp(session, '?scene=bunny&grid=32&mode=normal');
    try {
      const captureAtRest = async () => {
        await page.evaluate(() => window.weft.pause());
        await page.evaluate(() => window.weft.reset());
        return page.evaluate(() => window.weft.capture());
      };
      const bunny = await captureAtRest();
      const mesh = await page.evaluate(() => window.weft.stats().mesh);
      assert.equal(mesh.source, 'scene');
      assert.ok(mesh.triangles > 1000, `the bunny has its triangles: ${mesh.triangles}`);
      // The same cloth (at rest, flat above) and camera over the sphere, which is drawn grey.
      await page.selectOption('select >> nth=0', 'sphere');
      await waitFor(page, () => window.weft.stats().spheres.length === 1);
      const sphere = await captureAtRest();
      // Where the two differ, the bunny capture shows the normal-shaded (colourful) bunny; a bunny
      // not drawn would leave grey ground where the sphere was. The cloth lies flat in both (green:
      // its normals point up) but not necessarily at the same height, so green does not count.
      const bunnyPixels = await colourfulDifference(page, bunny, sphere, { notGreen: true });
      assert.ok(bunnyPixels > 0.01, `the bunny covers ${(bunnyPixels * 100).toFixed(2)}% of the view`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('window.weft.loadObj refuses every malformed file with its line and takes a valid one', async () => {
    const { page, errors } = await openApp(session, '?scene=hang&grid=32');
    try {
      await page.evaluate(() => window.weft.pause());
      await page.evaluate(() => window.weft.step(10));
      const frameBefore = await page.evaluate(() => window.weft.stats().frame);
      for (const { what, text, line } of MALFORMED) {
        const result = await page.evaluate((t) => window.weft.loadObj(t), text);
        assert.equal(result.ok, false, what);
        assert.equal(result.triangles, 0, what);
        assert.match(result.error, new RegExp(`^loadObj:${line}: `), `${what}: ${result.error}`);
        assert.match(await page.textContent('#messages'), new RegExp(`loadObj:${line}: `), what);
        const stats = await page.evaluate(() => window.weft.stats());
        assert.equal(stats.frame, frameBefore, `${what}: the running world was kept`);
        assert.equal(stats.mesh, null, what);
      }
      const result = await page.evaluate((t) => window.weft.loadObj(t), BOX);
      assert.deepEqual(result, { ok: true, triangles: 12 });
      assert.equal(await page.evaluate(() => window.weft.stats().mesh.triangles), 12);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('WebGL2', () => {
  const session = useBrowser({ webgpu: false });

  test('loadObj draws the new collider on the WebGL2 path', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=sphere&grid=32&mode=normal');
    try {
      await page.evaluate(() => window.weft.pause());
      await page.evaluate(() => window.weft.reset());
      const sphere = await page.evaluate(() => window.weft.capture());
      const result = await page.evaluate((t) => window.weft.loadObj(t), BOX);
      assert.equal(result.ok, true);
      assert.equal(await page.evaluate(() => window.weft.stats().renderer), 'webgl2');
      // Both at rest: only the collider changed, and the box is drawn in the normal mode's colours.
      const box = await page.evaluate(() => window.weft.capture());
      const boxPixels = await colourfulDifference(page, box, sphere, { notGreen: true });
      assert.ok(boxPixels > 0.01, `the box covers ${(boxPixels * 100).toFixed(2)}% of the view`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

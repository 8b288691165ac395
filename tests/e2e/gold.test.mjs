// The gold shading mode reads as polished yellow gold, not pale cream, in both renderers: the
// cloth's pixels are strongly coloured, red > green > blue, with little blue (cream has a lot).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, useBrowser } from './harness.mjs';
import { colourfulMean } from './pixels.mjs';

for (const webgpu of [true, false]) {
  describe(webgpu ? 'WebGPU' : 'WebGL2', () => {
    const session = useBrowser({ webgpu });

    test('the gold mode is yellow gold', async () => {
      const { page, errors } = await openApp(session, `?scene=sphere&grid=32&mode=gold${webgpu ? '' : '&renderer=webgl2'}`);
      try {
        await page.evaluate(() => window.weft.pause());
        await page.evaluate(() => window.weft.reset());
        await page.evaluate(() => window.weft.step(120));
        const gold = await colourfulMean(page, await page.evaluate(() => window.weft.capture()));
        const summary = JSON.stringify(gold);
        assert.ok(gold.fraction > 0.05, `the draped cloth is strongly coloured: ${summary}`);
        assert.ok(gold.r > gold.g && gold.g > gold.b, `red > green > blue: ${summary}`);
        // Yellow gold: green well above half of red (not orange or brown), blue well below it (not cream).
        assert.ok(gold.g / gold.r > 0.6 && gold.g / gold.r < 0.9, `green/red ${gold.g / gold.r}: ${summary}`);
        assert.ok(gold.b / gold.r < 0.45, `blue/red ${gold.b / gold.r}: ${summary}`);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  });
}

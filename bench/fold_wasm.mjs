// Self-collision in WebAssembly: the `fold` scene at N = 64, 128, 256 (its 10 substeps × 1 iteration),
// self-collision on and off, the C core compiled to wasm in Node, next to the native CLI in the same
// run (rounds alternate on/off and wasm/native). Also the workload of Ten Minute Physics' JavaScript
// self-collision demo (tutorial 15): `hang` 64², 10 substeps, no damping, self-collision on, for comparison with
// its figure measured beside it. Medians of per-frame times. Writes bench/results/<machine>/fold_wasm.json.
//   node bench/fold_wasm.mjs [--native build/weft] [--frames 300]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCore, root } from '../tests/wasm/load-core.mjs';
import { median } from './stats.mjs';

const { values } = parseArgs({
  options: {
    native: { type: 'string', default: 'build/weft' },
    frames: { type: 'string', default: process.env.WEFT_BENCH_FRAMES ?? '300' },
  },
});
const FRAMES = Number(values.frames);

function native(scene, grid, self, damping) {
  const args = ['bench', '--scene', scene, '--grid', String(grid), '--frames', String(FRAMES), '--self-collision', self ? '1' : '0'];
  if (damping !== undefined) args.push('--damping', String(damping));
  const row = JSON.parse(execFileSync(resolve(root, values.native), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  return row.ms_median;
}

function wasm(bindings, core, scene, grid, self, damping) {
  const world = new bindings.WeftWorld(core, scene, grid);
  try {
    world.setSelfCollision(self);
    if (damping !== undefined) world.setDamping(damping);
    const times = [];
    for (let f = 0; f < FRAMES; f++) {
      const start = performance.now();
      world.stepFrames(1);
      times.push(performance.now() - start);
    }
    return +median(times).toFixed(4);
  } finally {
    world.destroy();
  }
}

const { bindings, core } = await loadCore();
const cases = [64, 128, 256]
  .map((grid) => ({ scene: 'fold', grid }))
  // The demo's cloth has no velocity damping (only its contacts damp): weft's neither, here.
  .concat([{ scene: 'hang', grid: 64, damping: 0, note: 'Ten Minute Physics 15 workload' }]);
const results = [];
for (const c of cases) {
  const row = { ...c, frames: FRAMES };
  for (const self of [false, true]) {
    const key = self ? 'on' : 'off';
    row[`wasm_${key}_ms_median`] = wasm(bindings, core, c.scene, c.grid, self, c.damping);
    row[`native_${key}_ms_median`] = native(c.scene, c.grid, self, c.damping);
  }
  row.wasm_on_over_off = +(row.wasm_on_ms_median / row.wasm_off_ms_median).toFixed(3);
  row.wasm_over_native_on = +(row.wasm_on_ms_median / row.native_on_ms_median).toFixed(3);
  console.error(JSON.stringify(row));
  results.push(row);
}
const machine = execFileSync('bash', [resolve(root, 'bench/machine.sh')], { encoding: 'utf8' }).trim();
const out = resolve(root, `bench/results/${machine}/fold_wasm.json`);
mkdirSync(resolve(out, '..'), { recursive: true });
writeFileSync(out, JSON.stringify({ machine, date: new Date().toISOString(), node: process.version, results }, null, 2) + '\n');
console.log(`wrote ${out}`);

// Wasm solver benchmark: `hang` 128², 10 substeps × 1 iteration, ms per frame of the C core compiled
// to wasm, in Node and in headless Chromium, next to the native build's figure from the same run
// (its widest path, AVX-512 or AVX2 where the CPU has it, and its 4-lane SSE2 path: wasm SIMD128's
// width).
// Medians of per-frame times (the machine is shared; medians shrug off the odd slow frame).
// Writes bench/results/<machine>/wasm.json.
//   node bench/wasm.mjs [--native build/weft] [--frames 300] [--grid 128]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCore, root } from '../tests/wasm/load-core.mjs';
import { openApp, startBrowser, CHROMIUM } from '../tests/e2e/harness.mjs';
import { median } from './stats.mjs';

const { values } = parseArgs({
  options: {
    native: { type: 'string', default: 'build/weft' },
    frames: { type: 'string', default: process.env.WEFT_BENCH_FRAMES ?? '300' },
    grid: { type: 'string', default: '128' },
  },
});
const SCENE = 'hang',
  GRID = Number(values.grid),
  SUBSTEPS = 10,
  ITERATIONS = 1,
  FRAMES = Number(values.frames),
  WARMUP = 20;

const summary = (times) => ({
  ms_median: +median(times).toFixed(4),
  ms_mean: +(times.reduce((s, t) => s + t, 0) / times.length).toFixed(4),
  ms_min: +Math.min(...times).toFixed(4),
  frames: times.length,
});

function benchNative(simd = '1') {
  const args = [
    'bench',
    '--scene',
    SCENE,
    '--grid',
    String(GRID),
    '--substeps',
    String(SUBSTEPS),
    '--iterations',
    String(ITERATIONS),
    '--frames',
    String(FRAMES),
    '--simd',
    simd,
  ];
  const row = JSON.parse(execFileSync(resolve(root, values.native), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  return {
    ms_median: row.ms_median ?? row.ms_per_frame,
    ms_mean: row.ms_per_frame,
    ms_min: row.ms_min,
    frames: row.frames,
    state_hash: row.state_hash,
    max_stretch: row.max_stretch,
  };
}

async function benchNode(bindings, core) {
  const world = new bindings.WeftWorld(core, SCENE, GRID);
  try {
    // The page runs the scene as defined; the benchmark relies on it defaulting to these settings.
    if (world.substeps !== SUBSTEPS || world.iterations !== ITERATIONS)
      throw new Error(`${SCENE} no longer runs ${SUBSTEPS}×${ITERATIONS}; fix bench/wasm.mjs`);
    world.stepFrames(WARMUP);
    world.reset();
    const times = [];
    for (let i = 0; i < FRAMES; i++) {
      const start = performance.now();
      world.stepFrames(1);
      times.push(performance.now() - start);
    }
    return { ...summary(times), state_hash: world.stateHash().toString(16).padStart(16, '0'), max_stretch: world.maxStretch() };
  } finally {
    world.destroy();
  }
}

async function benchChromium(page) {
  await page.evaluate(() => window.weft.pause());
  await page.evaluate(() => window.weft.reset());
  const times = await page.evaluate(async (frames) => {
    const times = [];
    for (let i = 0; i < frames; i++) {
      const start = performance.now();
      await window.weft.step(1); // resolves in microtasks: no rendering runs inside the timing
      times.push(performance.now() - start);
    }
    return times;
  }, FRAMES);
  return summary(times);
}

// Rounds interleave the three so that load from other processes hits them alike; the figure of
// each is the median of its round medians.
const ROUNDS = Number(process.env.WEFT_BENCH_ROUNDS ?? 3);
const { bindings, core } = await loadCore();
const session = await startBrowser({ webgpu: false });
const rounds = { native: [], native4: [], node: [], chromium: [] };
let chromiumVersion;
try {
  const { page } = await openApp(session, `?scene=${SCENE}&grid=${GRID}&renderer=webgl2`);
  chromiumVersion = await session.browser.version();
  for (let round = 0; round < ROUNDS; round++) {
    rounds.native.push(benchNative());
    rounds.native4.push(benchNative('4')); // the native build at wasm's width (SSE2, 4 lanes)
    rounds.node.push(await benchNode(bindings, core));
    rounds.chromium.push(await benchChromium(page));
    console.error(
      `round ${round + 1}/${ROUNDS}: native ${rounds.native.at(-1).ms_median} (4 lanes ${rounds.native4.at(-1).ms_median}), node ${rounds.node.at(-1).ms_median}, chromium ${rounds.chromium.at(-1).ms_median} ms/frame`,
    );
  }
} finally {
  await session.close();
}
const combine = (list) => ({
  ms_median: +median(list.map((r) => r.ms_median)).toFixed(4),
  round_medians: list.map((r) => r.ms_median),
  ms_min: Math.min(...list.map((r) => r.ms_min)),
});
const native = { ...combine(rounds.native), state_hash: rounds.native[0].state_hash, max_stretch: rounds.native[0].max_stretch };
const native4 = { ...combine(rounds.native4), simd_width: 4 };
const node = {
  ...combine(rounds.node),
  state_hash: rounds.node[0].state_hash,
  max_stretch: rounds.node[0].max_stretch,
  node: process.version,
};
const chromium = { ...combine(rounds.chromium), chromium: chromiumVersion || CHROMIUM };
const machine = execFileSync('bash', [resolve(root, 'bench/machine.sh')], { encoding: 'utf8' }).trim();
const result = {
  machine,
  date: new Date().toISOString(),
  scene: SCENE,
  grid: GRID,
  substeps: SUBSTEPS,
  iterations: ITERATIONS,
  frames_per_round: FRAMES,
  rounds: ROUNDS,
  native,
  native_4_lanes: native4,
  wasm_node: node,
  wasm_chromium: chromium,
  ratio_node_to_native: +(node.ms_median / native.ms_median).toFixed(3),
  ratio_chromium_to_native: +(chromium.ms_median / native.ms_median).toFixed(3),
  ratio_node_to_native_4_lanes: +(node.ms_median / native4.ms_median).toFixed(3),
  same_bits_as_native: node.state_hash === native.state_hash,
};
const out = resolve(root, `bench/results/${machine}/wasm.json`);
mkdirSync(resolve(out, '..'), { recursive: true });
writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
console.log(
  `hang ${GRID}², ${SUBSTEPS} substeps: native ${native.ms_median} ms/frame, wasm in Node ${node.ms_median} (×${result.ratio_node_to_native}), wasm in Chromium ${chromium.ms_median} (×${result.ratio_chromium_to_native}); same bits as native: ${result.same_bits_as_native}`,
);
console.log(`wrote ${out}`);

// Peer benchmark: weft's wasm core next to Jolt Physics' soft body (npm `jolt-physics`, its
// WebAssembly build), in one Node process, on the same cloth: `hang` 128² as weft builds it (its
// particles, inverse masses and the two pinned corners of the first row, 2 m × 2 m), Jolt's
// stretch + shear + distance-bend constraints made from the same triangles (no long-range
// attachments), weft's compliances, damping and gravity, 10 substeps a 1/60 s frame (Jolt's
// iterations are its substeps) × 1 iteration. Runs alternate between the two (rounds), the figure
// of each is the median of its round medians of per-frame times. weft's frame includes its tethers
// (part of its `hang`); Jolt's has none. Writes bench/results/<machine>/peers.json.
//   node bench/peers.mjs [--frames 300] [--grid 128] [--rounds 3]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadCore, root } from '../tests/wasm/load-core.mjs';
import { median } from './stats.mjs';

const { values } = parseArgs({
  options: {
    frames: { type: 'string', default: process.env.WEFT_BENCH_FRAMES ?? '300' },
    grid: { type: 'string', default: '128' },
    rounds: { type: 'string', default: process.env.WEFT_BENCH_ROUNDS ?? '3' },
  },
});
const SCENE = 'hang',
  GRID = Number(values.grid),
  SUBSTEPS = 10,
  ITERATIONS = 1,
  FRAMES = Number(values.frames),
  ROUNDS = Number(values.rounds),
  WARMUP = 20;

// jolt-physics is a devDependency of web/ (WEFT_JOLT_MODULE: another copy's entry file, e.g. .../jolt-physics/dist/jolt-physics.wasm.js).
async function loadJolt() {
  let entry = process.env.WEFT_JOLT_MODULE;
  try {
    entry ??= createRequire(resolve(root, 'web/package.json')).resolve('jolt-physics/wasm');
  } catch {
    throw new Error('bench/peers.mjs: jolt-physics is not installed in web/node_modules (make setup installs the devDependencies)');
  }
  const { default: init } = await import(pathToFileURL(entry).href);
  let joltVersion = 'unknown';
  try {
    joltVersion = createRequire(entry)(resolve(entry, '../../package.json')).version;
  } catch {}
  return { Jolt: await init(), joltVersion };
}

function timeFrames(step) {
  for (let i = 0; i < WARMUP; i++) step();
  const times = [];
  for (let i = 0; i < FRAMES; i++) {
    const start = performance.now();
    step();
    times.push(performance.now() - start);
  }
  return times;
}

// weft: the scene as the page runs it.
function benchWeft(bindings, core) {
  const world = new bindings.WeftWorld(core, SCENE, GRID);
  try {
    if (world.substeps !== SUBSTEPS || world.iterations !== ITERATIONS)
      throw new Error(`${SCENE} no longer runs ${SUBSTEPS}×${ITERATIONS}; fix bench/peers.mjs`);
    const times = timeFrames(() => world.stepFrames(1));
    return { ms_median: median(times), max_stretch: world.maxStretch(), finite: world.isFinite() };
  } finally {
    world.destroy();
  }
}

// What Jolt gets from weft: the rest pose, inverse masses, triangles and physical settings.
function weftCloth(bindings, core) {
  const world = new bindings.WeftWorld(core, SCENE, GRID);
  try {
    const xyzw = Float32Array.from(world.positions());
    return {
      xyzw,
      width: world.width,
      height: world.height,
      constraints: world.constraintCount,
      compliance: [0, 1, 2].map((type) => world.compliance(type)),
      damping: world.damping,
      gravity: world.contactSettings.gravity,
      maxSpeed: world.contactSettings.maxSpeed,
      frameDt: world.frameDt,
    };
  } finally {
    world.destroy();
  }
}

function makeJoltCloth(Jolt, cloth) {
  const settings = new Jolt.JoltSettings();
  const pairs = new Jolt.ObjectLayerPairFilterTable(2);
  pairs.EnableCollision(0, 1);
  pairs.EnableCollision(1, 1);
  const layers = new Jolt.BroadPhaseLayerInterfaceTable(2, 1);
  layers.MapObjectToBroadPhaseLayer(0, new Jolt.BroadPhaseLayer(0));
  layers.MapObjectToBroadPhaseLayer(1, new Jolt.BroadPhaseLayer(0));
  settings.mObjectLayerPairFilter = pairs;
  settings.mBroadPhaseLayerInterface = layers;
  settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(layers, 1, pairs, 2);
  const jolt = new Jolt.JoltInterface(settings);
  Jolt.destroy(settings);
  const system = jolt.GetPhysicsSystem();
  system.SetGravity(new Jolt.Vec3(cloth.gravity.x, cloth.gravity.y, cloth.gravity.z));

  const shared = new Jolt.SoftBodySharedSettings();
  const { xyzw, width, height } = cloth;
  const vertex = new Jolt.SoftBodySharedSettingsVertex();
  for (let p = 0; p < width * height; p++) {
    vertex.mPosition = new Jolt.Float3(xyzw[4 * p], xyzw[4 * p + 1], xyzw[4 * p + 2]);
    vertex.mInvMass = xyzw[4 * p + 3];
    shared.mVertices.push_back(vertex);
  }
  // weft's triangles (cloth.c: p00 p01 p10, p10 p01 p11).
  for (let j = 0; j + 1 < height; j++) {
    for (let i = 0; i + 1 < width; i++) {
      const p00 = j * width + i,
        p10 = p00 + 1,
        p01 = p00 + width,
        p11 = p01 + 1;
      shared.AddFace(new Jolt.SoftBodySharedSettingsFace(p00, p01, p10, 0));
      shared.AddFace(new Jolt.SoftBodySharedSettingsFace(p10, p01, p11, 0));
    }
  }
  const attributes = new Jolt.SoftBodySharedSettingsVertexAttributes();
  attributes.mCompliance = cloth.compliance[0];
  attributes.mShearCompliance = cloth.compliance[1];
  attributes.mBendCompliance = cloth.compliance[2];
  shared.CreateConstraints(attributes, 1, Jolt.SoftBodySharedSettings_EBendType_Distance);
  shared.Optimize();
  const creation = new Jolt.SoftBodyCreationSettings(shared, new Jolt.RVec3(0, 0, 0), Jolt.Quat.prototype.sIdentity(), 1);
  creation.mNumIterations = SUBSTEPS;
  creation.mAllowSleeping = false;
  creation.mLinearDamping = cloth.damping;
  creation.mMaxLinearVelocity = cloth.maxSpeed;
  creation.mUpdatePosition = false;
  const body = system.GetBodyInterface().CreateAndAddSoftBody(creation, Jolt.EActivation_Activate);
  return { jolt, system, body, edges: shared.mEdgeConstraints.size(), lra: shared.mLRAConstraints.size() };
}

function benchJolt(Jolt, cloth) {
  const sim = makeJoltCloth(Jolt, cloth);
  try {
    const times = timeFrames(() => sim.jolt.Step(cloth.frameDt, 1));
    // Sanity: the cloth stayed finite, and where its lowest point hangs.
    const body = sim.system.GetBodyLockInterfaceNoLock().TryGetBody(sim.body);
    const vertices = Jolt.castObject(body.GetMotionProperties(), Jolt.SoftBodyMotionProperties).GetVertices();
    let lowest = Infinity,
      finite = true;
    for (let p = 0; p < vertices.size(); p++) {
      const y = vertices.at(p).mPosition.GetY();
      finite = finite && Number.isFinite(y);
      lowest = Math.min(lowest, y);
    }
    return { ms_median: median(times), edge_constraints: sim.edges, lra_constraints: sim.lra, finite, lowest_y: lowest };
  } finally {
    sim.system.GetBodyInterface().RemoveBody(sim.body);
    sim.system.GetBodyInterface().DestroyBody(sim.body);
    Jolt.destroy(sim.jolt);
  }
}

const { bindings, core } = await loadCore();
const { Jolt, joltVersion } = await loadJolt();
const cloth = weftCloth(bindings, core);
const rounds = { weft: [], jolt: [] };
let weftLast, joltLast;
for (let round = 0; round < ROUNDS; round++) {
  weftLast = benchWeft(bindings, core);
  rounds.weft.push(weftLast.ms_median);
  joltLast = benchJolt(Jolt, cloth);
  rounds.jolt.push(joltLast.ms_median);
  console.error(
    `round ${round + 1}/${ROUNDS}: weft (wasm) ${weftLast.ms_median.toFixed(3)}, jolt (wasm) ${joltLast.ms_median.toFixed(3)} ms/frame`,
  );
}
const weftMs = median(rounds.weft),
  joltMs = median(rounds.jolt);
const machine = execFileSync('bash', [resolve(root, 'bench/machine.sh')], { encoding: 'utf8' }).trim();
const result = {
  machine,
  date: new Date().toISOString(),
  node: process.version,
  scene: SCENE,
  grid: GRID,
  substeps: SUBSTEPS,
  iterations: ITERATIONS,
  frames_per_round: FRAMES,
  rounds: ROUNDS,
  compliance: { stretch: cloth.compliance[0], shear: cloth.compliance[1], bend: cloth.compliance[2] },
  damping: cloth.damping,
  weft: {
    build: 'build-wasm/weft.wasm (wasm32-wasi, SIMD128)',
    constraints: cloth.constraints,
    tethers: true,
    ms_median: +weftMs.toFixed(4),
    round_medians: rounds.weft.map((t) => +t.toFixed(4)),
    max_stretch: weftLast.max_stretch,
    finite: weftLast.finite,
  },
  jolt: {
    build: `jolt-physics ${joltVersion} (npm), jolt-physics/wasm`,
    edge_constraints: joltLast.edge_constraints,
    lra_constraints: joltLast.lra_constraints,
    ms_median: +joltMs.toFixed(4),
    round_medians: rounds.jolt.map((t) => +t.toFixed(4)),
    finite: joltLast.finite,
    lowest_y: +joltLast.lowest_y.toFixed(4),
  },
  jolt_over_weft: +(joltMs / weftMs).toFixed(3),
};
const out = resolve(root, `bench/results/${machine}/peers.json`);
mkdirSync(resolve(out, '..'), { recursive: true });
writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
console.log(
  `hang ${GRID}², ${SUBSTEPS} substeps, wasm in Node: weft ${result.weft.ms_median} ms/frame, Jolt ${result.jolt.ms_median} ms/frame: weft ×${result.jolt_over_weft} faster`,
);
console.log(`wrote ${out}`);

// The wasm boundary through the app's TypeScript bindings: counts, layout, zero-copy views (also
// across memory growth), stepping, reset, spheres, grab, and bad input that must not crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from './load-core.mjs';

const { bindings, core } = await loadCore();
const { WeftWorld, WasmSolver, checkLayout, CONSTRAINT_LAYOUT, STRETCH, SHEAR, BEND } = bindings;

test('weft_constraint layout matches the TS/WGSL mirror, and a drift is caught', () => {
  checkLayout(core.exports);
  assert.equal(core.exports.layout_constraint_size(), CONSTRAINT_LAYOUT.size);
  const drifted = { ...core.exports, layout_constraint_size: () => 20 };
  assert.throws(() => checkLayout(drifted), /layout mismatch: size/);
  const swapped = { ...core.exports, layout_constraint_offset_a: () => 4, layout_constraint_offset_b: () => 0 };
  assert.throws(() => checkLayout(swapped), /layout mismatch: a/);
});

test('the frame-end strain sweeps: none at 10 substeps, some at 1 substep on a fine cloth, 0 after reset', () => {
  const world = new WeftWorld(core, 'sphere', 48);
  try {
    world.stepFrames(45);
    assert.equal(world.strainSweeps, 0, 'the solve holds the strain limit at 10 substeps');
    world.reset();
    world.setSubsteps(1, 1);
    world.stepFrames(45);
    assert.ok(world.strainSweeps > 0, `1 substep: ${world.strainSweeps} sweeps`);
    assert.ok(world.maxStretch() < 1, `max stretch ${world.maxStretch()}`);
    world.reset();
    assert.equal(world.strainSweeps, 0);
  } finally {
    world.destroy();
  }
});

test("frameSubsteps: near a mesh or a sphere a fast frame takes more substeps (up to max_substeps, 32), elsewhere the world's", () => {
  const bunny = new WeftWorld(core, 'bunny', 64);
  try {
    bunny.setSubsteps(2, 1);
    bunny.stepFrames(1);
    assert.equal(bunny.frameSubsteps, 2, 'the first frame of the fall: no speed yet');
    let most = 0;
    let run = bunny.substepsRun;
    for (let f = 0; f < 60; f++) {
      bunny.stepFrames(1);
      assert.equal(bunny.substepsRun - run, bunny.frameSubsteps, "substepsRun grows by the frame's substeps");
      run = bunny.substepsRun;
      most = Math.max(most, bunny.frameSubsteps);
    }
    assert.ok(most > 2 && most <= 32, `landing on the bunny: up to ${most} substeps a frame`);
    bunny.setMaxSubsteps(0); // every frame at the substeps
    for (let f = 0; f < 10; f++) {
      bunny.stepFrames(1);
      assert.equal(bunny.frameSubsteps, 2, "max_substeps 0: the world's substeps");
    }
    assert.throws(() => bunny.setMaxSubsteps(1001), /max_substeps/);
  } finally {
    bunny.destroy();
  }
  // Near a sphere the bound is a spacing a substep: `sphere` 32² (6.5 cm) at 2 substeps lands at
  // most 3 cm a substep and keeps them; at 1 substep the fast frames (landing, sliding off) take more.
  for (const substeps of [2, 1]) {
    const sphere = new WeftWorld(core, 'sphere', 32);
    try {
      sphere.setSubsteps(substeps, 1);
      const taken = [];
      for (let f = 0; f < 60; f++) {
        sphere.stepFrames(1);
        taken.push(sphere.frameSubsteps);
      }
      const most = Math.max(...taken);
      assert.equal(Math.min(...taken), substeps, `the world's substeps where the cloth is slow: ${taken.join(' ')}`);
      if (substeps === 2) assert.equal(most, 2, `at 2 substeps: ${taken.join(' ')}`);
      else assert.ok(most > 1 && most <= 32, `at 1 substep: ${taken.join(' ')}`);
    } finally {
      sphere.destroy();
    }
  }
});

test('scene names include the documented scenes', () => {
  const names = core.sceneNames();
  for (const name of ['hang', 'sphere', 'flag']) assert.ok(names.includes(name), `${name} in ${names}`);
});

test("the render-data gather lists: every vertex's triangles and stretch constraints, ascending", () => {
  const world = new WeftWorld(core, 'hang', 9);
  try {
    const n = world.particleCount;
    const { words, strainBase } = world.renderAdjacency();
    const list = (base, v) => Array.from(words.subarray(words[base + v], words[base + v + 1]));
    const indices = world.indices();
    const types = world.constraintTypes();
    const bytes = world.constraintBytes();
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const end = (k, field) => view.getUint32(k * CONSTRAINT_LAYOUT.size + CONSTRAINT_LAYOUT.offsets[field], true);
    assert.equal(words[0], n + 1, 'triangle entries follow the offsets');
    assert.equal(words[n], strainBase, 'the stretch lists follow the triangle entries');
    assert.equal(words[strainBase + n], words.length);
    for (let v = 0; v < n; v++) {
      const triangles = [];
      for (let t = 0; 3 * t < indices.length; t++) if ([0, 1, 2].some((k) => indices[3 * t + k] === v)) triangles.push(t);
      assert.deepEqual(list(0, v), triangles, `triangles of vertex ${v}`);
      const stretch = [];
      for (let k = 0; k < world.constraintCount; k++) if (types[k] === STRETCH && (end(k, 'a') === v || end(k, 'b') === v)) stretch.push(k);
      assert.deepEqual(list(strainBase, v), stretch, `stretch constraints of vertex ${v}`);
    }
  } finally {
    world.destroy();
  }
});

test('a hang world has the documented counts and colouring', () => {
  const n = 16;
  const world = new WeftWorld(core, 'hang', n);
  try {
    assert.equal(world.particleCount, n * n);
    assert.equal(world.constraintCount, 6 * n * n - 5 * (n + n) + 2);
    assert.equal(
      world.constraintCountByType(STRETCH) + world.constraintCountByType(SHEAR) + world.constraintCountByType(BEND),
      world.constraintCount,
    );
    assert.ok(world.colorCount >= 12 && world.colorCount <= core.exports.layout_color_budget(), `colours ${world.colorCount}`);
    assert.equal(world.indexCount, (n - 1) * (n - 1) * 6);
    const offsets = world.colorOffsets();
    assert.equal(offsets[0], 0);
    assert.equal(offsets[world.colorCount + 1], world.constraintCount);
    // No two constraints of one colour share a particle (read through the raw layout).
    const bytes = world.constraintBytes();
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let c = 0; c < world.colorCount; c++) {
      const seen = new Set();
      for (let k = offsets[c]; k < offsets[c + 1]; k++) {
        const a = view.getUint32(k * CONSTRAINT_LAYOUT.size + CONSTRAINT_LAYOUT.offsets.a, true);
        const b = view.getUint32(k * CONSTRAINT_LAYOUT.size + CONSTRAINT_LAYOUT.offsets.b, true);
        const rest = view.getFloat32(k * CONSTRAINT_LAYOUT.size + CONSTRAINT_LAYOUT.offsets.rest_length, true);
        assert.ok(a < world.particleCount && b < world.particleCount && rest > 0);
        assert.ok(!seen.has(a) && !seen.has(b), `colour ${c} reuses a particle`);
        seen.add(a);
        seen.add(b);
      }
    }
    const indices = world.indices();
    assert.ok(indices.every((i) => i < world.particleCount));
    const uvs = world.uvs();
    assert.ok(uvs.every((u) => u >= 0 && u <= 1));
    // Two top corners pinned: inverse mass 0 in w.
    const positions = world.positions();
    assert.equal(positions[3], 0);
    assert.equal(positions[(n - 1) * 4 + 3], 0);
    assert.ok(positions[(n * n - 1) * 4 + 3] > 0);
    // Tethers: every slot's anchor is a pinned particle or -1, and a free particle has at least one.
    const anchors = world.tetherAnchors();
    assert.equal(anchors.length, world.particleCount * world.tethersPerParticle);
    assert.equal(world.tetherMaxDistances().length, anchors.length);
    for (const anchor of anchors) assert.ok(anchor === -1 || positions[anchor * 4 + 3] === 0, `anchor ${anchor} is pinned`);
    const last = (n * n - 1) * world.tethersPerParticle;
    assert.ok(
      anchors.subarray(last, last + world.tethersPerParticle).some((a) => a >= 0),
      'the far corner is tethered',
    );
    assert.equal(world.lambdas().length, world.constraintCount);
  } finally {
    world.destroy();
  }
});

test('stepping moves the cloth in place; reset restores the rest pose', () => {
  const world = new WeftWorld(core, 'hang', 24);
  try {
    const positions = world.positions();
    const rest = Float32Array.from(world.restPositions());
    assert.deepEqual(Float32Array.from(positions), rest);
    world.stepFrames(30);
    assert.equal(world.frame, 30);
    assert.ok(world.positions() === positions, 'stepping must not grow memory (the view stays valid)');
    const moved = positions.some((v, i) => Math.abs(v - rest[i]) > 1e-3);
    assert.ok(moved, 'cloth moved under gravity');
    assert.ok(world.isFinite());
    assert.ok(world.maxStretch() < 0.5, `max stretch ${world.maxStretch()}`);
    world.updateRenderData();
    const normals = world.normals();
    for (let i = 0; i < world.particleCount; i++) {
      const length = Math.hypot(normals[i * 4], normals[i * 4 + 1], normals[i * 4 + 2]);
      assert.ok(Math.abs(length - 1) < 1e-3, `normal ${i} has length ${length}`);
    }
    assert.ok(world.strain().some((s) => s !== 0));
    const hash = world.stateHash();
    world.reset();
    assert.equal(world.frame, 0);
    assert.deepEqual(Float32Array.from(world.positions()), rest);
    world.stepFrames(30);
    assert.equal(world.stateHash(), hash, 'same steps from the same state give the same bits');
  } finally {
    world.destroy();
  }
});

test('views are re-made after memory grows', () => {
  const small = new WeftWorld(core, 'hang', 8);
  try {
    small.stepFrames(5);
    const before = small.positions();
    const snapshot = Float32Array.from(before);
    const bufferBefore = core.memory;
    const big = new WeftWorld(core, 'hang', 256); // needs megabytes: memory.grow detaches old views
    try {
      assert.notEqual(core.memory, bufferBefore, 'memory grew');
      assert.equal(before.length, 0, 'the old view is detached');
      assert.deepEqual(Float32Array.from(small.positions()), snapshot);
      small.stepFrames(1);
      assert.equal(small.positions().length, small.particleCount * 4);
    } finally {
      big.destroy();
    }
  } finally {
    small.destroy();
  }
});

test('live settings round-trip and reject bad values', () => {
  const world = new WeftWorld(core, 'flag', 16);
  try {
    world.setSubsteps(7, 2);
    assert.equal(world.substeps, 7);
    assert.equal(world.iterations, 2);
    world.setDamping(1.25);
    assert.equal(world.damping, 1.25);
    world.setWind({ x: 3, y: 0, z: -2 });
    assert.deepEqual(world.wind, { x: 3, y: 0, z: -2 });
    world.setCompliance(BEND, 1e-3);
    assert.ok(Math.abs(world.compliance(BEND) - 1e-3) < 1e-9);
    assert.throws(() => world.setSubsteps(0, 1), /substeps/);
    assert.throws(() => world.setDamping(Number.NaN), /damping/);
    assert.throws(() => world.setCompliance(SHEAR, -1), /compliance/);
    assert.equal(world.substeps, 7, 'a rejected change leaves the settings alone');
  } finally {
    world.destroy();
  }
});

test('sphere motion turns on and off', () => {
  const world = new WeftWorld(core, 'sphere', 16);
  try {
    assert.ok(world.sphereCount >= 1);
    world.setSphereMoving(0, true);
    const a = world.sphere(0).center;
    world.stepFrames(10);
    const b = world.sphere(0).center;
    assert.ok(world.sphere(0).moving);
    world.setSphereMoving(0, false);
    world.stepFrames(10);
    const c = world.sphere(0).center;
    assert.ok(!world.sphere(0).moving);
    assert.deepEqual(b, c, 'a stopped sphere stays put');
    // The scene's sphere moves when its motion is on (if it has a scripted motion at all).
    if (Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) === 0) assert.fail('sphere did not move while moving');
    assert.throws(() => world.sphere(99), /no sphere/);
    // The scene's motion as defined: sphere: 0.5 m along x at 0.2 Hz (scenes.c); a GPU solver replays it.
    const motion = world.sphereMotion(0);
    assert.ok(motion.frequency > 0 && Math.hypot(motion.amplitude.x, motion.amplitude.y, motion.amplitude.z) > 0);
    assert.throws(() => world.sphereMotion(5), /no sphere/);
  } finally {
    world.destroy();
  }
});

test('raycast finds the cloth, grab drags the particle towards the target', () => {
  const world = new WeftWorld(core, 'hang', 16);
  try {
    const rest = world.restPositions();
    const centre = (8 * 16 + 8) * 4;
    const target = { x: rest[centre], y: rest[centre + 1], z: rest[centre + 2] };
    const hit = world.raycast({ x: target.x, y: target.y + 2, z: target.z }, { x: 0, y: -1, z: 0 });
    assert.ok(hit, 'ray through the cloth hits it');
    assert.ok(Math.abs(hit.distance - 2) < 0.05, `distance ${hit.distance}`);
    assert.equal(world.raycast({ x: 0, y: 10, z: 5 }, { x: 0, y: 1, z: 0 }), null, 'ray away from the cloth misses');
    // 0.2 m up: within the cloth's reach from its pinned corners (farther, the core holds it short).
    const goal = { x: target.x, y: target.y + 0.2, z: target.z };
    world.grab(hit.particle, goal);
    assert.equal(world.grabbed, hit.particle);
    world.stepFrames(60);
    const p = world.positions();
    const i = hit.particle * 4;
    const distance = Math.hypot(p[i] - goal.x, p[i + 1] - goal.y, p[i + 2] - goal.z);
    assert.ok(distance < 0.05, `grabbed particle is ${distance} m from the target`);
    // Beyond reach (2 m up) it is held where weft_world_grab_position says, short of the target.
    // (The hand carries it there at grab_speed, 3 m/s: a second is enough.)
    world.grabMove({ x: goal.x, y: goal.y + 2, z: goal.z });
    world.stepFrames(60);
    const held = world.grabPosition(world.time);
    const q = world.positions();
    assert.ok(held.y < goal.y + 1, `held at y ${held.y}, short of the target`);
    assert.ok(Math.hypot(q[i] - held.x, q[i + 1] - held.y, q[i + 2] - held.z) < 0.05, 'the particle sits where it is held');
    world.release();
    assert.equal(world.grabbed, -1);
    assert.throws(() => world.grab(-5, goal), /grab/);
  } finally {
    world.destroy();
  }
});

test('bad scene input throws a message and leaves the core usable', () => {
  assert.throws(() => new WeftWorld(core, 'no-such-scene', 16), /cannot create scene "no-such-scene"/);
  assert.throws(() => new WeftWorld(core, 'hang', 0), /cannot create scene/);
  assert.throws(() => new WeftWorld(core, 'hang', 100000), /cannot create scene/);
  assert.throws(() => new WeftWorld(core, 'x'.repeat(1000), 16), /cannot create scene/);
  const world = new WeftWorld(core, 'hang', 8);
  world.stepFrames(1);
  world.destroy();
});

const hasMesh = typeof core.exports.world_mesh_vertex_count === 'function' && core.sceneNames().includes('bunny');
test(
  'the bunny scene exposes its mesh collider for drawing and for the GPU solver',
  { skip: !hasMesh && 'this core has no mesh colliders yet' },
  () => {
    const world = new WeftWorld(core, 'bunny', 16);
    try {
      const mesh = world.meshCollider();
      assert.ok(mesh, 'bunny has a mesh collider');
      const vertexCount = mesh.vertices.length / 4;
      assert.ok(vertexCount > 100 && mesh.indices.length >= 300, `${vertexCount} vertices, ${mesh.indices.length / 3} triangles`);
      assert.ok(mesh.indices.every((i) => i < vertexCount));
      for (let i = 0; i < vertexCount; i++) {
        const n = Math.hypot(mesh.normals[i * 4], mesh.normals[i * 4 + 1], mesh.normals[i * 4 + 2]);
        assert.ok(Math.abs(n - 1) < 1e-3, `pseudo-normal ${i} has length ${n}`);
      }
      // Fitted under the cloth and onto the ground.
      let minY = Infinity;
      for (let i = 0; i < vertexCount; i++) minY = Math.min(minY, mesh.vertices[i * 4 + 1]);
      assert.ok(Math.abs(minY - (world.groundHeight ?? 0)) < 0.05, `bunny stands on the ground (lowest y ${minY})`);
      world.stepFrames(5);
      assert.ok(world.isFinite());
    } finally {
      world.destroy();
    }
    const plain = new WeftWorld(core, 'hang', 8);
    assert.equal(plain.meshCollider(), null, 'no mesh, no arrays');
    plain.destroy();
  },
);

test('the wasm solver hands the renderer views on core memory, not copies', async () => {
  const solver = new WasmSolver(new WeftWorld(core, 'hang', 16));
  try {
    solver.step(3);
    const source = solver.renderSource();
    assert.equal(source.kind, 'cpu');
    for (const [name, view, ptr] of [
      ['positions', source.positions, core.exports.world_positions_ptr],
      ['normals', source.normals, core.exports.world_normals_ptr],
      ['strain', source.strain, core.exports.world_strain_ptr],
    ]) {
      assert.equal(view.buffer, core.memory, `${name} is a view on memory.buffer`);
      assert.equal(view.byteOffset, ptr(solver.world['handle']), `${name} starts at the core's array`);
    }
    const copy = await solver.positions();
    assert.notEqual(copy.buffer, core.memory, 'positions() is a copy');
    assert.deepEqual(copy, Float32Array.from(source.positions));
    solver.apply({ substeps: 4, iterations: 2, damping: 0.25, wind: { x: 1, y: 0, z: 0 } });
    assert.deepEqual([solver.settings().substeps, solver.settings().iterations, solver.settings().damping], [4, 2, 0.25]);
    assert.equal(solver.frame, 3);
    solver.reset();
    assert.equal(solver.frame, 0);
  } finally {
    solver.destroy();
  }
});

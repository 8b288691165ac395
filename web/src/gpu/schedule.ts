// The tiled schedule: a GPU-specific order of the core's coloured constraints (the topology and the
// colouring stay the core's; this only groups them). A dispatch costs ≈7 µs on an H200 (the GPU
// solver in docs/architecture.md), so one dispatch per colour (13+ per substep) leaves a small
// cloth dispatch-bound. Instead:
//
//   pass A  tiles of T×T particles; a workgroup integrates its tile and solves every constraint with
//           both ends inside it, colour by colour, in workgroup memory (barriers, not dispatches);
//   pass B  the same tiling shifted by (T/2, T/2): most constraints that cross an A tile border lie
//           inside a B tile;
//   rest    the few that cross both (shear diagonals where an A border meets a B border) share no
//           particle on a grid, so the finish step solves them by gathering (finish.wgsl).
//
// Two dispatches a substep instead of 14 (solver.ts). Inside a group the colour order is the core's, but the
// global order is A-then-B, a different Gauss-Seidel sweep than the C solver's colour-by-colour one:
// results agree physically, not to float rounding (the plain schedule does that).
import type { MeshColliderGrid, SelfCollisionView, Vec3 } from '../core/world';
import { CONSTRAINT_LAYOUT, GROUP_LAYOUT, TILE_CONSTRAINT_LAYOUT } from './layout';

/// The core's arrays the GPU solver reads (WeftWorld in web/src/core/world.ts has them all).
export interface CoreArrays {
  readonly width: number;
  readonly height: number;
  readonly particleCount: number;
  readonly constraintCount: number;
  readonly colorCount: number;
  positions(): Float32Array;
  velocities(): Float32Array;
  /// What rounding kept out of the last prediction (float4 per particle; weft_world_residuals).
  residuals(): Float32Array;
  /// Substeps run since creation or reset (the first one is a half kick).
  readonly substepsRun: number;
  constraintBytes(): Uint8Array;
  colorOffsets(): Int32Array;
  readonly tethersPerParticle: number;
  tetherAnchors(): Int32Array; // tethersPerParticle slots per particle

  tetherMaxDistances(): Float32Array;
  indices(): Uint32Array;
  /// The render-data kernel's gather lists, built by the core (render_data.wgsl reads them).
  renderAdjacency(): { words: Uint32Array; strainBase: number };
  /// The static mesh collider, if the world has one (the kernels then collide with it).
  meshColliderGrid?(): MeshColliderGrid | null;
  /// The rest pose (float4 per particle, w = inverse mass as built): self-collision and moving pins.
  restPositions?(): Float32Array;
  /// The self-collision settings (weft_self_collision_view): thickness, reach, table size...
  readonly selfCollision?: SelfCollisionView;
  /// The wind (gusts included) a substep starting at `time` s feels (weft_world_air_wind).
  airWind?(time: number): Vec3;
  /// s simulated since creation or reset (where the GPU's pin clock starts).
  readonly time?: number;
  /// The tethers' scale in the last frame stepped (weft_world_tether_scale), where the GPU's starts:
  /// a world handed over while it relaxes after a release keeps relaxing.
  readonly tetherScale?: number;
  /// The grab, mirrored into the core by the GPU solver: weft_world_grab_step reads it.
  grab(particle: number, target: Vec3): void;
  grabMove(target: Vec3): void;
  release(): void;
  /// Where the hand ends a frame of dt s that begins with it at `held` and pin time pinTime s (the
  /// target within the cloth's reach, at most grab_speed × dt away), and the tether scale there.
  grabStep(held: Vec3, pinTime: number, dt: number): { end: Vec3; tetherScale: number };
  /// Where a hand moving from `from` to `to` in one substep of a frame of dt s in `substeps` holds its
  /// particle, kept outside the mesh collider (weft_world_hand_path); needed with a mesh.
  handPath?(from: Vec3, to: Vec3, dt: number, substeps: number): Vec3;
}

export interface Pass {
  readonly firstGroup: number;
  readonly groupCount: number;
}

export interface TiledSchedule {
  readonly tileSize: number;
  readonly passes: readonly Pass[]; // [A, B]
  readonly words: Uint32Array; // GROUP_LAYOUT headers, then the groups' particle lists
  readonly constraints: ArrayBuffer; // TILE_CONSTRAINT_LAYOUT records, colour steps padded to a stride
  readonly leftovers: ArrayBuffer; // weft_constraint records (global indices)
  readonly leftoverConstraints: Uint32Array; // the core index of each leftover record
  readonly leftoverOf: Uint32Array; // per particle: its leftover or NONE
  readonly counts: { readonly a: number; readonly b: number; readonly leftover: number };
}

/// Reads the core's constraint records (CONSTRAINT_LAYOUT) without copying.
export function constraintFields(core: CoreArrays) {
  const bytes = core.constraintBytes();
  if (bytes.byteOffset % 4 !== 0) throw new Error('constraint array is not 4-byte aligned');
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const floats = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const stride = CONSTRAINT_LAYOUT.size / 4;
  const o = CONSTRAINT_LAYOUT.offsets;
  return {
    a: (k: number) => words[k * stride + o.a / 4],
    b: (k: number) => words[k * stride + o.b / 4],
    rest: (k: number) => floats[k * stride + o.rest_length / 4],
    compliance: (k: number) => floats[k * stride + o.compliance / 4],
  };
}

interface GroupBuild {
  particles: number[];
  constraints: number[]; // core indices, colour order
}

/// Builds the tiled schedule, or returns a sentence saying why it does not apply (then the plain
/// schedule runs): constraints left over after both tilings must form a matching.
export function buildTiledSchedule(core: CoreArrays, tileSize: number, noneIndex: number): TiledSchedule | string {
  const { width, height, particleCount: n } = core;
  if (width * height !== n) return 'the particles do not form the grid';
  if (tileSize < 4 || tileSize % 2 !== 0 || tileSize * tileSize > 0xffff) return `bad tile size ${tileSize}`;
  const T = tileSize;
  const half = T / 2;
  const f = constraintFields(core);
  const offsets = core.colorOffsets();
  const colored = offsets[core.colorCount]; // overflow batch excluded: plain kernel solves it
  const tilesX = Math.ceil(width / T);
  const tilesY = Math.ceil(height / T);
  const shiftedX = Math.ceil((width + half) / T);
  const shiftedY = Math.ceil((height + half) / T);
  const tileA = (p: number) => Math.floor(Math.floor(p / width) / T) * tilesX + Math.floor((p % width) / T);
  const tileB = (p: number) => Math.floor((Math.floor(p / width) + half) / T) * shiftedX + Math.floor(((p % width) + half) / T);

  const a: GroupBuild[] = Array.from({ length: tilesX * tilesY }, () => ({ particles: [], constraints: [] }));
  const b: GroupBuild[] = Array.from({ length: shiftedX * shiftedY }, () => ({ particles: [], constraints: [] }));
  for (let p = 0; p < n; ++p) a[tileA(p)].particles.push(p); // A covers every particle: it integrates
  const leftovers: number[] = [];
  for (let k = 0; k < colored; ++k) {
    const pa = f.a(k),
      pb = f.b(k);
    if (pa >= n || pb >= n) return `constraint ${k} names a particle out of range`;
    if (tileA(pa) === tileA(pb)) a[tileA(pa)].constraints.push(k);
    else if (tileB(pa) === tileB(pb)) b[tileB(pa)].constraints.push(k);
    else leftovers.push(k);
  }
  const leftoverOf = new Uint32Array(n).fill(noneIndex);
  leftovers.forEach((k, l) => {
    for (const p of [f.a(k), f.b(k)]) {
      if (leftoverOf[p] !== noneIndex) return;
      leftoverOf[p] = l;
    }
  });
  for (let l = 0; l < leftovers.length; ++l) {
    const k = leftovers[l];
    if (leftoverOf[f.a(k)] !== l || leftoverOf[f.b(k)] !== l) return 'leftover constraints share particles';
  }
  for (const g of b) {
    const touched = new Set<number>();
    for (const k of g.constraints) touched.add(f.a(k)).add(f.b(k));
    g.particles = [...touched].sort((x, y) => x - y);
  }

  const usedB = b.filter((g) => g.constraints.length > 0);
  const all = [...a, ...usedB];
  const colorOf = new Uint8Array(colored);
  for (let c = 0; c < core.colorCount; ++c) colorOf.fill(c, offsets[c], offsets[c + 1]);

  // Constraints of a group as colour steps of a fixed stride (GROUP_LAYOUT).
  const steps = all.map((g) => {
    const runs: number[][] = [];
    g.constraints.forEach((k, i) => {
      if (i === 0 || colorOf[k] !== colorOf[g.constraints[i - 1]]) runs.push([]);
      runs[runs.length - 1].push(k);
    });
    return runs;
  });
  const strides = steps.map((runs) => runs.reduce((m, r) => Math.max(m, r.length), 0));
  const slotsTotal = steps.reduce((sum, runs, gi) => sum + runs.length * strides[gi], 0);
  const headerWords = all.length * GROUP_LAYOUT.words;
  const words = new Uint32Array(Math.max(1, headerWords + n + usedB.reduce((sum, g) => sum + g.particles.length, 0)));
  const tc = new ArrayBuffer(Math.max(1, slotsTotal) * TILE_CONSTRAINT_LAYOUT.size);
  const tcWords = new Uint32Array(tc),
    tcFloats = new Float32Array(tc);
  const stride4 = TILE_CONSTRAINT_LAYOUT.size / 4,
    to = TILE_CONSTRAINT_LAYOUT.offsets;
  let w = headerWords,
    c = 0;
  all.forEach((g, gi) => {
    const slot = new Map<number, number>();
    g.particles.forEach((p, i) => slot.set(p, i));
    words.set([w, g.particles.length, c, steps[gi].length, strides[gi]], gi * GROUP_LAYOUT.words);
    words.set(g.particles, w);
    w += g.particles.length;
    for (const run of steps[gi]) {
      for (let i = 0; i < strides[gi]; ++i) {
        const at = (c + i) * stride4;
        const k = run[i];
        if (k === undefined) {
          tcWords[at + to.ab / 4] = noneIndex;
          tcWords[at + to.index / 4] = noneIndex;
          continue;
        }
        tcWords[at + to.ab / 4] = slot.get(f.a(k))! | (slot.get(f.b(k))! << 16);
        tcFloats[at + to.rest_length / 4] = f.rest(k);
        tcFloats[at + to.compliance / 4] = f.compliance(k);
        tcWords[at + to.index / 4] = k;
      }
      c += strides[gi];
    }
  });

  const lo = new ArrayBuffer(Math.max(1, leftovers.length) * CONSTRAINT_LAYOUT.size);
  const loView = new DataView(lo);
  leftovers.forEach((k, l) => {
    const at = l * CONSTRAINT_LAYOUT.size,
      o = CONSTRAINT_LAYOUT.offsets;
    loView.setUint32(at + o.a, f.a(k), true);
    loView.setUint32(at + o.b, f.b(k), true);
    loView.setFloat32(at + o.rest_length, f.rest(k), true);
    loView.setFloat32(at + o.compliance, f.compliance(k), true);
  });
  const countA = a.reduce((s, g) => s + g.constraints.length, 0);
  return {
    tileSize,
    passes: [
      { firstGroup: 0, groupCount: a.length },
      { firstGroup: a.length, groupCount: usedB.length },
    ],
    words,
    constraints: tc,
    leftovers: lo,
    leftoverConstraints: Uint32Array.from(leftovers),
    leftoverOf,
    counts: { a: countA, b: colored - leftovers.length - countA, leftover: leftovers.length },
  };
}

/// Copies the core's compliances into the schedule's records (after a compliance change: the
/// topology and the grouping stay), in place.
export function refreshCompliances(schedule: TiledSchedule, core: CoreArrays, noneIndex: number): void {
  const f = constraintFields(core);
  const words = new Uint32Array(schedule.constraints),
    floats = new Float32Array(schedule.constraints);
  const stride = TILE_CONSTRAINT_LAYOUT.size / 4,
    o = TILE_CONSTRAINT_LAYOUT.offsets;
  for (let at = 0; at < words.length; at += stride) {
    const k = words[at + o.index / 4];
    if (k !== noneIndex) floats[at + o.compliance / 4] = f.compliance(k); // not a padding slot
  }
  const leftovers = new DataView(schedule.leftovers);
  schedule.leftoverConstraints.forEach((k, l) =>
    leftovers.setFloat32(l * CONSTRAINT_LAYOUT.size + CONSTRAINT_LAYOUT.offsets.compliance, f.compliance(k), true),
  );
}

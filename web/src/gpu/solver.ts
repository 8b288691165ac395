// The GPU solver: the whole XPBD step of src/solver.c as WGSL compute kernels over arrays the C core
// built (uploaded once). Runs unchanged in the browser and in Node (npm `webgpu`, Dawn).
//
// A frame is recorded as one compute pass: every dispatch reads its own 256-byte-aligned parameter
// record (Step, layout.ts) from one uniform buffer through a dynamic offset, and all records of a
// call are written with one writeBuffer, so step(n) is one submission however many frames it holds.
//
// Two schedules of the same kernels (schedule.ts explains the tiled one):
//   plain  integrate, one dispatch per colour, (overflow), finish: the C solver's exact order
//          (≈14 dispatches a substep); the reference for parity.
//   tiled  pass A (solve inside tiles), pass B (shifted tiles): 2 dispatches a substep, because
//          pass A also finishes the previous substep and integrates this one (tiles.wgsl), plus an
//          integrate and a finish per frame. With air (integrate gathers the triangles' forces of
//          the finished positions) or several iterations the finish and integrate stay separate.
// Air (aerodynamics.c): a dispatch over the triangles (air.wgsl, its own module) computes each
// one's drag and lift into the air section of `lambdas` before integrate, whose solve module gathers
// them (air_on.wgsl). Each substep's wind, gusts included, comes from the core (airWind).
// The renderer draws from `buffers.positions/normals/strain` (STORAGE | VERTEX): no read-back.
// A static mesh collider (the core's grid, packed by mesh.ts) is collided with in the finish phase,
// after the spheres and the ground, as C's weft_collide, in the finish pass of either schedule (the
// tiled one then does not fuse the finish into pass A). The solve module binds one more buffer
// then; without a mesh, and always in the tiled module, mesh_off.wgsl stands in. Its clearances
// (a point and a lower bound on its distance to the surface a particle, as C's) are a fifth section
// of the prediction buffer (MESH_CLEARANCE in layout.ts).
// Self-collision (self_collision.wgsl and self_contacts.wgsl, two modules of their own: the hash,
// then the search and contacts with the particle sections read-only) runs every substep where C
// has it: after the solve and the tethers (its first kernel applies them, and the leftover of the
// tiled schedule), before the finish, which then starts at the collisions (FLAG_SETTLED); in the
// fused tiled schedule that finish is the next pass A's. Pinned particles on a scripted path
// (pin_velocity) are moved by the solve module's integrate (pins_on.wgsl, reading the rest
// positions); while they move the tiled schedule does not fuse (pass A would need the rest
// positions as a 9th buffer).
// Velocities are state (solver.c): `velocities` holds v then the residuals r (n vec4 each), and a
// prediction buffer the predictions the solve moves, then what integrate did (its v, step and
// prediction, n vec4 each: particle.wgsl), which the finish of the substep reads (in the fused
// tiled schedule from the other buffer: the tiled module binds no `velocities`). While something
// is grabbed every free particle is also tethered to it: links carry each particle's grab limit
// (rewritten on grab). The solver keeps its own hand: each frame the core says where it ends
// (weft_world_grab_step, the grab mirrored into it) and the tether scale there, and each substep
// holds the particle on the straight line to there (grab.c).
import { BINDINGS, MESH_BINDING, PIN_BINDING, bindGroup, bindGroupLayout, wgslBindings, type Binding } from './bindings';
import {
  AIR,
  CONSTRAINT_LAYOUT,
  FLAGS,
  GRAB_TETHER_SLACK,
  TETHER_RELAX_RATE,
  LINK_LAYOUT,
  MAX_SPHERES,
  MESH_CLEARANCE,
  NONE,
  SELF_COLLISION,
  STEP,
  TETHERS_PER_PARTICLE,
  airSection,
  selfHashWords,
  selfWgslSizes,
  selfTableSize,
  SELF_GPU,
  SELF_STATE,
  rampedCount,
  type SelfSwitch,
  wgslMeshPrelude,
  wgslPrelude,
  type KernelConfig,
} from './layout';
import { packMeshCollider, writeMeshRecord, type PackedMesh } from './mesh';
import { buildTiledSchedule, refreshCompliances, type CoreArrays, type TiledSchedule } from './schedule';
import { airActive, type PhysicsSettings } from './settings';
import type { SelfCollisionView, Vec3 } from '../core/world';
import { SphereMotion, type SphereDef } from './spheres';
import countWgsl from './shaders/count.wgsl?raw';
import particleWgsl from './shaders/particle.wgsl?raw';
import finishWgsl from './shaders/finish.wgsl?raw';
import solveWgsl from './shaders/solve.wgsl?raw';
import tilesWgsl from './shaders/tiles.wgsl?raw';
import renderDataWgsl from './shaders/render_data.wgsl?raw';
import meshCollideWgsl from './shaders/mesh_collide.wgsl?raw';
import meshOffWgsl from './shaders/mesh_off.wgsl?raw';
import selfCollisionWgsl from './shaders/self_collision.wgsl?raw';
import selfCommonWgsl from './shaders/self_common.wgsl?raw';
import selfContactsWgsl from './shaders/self_contacts.wgsl?raw';
import selfFlagWgsl from './shaders/self_flag.wgsl?raw';
import selfScanWgsl from './shaders/self_scan.wgsl?raw';
import pinsOnWgsl from './shaders/pins_on.wgsl?raw';
import pinsOffWgsl from './shaders/pins_off.wgsl?raw';
import airWgsl from './shaders/air.wgsl?raw';
import airOnWgsl from './shaders/air_on.wgsl?raw';
import airOffWgsl from './shaders/air_off.wgsl?raw';

export type ScheduleKind = 'plain' | 'tiled';

export interface GpuSolverOptions {
  /// 'tiled' (default) falls back to 'plain' where the tiling does not apply.
  schedule?: ScheduleKind;
  /// Tile side in particles (even); the device's workgroup memory caps it.
  tileSize?: number;
  /// Tiled schedule: let pass A finish the previous substep (default true; false is for tests).
  fuse?: boolean;
  config: KernelConfig & { tileSize: number };
  /// Self-collision's hash (benchmarks): cell edge in thicknesses, buckets per particle (SELF_GPU).
  selfCellEdge?: number;
  /// Self-collision's skin of the lists in thicknesses (benchmarks; C's largest, from
  /// weft_self_collision_view's largest_reach, when not given).
  selfSkin?: number;
  selfBucketsPerParticle?: number;
  /// When self-collision keeps C's lists and when it searches directly (SELF_GPU.switch; SELF_SWITCH
  /// has the forced policies).
  selfSwitch?: SelfSwitch;
  /// The contacts as two kernels (lists, search) rather than one (SELF_GPU.splitAt when not given).
  selfSplit?: boolean;
  /// Invocations a workgroup of self_settle and self_scatter, of self_scan and of the contacts'
  /// kernels (benchmarks; SELF_GPU.hashWorkgroupSize, .scanWorkgroupSize, .contactsWorkgroupSize).
  selfWorkgroupSizes?: { hash?: number; scan?: number; contacts?: number };
}

const STORAGE = () => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
const RENDERABLE = () => GPUBufferUsage.STORAGE | GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

export interface EncodeOptions {
  /// GPU timestamps at the start and end of the frames' compute pass.
  timestampWrites?: GPUComputePassTimestampWrites;
  /// Also recompute normals and strain after the frames (default true).
  renderData?: boolean;
  /// Profiling: every dispatch in its own pass with timestamps 2i, 2i + 1 in this query set.
  profile?: GPUQuerySet;
}

// solve0/tiles0 predict into buffers.predicted, solve1/tiles1 into the second prediction buffer.
type BindGroupName =
  'solve0' | 'solve1' | 'tiles0' | 'tiles1' | 'self0' | 'self1' | 'selfScan' | 'selfContacts0' | 'selfContacts1' | 'renderData' | 'air';

/// The self-collision buffers, made when it is first turned on (or for moving pins, whose rest
/// positions are the first section of `particles`).
interface SelfState {
  particles: GPUBuffer; // rest | settled | slip (vec4 × n each) | grouped by bucket (2 vec4 a slot) | at the last rebuild
  hashCounts: GPUBuffer; // selfHashWords().counts u32: the counts (zero between substeps), the state words, the boxes
  hash: GPUBuffer; // selfHashWords().words u32: the bucket starts, the ranks, the neighbour lists
  scanState: GPUBuffer; // self_scan.wgsl: blocks done, then the blocks' totals (1 + blocks u32, zero between substeps)
  blocks: number;
  tableSize: number;
}

interface Dispatch {
  pipeline: GPUComputePipeline;
  bindGroup: BindGroupName; // resolved when the pass is recorded (ensureUniform may remake them)
  x: number;
  y: number;
}

/// A count setting as the kernels run it (substeps, iterations): a whole number, at least 1.
const wholeCount = (value: number): number => Math.max(1, Math.floor(value));

/// Where the hand moving from start to end through a frame holds the grabbed particle at the end
/// of substep k of S (grab.c: weft_grab_substep_position, in its float order).
function handAt(start: Vec3, end: Vec3, k: number, substeps: number): Vec3 {
  const f = Math.fround,
    t = f(k / substeps),
    u = f(1 - t);
  const at = (a: number, b: number) => f(f(a * u) + f(b * t));
  return { x: at(start.x, end.x), y: at(start.y, end.y), z: at(start.z, end.z) };
}

/// Where the grabbed particle sits when the hand is at `at`: out of the spheres (in order) and above
/// the ground by the collision margin, against this substep's sphere centres (grab.c:
/// weft_grab_advance_hold, in its float order).
function heldOutside(at: Vec3, spheres: readonly SphereMotion[], s: PhysicsSettings): Vec3 {
  const f = Math.fround;
  let held = at;
  for (const sphere of spheres) {
    const reach = f(sphere.def.radius + s.collisionMargin);
    const c = sphere.center;
    const dx = f(held.x - c.x),
      dy = f(held.y - c.y),
      dz = f(held.z - c.z);
    const d2 = f(f(f(dx * dx) + f(dy * dy)) + f(dz * dz));
    if (d2 < f(reach * reach)) {
      const d = f(Math.sqrt(d2));
      const n = d > f(1e-9) ? { x: f(dx / d), y: f(dy / d), z: f(dz / d) } : { x: 0, y: 1, z: 0 };
      held = { x: f(c.x + f(n.x * reach)), y: f(c.y + f(n.y * reach)), z: f(c.z + f(n.z * reach)) };
    }
  }
  const floorY = f(s.groundHeight + s.collisionMargin);
  return s.groundEnabled && held.y < floorY ? { ...held, y: floorY } : held;
}

export class GpuSolver {
  readonly schedule: ScheduleKind;
  readonly tiled: TiledSchedule | null;
  /// Why the tiled schedule is not used ('' when it is).
  readonly tiledUnavailable: string;
  readonly buffers: {
    positions: GPUBuffer; // finished positions, xyz + inverse mass (draw these)
    velocities: GPUBuffer; // velocities, then residuals (vec4 × n each)
    normals: GPUBuffer;
    strain: GPUBuffer;
    predicted: GPUBuffer;
  };
  settings: PhysicsSettings;
  readonly spheres: SphereMotion[];
  /// The packed mesh collider (null without one) and whether the kernels collide with it
  /// (false is for tests and benchmarks: the cloth then falls through).
  readonly mesh: PackedMesh | null;
  meshEnabled = true;
  /// Dispatches recorded for the last frame (for benchmarks and reports).
  dispatchesPerFrame = 0;
  /// s of scripted pin motion so far (the core's pin time: it advances by h at the start of each
  /// substep; 0 after a reset).
  pinTime: number;
  /// Substeps run since creation or reset (the core's clock of the half kick: the first one kicks
  /// the velocities by h/2; 0 after a reset).
  substepsRun: number;
  /// The substeps and iterations the last frame took (settings raised on a solver that has stepped
  /// are worked up to: SETTINGS_RAMP, as the core does).
  private rampSubsteps = 0;
  private rampIterations = 0;
  /// The core's self-collision view (weft_self_collision_view); `settings.selfCollision` switches it.
  selfView: SelfCollisionView | null;

  private readonly n: number;
  private readonly inverseMass: Float32Array;
  private readonly links: ArrayBuffer; // what the links buffer holds (the grab limits change)
  private readonly recordStride: number;
  private uniform: GPUBuffer;
  /// Each module's bindings (bindings.ts) and the bind-group layout made from them.
  private readonly modules: Record<
    'solve' | 'tiles' | 'self' | 'selfScan' | 'selfContacts' | 'renderData' | 'air',
    { bindings: readonly Binding[]; layout: GPUBindGroupLayout }
  >;
  private selfState: SelfState | null = null;
  private readonly pinsMove: boolean;
  private readonly prelude: string;
  private readonly pipelines: Record<string, GPUComputePipeline>;
  private bindGroups!: Partial<Record<BindGroupName, GPUBindGroup>>;
  private readonly owned: GPUBuffer[] = [];
  private readonly coreBuffers: {
    constraints: GPUBuffer;
    lambdas: GPUBuffer;
    links: GPUBuffer;
    leftovers: GPUBuffer;
    indices: GPUBuffer;
    adjacency: GPUBuffer;
    mesh: GPUBuffer | null;
  };
  private readonly tileBuffers: { words: GPUBuffer; constraints: GPUBuffer; predictedNext: GPUBuffer } | null;
  private readonly strainBase: number;
  private readonly triangles: number;
  private readonly airStart: number;
  private grabbed = -1;
  private grabTarget: Vec3 = { x: 0, y: 0, z: 0 };
  private heldAt: Vec3 = { x: 0, y: 0, z: 0 }; // where the hand holds the grabbed particle this substep
  private tetherScale = 1; // the last frame's (weft_world_tether_scale: it comes down at a bounded rate)
  private hand: Vec3 = { x: 0, y: 0, z: 0 }; // ... and where it held it at the end of the last frame
  private readonly colorOffsets: Int32Array;
  private readonly config: KernelConfig;
  private readonly selfCellEdge: number;
  private readonly selfSkin: number | undefined;
  private readonly selfBucketsPerParticle: number;
  private readonly selfSwitch: SelfSwitch;
  private readonly selfSplit: boolean; // the contacts as two kernels (SELF_GPU.splitAt)
  private readonly selfWorkgroupSizes: { hash: number; scan: number; contacts: number }; // SELF_GPU's
  private readonly fuse: boolean;

  constructor(
    readonly device: GPUDevice,
    readonly core: CoreArrays,
    settings: PhysicsSettings,
    sphereDefs: readonly SphereDef[],
    options: GpuSolverOptions,
  ) {
    const n = (this.n = core.particleCount);
    this.settings = { ...settings };
    if (sphereDefs.length > MAX_SPHERES) throw new Error(`at most ${MAX_SPHERES} spheres`);
    this.spheres = sphereDefs.map((d) => new SphereMotion(d));
    const config = (this.config = options.config);
    this.fuse = options.fuse ?? true;
    this.selfCellEdge = options.selfCellEdge ?? SELF_GPU.cellEdge;
    this.selfSkin = options.selfSkin;
    this.selfBucketsPerParticle = options.selfBucketsPerParticle ?? SELF_GPU.bucketsPerParticle;
    this.selfSwitch = options.selfSwitch ?? SELF_GPU.switch;
    this.selfSplit = options.selfSplit ?? core.particleCount >= SELF_GPU.splitAt;
    const sizes = options.selfWorkgroupSizes;
    this.selfWorkgroupSizes = {
      hash: sizes?.hash ?? SELF_GPU.hashWorkgroupSize,
      scan: sizes?.scan ?? SELF_GPU.scanWorkgroupSize,
      contacts: sizes?.contacts ?? SELF_GPU.contactsWorkgroupSize,
    };
    this.colorOffsets = core.colorOffsets().slice();

    const meshGrid = core.meshColliderGrid?.() ?? null;
    this.mesh = meshGrid ? packMeshCollider(meshGrid) : null;
    this.pinTime = core.time ?? 0;
    this.substepsRun = core.substepsRun;
    // A solver started on a world mid-run takes the settings as they are (the core's ramp, if one
    // runs, is not carried over).
    this.rampSubsteps = wholeCount(settings.substeps);
    this.rampIterations = wholeCount(settings.iterations);
    this.tetherScale = core.tetherScale ?? 1;
    this.selfView = core.selfCollision ?? null;
    this.pinsMove = settings.pinMotionTime > 0;
    if (this.pinsMove && !core.restPositions) throw new Error("moving pins need the core's rest positions");
    if (this.pinsMove && this.mesh)
      throw new Error('moving pins and a mesh collider at once need 9 storage buffers in the solve module; the GPU solver has 8');
    const tiled =
      options.schedule === 'plain'
        ? 'the plain schedule was asked for'
        : buildTiledSchedule(core, options.tileSize ?? config.tileSize, NONE);
    this.tiled = typeof tiled === 'string' ? null : tiled;
    this.tiledUnavailable = typeof tiled === 'string' ? tiled : '';
    if (this.tiled && this.tiled.tileSize * this.tiled.tileSize > config.tileCapacity) {
      throw new Error(`tile ${this.tiled.tileSize}² exceeds the workgroup capacity ${config.tileCapacity}`);
    }
    this.schedule = this.tiled ? 'tiled' : 'plain';

    const positions = core.positions();
    this.inverseMass = new Float32Array(n);
    for (let p = 0; p < n; ++p) this.inverseMass[p] = positions[4 * p + 3];

    const make = (label: string, data: ArrayBufferView | ArrayBuffer | number, usage: number) => {
      const size = typeof data === 'number' ? data : data.byteLength;
      const buffer = device.createBuffer({
        label: `weft ${label}`,
        size: Math.max(16, Math.ceil(size / 4) * 4),
        usage,
        mappedAtCreation: typeof data !== 'number',
      });
      if (typeof data !== 'number') {
        const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
        new Uint8Array(buffer.getMappedRange()).set(bytes);
        buffer.unmap();
      }
      this.owned.push(buffer);
      return buffer;
    };

    const motion = new Float32Array(8 * n);
    motion.set(core.velocities().subarray(0, 4 * n));
    motion.set(core.residuals().subarray(0, 4 * n), 4 * n);
    // particle.wgsl: Prediction (4 sections), then with a mesh collider the clearances (MESH_CLEARANCE).
    const prediction = new Float32Array((meshGrid ? MESH_CLEARANCE.section + 1 : 4) * 4 * n);
    prediction.set(positions.subarray(0, 4 * n));
    this.buffers = {
      positions: make('positions', positions, RENDERABLE()),
      velocities: make('velocities and residuals', motion, RENDERABLE()),
      normals: make('normals', n * 16, RENDERABLE()),
      strain: make('strain', n * 4, RENDERABLE()),
      predicted: make('predicted', prediction, STORAGE() | GPUBufferUsage.COPY_SRC),
    };

    if (core.tethersPerParticle !== TETHERS_PER_PARTICLE) {
      throw new Error(`the core has ${core.tethersPerParticle} tethers a particle, the kernels ${TETHERS_PER_PARTICLE}`);
    }
    const anchors = core.tetherAnchors();
    const maxDistances = core.tetherMaxDistances();
    const links = (this.links = new ArrayBuffer(n * LINK_LAYOUT.size));
    const lw = new Uint32Array(links),
      lf = new Float32Array(links);
    for (let p = 0; p < n; ++p) {
      const at = p * LINK_LAYOUT.words;
      for (let k = 0; k < TETHERS_PER_PARTICLE; ++k) {
        const slot = p * TETHERS_PER_PARTICLE + k;
        const anchor = slot < anchors.length ? anchors[slot] : -1;
        lw[at + LINK_LAYOUT.anchor + k] = anchor >= 0 && anchor < n ? anchor : NONE;
        lf[at + LINK_LAYOUT.maxDistance + k] = slot < maxDistances.length ? maxDistances[slot] : 0;
      }
      lw[at + LINK_LAYOUT.leftover] = this.tiled ? this.tiled.leftoverOf[p] : NONE;
    }
    const adjacency = core.renderAdjacency();
    this.strainBase = adjacency.strainBase;
    const leftoverCount = this.tiled?.counts.leftover ?? 0;
    // The λ of every constraint and leftover, then the triangles' air forces (air.wgsl).
    this.triangles = Math.floor(core.indices().length / 3);
    const lambdaFloats = airSection(core.constraintCount + leftoverCount, this.triangles);
    this.airStart = lambdaFloats.start;
    this.coreBuffers = {
      constraints: make('constraints', core.constraintBytes(), STORAGE()),
      lambdas: make('lambdas and air forces', lambdaFloats.floats * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC),
      links: make('links', links, STORAGE()),
      leftovers: make('leftovers', this.tiled?.leftovers ?? new ArrayBuffer(CONSTRAINT_LAYOUT.size), STORAGE()),
      indices: make('indices', core.indices(), STORAGE()),
      adjacency: make('render adjacency', adjacency.words, STORAGE()),
      mesh: this.mesh ? make('mesh collider', this.mesh.data, STORAGE()) : null,
    };
    this.tileBuffers = this.tiled
      ? {
          words: make('tile words', this.tiled.words, STORAGE()),
          // The fused pass A reads one substep's predictions and writes the next one's (tiles.wgsl).
          predictedNext: make('predicted (other substeps)', n * 64, STORAGE() | GPUBufferUsage.COPY_SRC),
          constraints: make('tile constraints', this.tiled.constraints, STORAGE()),
        }
      : null;

    const align = device.limits.minUniformBufferOffsetAlignment;
    this.recordStride = Math.ceil(STEP.size / align) * align;
    this.uniform = make('step records', this.recordStride * 64, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);

    // A scene with a mesh collider binds its packed arrays last in the solve module (MESH_BINDING):
    // its finish pass collides. The tiled module never does (not fused, see encode).
    const withLayout = (label: string, bindings: readonly Binding[]) => ({
      bindings,
      layout: bindGroupLayout(device, `${label} layout`, bindings),
    });
    this.modules = {
      solve: withLayout(
        'solve',
        this.mesh ? [...BINDINGS.solve, MESH_BINDING] : this.pinsMove ? [...BINDINGS.solve, PIN_BINDING] : BINDINGS.solve,
      ),
      tiles: withLayout('tiles', BINDINGS.tiles),
      self: withLayout('self', BINDINGS.self),
      selfScan: withLayout('self scan', BINDINGS.selfScan),
      selfContacts: withLayout('self contacts', BINDINGS.selfContacts),
      renderData: withLayout('render data', BINDINGS.renderData),
      air: withLayout('air', BINDINGS.air),
    };
    const prelude = (this.prelude = wgslPrelude({ ...config, tileCapacity: this.tiled ? this.tiled.tileSize * this.tiled.tileSize : 4 }));
    const module = (label: string, bindings: readonly Binding[], ...parts: string[]) =>
      device.createShaderModule({ label: `weft ${label}`, code: [prelude, wgslBindings(bindings), ...parts].join('\n') });
    const meshParts = this.mesh ? [wgslMeshPrelude(), meshCollideWgsl] : [meshOffWgsl];
    const solveModule = module(
      'solve.wgsl',
      this.modules.solve.bindings,
      countWgsl,
      particleWgsl,
      finishWgsl,
      solveWgsl,
      ...meshParts,
      this.pinsMove ? pinsOnWgsl : pinsOffWgsl,
      airOnWgsl,
    );
    // The tiled module integrates only when fused, which air turns off.
    const tilesModule = module(
      'tiles.wgsl',
      this.modules.tiles.bindings,
      countWgsl,
      particleWgsl,
      finishWgsl,
      tilesWgsl,
      meshOffWgsl,
      pinsOffWgsl,
      airOffWgsl,
    );
    const airModule = module('air.wgsl', this.modules.air.bindings, airWgsl);
    const renderModule = module('render_data.wgsl', this.modules.renderData.bindings, renderDataWgsl);
    const pipeline = (mod: GPUShaderModule, bgl: GPUBindGroupLayout, entryPoint: string) =>
      device.createComputePipeline({
        label: `weft ${entryPoint}`,
        layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }),
        compute: { module: mod, entryPoint },
      });
    const solveLayout = this.modules.solve.layout;
    this.pipelines = {
      integrate: pipeline(solveModule, solveLayout, 'integrate'),
      solveColor: pipeline(solveModule, solveLayout, 'solve_color'),
      solveOverflow: pipeline(solveModule, solveLayout, 'solve_overflow'),
      tethers: pipeline(solveModule, solveLayout, 'tethers'),
      solveLeftovers: pipeline(solveModule, solveLayout, 'solve_leftovers'),
      finish: pipeline(solveModule, solveLayout, 'finish'),
      renderData: pipeline(renderModule, this.modules.renderData.layout, 'render_data'),
      airForces: pipeline(airModule, this.modules.air.layout, 'air_forces'),
      ...(this.tiled ? { solveTiles: pipeline(tilesModule, this.modules.tiles.layout, 'solve_tiles') } : {}),
    };
    if (this.pinsMove || settings.selfCollision) this.ensureSelf();
    this.makeBindGroups();
  }

  /// Makes the self-collision buffers and pipelines (once: when first needed).
  private ensureSelf(): boolean {
    if (this.selfState) return true;
    const view = this.selfView,
      rest = this.core.restPositions?.();
    if (!view || !rest) return false;
    const n = this.n,
      device = this.device;
    const tableSize = selfTableSize(view.tableSize, n, this.selfBucketsPerParticle);
    const { blocks, words, counts, scanState } = selfHashWords(tableSize, this.selfWorkgroupSizes.scan, n);
    const sizes = selfWgslSizes(this.selfWorkgroupSizes);
    const buffer = (label: string, size: number, usage = STORAGE()) => {
      const b = device.createBuffer({ label: `weft ${label}`, size: Math.max(16, Math.ceil(size / 16) * 16), usage });
      this.owned.push(b);
      return b;
    };
    const particles = buffer('self-collision particles', 6 * n * 16);
    device.queue.writeBuffer(particles, 0, rest as Float32Array<ArrayBuffer>);
    this.selfState = {
      particles,
      hashCounts: buffer('self-collision counts', counts * 4, STORAGE() | GPUBufferUsage.COPY_SRC),
      hash: buffer('self-collision hash', words * 4),
      scanState: buffer('self-collision scan state', scanState * 4),
      blocks,
      tableSize,
    };
    const code = [
      this.prelude,
      wgslBindings(this.modules.self.bindings),
      countWgsl,
      particleWgsl,
      finishWgsl,
      sizes,
      selfCommonWgsl,
      selfFlagWgsl,
      selfCollisionWgsl,
      meshOffWgsl,
      pinsOffWgsl,
      airOffWgsl,
    ].join('\n');
    const module = device.createShaderModule({ label: 'weft self_collision.wgsl', code });
    const layout = device.createPipelineLayout({ bindGroupLayouts: [this.modules.self.layout] });
    for (const [name, entryPoint] of [
      ['selfSettle', 'self_settle'],
      ['selfScatter', 'self_scatter'],
    ]) {
      this.pipelines[name] = device.createComputePipeline({ label: `weft ${entryPoint}`, layout, compute: { module, entryPoint } });
    }
    const scan = device.createShaderModule({
      label: 'weft self_scan.wgsl',
      code: [this.prelude, wgslBindings(this.modules.selfScan.bindings), countWgsl, sizes, selfCommonWgsl, selfScanWgsl].join('\n'),
    });
    this.pipelines.selfScan = device.createComputePipeline({
      label: 'weft self_scan',
      layout: device.createPipelineLayout({ bindGroupLayouts: [this.modules.selfScan.layout] }),
      compute: { module: scan, entryPoint: 'self_scan' },
    });
    const contacts = device.createShaderModule({
      label: 'weft self_contacts.wgsl',
      code: [
        this.prelude,
        wgslBindings(this.modules.selfContacts.bindings),
        countWgsl,
        sizes,
        selfCommonWgsl,
        selfFlagWgsl,
        selfContactsWgsl,
      ].join('\n'),
    });
    const contactsLayout = device.createPipelineLayout({ bindGroupLayouts: [this.modules.selfContacts.layout] });
    const entries = this.selfSplit
      ? [
          ['selfLists', 'self_lists'],
          ['selfSearch', 'self_search'],
        ]
      : [['selfContacts', 'self_contacts']];
    for (const [name, entryPoint] of entries) {
      this.pipelines[name] = device.createComputePipeline({
        label: `weft ${entryPoint}`,
        layout: contactsLayout,
        compute: { module: contacts, entryPoint },
      });
    }
    if (this.bindGroups) this.makeBindGroups();
    return true;
  }

  private makeBindGroups(): void {
    const bind = (module: keyof typeof this.modules, label: string, buffers: Record<string, GPUBuffer>) =>
      bindGroup(this.device, label, this.modules[module].layout, this.modules[module].bindings, buffers);
    const b = this.buffers,
      { mesh, ...c } = this.coreBuffers;
    const t = this.tileBuffers;
    const predicted = [b.predicted, t?.predictedNext ?? b.predicted];
    // Every buffer a module may bind, by binding name (bindings.ts).
    const self = this.selfState;
    const shared = {
      step: this.uniform,
      positions: b.positions,
      velocities: b.velocities,
      normals: b.normals,
      strain: b.strain,
      ...c,
      ...(mesh ? { mesh } : {}),
      ...(self
        ? { rest: self.particles, particles: self.particles, hash_counts: self.hashCounts, hash: self.hash, scan_state: self.scanState }
        : {}),
    };
    this.bindGroups = { renderData: bind('renderData', 'render data', shared), air: bind('air', 'air', shared) };
    if (self) this.bindGroups.selfScan = bind('selfScan', 'self scan', shared);
    for (const i of t ? [0, 1] : [0]) {
      this.bindGroups[i ? 'solve1' : 'solve0'] = bind('solve', `solve ${i}`, { ...shared, predicted: predicted[i] });
      if (self) {
        this.bindGroups[i ? 'self1' : 'self0'] = bind('self', `self ${i}`, { ...shared, predicted: predicted[i] });
        this.bindGroups[i ? 'selfContacts1' : 'selfContacts0'] = bind('selfContacts', `self contacts ${i}`, {
          ...shared,
          predicted: predicted[i],
        });
      }
      if (t) {
        this.bindGroups[i ? 'tiles1' : 'tiles0'] = bind('tiles', `tiles ${i}`, {
          ...shared,
          predicted: predicted[i],
          solved_in: predicted[1 - i],
          words: t.words,
          tile_constraints: t.constraints,
        });
      }
    }
  }

  /// Grabs particle (the core's grab too: the tether scale is the core's) and tethers every free
  /// particle to it at its rest distance (grab.c).
  grab(particle: number, target: Vec3): void {
    if (!(particle >= 0 && particle < this.n)) throw new Error(`no particle ${particle}`);
    const rest = this.core.restPositions?.();
    if (!rest) throw new Error("a grab needs the core's rest positions");
    this.release();
    this.core.grab(particle, target);
    this.grabbed = particle;
    this.grabTarget = { ...target };
    this.hand = { x: Math.fround(target.x), y: Math.fround(target.y), z: Math.fround(target.z) }; // grab.c: taken at the target
    this.heldAt = { ...this.hand };
    this.device.queue.writeBuffer(this.buffers.positions, particle * 16 + 12, new Float32Array([0]));
    // grab.c's limit before the scale, in its float order: sqrtf(|rest_p − rest_g|²) × (1 + slack).
    const f = Math.fround,
      slack = f(1 + f(GRAB_TETHER_SLACK));
    const links = new Float32Array(this.links);
    const g = 4 * particle;
    for (let p = 0; p < this.n; ++p) {
      const rx = f(rest[4 * p] - rest[g]),
        ry = f(rest[4 * p + 1] - rest[g + 1]),
        rz = f(rest[4 * p + 2] - rest[g + 2]);
      const r2 = f(f(f(rx * rx) + f(ry * ry)) + f(rz * rz));
      links[p * LINK_LAYOUT.words + LINK_LAYOUT.grabLimit] = f(f(Math.sqrt(r2)) * slack);
    }
    this.device.queue.writeBuffer(this.coreBuffers.links, 0, this.links);
  }

  grabMove(target: Vec3): void {
    if (this.grabbed >= 0) this.core.grabMove(target);
    this.grabTarget = { ...target };
  }

  release(): void {
    if (this.grabbed < 0) return;
    this.core.release();
    this.device.queue.writeBuffer(this.buffers.positions, this.grabbed * 16 + 12, new Float32Array([this.inverseMass[this.grabbed]]));
    this.grabbed = -1;
  }

  /// Replaces positions, velocities and residuals (xyzw per particle), e.g. after the core was reset.
  upload(positions: Float32Array, velocities: Float32Array, residuals: Float32Array): void {
    this.tetherScale = this.core.tetherScale ?? 1; // the core's: 1 after weft_world_reset
    // Views on wasm memory: an ArrayBuffer, never shared, in this build.
    this.device.queue.writeBuffer(this.buffers.positions, 0, positions as Float32Array<ArrayBuffer>);
    this.device.queue.writeBuffer(this.buffers.velocities, 0, velocities as Float32Array<ArrayBuffer>);
    this.device.queue.writeBuffer(this.buffers.velocities, this.n * 16, residuals as Float32Array<ArrayBuffer>);
  }

  /// Takes the core's self-collision view again (after a thickness change: its reach, max step and
  /// cells follow it), and the lists, built at the old reach, are built afresh in the next substep:
  /// the flag, mode and age words and the box zeroed, as made (a NaN box: self_collision.wgsl).
  setSelfView(view: SelfCollisionView): void {
    this.selfView = view;
    const self = this.selfState;
    if (!self) return;
    const zeros = new Uint32Array(SELF_STATE.rebuilds);
    this.device.queue.writeBuffer(self.hashCounts, self.tableSize * 4, zeros); // flag, mode, age
    this.device.queue.writeBuffer(self.hashCounts, (self.tableSize + SELF_STATE.box) * 4, new Uint32Array(6));
  }

  /// Re-reads the core's constraint records (after a compliance change: while a stiffer one is
  /// worked down to, every frame).
  uploadConstraints(): void {
    this.device.queue.writeBuffer(this.coreBuffers.constraints, 0, this.core.constraintBytes() as Uint8Array<ArrayBuffer>);
    if (this.tiled && this.tileBuffers) {
      refreshCompliances(this.tiled, this.core, NONE);
      this.device.queue.writeBuffer(this.tileBuffers.constraints, 0, this.tiled.constraints);
      this.device.queue.writeBuffer(this.coreBuffers.leftovers, 0, this.tiled.leftovers);
    }
  }

  /// Records `frames` frames of dt seconds (and the render data) into encoder. The parameter
  /// records are written now, so call submit before the next encode.
  /// Returns the kernel name of each dispatch, in order.
  encode(encoder: GPUCommandEncoder, dt: number, frames: number, options: EncodeOptions = {}): string[] {
    const { timestampWrites, renderData = true, profile } = options;
    const records: ArrayBuffer[] = [];
    const dispatches: (Dispatch & { record: number; name: string })[] = [];
    const s = this.settings;
    // Each frame's counts (the loop below sets them: raised settings worked up to, rampedCount).
    let substeps = wholeCount(s.substeps),
      iterations = wholeCount(s.iterations),
      h = Math.fround(Math.fround(dt) / substeps);
    const offsets = this.colorOffsets;
    const colorCount = this.core.colorCount;
    const overflow: [number, number] = [offsets[colorCount], offsets[colorCount + 1]];
    const wg = this.device.limits.maxComputeWorkgroupsPerDimension;
    const items = (count: number, size: number) => {
      const groups = Math.ceil(count / size);
      const x = Math.min(groups, wg);
      return { x, y: Math.ceil(groups / x) };
    };
    const particles = () => items(this.n, this.wgSize());
    let base: ArrayBuffer;
    const push = (
      pipeline: string,
      bind: BindGroupName,
      size: { x: number; y: number },
      edit: (u: Uint32Array, f: Float32Array) => void,
    ) => {
      const record = base.slice(0);
      edit(new Uint32Array(record), new Float32Array(record));
      records.push(record);
      dispatches.push({ pipeline: this.pipelines[pipeline], name: pipeline, bindGroup: bind, ...size, record: records.length - 1 });
    };
    const R = STEP.offsets.range / 4,
      M = STEP.offsets.misc / 4;
    const range = (u: Uint32Array, first: number, end: number, flags: number) => {
      u[R + 1] = first;
      u[R + 2] = end;
      u[R + 3] = flags;
    };
    const lambdaFlags = (it: number) => (it > 0 ? FLAGS.ACCUMULATE_LAMBDA : 0) | (iterations > 1 ? FLAGS.STORE_LAMBDA : 0);
    // Self-collision of one substep on prediction buffer `buffer`: settle (with `settleFlags`) and
    // count, scan, scatter, contacts (the lists while they last, else a search of a fresh hash,
    // chosen on the GPU: self_collision.wgsl); from SELF_GPU.splitAt particles on the contacts are
    // two kernels, from the lists and from a search, each exiting early in the other's substeps.
    // The finish that follows carries FLAG_SETTLED.
    const self = s.selfCollision && this.ensureSelf();
    const selfPasses = (buffer: number, settleFlags: number) => {
      const bind: BindGroupName = buffer ? 'self1' : 'self0';
      const { hash, contacts } = this.selfWorkgroupSizes;
      const hashGroups = items(this.n, hash);
      push('selfSettle', bind, hashGroups, (u) => range(u, 0, 0, settleFlags));
      push('selfScan', 'selfScan', items(this.selfState!.blocks, 1), (u) => range(u, 0, 0, 0));
      push('selfScatter', bind, hashGroups, (u) => range(u, 0, 0, 0));
      const contactsBind: BindGroupName = buffer ? 'selfContacts1' : 'selfContacts0';
      if (this.selfSplit) {
        push('selfLists', contactsBind, items(Math.ceil(this.n / SELF_GPU.listSlots), contacts), (u) => range(u, 0, 0, 0));
        push('selfSearch', contactsBind, items(this.n, contacts), (u) => range(u, 0, 0, 0));
      } else push('selfContacts', contactsBind, items(this.n, contacts), (u) => range(u, 0, 0, 0));
    };
    const settledFlag = self ? FLAGS.SETTLED : 0;
    const air = airActive(s) && this.triangles > 0;
    const airForces = () => {
      if (air) push('airForces', 'air', items(this.triangles, this.wgSize()), (u) => range(u, 0, 0, 0));
    };

    for (let frame = 0; frame < frames; ++frame) {
      // From rest (no substep run since creation or reset) the settings take effect at once.
      const fromRest = this.substepsRun === 0;
      const [wantedSubsteps, wantedIterations] = [wholeCount(s.substeps), wholeCount(s.iterations)];
      substeps = this.rampSubsteps = fromRest ? wantedSubsteps : rampedCount(this.rampSubsteps, wantedSubsteps);
      iterations = this.rampIterations = fromRest ? wantedIterations : rampedCount(this.rampIterations, wantedIterations);
      h = Math.fround(Math.fround(dt) / substeps);
      // The pins still move this frame: integrate reads the rest positions (the solve module's).
      const pinsMoving = this.pinsMove && this.pinTime < Math.fround(s.pinMotionTime);
      // As weft_world_step: the tethers' scale for the frame, from the pins' clock at its start.
      // ... and the hand's path through the frame (towards the target, within reach of the pins).
      const start = this.hand;
      const move = this.grabbed >= 0 ? this.core.grabStep(start, this.pinTime, Math.fround(dt)) : null;
      // ... coming down at most TETHER_RELAX_RATE a second, as weft_grab_advance_frame keeps it: a
      // scale that fell at once on a release at the hand's reach snapped the cloth above its pins.
      const fdt = Math.fround(dt);
      const least = Math.fround(this.tetherScale - Math.fround(Math.fround(TETHER_RELAX_RATE) * fdt));
      const scale = move ? move.tetherScale : 1;
      const tetherScale = (this.tetherScale = scale > least ? scale : least);
      if (move) this.hand = move.end;
      for (let sub = 0; sub < substeps; ++sub) {
        // A fused pass A finishes the previous substep: it collides with that substep's spheres.
        const previousSpheres = this.spheres.map((sphere) => ({ center: { ...sphere.center }, previous: { ...sphere.previous } }));
        for (const sphere of this.spheres) sphere.advance(h);
        // The core's clock: the substep's wind is the one at its start (solver.c's SCRIPTED stage).
        const wind = air ? this.windAt(this.pinTime) : s.wind;
        this.pinTime += h;
        // solver.c: the first substep since reset kicks by h/2.
        const kick = this.substepsRun > 0 ? h : Math.fround(0.5 * h);
        this.substepsRun++;
        // Out of the spheres and the ground, and a mesh met on the way from where it held the
        // particle (grab.c: weft_grab_advance_hold).
        const aim = move ? heldOutside(handAt(start, move.end, sub + 1, substeps), this.spheres, s) : null;
        this.heldAt = !aim ? this.grabTarget : this.mesh && this.core.handPath ? this.core.handPath(this.heldAt, aim, fdt, substeps) : aim;
        base = this.baseRecord(h, air, wind, tetherScale, kick);
        if (this.tiled) {
          // Fused: pass A of substep sub > 0 also finishes substep sub − 1 (tiles.wgsl). Not with
          // air (integrate gathers the forces of the finished triangles), several iterations, or
          // a mesh collider: its search would stall a whole tile workgroup on the few particles
          // near the mesh, the tiled module would need a 9th storage buffer, and SwiftShader
          // (Chromium's software WebGPU) took minutes to compile it into the barrier kernel.
          const fused = this.fuse && !air && iterations === 1 && !this.mesh && !pinsMoving;
          const buffer = fused ? sub % 2 : 0;
          const solveBind: BindGroupName = buffer ? 'solve1' : 'solve0';
          const tilesBind: BindGroupName = buffer ? 'tiles1' : 'tiles0';
          const finishInA = fused && sub > 0;
          if (!finishInA) {
            airForces();
            push('integrate', solveBind, particles(), (u) => range(u, 0, 0, 0));
          }
          const [a, b] = this.tiled.passes;
          for (let it = 0; it < iterations; ++it) {
            for (const [pass, finish] of [
              [a, finishInA],
              [b, false],
            ] as const) {
              if (pass.groupCount === 0) continue;
              push('solveTiles', tilesBind, items(pass.groupCount, 1), (u, f) => {
                range(
                  u,
                  0,
                  pass.firstGroup + pass.groupCount,
                  lambdaFlags(it) | (finish ? FLAGS.FINISH | (self ? FLAGS.SETTLED : FLAGS.LEFTOVERS) : 0),
                );
                u[M + 3] = pass.firstGroup;
                if (finish) this.writeSpheres(f, previousSpheres);
              });
            }
            if (overflow[1] > overflow[0])
              push('solveOverflow', solveBind, { x: 1, y: 1 }, (u) => range(u, overflow[0], overflow[1], lambdaFlags(it)));
            if (it < iterations - 1) {
              if (this.tiled.counts.leftover > 0)
                push('solveLeftovers', solveBind, items(this.tiled.counts.leftover, this.wgSize()), (u) => range(u, 0, 0, lambdaFlags(it)));
              push('tethers', solveBind, particles(), (u) => range(u, 0, 0, 0));
            }
          }
          if (self) selfPasses(buffer, FLAGS.LEFTOVERS | lambdaFlags(iterations - 1));
          if (!fused || sub === substeps - 1) {
            push('finish', solveBind, particles(), (u) =>
              range(u, 0, 0, FLAGS.FINISH | (self ? FLAGS.SETTLED : FLAGS.LEFTOVERS | lambdaFlags(iterations - 1))),
            );
          }
        } else {
          const solveBind: BindGroupName = 'solve0';
          airForces();
          push('integrate', solveBind, particles(), (u) => range(u, 0, 0, 0));
          for (let it = 0; it < iterations; ++it) {
            for (let c = 0; c < colorCount; ++c) {
              const first = offsets[c],
                end = offsets[c + 1];
              if (end > first)
                push('solveColor', solveBind, items(end - first, this.wgSize()), (u) => range(u, first, end, lambdaFlags(it)));
            }
            if (overflow[1] > overflow[0])
              push('solveOverflow', solveBind, { x: 1, y: 1 }, (u) => range(u, overflow[0], overflow[1], lambdaFlags(it)));
            if (it < iterations - 1) push('tethers', solveBind, particles(), (u) => range(u, 0, 0, 0));
          }
          if (self) selfPasses(0, 0);
          push('finish', solveBind, particles(), (u) => range(u, 0, 0, FLAGS.FINISH | settledFlag));
        }
      }
    }
    this.dispatchesPerFrame = frames > 0 ? dispatches.length / frames : 0;
    base = this.baseRecord(h, false, s.wind, 1, h);
    if (renderData) push('renderData', 'renderData', particles(), (u) => range(u, this.strainBase, 0, 0));

    this.ensureUniform(records.length);
    const all = new Uint8Array(records.length * this.recordStride);
    records.forEach((r, i) => all.set(new Uint8Array(r), i * this.recordStride));
    this.device.queue.writeBuffer(this.uniform, 0, all);
    if (profile) {
      dispatches.forEach((d, i) => {
        const pass = encoder.beginComputePass({
          label: `weft ${d.name}`,
          timestampWrites: { querySet: profile, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 },
        });
        pass.setPipeline(d.pipeline);
        pass.setBindGroup(0, this.bindGroups[d.bindGroup]!, [d.record * this.recordStride]);
        pass.dispatchWorkgroups(d.x, d.y);
        pass.end();
      });
      return dispatches.map((d) => d.name);
    }
    const pass = encoder.beginComputePass({ label: 'weft step', ...(timestampWrites ? { timestampWrites } : {}) });
    let current: GPUComputePipeline | null = null;
    for (const d of dispatches) {
      if (d.pipeline !== current) pass.setPipeline((current = d.pipeline));
      pass.setBindGroup(0, this.bindGroups[d.bindGroup]!, [d.record * this.recordStride]);
      pass.dispatchWorkgroups(d.x, d.y);
    }
    pass.end();
    return dispatches.map((d) => d.name);
  }

  /// Advances `frames` frames and returns once the work is submitted.
  step(dt: number, frames = 1): void {
    const encoder = this.device.createCommandEncoder({ label: 'weft frame' });
    this.encode(encoder, dt, frames);
    this.device.queue.submit([encoder.finish()]);
  }

  /// Tests: the triangles' air forces (4 floats a triangle, air.wgsl) on the current positions and
  /// velocities in the wind at `time` s, as one substep's air dispatch computes them.
  async airForces(time: number): Promise<Float32Array> {
    const triangles = this.triangles,
      floats = triangles * AIR.floatsPerTriangle;
    const h = Math.fround(1 / 60),
      record = this.baseRecord(h, true, this.windAt(time), 1, h);
    this.device.queue.writeBuffer(this.uniform, 0, record);
    const staging = this.device.createBuffer({
      label: 'weft read air forces',
      size: Math.max(16, floats * 4),
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const encoder = this.device.createCommandEncoder({ label: 'weft air forces' });
    const pass = encoder.beginComputePass({ label: 'weft air forces' });
    pass.setPipeline(this.pipelines.airForces);
    pass.setBindGroup(0, this.bindGroups.air!, [0]);
    const groups = Math.ceil(triangles / this.wgSize()),
      x = Math.min(groups, this.device.limits.maxComputeWorkgroupsPerDimension);
    pass.dispatchWorkgroups(x, Math.ceil(groups / x));
    pass.end();
    encoder.copyBufferToBuffer(this.coreBuffers.lambdas, this.airStart * 4, staging, 0, floats * 4);
    this.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const copy = new Float32Array(staging.getMappedRange(0, floats * 4).slice(0));
    staging.unmap();
    staging.destroy();
    return copy;
  }

  /// Tests: the mesh collider's clearances (MESH_CLEARANCE: a point and a lower bound on its distance
  /// to the surface, 0 unknown; vec4 a particle), null without a mesh collider.
  async meshClearances(): Promise<Float32Array | null> {
    if (!this.mesh) return null;
    const size = this.n * 16;
    const staging = this.device.createBuffer({
      label: 'weft read clearances',
      size,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const encoder = this.device.createCommandEncoder({ label: 'weft read clearances' });
    encoder.copyBufferToBuffer(this.buffers.predicted, MESH_CLEARANCE.section * size, staging, 0, size);
    this.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const copy = new Float32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    staging.destroy();
    return copy;
  }

  /// A copy of a solver buffer (positions by default): read back only on request.
  async read(which: 'positions' | 'velocities' | 'residuals' | 'normals' | 'strain' = 'positions'): Promise<Float32Array> {
    const source = this.buffers[which === 'residuals' ? 'velocities' : which];
    const start = which === 'residuals' ? this.n * 16 : 0;
    const size = which === 'strain' ? this.n * 4 : this.n * 16;
    const staging = this.device.createBuffer({
      label: `weft read ${which}`,
      size: Math.max(16, size),
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const encoder = this.device.createCommandEncoder({ label: `weft read ${which}` });
    encoder.copyBufferToBuffer(source, start, staging, 0, Math.max(16, size));
    this.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const length = which === 'strain' ? this.n : this.n * 4;
    const copy = new Float32Array(staging.getMappedRange(0, length * 4).slice(0));
    staging.unmap();
    staging.destroy();
    return copy;
  }

  /// Self-collision's counters since it was first turned on (null before that): substeps that
  /// built the neighbour lists, substeps that searched the hash directly (the others used the lists).
  async selfCounters(): Promise<{ rebuilds: number; direct: number } | null> {
    const self = this.selfState;
    if (!self) return null;
    const staging = this.device.createBuffer({
      label: 'weft read self-collision counters',
      size: 8,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const encoder = this.device.createCommandEncoder({ label: 'weft read self-collision counters' });
    encoder.copyBufferToBuffer(self.hashCounts, (self.tableSize + SELF_STATE.rebuilds) * 4, staging, 0, 8);
    this.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const [rebuilds, direct] = new Uint32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    staging.destroy();
    return { rebuilds, direct };
  }

  destroy(): void {
    for (const b of this.owned) b.destroy();
    this.owned.length = 0;
  }

  private wgSize(): number {
    return this.config.workgroupSize;
  }

  private ensureUniform(count: number): void {
    const size = count * this.recordStride;
    if (this.uniform.size >= size) return;
    this.uniform.destroy();
    this.uniform = this.device.createBuffer({
      label: 'weft step records',
      size: Math.max(size, this.uniform.size * 2),
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.owned.push(this.uniform);
    this.makeBindGroups();
  }

  /// The substep's record: everything but the dispatch-specific range and group fields.
  /// The wind a substep starting at `time` s feels, gusts included: the core computes it
  /// (weft_world_air_wind), so the GPU never ports the seeded turbulence.
  private windAt(time: number): Vec3 {
    if (this.core.airWind) return this.core.airWind(time);
    if (this.settings.gustStrength > 0) throw new Error("gusts need the core's airWind");
    return this.settings.wind;
  }

  private baseRecord(h: number, air: boolean, wind: Vec3, tetherScale: number, kick: number): ArrayBuffer {
    const s = this.settings;
    const record = new ArrayBuffer(STEP.size);
    const f = new Float32Array(record),
      u = new Uint32Array(record);
    const o = (name: string) => STEP.offsets[name] / 4;
    f.set([s.gravity.x, s.gravity.y, s.gravity.z, h], o('gravity_h'));
    f.set([wind.x, wind.y, wind.z, s.drag], o('air_wind'));
    f.set([s.lift, Math.fround(0.5 * Math.fround(s.airDensity)), 0, 0], o('air'));
    u.set([this.airStart, air ? this.triangles : 0, 0, 0], o('air_forces'));
    f.set([s.groundHeight, s.friction, s.collisionMargin, s.damping], o('ground'));
    f.set([this.heldAt.x, this.heldAt.y, this.heldAt.z, s.maxSpeed], o('grab'));
    u.set([this.n, 0, 0, 0], o('range'));
    u.set([this.grabbed >= 0 ? this.grabbed : NONE, this.spheres.length, s.groundEnabled ? 1 : 0, 0], o('misc'));
    u.set([this.core.width, this.core.height, this.core.constraintCount, this.tiled?.counts.leftover ?? 0], o('grid'));
    this.writeSpheres(f, this.spheres);
    if (this.mesh) writeMeshRecord(record, this.mesh, s.collisionMargin, this.meshEnabled);
    const view = this.selfView;
    if (view) {
      const fr = Math.fround;
      const edge = fr(view.thickness * this.selfCellEdge);
      // The lists reach as far as C's widest (bench/gpu/README.md: fold 256², 5 to 20× fewer rebuilds).
      const reach = this.selfSkin === undefined ? view.largestReach : fr(view.thickness * fr(1 + this.selfSkin));
      const skin = fr(reach - view.thickness);
      f.set([view.thickness, reach, fr(1 / reach), view.maxStep], o('self_lengths'));
      f.set([fr(view.restDistance * fr(SELF_COLLISION.restTolerance)), skin, fr(1 / edge), 0], o('self_rest'));
      // The hash ensureSelf made (its sizes, not computed again every frame).
      const { toLists, toDirect } = this.selfSwitch;
      u.set([this.selfState?.tableSize ?? 0, this.selfState?.blocks ?? 0, toLists, toDirect], o('self_hash'));
    }
    // C's pin travel: (float)min(pin time, (double)pin motion time).
    const motionTime = Math.fround(s.pinMotionTime);
    f.set([s.pinVelocity.x, s.pinVelocity.y, s.pinVelocity.z, this.pinTime < motionTime ? this.pinTime : motionTime], o('pins'));
    f.set([tetherScale, kick, Number.isFinite(s.stretchLimit) ? s.stretchLimit : 0, 0], o('motion'));
    return record;
  }

  private writeSpheres(f: Float32Array, spheres: readonly { center: Vec3; previous: Vec3 }[]): void {
    spheres.forEach((sphere, k) => {
      f.set([sphere.center.x, sphere.center.y, sphere.center.z, this.spheres[k].def.radius], STEP.offsets.spheres / 4 + 4 * k);
      f.set([sphere.previous.x, sphere.previous.y, sphere.previous.z, 0], STEP.offsets.previous_spheres / 4 + 4 * k);
    });
  }
}

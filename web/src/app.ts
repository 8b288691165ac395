// The app: one core world behind a ClothSolver, one renderer, the camera and the frame loop.
// Frames are fixed steps of the scene's frame time, so a frame count means the same simulated time
// on any machine. While running, simulated time follows wall time (stepping.ts: an accumulator, at
// most a few steps per displayed frame, "slow motion ×k" when the machine cannot keep up); while
// paused only step(n) steps, exactly n. All stepping goes through one queue so step(n) from the
// hooks and the loop never interleave.
import { MAX_VIEW_INSET, OrbitCamera, type CameraObstacle } from './camera';
import type { WeftCore } from './core/wasm';
import { createSceneWithObj, notObjText } from './core/obj';
import { createSceneWithMesh, readGltfTriangles, type TriangleMesh } from './core/gltf';
import { WeftWorld, type Vec3 } from './core/world';
import { add, dot, scale, sub } from './render/math';
import type { ShadingMode } from './render/modes';
import type { FrameInput, Renderer } from './render/renderer';
import { createGpuSolver } from './solver/gpu';
import type { ClothSolver, SolverContext, SolverKind, SolverSettings } from './solver/seam';
import { applySolverSettings } from './solver/settings';
import { WasmSolver } from './solver/wasm';
import { RealTimeStepper } from './stepping';
import type { Grabber } from './ui/input';
import type { Messages } from './ui/messages';

/** The narrowest view (width / height) a scene's first framing fills across; a narrower one backs off. */
const PORTRAIT_ASPECT = 0.8;
/** Why the gpu solver cannot run on a page that renders with WebGL2 (the solver shares WebGPU's device). */
const GPU_SOLVER_NEEDS_WEBGPU =
  'The GPU solver needs WebGPU, and this page renders with WebGL2 (renderer=webgl2 in the address, or no WebGPU in this browser)';
/** How long (ms of wall time) the HUD says a frame wanted too many more substeps than it took. */
const TOO_FEW_SUBSTEPS_MS = 2000;
/**
 * A frame that wanted at least this many times the substeps it took is reported (the HUD's badge):
 * near a mesh the bound is 0.1 spacing a substep (src/frame_substeps.c), so 0.4 spacing. A cap of
 * max substeps a little below the motion's ask (the bunny's landing at 48², 2 or 10 substeps: up to
 * 54 wanted, 32 taken) is not: the bound is conservative. Kept to its substeps (max substeps 0),
 * the same landing at 2 substeps wants 27×, and at 1 substep the cloth slides through the bunny.
 */
const TOO_FEW_SUBSTEPS_FACTOR = 4;

export interface Stats {
  frame: number;
  /** Rendered frames per second (the display loop). */
  fps: number;
  /** Milliseconds one simulated frame (fixed step) takes on the solver that runs (simTiming says how it was measured). */
  simMs: number;
  /** Simulated frames (fixed steps) per second of wall time; the scene's frame rate when it keeps up. */
  stepsPerSecond: number;
  /** Wall time / simulated time while running: 1 in real time, k when the machine manages 1/k of it. */
  slowMotion: number;
  /** How simMs was measured: 'cpu' (the wasm step's wall time), 'gpu-timestamp' (GPU timestamp
   *  queries), 'gpu-submit' (from submitting a step to the queue finishing it). */
  simTiming: 'cpu' | 'gpu-timestamp' | 'gpu-submit';
  /** Milliseconds between the last rendered frames (smoothed). */
  frameMs: number;
  /** The orbit camera: eye and target in world space (m), angles in radians; inset: the share of
   *  the view's width on the right that the open panel covers, the picture centred in the rest. */
  camera: { eye: Vec3; target: Vec3; yaw: number; pitch: number; distance: number; ground: number | null; inset: number };
  /** MSAA samples of the renderer. */
  samples: number;
  particles: number;
  constraints: number;
  colors: number;
  solver: SolverKind;
  renderer: string;
  /** The renderer draws on the CPU (no GPU: SwiftShader, llvmpipe...; render/software.ts), by its device's name. */
  softwareRendering: boolean;
  paused: boolean;
  sphereMoving: boolean;
  mode: ShadingMode;
  /** Self-collision in force (the panel's switch; both solvers). */
  selfCollision: boolean;
  /** The thickness it keeps between layers as set, m (the panel's slider; the grid spacing unless
   *  set; a thicker one comes into force over a few frames). */
  thickness: number;
  /** The cloth's strain limit in force (the panel's slider; both solvers; 0 = none). */
  strainLimit: number;
  /** Frame-end strain sweeps run so far (the wasm solver's; null on the gpu solver, which has none):
   *  0 while the solve alone holds the strain limit, growing at 1 substep on a fine cloth. */
  strainSweeps: number | null;
  /** Substeps the last frame took: the wasm solver's, more than the panel's substeps where the cloth
   *  near a mesh collider moves fast (the world's max_substeps, 32); the gpu solver's fixed count. */
  frameSubsteps: number;
  /** Substeps the last frame's motion asked for, whatever max substeps allowed (the wasm solver's;
   *  null on the gpu solver, which takes its substeps as they are): more than frameSubsteps, the
   *  cloth moved faster near a collider (or at the hand) than its substeps hold. */
  frameSubstepsWanted: number | null;
  /** Within the last TOO_FEW_SUBSTEPS_MS of wall time a frame wanted at least TOO_FEW_SUBSTEPS_FACTOR
   *  times the substeps it took: the most one wanted, and what it took (the HUD's badge); null otherwise. */
  tooFewSubsteps: { wanted: number; took: number } | null;
  /** The mesh collider's ridge lifts in force (the panel's switch; the wasm solver's; null on the gpu
   *  solver, which has none, and without a mesh collider). */
  ridgeLifts: boolean | null;
  /** Beyond the contract's list (docs/architecture.md; a superset): where the sphere colliders are, for tools and tests. */
  spheres: { x: number; y: number; z: number; radius: number; moving: boolean }[];
  /** The mesh collider: the scene's own (the bunny) or a user's OBJ or glTF (with its file name); null for none. */
  mesh: { triangles: number; source: 'scene' | 'obj' | 'gltf'; name: string | null; min: Vec3; max: Vec3 } | null;
  /** The air in force, read from the core's world def (both solvers): wind m/s, gust strength, drag
   *  and lift coefficients, air density kg/m³. */
  air: { wind: Vec3; gustStrength: number; drag: number; lift: number; airDensity: number };
}

/** What loading an OBJ as the collider gave (window.weft.loadObj resolves to this). */
export interface ObjResult {
  ok: boolean;
  /** Why the file was refused: the core reader's "name:line: reason". */
  error?: string;
  /** Triangles of the collider as simulated (0 when refused). */
  triangles: number;
}

/** A user's OBJ, kept so a rebuild of the same scene (grid, solver) keeps it as the collider. */
interface UserObj {
  bytes: Uint8Array;
  name: string;
  /** A glTF's triangles (read once), built by createSceneWithMesh instead of parsing OBJ bytes. */
  gltf?: TriangleMesh;
}

export interface Scenario {
  scene: string;
  grid: number;
  solver: SolverKind;
}

/**
 * What the user set on a running world, carried to a rebuild of the same scene (another grid or
 * solver, a collider from a file or back): the live solver settings and the sphere's motion. What
 * the core derives from the grid (the self-collision thickness and reach, from the spacing) is
 * derived afresh by the new world, unless the user set the thickness.
 */
interface KeptSettings {
  settings: Partial<SolverSettings>;
  /** Whether the sphere moves (undefined: the old world had none, the new one's starts as its scene says). */
  sphereMoving?: boolean;
}

export class App implements Grabber {
  readonly camera = new OrbitCamera();
  solver!: ClothSolver;
  mode: ShadingMode;
  paused = false;
  private queue: Promise<void> = Promise.resolve();
  private fps = 0;
  private simMs = 0;
  /** The distance the last width fit left the camera at, and the one it wanted (keepWidthFit). */
  private widthFitted: { distance: number; wanted: number } | null = null;
  /** The last frame that wanted too many more substeps than it took (stats().tooFewSubsteps), and when. */
  private substepsShort: { wanted: number; took: number; at: number } | null = null;
  private frameMs = 0;
  private stepper = new RealTimeStepper(1000 / 60);
  /** Recent frame times and sim times (ms), newest last, for the HUD's graph. */
  readonly history: { frameMs: number; simMs: number }[] = [];
  private lastFrameTime = 0;
  private running = false;
  private stepping = false;
  private grabPlane: { point: Vec3; normal: Vec3 } | null = null;
  private scenario!: Scenario;
  private lastDrawn = '';
  private userObj: UserObj | null = null;
  private meshBounds: { world: WeftWorld; min: Vec3; max: Vec3 } | null = null;
  /** Bumped by anything else that changes the picture (a rebuild, a resize, a new renderer). */
  redraw = 0;

  constructor(
    readonly core: WeftCore,
    public renderer: Renderer,
    private readonly messages: Messages,
    mode: ShadingMode,
  ) {
    this.mode = mode;
    // Zooming in stops short of the cloth: the core's raycast (the GPU solver refreshes the core
    // world's positions every CHECKPOINT_FRAMES, near enough for a zoom limit).
    this.camera.surface = (origin, direction) => this.solver?.world.raycast(origin, direction)?.distance ?? null;
  }

  get current(): Scenario {
    return { ...this.scenario };
  }

  /**
   * Builds (or rebuilds) the cloth without reloading; keeps the old one if the new one fails. A
   * user's OBJ stays the collider while the scene stays the same; another scene brings its own.
   * Another scene is framed and has its own settings; the same one at another grid or on another
   * solver stands where it stood, so the camera the user chose stays, and keeps every setting the
   * user chose (as a reset does): only the cloth's resolution or the solver changes.
   */
  async load(scenario: Scenario): Promise<void> {
    await this.enqueue(async () => {
      const sameScene = this.scenario?.scene === scenario.scene;
      // Only the solver changes, to one this page cannot run: say so, and leave the cloth running
      // (a rebuild would start it over from rest only to run the same wasm solver).
      if (sameScene && scenario.grid === this.scenario.grid && scenario.solver === 'gpu' && !this.renderer.device) {
        this.messages.show(`${GPU_SOLVER_NEEDS_WEBGPU}; the C core (wasm) solver goes on.`, 'warning', 'solver');
        return;
      }
      const obj = sameScene ? this.userObj : null;
      const world = obj ? this.worldWithObj(scenario, obj) : new WeftWorld(this.core, scenario.scene, scenario.grid);
      this.userObj = obj;
      await this.install(world, scenario, sameScene ? this.keptSettings() : null);
      if (!sameScene) this.frameCamera(world);
    });
  }

  /**
   * Makes the OBJ in `bytes` the collider of the current scene (in place of its spheres or mesh)
   * and starts the cloth over from rest above it. A file the core refuses changes nothing: the
   * running world goes on as it was, and the message names the line and the reason.
   */
  loadObj(bytes: Uint8Array, name: string): Promise<ObjResult> {
    return this.loadCollider(async () => {
      const binary = notObjText(bytes, name);
      if (binary) throw new Error(binary);
      return { bytes, name };
    }, name);
  }

  /**
   * The same for a glTF (.glb, or .gltf with embedded buffers): its meshes' triangles become the
   * collider (core/gltf.ts reads them); a file that cannot be read changes nothing either.
   */
  loadGltf(bytes: Uint8Array, name: string): Promise<ObjResult> {
    return this.loadCollider(async () => ({ bytes, name, gltf: await readGltfTriangles(bytes) }), name);
  }

  private loadCollider(read: () => Promise<UserObj>, name: string): Promise<ObjResult> {
    return this.enqueue(async () => {
      let world: WeftWorld;
      let obj: UserObj;
      try {
        obj = await read();
        world = this.worldWithObj(this.scenario, obj);
      } catch (error) {
        const reason = (error as Error).message;
        // A warning, not an error: the page is fine, the file is not.
        this.messages.show(`Could not use ${name} as the collider: ${reason}. The scene keeps running unchanged.`, 'warning', 'obj');
        return { ok: false, error: reason, triangles: 0 };
      }
      this.userObj = obj;
      await this.install(world, this.scenario, this.keptSettings());
      const triangles = world.meshTriangleCount;
      this.messages.show(
        `${name}: ${triangles} triangles, fitted under the cloth as the collider (the panel's "scene's own collider" goes back).`,
        'info',
        'obj',
      );
      return { ok: true, triangles };
    });
  }

  /**
   * After a lost device: a GPU solver that handed the cloth to wasm goes back to the GPU on the new
   * renderer's device, from the cloth's current state (nothing is rebuilt or reset). Returns
   * whether it did.
   */
  resumeOnGpu(): Promise<boolean> {
    return this.enqueue(async () => {
      const device = this.renderer.device;
      if (this.scenario.solver !== 'gpu' || this.solver.kind !== 'wasm' || !device) return false;
      const world = this.solver.world;
      try {
        const solver = await this.createGpuSolver({ world, gpuDevice: device, startFrame: this.solver.frame });
        // The old solver owns the same world: let it go without destroying the world.
        this.solver.release();
        this.solver = solver;
        this.messages.clear('gpu-solver');
        return true;
      } catch (error) {
        this.messages.show(
          `The GPU solver could not start again (${(error as Error).message}); the wasm solver goes on.`,
          'warning',
          'solver',
        );
        return false;
      } finally {
        this.renderer.setCloth(world);
        this.redraw++;
      }
    });
  }

  /** Back to the scene's own colliders (without a user's file it says there is nothing to undo). */
  async clearObj(): Promise<void> {
    if (!this.userObj) {
      this.messages.show(
        'No collider from a file is loaded: the scene runs with its own colliders already. Drop an .obj, .glb or .gltf on the page (or use "collider from file…") to replace it.',
        'info',
        'obj',
      );
      return;
    }
    const scenario = this.current;
    await this.enqueue(() => (this.userObj = null));
    await this.load(scenario);
    this.messages.clear('obj');
  }

  private worldWithObj(scenario: Scenario, obj: UserObj): WeftWorld {
    return new WeftWorld(this.core, scenario.scene, scenario.grid, () =>
      obj.gltf
        ? createSceneWithMesh(this.core, scenario.scene, scenario.grid, obj.gltf, obj.name)
        : createSceneWithObj(this.core, scenario.scene, scenario.grid, obj.bytes, obj.name),
    );
  }

  /** The user's settings on the running world, for a rebuild of the same scene. */
  private keptSettings(): KeptSettings {
    const { ridgeLifts, thickness, ...settings } = this.solver.settings();
    const world = this.solver.world;
    return {
      // Ridge lifts read false without a mesh collider: only a mesh collider's switch is the user's;
      // the thickness the world was built with follows the grid (the spacing): only a set one is.
      settings: {
        ...settings,
        ...(world.meshTriangleCount > 0 ? { ridgeLifts } : {}),
        ...(thickness !== world.builtThickness ? { thickness } : {}),
      },
      sphereMoving: this.hasSphere ? this.sphereMoving : undefined,
    };
  }

  /**
   * Puts a freshly built world behind the requested solver (falling back to wasm, saying why); with
   * `kept`, the user's settings go onto it first (a solver starts from the world's settings).
   */
  private async install(world: WeftWorld, scenario: Scenario, kept: KeptSettings | null = null): Promise<void> {
    if (kept) {
      try {
        applySolverSettings(world, kept.settings);
      } catch (error) {
        this.messages.show(`Some settings could not be kept: ${(error as Error).message}.`, 'warning', 'settings');
      }
    }
    let solver: ClothSolver = new WasmSolver(world);
    let kind = scenario.solver;
    if (kind === 'gpu') {
      if (!this.renderer.device) {
        this.messages.show(`${GPU_SOLVER_NEEDS_WEBGPU}; running the C core (wasm) solver.`, 'warning', 'solver');
        kind = 'wasm';
      } else {
        try {
          solver = await this.createGpuSolver({ world, gpuDevice: this.renderer.device });
          this.messages.clear('solver');
        } catch (error) {
          this.messages.show(`The GPU solver failed to start (${(error as Error).message}); running the wasm solver.`, 'warning', 'solver');
          kind = 'wasm';
        }
      }
    } else this.messages.clear('solver');
    this.solver?.release();
    this.solver?.destroy();
    this.solver = solver;
    if (kept?.sphereMoving !== undefined && this.hasSphere) this.solver.setSphereMoving(kept.sphereMoving);
    const sceneChanged = this.scenario?.scene !== scenario.scene;
    this.scenario = { ...scenario, solver: kind };
    // The new solver's steps are measured afresh ("measuring" until its first): the old one's
    // figure would otherwise show under the new one's name (a GPU's 30 ms as "wasm, wall").
    this.simMs = 0;
    this.substepsShort = null;
    this.grabPlane = null;
    this.renderer.setCloth(world);
    this.redraw++;
    this.onRebuilt?.(sceneChanged);
  }

  /** The GPU solver, its fallback warnings on the page. */
  private createGpuSolver(context: SolverContext): Promise<ClothSolver> {
    return createGpuSolver({ ...context, warn: (text) => this.messages.show(text, 'warning', 'gpu-solver') });
  }

  /** Called after every rebuild: the panel reads the settings back (another scene's own, or the
   *  user's kept); `sceneChanged` when the world is another scene's (its settings all its own). */
  onRebuilt: ((sceneChanged: boolean) => void) | null = null;

  /** Points the camera at the cloth's rest pose and the colliders. */
  private frameCamera(world: WeftWorld): void {
    const rest = world.restPositions();
    const min = [Infinity, Infinity, Infinity],
      max = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < world.particleCount; i++) {
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k], rest[i * 4 + k]);
        max[k] = Math.max(max[k], rest[i * 4 + k]);
      }
    }
    // A mesh collider taller than the cloth (the flag's pole) is in the picture too.
    const mesh = world.meshCollider();
    for (let i = 0; mesh && i < mesh.vertices.length; i += 4) max[1] = Math.max(max[1], mesh.vertices[i + 1]);
    const ground = world.groundHeight ?? min[1];
    // Pinned particles are where the cloth will hang from: look at their depth (hang, flag).
    let pinnedZ = 0,
      pinned = 0;
    for (let i = 0; i < world.particleCount; i++) {
      if (rest[i * 4 + 3] === 0) ((pinnedZ += rest[i * 4 + 2]), pinned++);
    }
    const extent = Math.max(max[0] - min[0], max[2] - min[2], max[1] - ground, 0.5);
    // Pins that the scene lowers (fold) take the cloth's top down with them: look halfway between
    // the start's centre and the end's, backed off as much, so both are in view.
    const { velocity, motionTime } = world.pinMotion;
    const endTop = Math.max(ground, max[1] + Math.min(0, velocity.y) * motionTime);
    const lowered = (max[1] - endTop) / 4;
    this.camera.target = {
      x: (min[0] + max[0]) / 2,
      y: ground + (max[1] - ground) * 0.5 - lowered,
      z: pinned ? pinnedZ / pinned : (min[2] + max[2]) / 2,
    };
    // A portrait view (a phone) is narrower than it is tall: back off so the width still fits.
    this.camera.distance = (extent + lowered) * 1.85 * Math.max(1, PORTRAIT_ASPECT / this.camera.freeAspect);
    this.camera.yaw = -0.4;
    this.camera.pitch = 0.22;
    this.updateCameraLimits();
  }

  /**
   * The share of the view's width on the right the panel covers (OrbitCamera.inset; 0 when it is
   * closed or too wide). The camera backs off or comes in as setAspect's does for the free part's
   * new shape: the panel, made after the first scene was framed, opened or closed, keeps the
   * picture's width in view as that framing would.
   */
  setViewInset(share: number): void {
    const inset = share > 0 && share <= MAX_VIEW_INSET ? share : 0;
    if (inset === this.camera.inset) return;
    this.keepWidthFit(() => (this.camera.inset = inset));
  }

  /**
   * The view's new shape (width / height). The camera backs off (or comes in) as far as the framing
   * would for that shape: a window turned to portrait (a phone turned) keeps the picture's width in
   * view, and turned back gets the distance it had, the user's own zoom kept in both.
   */
  setAspect(aspect: number): void {
    this.keepWidthFit(() => (this.camera.aspect = aspect));
  }

  /**
   * Changes the view's free part (`change`), the distance scaled by the framing's width fit of it
   * (frameCamera's). The scaled distance is kept as the fit wants it even where the camera's limits
   * cut it (40 m for a window a few pixels wide): scaled back, the view returns to the distance it
   * had, unless the user moved the camera in between.
   */
  private keepWidthFit(change: () => void): void {
    const widthFit = () => Math.max(1, PORTRAIT_ASPECT / this.camera.freeAspect);
    const before = widthFit();
    change();
    const scale = widthFit() / before;
    if (scale !== 1) {
      const c = this.camera;
      const wanted = (this.widthFitted?.distance === c.distance ? this.widthFitted.wanted : c.distance) * scale;
      c.distance = wanted;
      c.constrain();
      this.widthFitted = { distance: c.distance, wanted };
    }
    this.redraw++;
  }

  /** The ground and the colliders the eye stays out of (spheres move: refreshed every frame). */
  private updateCameraLimits(): void {
    const world = this.solver.world;
    this.camera.ground = world.groundHeight;
    const obstacles: CameraObstacle[] = this.solver.spheres().map((s) => ({ center: s.center, radius: s.radius }));
    const mesh = this.meshStats(world);
    if (mesh) obstacles.push({ min: mesh.min, max: mesh.max });
    this.camera.obstacles = obstacles;
    this.camera.constrain();
  }

  /**
   * The cloth where it is now as Wavefront OBJ text (O, the toolbar's OBJ button, window.weft.obj()):
   * the core's writer, the CLI's files' text. On the gpu solver its positions are read back into
   * the core world first (as a pick does). The first line names the solver's frame and its time
   * (whole frames of frameDt), not the core world's: the GPU solver's, or its wasm fallback's,
   * which counts on from the GPU's frames.
   */
  clothObj(): Promise<string> {
    return this.enqueue(async () => {
      const positions = await this.solver.positions();
      const world = this.solver.world;
      if (this.solver.kind !== 'wasm') world.positions().set(positions);
      const frame = this.solver.frame;
      return world.objText('cloth', { frame, time: frame * world.frameDt });
    });
  }

  /** Frames the cloth where it is now (F, a double-click, the panel's button), from the current side. */
  async frameCloth(): Promise<void> {
    const positions = await this.enqueue(() => this.solver.positions());
    const min = { x: Infinity, y: Infinity, z: Infinity },
      max = { x: -Infinity, y: -Infinity, z: -Infinity };
    for (let i = 0; i < positions.length; i += 4) {
      const p = { x: positions[i], y: positions[i + 1], z: positions[i + 2] };
      if (![p.x, p.y, p.z].every(Number.isFinite)) continue;
      for (const k of ['x', 'y', 'z'] as const) ((min[k] = Math.min(min[k], p[k])), (max[k] = Math.max(max[k], p[k])));
    }
    if (!Number.isFinite(min.x)) return;
    this.updateCameraLimits();
    this.camera.frame(min, max, { pitch: Math.min(0.9, Math.max(0.15, this.camera.pitch)) });
  }

  /** Runs work after every step already queued (steps, rebuilds, resets never interleave). */
  private enqueue<T>(work: () => Promise<T> | T): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Simulates exactly n frames (paused or not) and resolves when they are done. */
  step(frames: number): Promise<void> {
    return this.enqueue(() => this.simulate(frames));
  }

  /** Runs work between frames (after every step, rebuild or reset already queued); record.ts. */
  exclusive<T>(work: () => Promise<T> | T): Promise<T> {
    return this.enqueue(work);
  }

  /** Called after every simulated frame while set (a recording, record.ts); frames then go one by one. */
  afterFrame: (() => void) | null = null;

  private async simulate(frames: number): Promise<void> {
    if (frames <= 0) return;
    const start = performance.now();
    // While recording (record.ts) frames go one by one, each handed to the recorder.
    if (this.afterFrame) {
      for (let i = 0; i < frames; i++) {
        await this.solver.step(1);
        this.afterFrame?.();
      }
    } else await this.solver.step(frames);
    // The frame number alone does not tell the picture: after reset() and step(n) with other
    // settings the same frame holds another state.
    this.redraw++;
    // A GPU solver measures its own work (timestamps, or submit to completion); the wasm step is
    // synchronous, so its wall time is its cost.
    const measured = this.solver.measuredMs?.();
    const now = performance.now();
    const ms = measured ?? (now - start) / frames;
    this.simMs = this.simMs === 0 ? ms : this.simMs * 0.8 + ms * 0.2;
    this.noteSubsteps(now);
  }

  /** Keeps the last frame that wanted too many more substeps than it took (the wasm solver's; the most wanted while it lasts). */
  private noteSubsteps(now: number): void {
    if (this.solver.kind !== 'wasm') return;
    const world = this.solver.world;
    const wanted = world.frameSubstepsWanted,
      took = world.frameSubsteps;
    if (wanted < TOO_FEW_SUBSTEPS_FACTOR * took) return;
    const last = this.substepsShort;
    const lasting = last !== null && now - last.at < TOO_FEW_SUBSTEPS_MS;
    this.substepsShort = lasting && last.wanted > wanted ? { ...last, at: now } : { wanted, took, at: now };
  }

  /**
   * Puts the cloth (and the spheres) back where the scene starts. The sphere's motion is the user's
   * choice (S, the panel) like every live setting, so a reset keeps it: the core's reset would start
   * a sphere that S had stopped, behind a panel that still says it stands.
   */
  reset(): Promise<void> {
    return this.enqueue(async () => {
      const sphereMoving = this.sphereMoving;
      this.solver.release();
      this.grabPlane = null;
      await this.solver.reset();
      this.substepsShort = null;
      this.redraw++;
      if (this.hasSphere) this.solver.setSphereMoving(sphereMoving);
      this.messages.clear('simulation');
    });
  }

  setSphereMoving(moving: boolean): void {
    this.solver.setSphereMoving(moving);
  }

  /** Whether the scene has a sphere (S and the panel's "sphere moves" act only then). */
  get hasSphere(): boolean {
    return this.solver.spheres().length > 0;
  }

  get sphereMoving(): boolean {
    return this.solver.spheres().some((sphere) => sphere.moving);
  }

  stats(): Stats {
    const world = this.solver.world;
    const c = this.camera;
    const short = this.solver.kind === 'wasm' ? this.substepsShort : null;
    const settings = this.solver.settings();
    return {
      frame: this.solver.frame,
      fps: this.fps,
      simMs: this.simMs,
      stepsPerSecond: this.paused ? 0 : this.stepper.stepsPerSecond,
      slowMotion: this.paused ? 1 : this.stepper.slowMotion,
      simTiming: this.solver.timingSource?.() ?? 'cpu',
      frameMs: this.frameMs,
      camera: { eye: c.eye, target: { ...c.target }, yaw: c.yaw, pitch: c.pitch, distance: c.distance, ground: c.ground, inset: c.inset },
      samples: this.renderer.samples,
      particles: world.particleCount,
      constraints: world.constraintCount,
      colors: world.colorCount,
      solver: this.solver.kind,
      renderer: this.renderer.kind,
      softwareRendering: this.renderer.software,
      paused: this.paused,
      sphereMoving: this.sphereMoving,
      mode: this.mode,
      selfCollision: settings.selfCollision,
      thickness: settings.thickness,
      strainLimit: settings.strainLimit,
      strainSweeps: this.solver.kind === 'wasm' ? world.strainSweeps : null,
      frameSubsteps: this.solver.kind === 'wasm' ? world.frameSubsteps : settings.substeps,
      frameSubstepsWanted: this.solver.kind === 'wasm' ? world.frameSubstepsWanted : null,
      tooFewSubsteps: short && performance.now() - short.at < TOO_FEW_SUBSTEPS_MS ? { wanted: short.wanted, took: short.took } : null,
      ridgeLifts: this.solver.kind === 'wasm' && world.meshTriangleCount > 0 ? world.meshRidgeLifts : null,
      spheres: this.solver.spheres().map((s) => ({ ...s.center, radius: s.radius, moving: s.moving })),
      mesh: this.meshStats(world),
      air: {
        wind: world.wind,
        gustStrength: world.air.gustStrength,
        drag: world.air.drag,
        lift: world.air.lift,
        airDensity: world.air.airDensity,
      },
    };
  }

  private meshStats(world: WeftWorld): Stats['mesh'] {
    const mesh = world.meshCollider();
    if (!mesh) return null;
    // The collider is static: its bounds are computed once per world (stats() runs every frame).
    if (this.meshBounds?.world !== world) {
      const min = [Infinity, Infinity, Infinity],
        max = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < mesh.vertices.length; i += 4) {
        for (let k = 0; k < 3; k++) {
          min[k] = Math.min(min[k], mesh.vertices[i + k]);
          max[k] = Math.max(max[k], mesh.vertices[i + k]);
        }
      }
      this.meshBounds = { world, min: { x: min[0], y: min[1], z: min[2] }, max: { x: max[0], y: max[1], z: max[2] } };
    }
    const { min, max } = this.meshBounds;
    const triangles = world.meshTriangleCount;
    return this.userObj
      ? { triangles, source: this.userObj.gltf ? 'gltf' : 'obj', name: this.userObj.name, min, max }
      : { triangles, source: 'scene', name: null, min, max };
  }

  frameInput(): FrameInput {
    return {
      source: this.solver.renderSource(),
      camera: this.camera.matrices(),
      spheres: this.solver.spheres(),
      mode: this.mode,
      groundHeight: this.solver.world.groundHeight,
    };
  }

  capture(): Promise<string> {
    return this.enqueue(() => this.renderer.capture(this.frameInput()));
  }

  // ---- grab (Grabber) ----
  async begin(ndcX: number, ndcY: number): Promise<boolean> {
    const { origin, direction } = this.camera.ray(ndcX, ndcY);
    const hit = await this.solver.pick(origin, direction);
    if (!hit) return false;
    const point = add(origin, scale(direction, hit.distance));
    // Dragging happens in the plane through the hit point that faces the camera.
    this.grabPlane = { point, normal: this.camera.forward() };
    this.solver.grab(hit.particle, point);
    // Held while paused, the cloth stays put until it runs: say so, or the grab looks broken.
    if (this.paused)
      this.messages.show('Paused: the cloth follows the hand when it runs (Space) or steps (. or the step button).', 'info', 'grab');
    return true;
  }

  move(ndcX: number, ndcY: number): void {
    if (!this.grabPlane) return;
    const { origin, direction } = this.camera.ray(ndcX, ndcY);
    const denominator = dot(direction, this.grabPlane.normal);
    if (Math.abs(denominator) < 1e-6) return;
    const t = dot(sub(this.grabPlane.point, origin), this.grabPlane.normal) / denominator;
    if (t <= 0) return;
    this.solver.grabMove(add(origin, scale(direction, t)));
  }

  end(): void {
    this.grabPlane = null;
    this.solver.release();
  }

  // ---- frame loop ----
  start(): void {
    if (this.running) return;
    this.running = true;
    const frame = (now: number) => {
      if (!this.running) return;
      this.tick(now);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  stop(): void {
    this.running = false;
  }

  onFrame: ((now: number) => void) | null = null;

  private tick(now: number): void {
    let dt = 0;
    if (this.lastFrameTime) {
      dt = now - this.lastFrameTime;
      if (dt > 0) {
        this.fps = this.fps === 0 ? 1000 / dt : this.fps * 0.9 + (1000 / dt) * 0.1;
        this.frameMs = this.frameMs === 0 ? dt : this.frameMs * 0.9 + dt * 0.1;
        this.history.push({ frameMs: dt, simMs: this.simMs });
        if (this.history.length > 120) this.history.shift();
      }
    }
    this.lastFrameTime = now;
    // Real time: the frame's wall time buys fixed steps (at most a few); a solver still busy with
    // the last ones (the GPU) gets them when it is done; what cannot be caught up is slow motion.
    this.stepper.stepMs = this.solver.world.frameDt * 1000;
    if (this.paused) this.stepper.pause();
    else {
      const steps = this.stepper.advance(dt, this.stepping);
      if (steps > 0) {
        this.stepping = true;
        this.enqueue(() => (this.paused ? undefined : this.simulate(steps)))
          .catch((error) => this.fail(error))
          .finally(() => (this.stepping = false));
      }
    }
    this.updateCameraLimits();
    // Paused and untouched: the picture is the same, so the GPU (or SwiftShader) gets to rest.
    const c = this.camera;
    const key = `${this.solver.frame}|${this.solver.world.grabbed}|${c.yaw}|${c.pitch}|${c.distance}|${c.target.x},${c.target.y},${c.target.z}|${c.aspect}|${c.inset}|${this.mode}|${this.renderer.kind}|${this.redraw}`;
    if (key !== this.lastDrawn) {
      this.lastDrawn = key;
      try {
        this.renderer.draw(this.frameInput());
      } catch (error) {
        this.fail(error);
      }
    }
    this.onFrame?.(now);
  }

  /** Called when the app pauses itself (a simulation error), so the panel's "paused" box follows. */
  onPausedByError: (() => void) | null = null;

  private fail(error: unknown): void {
    this.paused = true;
    this.onPausedByError?.();
    this.messages.show(
      `Simulation stopped: ${(error as Error)?.message ?? error}. Press R to reset, then Space to run.`,
      'error',
      'simulation',
    );
  }
}

// A core world seen from JavaScript: scalar calls go straight to the exports, arrays are typed-array
// views on the module's memory (zero copy). A view is made lazily and re-made whenever
// memory.buffer changed identity: growing memory (creating another world) detaches every old view.
import { CONSTRAINT_LAYOUT } from './layout';
import type { WeftCore, WeftExports } from './wasm';

export const STRETCH = 0;
export const SHEAR = 1;
export const BEND = 2;

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

export interface SphereState {
  center: Vec3;
  radius: number;
  moving: boolean;
}

/** Views on the core's mesh collider: float4 vertices and pseudo-normals, 3 indices per triangle. */
export interface MeshColliderArrays {
  vertices: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
}

/** The whole mesh collider as the GPU solver uploads it (weft_mesh_collider_view in weft.h). */
export interface MeshColliderGrid extends MeshColliderArrays {
  faceNormals: Float32Array; // float4 per triangle: n, -n·v0
  edgeNormals: Float32Array; // 3 float4 per triangle
  triangleSpheres: Float32Array; // float4 per triangle
  spheres: Float32Array; // float4 per bounding sphere
  cellStart: Uint32Array; // cell count + 1
  cellTriangles: Uint32Array;
  cellFlags: Uint8Array; // one per cell
  origin: Vec3; // m
  cellSize: number; // m
  dims: [number, number, number];
  closed: boolean;
}

/** The air of weft_world_def (weft.h): drag and lift coefficients, kg/m³, gusts as a fraction of
 *  the wind speed with their seed; `active` = air density > 0 and drag or lift > 0. */
export interface AirSettings {
  drag: number;
  lift: number;
  airDensity: number;
  gustStrength: number;
  gustSeed: number;
  active: boolean;
}

/** weft_self_collision_view: lengths in m; tableSize buckets (a power of two ≥ 2 × particles). */
export interface SelfCollisionView {
  enabled: boolean;
  thickness: number;
  reach: number;
  /** The CPU's lists' widest reach; the GPU's lists reach this far. */
  largestReach: number;
  restDistance: number;
  maxStep: number;
  tableSize: number;
}

type TypedArrayConstructor = Float32ArrayConstructor | Uint32ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor;

export class WeftWorld {
  readonly width: number;
  readonly height: number;
  readonly particleCount: number;
  readonly indexCount: number;
  readonly constraintCount: number;
  readonly colorCount: number;
  readonly frameDt: number;
  /** The thickness the world was built with (its scene's, or the grid spacing): m. */
  readonly builtThickness: number;
  private readonly exports: WeftExports;
  private handle: number;
  private viewBuffer: ArrayBuffer | null = null;
  private views = new Map<string, ArrayBufferView>();

  /**
   * Builds the named scene at grid × grid; throws with the core's message on bad input. With
   * `create`, that makes the core world instead (returns its handle or throws), e.g. createSceneWithObj.
   */
  constructor(
    readonly core: WeftCore,
    readonly scene: string,
    readonly grid: number,
    create?: () => number,
  ) {
    this.exports = core.exports;
    if (create) this.handle = create();
    else {
      core.writeString(scene);
      this.handle = this.exports.world_create_scene(grid);
    }
    if (!this.handle) throw new Error(`cannot create scene "${scene}" at grid ${grid}: ${core.lastError() || 'unknown error'}`);
    const e = this.exports;
    this.width = e.world_grid_width(this.handle);
    this.height = e.world_grid_height(this.handle);
    this.particleCount = e.world_particle_count(this.handle);
    this.indexCount = e.world_index_count(this.handle);
    this.constraintCount = e.world_constraint_count(this.handle);
    this.colorCount = e.world_color_count(this.handle);
    this.frameDt = e.world_frame_dt(this.handle);
    this.builtThickness = this.thickness;
  }

  /** The core's handle of this world (for boundary calls that take it, e.g. recording a .glb). */
  get coreHandle(): number {
    return this.handle;
  }

  get alive(): boolean {
    return this.handle !== 0;
  }

  /**
   * Wavefront OBJ text of the cloth as it is now, or of the colliders (the core's writer,
   * src/obj_writer.c: the CLI's `run --export DIR` files). `at`: the frame and time (s) the cloth's
   * first line names, for a solver that runs the cloth elsewhere (the GPU solver); else the world's.
   */
  objText(what: 'cloth' | 'colliders', at?: { frame: number; time: number }): string {
    const size = this.exports.obj_text(this.handle, what === 'cloth' ? 0 : 1, at?.frame ?? -1, at?.time ?? 0);
    try {
      if (size < 0) throw new Error(`OBJ text: ${this.core.lastError() || 'failed'}`);
      return new TextDecoder().decode(new Uint8Array(this.core.memory, this.exports.obj_text_bytes(), size));
    } finally {
      this.exports.obj_text_free();
    }
  }

  destroy(): void {
    if (this.handle) this.exports.world_destroy(this.handle);
    this.handle = 0;
    this.views.clear();
  }

  private check(result: number, what: string): void {
    if (result !== 0) throw new Error(`${what}: ${this.core.lastError() || this.core.readString(this.exports.result_string(result))}`);
  }

  // ---- stepping ----
  /** Simulates n frames of the scene's frame time. */
  stepFrames(frames: number): void {
    this.check(this.exports.world_step_frames(this.handle, frames), 'step');
  }
  reset(): void {
    this.exports.world_reset(this.handle);
  }
  updateRenderData(): void {
    this.exports.world_update_render_data(this.handle);
  }
  get frame(): number {
    return this.exports.world_frame(this.handle);
  }
  get time(): number {
    return this.exports.world_time(this.handle);
  }
  /** Substeps run since creation or reset (the first one is a half kick). */
  get substepsRun(): number {
    return this.exports.world_substeps_run(this.handle);
  }
  /** Substeps the last frame took: substeps, or more where the cloth near a mesh collider moved fast (max_substeps). */
  get frameSubsteps(): number {
    return this.exports.world_frame_substeps(this.handle);
  }
  /** Substeps the last frame's motion asked for, whatever max_substeps allowed (weft_world_frame_substeps_wanted). */
  get frameSubstepsWanted(): number {
    return this.exports.world_frame_substeps_wanted(this.handle);
  }
  maxStretch(): number {
    return this.exports.world_max_stretch(this.handle);
  }
  isFinite(): boolean {
    return this.exports.world_is_finite(this.handle) !== 0;
  }
  stateHash(): bigint {
    return BigInt.asUintN(64, this.exports.world_state_hash(this.handle));
  }

  // ---- settings ----
  get substeps(): number {
    return this.exports.world_get_substeps(this.handle);
  }
  /** weft_world_def.max_substeps: the most substeps a fast frame near a collider or under a fast hand may take. */
  get maxSubsteps(): number {
    return this.exports.world_get_max_substeps(this.handle);
  }
  get iterations(): number {
    return this.exports.world_get_iterations(this.handle);
  }
  get damping(): number {
    return this.exports.world_get_damping(this.handle);
  }
  get drag(): number {
    return this.exports.world_get_drag(this.handle);
  }
  get wind(): Vec3 {
    const out = new Float32Array(this.core.memory, this.exports.world_get_wind(this.handle), 3);
    return { x: out[0], y: out[1], z: out[2] };
  }
  /** The air (weft_world_def): coefficients, density and gusts, and whether it acts at all. */
  get air(): AirSettings {
    const out = new Float32Array(this.core.memory, this.exports.world_air(this.handle), 6);
    return { drag: out[0], lift: out[1], airDensity: out[2], gustStrength: out[3], gustSeed: out[4], active: out[5] !== 0 };
  }
  setAir(air: Partial<Omit<AirSettings, 'active'>>): void {
    const a = { ...this.air, ...Object.fromEntries(Object.entries(air).filter(([, v]) => v !== undefined)) };
    this.check(this.exports.world_set_air(this.handle, a.drag, a.lift, a.airDensity, a.gustStrength, a.gustSeed >>> 0), 'air');
  }
  /** The wind (gusts included) that a substep starting at `time` s feels (weft_world_air_wind). */
  airWind(time: number): Vec3 {
    const out = new Float32Array(this.core.memory, this.exports.world_air_wind(this.handle, time), 3);
    return { x: out[0], y: out[1], z: out[2] };
  }
  /** The triangles' air forces on the current state in the wind at `time` (weft_world_air_forces): 4 floats a triangle, a copy. */
  airForces(time: number): Float32Array {
    const ptr = this.exports.world_air_forces(this.handle, time);
    if (!ptr) throw new Error(`air forces: ${this.core.lastError()}`);
    return new Float32Array(this.core.memory, ptr, (4 * this.exports.world_index_count(this.handle)) / 3).slice();
  }
  compliance(type: number): number {
    return this.exports.world_get_compliance(this.handle, type);
  }
  /** The most substeps a fast frame near a collider or under a fast hand may take
   *  (weft_world_def.max_substeps; at or below the substeps, every frame takes the substeps). */
  setMaxSubsteps(maxSubsteps: number): void {
    this.check(this.exports.world_set_max_substeps(this.handle, maxSubsteps), 'max substeps');
  }
  setSubsteps(substeps: number, iterations: number): void {
    this.check(this.exports.world_set_substeps(this.handle, substeps, iterations), 'substeps/iterations');
  }
  setDamping(damping: number): void {
    this.check(this.exports.world_set_damping(this.handle, damping), 'damping');
  }
  setDrag(drag: number): void {
    this.check(this.exports.world_set_drag(this.handle, drag), 'drag');
  }
  setWind(wind: Vec3): void {
    this.check(this.exports.world_set_wind(this.handle, wind.x, wind.y, wind.z), 'wind');
  }
  /// A lower compliance on a cloth that has stepped is worked down to (weft_world_set_compliance);
  /// `gradually` overrides that rule for a solver whose cloth steps outside this world (the GPU's).
  setCompliance(type: number, compliance: number, gradually?: boolean): void {
    const rule = gradually === undefined ? -1 : gradually ? 1 : 0;
    this.check(this.exports.world_set_compliance(this.handle, type, compliance, rule), 'compliance');
  }
  /// The compliance a type's constraints have now: its setting, or more while a lower one is worked down to.
  complianceNow(type: number): number {
    return this.exports.world_compliance_now(this.handle, type);
  }
  /// One frame of the compliances' ramp (the core's step does it itself); true when the constraint
  /// records changed.
  advanceComplianceRamp(): boolean {
    return this.exports.world_advance_compliance_ramp(this.handle) !== 0;
  }
  constraintCountByType(type: number): number {
    return this.exports.world_constraint_count_by_type(this.handle, type);
  }

  /** The self-collision settings in force (weft_self_collision_view in weft.h). */
  get selfCollision(): SelfCollisionView {
    const out = new Float32Array(this.core.memory, this.exports.world_self_collision(this.handle), 7);
    return {
      enabled: out[0] !== 0,
      thickness: out[1],
      reach: out[2],
      largestReach: out[6],
      restDistance: out[3],
      maxStep: out[4],
      tableSize: out[5],
    };
  }
  /** The cloth's thickness, live (weft_world_set_thickness: m, [0, 1); 0 = the grid spacing): a
   *  thicker one on a cloth that has stepped is worked up to; `gradually` overrides that rule, as
   *  setCompliance's. selfCollision.thickness is the one in force. */
  setThickness(thickness: number, gradually?: boolean): void {
    const rule = gradually === undefined ? -1 : gradually ? 1 : 0;
    this.check(this.exports.world_set_thickness(this.handle, thickness, rule), 'thickness');
  }
  /** The thickness set, m (weft_world_thickness). */
  get thickness(): number {
    return this.exports.world_thickness(this.handle);
  }
  /** One frame of the thickness's ramp (the core's step does it itself); true when it changed. */
  advanceThicknessRamp(): boolean {
    return this.exports.world_advance_thickness_ramp(this.handle) !== 0;
  }
  setSelfCollision(on: boolean): void {
    this.check(this.exports.world_set_self_collision(this.handle, on ? 1 : 0), 'self-collision');
  }
  /** Ridge lifts of the mesh collider (weft_world_set_mesh_ridge_lifts; on by default, absent from the GPU
   *  solver; false without a mesh collider). */
  get meshRidgeLifts(): boolean {
    return this.exports.world_mesh_ridge_lifts(this.handle) !== 0;
  }
  setMeshRidgeLifts(on: boolean): void {
    this.check(this.exports.world_set_mesh_ridge_lifts(this.handle, on ? 1 : 0), 'mesh ridge lifts');
  }
  /** The pins' scripted path: pinned particles move from rest at `velocity` for `motionTime` s (0 = never). */
  get pinMotion(): { velocity: Vec3; motionTime: number } {
    const out = new Float32Array(this.core.memory, this.exports.world_pin_motion(this.handle), 4);
    return { velocity: { x: out[0], y: out[1], z: out[2] }, motionTime: out[3] };
  }

  /** Ground plane height in m, or null when the scene has no ground. */
  get groundHeight(): number | null {
    const height = this.exports.world_ground_height(this.handle);
    return Number.isNaN(height) ? null : height;
  }

  // ---- spheres ----
  get sphereCount(): number {
    return this.exports.world_sphere_count(this.handle);
  }
  sphere(index: number): SphereState {
    const ptr = this.exports.world_get_sphere(this.handle, index);
    if (!ptr) throw new Error(`no sphere ${index}`);
    const out = new Float32Array(this.core.memory, ptr, 5);
    return { center: { x: out[0], y: out[1], z: out[2] }, radius: out[3], moving: out[4] !== 0 };
  }
  /**
   * The scripted motion of sphere `index`: centre + amplitude · sin(2π frequency t), with t = `time`
   * (s of motion so far) now.
   */
  sphereMotion(index: number): { base: Vec3; amplitude: Vec3; frequency: number; movingAtStart: boolean; time: number } {
    const ptr = this.exports.world_sphere_motion(this.handle, index);
    if (!ptr) throw new Error(`no sphere ${index}`);
    const out = new Float32Array(this.core.memory, ptr, 9);
    return {
      base: { x: out[6], y: out[7], z: out[8] },
      amplitude: { x: out[0], y: out[1], z: out[2] },
      frequency: out[3],
      movingAtStart: out[4] !== 0,
      time: out[5],
    };
  }
  /** weft_world_strain_limit: the cloth's strain limit (0 = none). */
  get strainLimit(): number {
    return this.exports.world_strain_limit(this.handle);
  }
  setStrainLimit(strainLimit: number): void {
    this.check(this.exports.world_set_strain_limit(this.handle, strainLimit), 'strain limit');
  }
  /** weft_world_stretch_limit: 1 + the cloth's strain limit (Infinity for none). */
  get stretchLimit(): number {
    return this.exports.world_stretch_limit(this.handle);
  }
  /** weft_world_strain_sweeps: sweeps the frame-end strain limit has run since creation or reset
   *  (0 while the solve alone holds the limit; the core's own steps only, not the GPU solver's). */
  get strainSweeps(): number {
    return this.exports.world_strain_sweeps(this.handle);
  }
  /** Gravity (m/s²), speed clamp (m/s, 0 none), friction and collision margin (m) in force. */
  get contactSettings(): { gravity: Vec3; maxSpeed: number; friction: number; collisionMargin: number } {
    const out = new Float32Array(this.core.memory, this.exports.world_settings(this.handle), 6);
    return { gravity: { x: out[0], y: out[1], z: out[2] }, maxSpeed: out[3], friction: out[4], collisionMargin: out[5] };
  }
  setSphereMoving(index: number, moving: boolean): void {
    this.check(this.exports.world_set_sphere_moving(this.handle, index, moving ? 1 : 0), 'sphere motion');
  }

  // ---- grab ----
  /** The particle under the ray and the ray parameter of the hit, or null. */
  raycast(origin: Vec3, direction: Vec3): { particle: number; distance: number } | null {
    const particle = this.exports.world_raycast(this.handle, origin.x, origin.y, origin.z, direction.x, direction.y, direction.z);
    if (particle < 0) return null;
    const distance = new Float32Array(this.core.memory, this.exports.world_out(this.handle), 1)[0];
    return { particle, distance };
  }
  grab(particle: number, target: Vec3): void {
    this.check(this.exports.world_grab(this.handle, particle, target.x, target.y, target.z), 'grab');
  }
  grabMove(target: Vec3): void {
    this.check(this.exports.world_grab_move(this.handle, target.x, target.y, target.z), 'grab move');
  }
  release(): void {
    this.exports.world_release(this.handle);
  }
  get grabbed(): number {
    return this.exports.world_grabbed(this.handle);
  }
  /** weft_world_tether_scale: the factor on every tether's limit in the last frame stepped (after
   *  a release it comes back to 1 at WEFT_TETHER_RELAX_RATE a second). */
  get tetherScale(): number {
    return this.exports.world_tether_scale(this.handle);
  }
  /** weft_world_grab_step: where the hand holds the grabbed particle at the end of a frame of dt s
   *  that begins with it at `held` and the pins' clock at pinTime s (towards the target, within the
   *  cloth's reach, at most grab_speed × dt), and the tether scale there. */
  grabStep(held: Vec3, pinTime: number, dt: number): { end: Vec3; tetherScale: number } {
    const out = new Float32Array(this.core.memory, this.exports.world_grab_step(this.handle, held.x, held.y, held.z, pinTime, dt), 4);
    return { end: { x: out[0], y: out[1], z: out[2] }, tetherScale: out[3] };
  }
  /** weft_world_grab_position_at: where the hand aims in a frame that starts with the pins' clock at
   *  pinTime s (the target, pulled back to the cloth's reach from its pins). */
  grabPosition(pinTime: number): Vec3 {
    const out = new Float32Array(this.core.memory, this.exports.world_grab_position_at(this.handle, pinTime), 3);
    return { x: out[0], y: out[1], z: out[2] };
  }

  /** weft_world_hand_path: where a hand moving from `from` to `to` in one substep of a frame of dt s
   *  in `substeps` holds its particle, kept outside the mesh collider as a particle's path is (it
   *  slides over it) and catching up at the hand's speed; `to` without one. */
  handPath(from: Vec3, to: Vec3, dt: number, substeps: number): Vec3 {
    const e = this.exports;
    const out = new Float32Array(
      this.core.memory,
      e.world_hand_path(this.handle, from.x, from.y, from.z, to.x, to.y, to.z, dt, substeps),
      3,
    );
    return { x: out[0], y: out[1], z: out[2] };
  }

  /** Triangles of the mesh collider as simulated (degenerate ones dropped); 0 without one. */
  get meshTriangleCount(): number {
    return this.exports.world_mesh_triangle_count(this.handle);
  }

  /** The static mesh collider as simulated (world space), or null when the scene has none. */
  meshCollider(): MeshColliderArrays | null {
    const e = this.exports;
    const vertexCount = e.world_mesh_vertex_count(this.handle);
    const triangleCount = e.world_mesh_triangle_count(this.handle);
    if (vertexCount <= 0 || triangleCount <= 0) return null;
    return {
      vertices: this.view('meshVertices', Float32Array, e.world_mesh_vertices_ptr(this.handle), vertexCount * 4),
      normals: this.view('meshNormals', Float32Array, e.world_mesh_vertex_normals_ptr(this.handle), vertexCount * 4),
      indices: this.view('meshIndices', Uint32Array, e.world_mesh_indices_ptr(this.handle), triangleCount * 3),
    };
  }

  /** The full collider (views on linear memory), or null without a mesh. */
  meshColliderGrid(): MeshColliderGrid | null {
    const base = this.meshCollider();
    const e = this.exports;
    if (!base) return null;
    const h = this.handle;
    const triangles = base.indices.length / 3;
    const cells = e.world_mesh_cell_count(h);
    const grid = new Float32Array(this.core.memory, e.world_mesh_grid(h), 7).slice();
    return {
      ...base,
      faceNormals: this.view('meshFaceNormals', Float32Array, e.world_mesh_face_normals_ptr(h), triangles * 4),
      edgeNormals: this.view('meshEdgeNormals', Float32Array, e.world_mesh_edge_normals_ptr(h), triangles * 12),
      triangleSpheres: this.view('meshTriangleSpheres', Float32Array, e.world_mesh_triangle_spheres_ptr(h), triangles * 4),
      spheres: this.view('meshSpheres', Float32Array, e.world_mesh_spheres_ptr(h), e.world_mesh_sphere_count(h) * 4),
      cellStart: this.view('meshCellStart', Uint32Array, e.world_mesh_cell_start_ptr(h), cells + 1),
      cellTriangles: this.view('meshCellTriangles', Uint32Array, e.world_mesh_cell_triangles_ptr(h), e.world_mesh_cell_entry_count(h)),
      cellFlags: this.view('meshCellFlags', Uint8Array, e.world_mesh_cell_flags_ptr(h), cells),
      origin: { x: grid[0], y: grid[1], z: grid[2] },
      cellSize: grid[3],
      dims: [grid[4], grid[5], grid[6]],
      closed: e.world_mesh_closed(h) !== 0,
    };
  }

  // ---- arrays (views on linear memory; valid until memory grows, then re-made) ----
  private view<T extends ArrayBufferView>(key: string, type: TypedArrayConstructor, ptr: number, length: number): T {
    const buffer = this.core.memory;
    if (buffer !== this.viewBuffer) {
      this.views.clear();
      this.viewBuffer = buffer;
    }
    let view = this.views.get(key);
    if (!view) {
      view = new type(buffer, ptr, length);
      this.views.set(key, view);
    }
    return view as T;
  }
  /** xyz + inverse mass per particle. */
  positions(): Float32Array {
    return this.view('positions', Float32Array, this.exports.world_positions_ptr(this.handle), this.particleCount * 4);
  }
  previousPositions(): Float32Array {
    return this.view('previous', Float32Array, this.exports.world_previous_positions_ptr(this.handle), this.particleCount * 4);
  }
  velocities(): Float32Array {
    return this.view('velocities', Float32Array, this.exports.world_velocities_ptr(this.handle), this.particleCount * 4);
  }
  /** What rounding kept out of the last prediction, float4 per particle (solver state). */
  residuals(): Float32Array {
    return this.view('residuals', Float32Array, this.exports.world_residuals_ptr(this.handle), this.particleCount * 4);
  }
  restPositions(): Float32Array {
    return this.view('rest', Float32Array, this.exports.world_rest_positions_ptr(this.handle), this.particleCount * 4);
  }
  normals(): Float32Array {
    return this.view('normals', Float32Array, this.exports.world_normals_ptr(this.handle), this.particleCount * 4);
  }
  strain(): Float32Array {
    return this.view('strain', Float32Array, this.exports.world_strain_ptr(this.handle), this.particleCount);
  }
  uvs(): Float32Array {
    return this.view('uvs', Float32Array, this.exports.world_uvs_ptr(this.handle), this.particleCount * 2);
  }
  indices(): Uint32Array {
    return this.view('indices', Uint32Array, this.exports.world_indices_ptr(this.handle), this.indexCount);
  }
  lambdas(): Float32Array {
    return this.view('lambdas', Float32Array, this.exports.world_lambdas_ptr(this.handle), this.constraintCount);
  }
  /** The raw constraint records (CONSTRAINT_LAYOUT): read a/b as Uint32, rest length/compliance as Float32. */
  constraintBytes(): Uint8Array {
    return this.view(
      'constraints',
      Uint8Array,
      this.exports.world_constraints_ptr(this.handle),
      this.constraintCount * CONSTRAINT_LAYOUT.size,
    );
  }
  constraintTypes(): Uint8Array {
    return this.view('types', Uint8Array, this.exports.world_constraint_types_ptr(this.handle), this.constraintCount);
  }
  /** colorCount + 2 entries: colour starts, the overflow batch start, the end. */
  colorOffsets(): Int32Array {
    return this.view('colors', Int32Array, this.exports.world_color_offsets_ptr(this.handle), this.colorCount + 2);
  }
  /**
   * The render data's gather lists (weft_world_render_adjacency in weft.h): per vertex its triangles,
   * then from word `strainBase` its stretch constraints; the GPU's render_data kernel reads them.
   */
  renderAdjacency(): { words: Uint32Array; strainBase: number } {
    const e = this.exports;
    return {
      words: this.view(
        'renderAdjacency',
        Uint32Array,
        e.world_render_adjacency_ptr(this.handle),
        e.world_render_adjacency_words(this.handle),
      ),
      strainBase: e.world_render_strain_base(this.handle),
    };
  }
  /** Tether slots per particle (WEFT_TETHERS_PER_PARTICLE): particle i owns [i*k, (i+1)*k). */
  get tethersPerParticle(): number {
    return this.exports.layout_tethers_per_particle();
  }
  /** Anchor particle of each tether slot, -1 for none. */
  tetherAnchors(): Int32Array {
    return this.view('anchors', Int32Array, this.exports.world_tether_anchor_ptr(this.handle), this.tetherSlots());
  }
  tetherMaxDistances(): Float32Array {
    return this.view('tetherDistances', Float32Array, this.exports.world_tether_max_distance_ptr(this.handle), this.tetherSlots());
  }
  private tetherSlots(): number {
    return this.exports.world_tether_count(this.handle) * this.tethersPerParticle;
  }
}

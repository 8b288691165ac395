// Loads weft.wasm (the C core, reactor build) and gives typed access to its exports. Works in the
// browser and in Node (benchmarks, the GPU engineer's parity tests): pass the bytes or a URL.
import { checkLayout, type LayoutExports } from './layout';
import { wasiImports } from './wasi-shim';

type Ptr = number;
type Handle = number;

/** The exports of wasm/weft_wasm.c. Pointers are byte addresses in `memory`. */
export interface WeftExports extends LayoutExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  string_buffer(): Ptr;
  string_buffer_size(): number;
  last_error(): Ptr;
  result_string(result: number): Ptr;
  scene_count(): number;
  scene_name(index: number): Ptr;
  world_create_scene(grid: number): Handle;
  world_destroy(world: Handle): void;
  world_frame_dt(world: Handle): number;
  world_step(world: Handle, dt: number): number;
  world_step_frames(world: Handle, frames: number): number;
  world_reset(world: Handle): void;
  world_update_render_data(world: Handle): void;
  world_get_substeps(world: Handle): number;
  world_get_max_substeps(world: Handle): number;
  world_get_iterations(world: Handle): number;
  world_get_damping(world: Handle): number;
  world_get_drag(world: Handle): number;
  world_get_wind(world: Handle): Ptr;
  world_set_substeps(world: Handle, substeps: number, iterations: number): number;
  world_set_damping(world: Handle, damping: number): number;
  world_set_drag(world: Handle, drag: number): number;
  world_set_wind(world: Handle, x: number, y: number, z: number): number;
  world_air(world: Handle): Ptr; // float[6]: drag, lift, air density, gust strength, gust seed, active
  world_set_air(world: Handle, drag: number, lift: number, airDensity: number, gustStrength: number, gustSeed: number): number;
  world_air_wind(world: Handle, time: number): Ptr; // float[3]: the wind at time s
  world_air_forces(world: Handle, time: number): Ptr; // float[4 × triangles] or 0
  world_set_gravity(world: Handle, x: number, y: number, z: number): number;
  world_set_compliance(world: Handle, type: number, compliance: number, gradually: number): number;
  world_get_compliance(world: Handle, type: number): number;
  world_compliance_now(world: Handle, type: number): number;
  world_advance_compliance_ramp(world: Handle): number;
  world_ground_height(world: Handle): number;
  world_set_self_collision(world: Handle, on: number): number;
  world_self_collision(world: Handle): Ptr; // float[6], see weft_wasm.c
  world_pin_motion(world: Handle): Ptr; // float[4]: pin velocity xyz, pin motion time
  world_sphere_count(world: Handle): number;
  world_set_sphere_moving(world: Handle, index: number, moving: number): number;
  world_get_sphere(world: Handle, index: number): Ptr;
  world_sphere_motion(world: Handle, index: number): Ptr;
  world_settings(world: Handle): Ptr;
  world_out(world: Handle): Ptr;
  world_raycast(world: Handle, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): number;
  world_grab(world: Handle, particle: number, x: number, y: number, z: number): number;
  world_grab_move(world: Handle, x: number, y: number, z: number): number;
  world_release(world: Handle): void;
  world_grabbed(world: Handle): number;
  world_tether_scale(world: Handle): number;
  world_grab_position_at(world: Handle, pinTime: number): Ptr;
  world_hand_path(world: Handle, fx: number, fy: number, fz: number, tx: number, ty: number, tz: number, dt: number, substeps: number): Ptr;
  world_stretch_limit(world: Handle): number;
  world_strain_limit(world: Handle): number;
  world_strain_sweeps(world: Handle): number;
  world_set_thickness(world: Handle, thickness: number, gradually: number): number;
  world_thickness(world: Handle): number;
  world_advance_thickness_ramp(world: Handle): number;
  world_set_strain_limit(world: Handle, strainLimit: number): number;
  world_grab_step(world: Handle, x: number, y: number, z: number, pinTime: number, dt: number): Ptr;
  world_particle_count(world: Handle): number;
  world_grid_width(world: Handle): number;
  world_grid_height(world: Handle): number;
  world_index_count(world: Handle): number;
  world_constraint_count(world: Handle): number;
  world_constraint_count_by_type(world: Handle, type: number): number;
  world_color_count(world: Handle): number;
  world_frame(world: Handle): number;
  world_time(world: Handle): number;
  world_substeps_run(world: Handle): number;
  world_frame_substeps(world: Handle): number;
  world_frame_substeps_wanted(world: Handle): number;
  world_set_max_substeps(world: Handle, maxSubsteps: number): number;
  world_max_stretch(world: Handle): number;
  world_is_finite(world: Handle): number;
  world_state_hash(world: Handle): bigint;
  world_positions_ptr(world: Handle): Ptr;
  world_previous_positions_ptr(world: Handle): Ptr;
  world_velocities_ptr(world: Handle): Ptr;
  world_residuals_ptr(world: Handle): Ptr;
  world_rest_positions_ptr(world: Handle): Ptr;
  world_normals_ptr(world: Handle): Ptr;
  world_strain_ptr(world: Handle): Ptr;
  world_uvs_ptr(world: Handle): Ptr;
  world_indices_ptr(world: Handle): Ptr;
  world_lambdas_ptr(world: Handle): Ptr;
  world_constraints_ptr(world: Handle): Ptr;
  world_constraint_types_ptr(world: Handle): Ptr;
  world_color_offsets_ptr(world: Handle): Ptr;
  world_tether_anchor_ptr(world: Handle): Ptr;
  world_tether_max_distance_ptr(world: Handle): Ptr;
  world_tether_count(world: Handle): number;
  world_render_adjacency_ptr(world: Handle): Ptr;
  world_render_adjacency_words(world: Handle): number;
  world_render_strain_base(world: Handle): number;
  layout_color_budget(): number;
  // Mesh collider: world-space float4 vertices and
  // pseudo-normals, 3 indices per triangle; counts are 0 without a mesh.
  world_mesh_vertex_count(world: Handle): number;
  world_mesh_triangle_count(world: Handle): number;
  world_mesh_vertices_ptr(world: Handle): Ptr;
  world_mesh_vertex_normals_ptr(world: Handle): Ptr;
  world_mesh_indices_ptr(world: Handle): Ptr;
  // The rest of the collider as the GPU solver uploads it (weft_mesh_collider_view).
  world_mesh_sphere_count(world: Handle): number;
  world_mesh_cell_count(world: Handle): number;
  world_mesh_cell_entry_count(world: Handle): number;
  world_mesh_closed(world: Handle): number;
  world_set_mesh_ridge_lifts(world: Handle, on: number): number;
  world_mesh_ridge_lifts(world: Handle): number;
  world_mesh_face_normals_ptr(world: Handle): Ptr;
  world_mesh_edge_normals_ptr(world: Handle): Ptr;
  world_mesh_triangle_spheres_ptr(world: Handle): Ptr;
  world_mesh_spheres_ptr(world: Handle): Ptr;
  world_mesh_cell_start_ptr(world: Handle): Ptr;
  world_mesh_cell_triangles_ptr(world: Handle): Ptr;
  world_mesh_cell_flags_ptr(world: Handle): Ptr;
  world_mesh_grid(world: Handle): Ptr; // float[7]: origin xyz, cell size, dims xyz
  // A user OBJ as the collider (wasm/weft_wasm_obj.c).
  obj_name_buffer(): Ptr;
  obj_name_buffer_size(): number;
  obj_alloc(size: number): Ptr;
  obj_free(data: Ptr): void;
  world_create_scene_obj(grid: number, data: Ptr, size: number): Handle;
  layout_tethers_per_particle(): number;
  // glTF (wasm/weft_wasm_gltf.c): a recording into a .glb in memory, a mesh as the collider.
  gltf_record_begin(world: Handle, capacity: number, cloth: number, colliders: number): Ptr;
  gltf_record_add(recording: Ptr, world: Handle): number;
  gltf_record_frames(recording: Ptr): number;
  gltf_record_finish(recording: Ptr): number;
  gltf_record_bytes(recording: Ptr): Ptr;
  gltf_record_size(recording: Ptr): number;
  gltf_record_destroy(recording: Ptr): void;
  // OBJ text (wasm/weft_wasm_obj_text.c): the cloth (0) or the colliders (1), the cloth's first line
  // naming frame and time where frame ≥ 0 (else the world's); its bytes, -1 on failure.
  obj_text(world: Handle, what: number, frame: number, time: number): number;
  obj_text_bytes(): Ptr;
  obj_text_free(): void;
  world_create_scene_mesh(grid: number, positions: Ptr, vertexCount: number, indices: Ptr, triangleCount: number): Handle;
}

/** One instance of the core. Strings cross through the module's static string buffer. */
export class WeftCore {
  private constructor(readonly exports: WeftExports) {}

  /** Compiles and instantiates weft.wasm from bytes, a Response or a URL. */
  static async load(source: BufferSource | Response | string | URL): Promise<WeftCore> {
    let module: WebAssembly.Module;
    if (source instanceof Response || typeof source === 'string' || source instanceof URL) {
      const response = source instanceof Response ? source : await fetch(source);
      if (!response.ok) throw new Error(`could not fetch ${response.url || String(source)}: HTTP ${response.status}`);
      module = await WebAssembly.compile(await response.arrayBuffer());
    } else {
      module = await WebAssembly.compile(source);
    }
    let instance: WebAssembly.Instance | undefined;
    const memory = () => (instance!.exports as unknown as WeftExports).memory;
    instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasiImports(module, memory) });
    const exports = instance.exports as unknown as WeftExports;
    exports._initialize();
    checkLayout(exports);
    return new WeftCore(exports);
  }

  get memory(): ArrayBuffer {
    return this.exports.memory.buffer;
  }

  /** Reads a 0-terminated UTF-8 string at ptr ("" for 0). */
  readString(ptr: Ptr): string {
    if (!ptr) return '';
    const bytes = new Uint8Array(this.memory, ptr);
    const end = bytes.indexOf(0);
    return new TextDecoder().decode(bytes.subarray(0, end < 0 ? 0 : end));
  }

  /** Puts s into the module's string buffer, or another 0-terminated one, truncated to fit. */
  writeString(s: string, buffer = { ptr: this.exports.string_buffer(), size: this.exports.string_buffer_size() }): void {
    const { ptr, size } = buffer;
    const encoded = new TextEncoder().encode(s).subarray(0, size - 1);
    const target = new Uint8Array(this.memory, ptr, size);
    target.set(encoded);
    target[encoded.length] = 0;
  }

  lastError(): string {
    return this.readString(this.exports.last_error());
  }

  /** Names of the scenes the core knows (hang, sphere, flag, ...). */
  sceneNames(): string[] {
    const names: string[] = [];
    for (let i = 0; i < this.exports.scene_count(); i++) names.push(this.readString(this.exports.scene_name(i)));
    return names;
  }
}

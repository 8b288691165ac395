/// weft: real-time XPBD cloth. Public C API.
///
/// One world holds one cloth (an N×M particle grid), colliders (ground plane, spheres, triangle
/// meshes) and the solver state. Every function that can fail returns a weft_result and never
/// aborts; weft_last_error() then holds a sentence that says why. Arrays returned by the
/// accessors stay valid (and keep their address) until the world is destroyed: renderers and the
/// WebAssembly boundary read them in place (zero copy).
///
/// Units: metres, kilograms, seconds. Compliance α = 1/stiffness in m/N (0 = perfectly rigid).
#ifndef WEFT_WEFT_H
#define WEFT_WEFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result codes of every fallible call.
typedef enum weft_result {
	WEFT_OK = 0,
	WEFT_ERROR_INVALID_ARGUMENT, ///< NaN, negative mass, zero grid, null pointer, unknown name...
	WEFT_ERROR_TOO_LARGE,        ///< a size whose arrays would not fit in memory or in 32-bit indices
	WEFT_ERROR_OUT_OF_MEMORY,    ///< the allocator returned NULL
	WEFT_ERROR_PARSE,            ///< malformed input file (the message names file:line and why)
	WEFT_ERROR_IO,               ///< a file could not be opened, read or written
	WEFT_ERROR_NON_FINITE,       ///< the world's state went NaN or infinite (the message names the quantity
	                             ///< and the particle); the world is left as it is until reset
} weft_result;

/// Short fixed name of a result code ("ok", "invalid argument", ...). Never NULL.
const char* weft_result_string(weft_result result);

/// The detailed message of the most recent failed call on the calling thread ("" if none). Owned
/// by the library; each thread has its own, valid until that thread's next failing call.
const char* weft_last_error(void);

/// A 3-vector (metres, m/s or m/s² depending on the field).
typedef struct weft_vec3 {
	float x, y, z;
} weft_vec3;

/// Allocation hook (sokol style). Both functions or neither; NULL means malloc/free.
typedef struct weft_allocator {
	void* (*alloc)(size_t size, void* user_data);
	void (*free)(void* ptr, void* user_data);
	void* user_data;
} weft_allocator;

/// Largest particle count a world accepts (4096 × 4096).
#define WEFT_MAX_PARTICLES (4096 * 4096)

/// Colour budget of the constraint colouring; constraints that fit no colour go to one extra
/// overflow batch that is solved serially (so any topology works).
#define WEFT_COLOR_BUDGET 24

/// Which particles are pinned (inverse mass 0) when a cloth is built.
typedef enum weft_pin_mode {
	WEFT_PIN_NONE = 0,
	WEFT_PIN_TOP_CORNERS, ///< particles (0,0) and (width-1,0)
	WEFT_PIN_TOP_EDGE,    ///< the whole row 0
	WEFT_PIN_LEFT_EDGE,   ///< the whole column 0 (a flag on its pole)
	WEFT_PIN_LIST,        ///< the indices in weft_cloth_def.pin_indices
} weft_pin_mode;

/// Kinds of distance constraint.
typedef enum weft_constraint_type {
	WEFT_STRETCH = 0, ///< horizontal/vertical neighbours
	WEFT_SHEAR = 1,   ///< both diagonals of each quad
	WEFT_BEND = 2,    ///< skip-one neighbours along rows and columns
} weft_constraint_type;

/// Most threads a world steps on (weft_world_def.thread_count).
#define WEFT_MAX_THREADS 64

/// Ranges. Every value inside them keeps a world finite, at their worst combination too (e.g. gravity
/// 1000 m/s² with no speed clamp, the ground 100 km above the cloth, the shortest substep of 1e-9 s);
/// a value outside is refused with WEFT_ERROR_INVALID_ARGUMENT and a message that names the field.
/// Positions (cloth origin, ground height, sphere centres, grab targets): each component within this, m.
#define WEFT_MAX_COORDINATE 1e5f
/// Shortest frame weft_world_step takes, s (with 1000 substeps, a substep of 1e-9 s).
#define WEFT_MIN_FRAME_DT 1e-6f
/// Longest frame weft_world_step takes, s.
#define WEFT_MAX_FRAME_DT 0.1f
/// Largest constraint compliance, m/N (a cloth this soft is already limp).
#define WEFT_MAX_COMPLIANCE 1.0f
/// Most substeps a frame takes (weft_world_def.substeps and max_substeps).
#define WEFT_MAX_SUBSTEPS 1000
/// Substeps or iterations raised by weft_world_set_def on a world that has stepped are worked up to:
/// each frame takes at most this many times the last frame's (rounded up), until it takes the new
/// count (1 → 40 substeps in 16 frames). A solve that converges further at once turns what the old
/// one left unresolved (a cloth draped on a sphere at 1 substep, stretched 34%) into velocity: 30
/// m/s, and the cloth thrown from 1.2 m to 8.7 m (12 m/s and 1.6 m worked up to); the GPU solver
/// does the same (web/src/gpu/layout.ts SETTINGS_RAMP).
#define WEFT_SETTINGS_RAMP 1.15f

/// A lower compliance set on a world that has stepped is worked down to: each frame its constraints'
/// compliance is divided by this, until it reaches the setting (0.1 m/N → 1e-8 in 40 frames). At
/// once, the stretch a soft setting held becomes velocity: `sphere` 24² draped at 0.1 m/N, then
/// the defaults: 12.0 m/s and the cloth's top thrown from 1.2 m to 1.62 m; worked down to, 7.5 m/s
/// and 1.2 m (src/compliance_ramp.c). The GPU solver asks the core for the same ramp.
#define WEFT_COMPLIANCE_RAMP 1.5f

/// A thicker cloth set on a world that has stepped is worked up to: each frame the thickness in force
/// grows by this factor, until it reaches the setting (twice as thick in 8 frames). At once, a
/// settled `fold` 64² given twice its thickness jumped at 4.45 m/s; worked up to, 1.28 m/s
/// (src/thickness_ramp.c).
#define WEFT_THICKNESS_RAMP 1.1f

/// Global simulation settings.
typedef struct weft_world_def {
	weft_vec3 gravity;      ///< m/s², magnitude ≤ 1000, default (0, -9.81, 0)
	int32_t substeps;       ///< substeps per frame, 1..1000, default 10
	int32_t max_substeps;   ///< a frame where the cloth near a collider or the hand moves fast takes more
	                        ///< substeps, up to this many: enough that no particle near a mesh collider
	                        ///< moves more than 0.1 grid spacings in one, none near a sphere more than
	                        ///< one, and the hand no more than one (frame_substeps.c). 0..1000, default
	                        ///< 32; at or below substeps, every frame takes substeps
	int32_t iterations;     ///< solver iterations per substep, 1..1000, default 1
	float damping;          ///< linear velocity damping in 1/s, [0, 1000], default 0.5
	weft_vec3 wind;         ///< wind velocity in m/s, magnitude ≤ 1000, default 0
	float drag;             ///< drag coefficient C_d of the cloth's triangles, [0, 10], default 0.5
	float lift;             ///< lift coefficient C_l of the cloth's triangles, [0, 10], default 0.6
	float air_density;      ///< kg/m³, [0, 100]; 0 = no air (the default), 1.225 = air at sea level. Each
	                        ///< triangle (area A, unit normal n, velocity v) feels, with d = wind − v,
	                        ///< cos θ = n·d/|d| and q = ½ ρ |d|²: drag q A C_d |cos θ| d/|d| and lift
	                        ///< q A C_l cos θ (n − cos θ d/|d|), a third to each corner (aerodynamics.c)
	float gust_strength;    ///< gusts: the wind varies by up to this fraction of its speed, [0, 1], default 0
	uint32_t gust_seed;     ///< the gusts' deterministic turbulence (any value), default 1
	float max_speed;        ///< particle speed clamp in m/s, [0, 10000] (0 = no clamp), default 30
	float grab_speed;       ///< m/s, (0, 1000]: how fast the hand carries a grabbed particle towards its
	                        ///< target (weft_world_grab_step), default 3
	bool ground_enabled;    ///< collide with the plane y = ground_height, default true
	float ground_height;    ///< m, within ±WEFT_MAX_COORDINATE, default 0
	float friction;         ///< friction of every contact [0,1], default 0.4: a substep's tangential slip of at
	                        ///< most friction × the contact's push stops (static), a larger one loses friction × it
	float collision_margin; ///< particles are kept this far outside colliders, m, [0, 1), default 0.005
	bool tethers;           ///< long-range attachments to pinned particles (limit stretch), default true
	bool self_collision;    ///< the cloth keeps its thickness between its own layers (spatial hash), default false
	weft_vec3 pin_velocity; ///< m/s, each component within ±1000: pinned particles move from their rest
	                        ///< position at this velocity...
	float pin_motion_time;  ///< ...for this many s of simulated time after creation or reset, then stay
	                        ///< ([0, 1e4] s; 0 = pins never move, the default)
	int32_t thread_count;   ///< threads that step the world (1 = serial, ≤ WEFT_MAX_THREADS), default 1
	weft_allocator allocator;
} weft_world_def;

/// The cloth grid. Particle (i, j) sits at origin + axis_u * size_u * i/(width-1)
/// + axis_v * size_v * j/(height-1); its index is j*width + i. Row 0 is the "top" row.
/// The grid spacing along each axis (size_u/(width−1), size_v/(height−1)) must be at least
/// 1e-5 m × (1 + r), r = the largest |origin component| + size_u + size_v (a bound on the cloth's
/// coordinates): 80 float steps or more at that distance from the world origin, so rest lengths
/// hold to about 1%. Near the world origin that is 10 µm; 1 km out, 1 cm; 100 km out, 1 m.
/// A grid whose world would take more than 8 GiB is WEFT_ERROR_TOO_LARGE (a square one beyond 3693).
typedef struct weft_cloth_def {
	int32_t width, height;      ///< particles along axis_u / axis_v (1..4096 each, ≥2 in all)
	float size_u, size_v;       ///< extent in m, (0, 10000) and the spacing above, default 1 × 1
	weft_vec3 origin;           ///< position of particle (0,0), each component within ±WEFT_MAX_COORDINATE,
	                            ///< default (-0.5, 1.5, 0)
	weft_vec3 axis_u;           ///< unit direction of rows, default (1,0,0)
	weft_vec3 axis_v;           ///< unit direction of columns, default (0,-1,0) (hangs down); at least 30° from
	                            ///< axis_u and from −axis_u (|axis_u × axis_v| ≥ 0.5: the cloth has an area)
	float mass;                 ///< total mass in kg, [1e-6, 1e6], and at least 1e-9 kg per particle, default 1
	float stretch_compliance;   ///< m/N, [0, WEFT_MAX_COMPLIANCE], default 1e-8
	float shear_compliance;     ///< m/N, [0, WEFT_MAX_COMPLIANCE], default 1e-7
	float bend_compliance;      ///< m/N, [0, WEFT_MAX_COMPLIANCE], default 1e-5
	float strain_limit;         ///< [0, 10]: no constraint's correction leaves it longer than (1 + this) × its rest
	                            ///< length, whatever its compliance (0 = no limit), default 0.2
	float thickness;            ///< m, [0, 1): self-collision keeps particles this far apart; 0 = the grid spacing
	                            ///< (the smaller of size_u/(width−1) and size_v/(height−1)), default 0
	weft_pin_mode pin;          ///< default WEFT_PIN_TOP_CORNERS
	const int32_t* pin_indices; ///< with WEFT_PIN_LIST; copied at creation
	int32_t pin_count;
} weft_cloth_def;

/// A sphere collider. With a non-zero motion_amplitude its centre follows
/// center + motion_amplitude * sin(2π motion_frequency t) while its motion is on.
typedef struct weft_sphere_def {
	weft_vec3 center;           ///< m, each component within ±WEFT_MAX_COORDINATE
	float radius;               ///< m, (0, 10000)
	weft_vec3 motion_amplitude; ///< m, each component within ±10000, default 0 (static)
	float motion_frequency;     ///< Hz, [0, 1000), default 0.25
	bool moving;                ///< whether the scripted motion starts on, default true
} weft_sphere_def;

/// Typed handle of a sphere in a world.
typedef struct weft_sphere_id {
	int32_t index;
} weft_sphere_id;

/// Maximum spheres per world.
#define WEFT_MAX_SPHERES 8

/// One distance constraint as the solvers read it (16 bytes; the WGSL struct mirrors it).
typedef struct weft_constraint {
	uint32_t a, b;     ///< particle indices
	float rest_length; ///< m
	float compliance;  ///< m/N
} weft_constraint;

/// The coloured constraint batches, read in place. Constraints are sorted by colour: colour c owns
/// constraints[color_offsets[c] .. color_offsets[c+1]). The last batch (index color_count) is the
/// overflow batch, solved serially; it is empty on grids.
typedef struct weft_constraints_view {
	const weft_constraint* constraints;
	const uint8_t* types;         ///< weft_constraint_type of each constraint
	const int32_t* color_offsets; ///< color_count + 2 entries (colours, overflow, end)
	int32_t color_count;          ///< colours used, the overflow batch not counted
	int32_t count;                ///< all constraints
	int32_t count_by_type[3];     ///< stretch, shear, bend
} weft_constraints_view;

/// Tethers per particle: to its two nearest pinned particles in the rest pose and to the first and
/// last pinned particle in grid order (the corners of a pinned edge); duplicates are left out (-1).
#define WEFT_TETHERS_PER_PARTICLE 4

/// Tethers (long-range attachments): particle i may be at most max_distance[k] from
/// positions[anchor[k]] for k in [i*WEFT_TETHERS_PER_PARTICLE, (i+1)*WEFT_TETHERS_PER_PARTICLE);
/// anchor -1 = no tether. Solved as one parallel batch (anchors are pinned, so each tether moves
/// only its own particle).
typedef struct weft_tethers_view {
	const int32_t* anchor;
	const float* max_distance;
	int32_t count; ///< particles (arrays hold count × WEFT_TETHERS_PER_PARTICLE entries)
} weft_tethers_view;

/// Opaque world.
typedef struct weft_world weft_world;

/// Defaults as documented per field.
weft_world_def weft_default_world_def(void);
/// Defaults as documented per field.
weft_cloth_def weft_default_cloth_def(void);
/// Defaults as documented per field.
weft_sphere_def weft_default_sphere_def(void);

/// Builds a world with one cloth: particles, constraints, colouring and tethers, all allocated here
/// (the step never allocates). On failure *out_world is NULL.
weft_result weft_world_create(const weft_world_def* world_def, const weft_cloth_def* cloth_def, weft_world** out_world);

/// What a cloth builds into, worked out without building it (`weft info`): the same counts as
/// weft_world_constraints and weft_world_index_count on a world of that cloth, and whether weft_world_create would take its
/// size (a world of at most 8 GiB). Allocates nothing; fails only on an invalid cloth def.
typedef struct weft_cloth_census {
	int32_t particles;
	int32_t count_by_type[3]; ///< stretch, shear, bend
	int32_t count;            ///< all constraints
	int32_t index_count;      ///< triangle indices, as weft_world_index_count (2 triangles per grid cell)
	int32_t color_count;      ///< colours of the grid colouring, the overflow batch not counted
	int32_t overflow_count;   ///< constraints in the overflow batch (0: the grid colouring places every one)
	uint64_t world_bytes;     ///< the estimate weft_world_create checks against 8 GiB
	bool fits;                ///< world_bytes within 8 GiB
} weft_cloth_census;
weft_result weft_cloth_census_of(const weft_cloth_def* cloth_def, weft_cloth_census* out);
/// Frees everything. NULL is fine.
void weft_world_destroy(weft_world* world);

/// Advances one frame of dt seconds (WEFT_MIN_FRAME_DT ≤ dt ≤ WEFT_MAX_FRAME_DT): substeps ×
/// (integrate → solve → collide → update). Then it checks the state (one pass over positions and
/// velocities): if anything is NaN or infinite it returns WEFT_ERROR_NON_FINITE and the message names
/// the quantity, the particle and its value. The world is left as it is for inspection; further steps
/// return the same error without touching it until it is finite again (weft_world_reset, or positions
/// and velocities written back).
weft_result weft_world_step(weft_world* world, float dt);

/// Puts every particle back to its rest pose with zero velocity and time 0; spheres back to start.
void weft_world_reset(weft_world* world);

/// Replaces the solver settings, live (substeps, iterations, damping, gravity, the air, friction,
/// max_speed, ground, self_collision, the pins' motion, ...). Validated like creation. tethers,
/// thread_count and allocator are fixed at creation: their values in def are ignored (get_def keeps
/// reporting the world's own).
weft_result weft_world_set_def(weft_world* world, const weft_world_def* def);
/// The settings in force.
weft_world_def weft_world_get_def(const weft_world* world);

/// Sets the compliance of every constraint of one type (m/N, [0, WEFT_MAX_COMPLIANCE]). A lower
/// (stiffer) one on a world that has stepped is worked down to, WEFT_COMPLIANCE_RAMP a frame; a
/// higher one, or any from rest (no substep since creation or reset), takes effect at once.
weft_result weft_world_set_compliance(weft_world* world, weft_constraint_type type, float compliance);
/// The same, with the choice made by the caller: a lower compliance worked down to when gradually
/// is true, else at once (a solver that steps the world's state elsewhere, as the page's GPU
/// solver does, knows whether its cloth has stepped).
weft_result weft_world_set_compliance_gradually(weft_world* world, weft_constraint_type type, float compliance,
                                                bool gradually);
/// The compliance a type is set to (-1 for a NULL world or an unknown type).
float weft_world_compliance(const weft_world* world, weft_constraint_type type);
/// The compliance its constraints have now: the setting, or more while a lower one is worked down to.
float weft_world_compliance_now(const weft_world* world, weft_constraint_type type);
/// One frame of the compliances' ramp (weft_world_step does it at the start of each frame): every
/// type above its setting moves down by WEFT_COMPLIANCE_RAMP, or to the setting. For a solver that
/// steps the world's state elsewhere, once a frame. Returns whether any constraint changed.
bool weft_world_advance_compliance_ramp(weft_world* world);
/// Sets the cloth's thickness (weft_cloth_def.thickness: [0, 1) m, 0 = the grid spacing), live: the
/// distance self-collision keeps between layers (its reach and max step follow it, and the lists are
/// built afresh). A thicker one on a world that has stepped is worked up to, WEFT_THICKNESS_RAMP a
/// frame; a thinner one, or any from rest, takes effect at once. weft_world_self_collision tells the
/// thickness in force.
weft_result weft_world_set_thickness(weft_world* world, float thickness);
/// The same, with the choice made by the caller: a thicker setting worked up to when gradually is
/// true, else at once (the page's GPU solver, whose cloth steps outside the world).
weft_result weft_world_set_thickness_gradually(weft_world* world, float thickness, bool gradually);
/// The thickness set, m (the grid spacing for 0; 0 for a NULL world).
float weft_world_thickness(const weft_world* world);
/// One frame of the thickness's ramp (weft_world_step does it at the start of each frame): the
/// thickness in force grows by WEFT_THICKNESS_RAMP, or to the setting. For a solver that steps the
/// world's state elsewhere, once a frame. Returns whether it changed.
bool weft_world_advance_thickness_ramp(weft_world* world);
/// Sets the cloth's strain limit (weft_cloth_def.strain_limit: [0, 10], 0 = none), live.
weft_result weft_world_set_strain_limit(weft_world* world, float strain_limit);
/// The cloth's strain limit (0 = none; 0 for a NULL world).
float weft_world_strain_limit(const weft_world* world);

/// Adds a sphere collider.
weft_result weft_world_add_sphere(weft_world* world, const weft_sphere_def* def, weft_sphere_id* out_id);
/// Turns a sphere's scripted motion on or off (it stays where it is when off).
weft_result weft_world_set_sphere_moving(weft_world* world, weft_sphere_id id, bool moving);
/// Current centre of a sphere.
weft_result weft_world_get_sphere(const weft_world* world, weft_sphere_id id, weft_vec3* out_center, float* out_radius,
                                  bool* out_moving);
/// A sphere's definition (its scripted motion included) and how long its motion has run, in s
/// (the centre is def.center + def.motion_amplitude · sin(2π def.motion_frequency · motion_time)).
weft_result weft_world_get_sphere_def(const weft_world* world, weft_sphere_id id, weft_sphere_def* out_def,
                                      double* out_motion_time);
/// Number of spheres.
int32_t weft_world_sphere_count(const weft_world* world);

/// A triangle mesh as plain arrays, e.g. read from an OBJ file. Owned by the caller; free it with
/// weft_mesh_data_free (which uses the allocator recorded here).
typedef struct weft_mesh_data {
	float* positions;       ///< 3 floats (x, y, z) per vertex, in the file's units
	uint32_t* indices;      ///< 3 vertex indices (0-based) per triangle; polygons are fan-triangulated
	int32_t vertex_count;   ///< vertices
	int32_t triangle_count; ///< triangles
	int32_t texcoord_count; ///< `vt` statements read (checked, not stored)
	int32_t normal_count;   ///< `vn` statements read (checked, not stored)
	weft_allocator allocator;
} weft_mesh_data;

/// Most vertices and most triangles an OBJ file may produce (each).
#define WEFT_OBJ_MAX_ELEMENTS (1 << 24)

/// Parses Wavefront OBJ text from memory (size bytes, need not be NUL-terminated). Reads `v`, `vt`,
/// `vn` and `f` (forms v, v/vt, v//vn, v/vt/vn, negative = relative indices, polygons), skips
/// comments, blank lines and o/g/s/usemtl/mtllib/l/p/vp; LF or CRLF. name (may be NULL) is used in
/// messages. Malformed input returns WEFT_ERROR_PARSE and weft_last_error() says "name:line: why";
/// a file without faces is malformed too. allocator may be NULL (malloc). On failure *out is zeroed.
weft_result weft_obj_parse(const char* data, size_t size, const char* name, const weft_allocator* allocator,
                           weft_mesh_data* out);
/// Reads and parses an OBJ file (WEFT_ERROR_IO if it cannot be read, then as weft_obj_parse).
weft_result weft_obj_load(const char* path, const weft_allocator* allocator, weft_mesh_data* out);
/// Frees the arrays of a weft_mesh_data and zeroes it. NULL or a zeroed struct is fine.
void weft_mesh_data_free(weft_mesh_data* mesh);

/// Sets the world's static triangle-mesh collider (replacing any), built once here: pseudo-normals,
/// bounding spheres (k-means of the vertices), and a uniform grid of triangles. positions: 3 floats
/// per vertex; indices: 3 per triangle, counter-clockwise seen from outside. Degenerate triangles
/// are dropped. A closed (watertight) mesh is a solid: particles inside are pushed out. An open one
/// is a two-sided shell of thickness 2 × collision_margin. With fit, the mesh is scaled uniformly
/// so its wider horizontal side is 60% of the cloth's (rest pose), lowered if needed to stay 5% below
/// the cloth, centred under the cloth and set on the ground (or just under the cloth without ground);
/// without fit, positions are world space (m). The arrays are copied.
weft_result weft_world_set_mesh_collider(weft_world* world, const float* positions, int32_t vertex_count,
                                         const uint32_t* indices, int32_t triangle_count, bool fit);
/// Sets a built-in mesh as the collider: "bunny" (fitted as with fit = true) or "pole" (a 3 cm
/// cylinder along the cloth's first column, the flag's pinned edge, from the ground to 15 cm above
/// the cloth, in world space).
weft_result weft_world_set_builtin_mesh_collider(weft_world* world, const char* name);
/// Also pushes the midpoints of the cloth's stretch edges out of the mesh (default off). Particles
/// alone let a feature thinner than the cloth spacing (the bunny's ears) slip between neighbours
/// and snag the edge; this stops most of that (bunny at 64²: max stretch 1.8 → 0.5) for about 2.5×
/// the mesh collision time. WEFT_ERROR_INVALID_ARGUMENT without a mesh collider.
weft_result weft_world_set_mesh_edge_contacts(weft_world* world, bool enabled);
/// Lifts stretch edges that run through the mesh back over its ridge (default on): a feature thicker
/// than the collision margin but narrower than the cloth spacing (the bunny's ears at 96²) can come
/// between two neighbouring particles, each pushed out on its own side, and the cloth then hangs from
/// it through the solid (mesh_ridge_lifts.c). The GPU solver has no lifts yet: turn them off for a
/// C world it is compared with. WEFT_ERROR_INVALID_ARGUMENT without a mesh collider.
weft_result weft_world_set_mesh_ridge_lifts(weft_world* world, bool enabled);
/// Whether the ridge lifts are on (false without a mesh collider).
bool weft_world_mesh_ridge_lifts(const weft_world* world);
/// Removes the mesh collider (if any).
void weft_world_remove_mesh_collider(weft_world* world);

/// The mesh collider's arrays as the solvers read them (flat, ready to upload as storage buffers).
/// All float4 arrays are 16-byte strides. Grid cell (x, y, z) has index x + dims[0] * (y + dims[1] * z)
/// and owns cell_triangles[cell_start[c] .. cell_start[c + 1]); its box is
/// grid_origin + cell_size * [x, x+1) × [y, y+1) × [z, z+1). A triangle is listed in every cell its
/// bounding box overlaps, so every triangle within cell_size of a point is listed in the point's cell
/// or one of its 26 neighbours. The push-out per substep (mesh_collide.c), for a particle moving
/// x_prev → x: skip unless the segment touches a bounding sphere; if the segment crosses a triangle
/// (first hit, Möller–Trumbore) coming from its front, move x back to margin in front of that plane;
/// then, unless x's cell is flagged 3, take the closest triangle within the margin (flag 2: search
/// outwards) and, if x is inside (dot(x − q, pseudo-normal of q's Voronoi feature) < 0) or nearer
/// than the margin, set x = q + margin × outward direction; friction stops the tangential slip
/// where it is at most friction × the push along the normal, else removes friction × it. The
/// margin is clamped to cell_size / 2.
typedef struct weft_mesh_collider_view {
	const float* vertices;          ///< float4 per vertex: world-space x, y, z, w = 0
	const float* vertex_normals;    ///< float4 per vertex: angle-weighted pseudo-normal (unit), w = 0
	const uint32_t* indices;        ///< 3 per triangle
	const float* face_normals;      ///< float4 per triangle: unit normal n, w = -dot(n, v0)
	const float* edge_normals;      ///< 3 float4 per triangle: pseudo-normals of edges v0v1, v1v2, v2v0
	const float* triangle_spheres;  ///< float4 per triangle: centroid x, y, z, radius (a culling bound)
	const float* spheres;           ///< float4 per bounding sphere: centre x, y, z, radius (reach included)
	const uint32_t* cell_start;     ///< cell_count + 1 offsets into cell_triangles
	const uint32_t* cell_triangles; ///< triangle indices grouped by cell
	const uint8_t* cell_flags;      ///< 1 byte per cell: 0 empty outside, 1 surface (has triangles), 2 empty
	                                ///< inside, 3 empty outside with no surface cell among its 26 neighbours
	float grid_origin[3];           ///< m, corner of cell (0, 0, 0)
	float cell_size;                ///< m, edge of the cubic cells
	int32_t grid_dims[3];           ///< cells along x, y, z
	int32_t vertex_count, triangle_count, sphere_count, cell_count, cell_entry_count;
	bool closed; ///< every edge shared by exactly two triangles (solid)
} weft_mesh_collider_view;

/// Fills *out with the mesh collider's arrays (valid until the collider is replaced or the world
/// destroyed). WEFT_ERROR_INVALID_ARGUMENT if the world has no mesh collider.
weft_result weft_world_mesh_collider(const weft_world* world, weft_mesh_collider_view* out);

/// The unit sphere the exporters draw sphere colliders with: WEFT_UNIT_SPHERE_RINGS rings of
/// WEFT_UNIT_SPHERE_SEGMENTS vertices between two poles (y = ±1), triangles counter-clockwise from
/// outside. positions: 3 floats × WEFT_UNIT_SPHERE_VERTICES (also the normals); indices: 3 ×
/// WEFT_UNIT_SPHERE_TRIANGLES.
#define WEFT_UNIT_SPHERE_RINGS 16
#define WEFT_UNIT_SPHERE_SEGMENTS 32
#define WEFT_UNIT_SPHERE_VERTICES (2 + (WEFT_UNIT_SPHERE_RINGS - 1) * WEFT_UNIT_SPHERE_SEGMENTS)
#define WEFT_UNIT_SPHERE_TRIANGLES (2 * WEFT_UNIT_SPHERE_SEGMENTS * (WEFT_UNIT_SPHERE_RINGS - 1))
void weft_unit_sphere(float* positions, uint32_t* indices);

/// The Stanford bunny (npm package `bunny`, built into the library): 3 floats per vertex (y up,
/// original units) and 3 indices per triangle. Counts are 0 if the build could not generate it.
void weft_bunny_mesh(const float** out_positions, int32_t* out_vertex_count, const uint32_t** out_indices,
                     int32_t* out_triangle_count);

/// Grab: the particle follows target (kinematic: it sits every substep where the hand holds it)
/// until released. The hand takes it at target and carries it towards each new target at most
/// grab_speed m/s (with self-collision on, also at most half the speed a particle near another layer
/// may have: 0.5 × max_step × substeps / dt), along a straight line over each frame's substeps
/// (weft_world_grab_step).
/// One grab at a time. While held, every free particle
/// p is also tethered to the grabbed particle g (after the pins' tethers, every iteration):
/// |x_p − x_g| ≤ |rest_p − rest_g| × 1.01 × weft_world_tether_scale(), so the hand drags the cloth
/// instead of pulling a needle out of it. target: m, each component within ±WEFT_MAX_COORDINATE.
weft_result weft_world_grab(weft_world* world, int32_t particle, weft_vec3 target);
/// Moves the grab target (the same range).
weft_result weft_world_grab_move(weft_world* world, weft_vec3 target);
/// How far a hand may pull a pinned cloth beyond its reach: the held particle stays within
/// WEFT_GRAB_OVERREACH × |rest_q − rest_g| of every pinned particle q.
#define WEFT_GRAB_OVERREACH 1.02f
/// Where the hand aims in a frame whose pins' clock starts at pin_time s: the target, pulled back
/// (by projecting it in turn onto the ball around each pinned q, a few rounds) to within
/// WEFT_GRAB_OVERREACH of its rest distance from every pin (x_q = rest_q + pin_velocity ×
/// min(t, pin_motion_time)). A hand beyond the cloth's reach then holds it taut instead of tearing
/// it; the target itself is kept. The target if nothing is grabbed or nothing is pinned.
weft_vec3 weft_world_grab_position_at(const weft_world* world, double pin_time);
/// Where the hand holds the grabbed particle at the end of a frame of dt s that begins with it at
/// `held` and the pins' clock at pin_time s: the aim above, or grab_speed × dt along the straight
/// line towards it. weft_world_step moves the hand so (from weft_world_grab_position), and substep k
/// of S holds the particle at held × (1 − t) + end × t, t = (float)k / S, kept out of the spheres
/// and above the ground by the collision margin (the substep's spheres: the particle slides over a
/// collider the hand goes into). `held` if nothing is grabbed. For a solver that steps the state
/// elsewhere (the GPU solver) and keeps its own hand.
weft_vec3 weft_world_grab_step(const weft_world* world, weft_vec3 held, double pin_time, float dt);
/// Where a hand moving from `from` (where it held its particle the substep before) to `to` in one
/// substep of a frame of dt s in `substeps` holds the particle, given the mesh collider: as a
/// particle's path meets it (stopped a collision margin in front of a face it would cross, the rest
/// of the way along that face), so it slides over the mesh instead of dragging the cloth through
/// it, and at most the hand's speed × dt / substeps from `from` (a particle the mesh held back
/// catches up at that pace, not in one jump); `to` itself without a mesh (the solver keeps it out
/// of the spheres and the ground first). The solver does this every substep; for one that steps
/// elsewhere (the page's GPU solver), the same rule.
weft_vec3 weft_world_hand_path(const weft_world* world, weft_vec3 from, weft_vec3 to, float dt, int32_t substeps);
/// Where the hand holds the grabbed particle: at the end of the last frame stepped (on the frame
/// of the grab, the grab's target). The particle sits there unless a sphere or the ground keeps it
/// out. The target if nothing is grabbed.
weft_vec3 weft_world_grab_position(const weft_world* world);
/// The factor on every tether's limit (the pins' and the grab's) for a hand at `held` with the pins'
/// clock at pin_time s: 1, or while the hand holds the cloth beyond its reach from a pin, max over
/// pinned q of |x_q − held| / |rest_q − rest_g| (at most WEFT_GRAB_OVERREACH), so the stretch that
/// reach asks for spreads over the cloth. 1 if nothing is grabbed.
float weft_world_grab_tether_scale(const weft_world* world, weft_vec3 held, double pin_time);
/// How fast the tethers' scale may come down, per s: each frame's scale is the larger of
/// weft_world_grab_tether_scale and the last frame's less WEFT_TETHER_RELAX_RATE × dt. The tethers
/// are hard limits, so a scale that dropped at once (a release at the hand's reach: 1.02 → 1) would
/// move every particle beyond its new limit there in one substep, at that distance / h (up to
/// 14 m/s in `hang` 64²): the overreach now comes back over 0.5 s, the farthest tether's end moving
/// 0.04 × its length a second (0.11 m/s in `hang`). Rising, the scale follows at once.
#define WEFT_TETHER_RELAX_RATE 0.04f
/// The factor in the last frame stepped: weft_world_grab_tether_scale for the hand at
/// weft_world_grab_position (1 if nothing is grabbed), coming down at most WEFT_TETHER_RELAX_RATE
/// a second. A solver that steps the state elsewhere (the GPU solver) keeps it so too.
float weft_world_tether_scale(const weft_world* world);
/// That factor for a hand at the aim, weft_world_grab_position_at(pin_time).
float weft_world_tether_scale_at(const weft_world* world, double pin_time);
/// Lets go of the grabbed particle (its own inverse mass is restored).
void weft_world_release(weft_world* world);
/// 1 + the cloth's strain_limit (the longest any constraint may be, × its rest length): INFINITY
/// for a cloth without a limit (or a NULL world).
float weft_world_stretch_limit(const weft_world* world);
/// Sweeps run so far by the frame-end strain limit: a frame that ends with a stretch constraint (a
/// grid edge) longer than rest × (1 + 2 × strain_limit) sweeps the grid's edges in space order (up
/// to 64 times) until none is, each sweep shortening those beyond rest × (1 + strain_limit) to that
/// length; the colliders then push out, and every move δ adds δ/dt to the velocity (0 while the
/// solve alone holds the limit; the CPU solver only). Reset with the world.
int64_t weft_world_strain_sweeps(const weft_world* world);
/// The grabbed particle, or -1.
int32_t weft_world_grabbed(const weft_world* world);

/// The air as the solvers run it (aerodynamics.c), pure functions of the world for the GPU solver
/// too: whether it acts (air_density > 0 and drag or lift > 0) and the wind at simulated time `time`
/// (s since creation or reset; a substep starting at t feels the wind at t): def.wind plus the
/// seeded gusts.
bool weft_world_air_active(const weft_world* world);
weft_vec3 weft_world_air_wind(const weft_world* world, double time);
/// The air force of every cloth triangle on the current positions and velocities in the wind at
/// `time`, as a substep computes them: 4 floats a triangle (a third of its drag + lift in N, the
/// share of each corner, then the relative air speed in m/s). out holds `capacity` floats (at least
/// 4 × triangles). WEFT_ERROR_INVALID_ARGUMENT without air (weft_world_air_active) or room. For tests.
weft_result weft_world_air_forces(weft_world* world, double time, float* out, int32_t capacity);

/// Multipliers of the self-collision hash: cell (x, y, z) (integer coordinates, floor(p / thickness))
/// goes to bucket ((x·PX) ^ (y·PY) ^ (z·PZ)) mod table_size in 32-bit unsigned arithmetic.
#define WEFT_SELF_HASH_PRIME_X 92837111u
#define WEFT_SELF_HASH_PRIME_Y 689287499u
#define WEFT_SELF_HASH_PRIME_Z 283923481u

/// Self-collision as the solvers run it, every substep after the constraint solve. The partners of
/// a free particle i are the particles j within `reach` now that were farther than
/// 1.01 × rest_distance apart in the rest pose (at most 16 per particle, the nearest kept; the CPU
/// finds them in a spatial hash, self_collision.c, the GPU in its own, gpu/self_collision.wgsl). For each partner closer than the thickness,
/// i is pushed its share w_i'/(w_i'+w_j') of (thickness − d) along the pair's direction n (from j
/// to i), the inverse masses scaled for stacking: w_i' = w_i (1 + l), w_j' = w_j (1 − l),
/// l = 0.5 × (n · up), up against gravity (0 without it): the upper of a vertical pair takes 3/4 of
/// the push, so a pile does not sink into itself under its own weight; and friction
/// (the world's) stops the pair's relative tangential slip over the substep where it is at most
/// friction × (thickness − d), else removes friction × it, i taking its share;
/// i then moves by the sum of its pushes (push and friction) times max s_k / Σ s_k, s_k its shares
/// of the depths (Jacobi: every push reads the same positions): the mean of equal pushes, the whole
/// of a lone one, and continuous as a contact opens (its push counts in proportion to its depth). A particle
/// with any partner moves at most max_step from its position at the start of the substep. `reach`
/// is the least reach: the CPU's lists widen it, up to `largest_reach`, while the cloth moves fast
/// (fewer rebuilds; the pushes are the same). The GPU's lists reach `largest_reach` throughout.
typedef struct weft_self_collision_view {
	bool enabled;        ///< weft_world_def.self_collision
	float thickness;     ///< m
	float reach;         ///< m, partners are searched this far (1.5 × thickness)
	float largest_reach; ///< m, the CPU's lists' widest reach: 2 × thickness, or less where that passes rest_distance
	float rest_distance; ///< m, max(thickness, two grid spacings): closer at rest = never partners
	float max_step;      ///< m, the most a particle with partners moves in one substep (0.4 × thickness)
	uint32_t table_size; ///< buckets of the hash (a power of two ≥ 2 × particles)
	int64_t rebuilds;    ///< substeps since creation or reset whose neighbour lists were rebuilt (CPU)
} weft_self_collision_view;

/// The self-collision settings in force.
weft_self_collision_view weft_world_self_collision(const weft_world* world);

/// Casts a ray against the cloth triangles; *out_particle is the vertex of the hit triangle
/// nearest to the hit point, *out_distance the ray parameter. WEFT_OK with -1 (distance +inf) when
/// nothing is hit; a world that is not finite (weft_world_is_finite) hits nothing, and the distance
/// is never NaN.
weft_result weft_world_raycast(const weft_world* world, weft_vec3 origin, weft_vec3 direction, int32_t* out_particle,
                               float* out_distance);

/// Recomputes the render arrays (area-weighted normals, per-vertex strain) from the positions.
void weft_world_update_render_data(weft_world* world);
/// The same render data as gathers, for a GPU (no float atomics): per vertex its triangles and its
/// stretch constraints, ascending (the order weft_world_update_render_data sums in). uint32 words;
/// offsets are absolute word indices into the same array:
///   [0, n]                   first entry of each vertex's triangle list (n + 1 offsets, the last = end)
///   ...                      triangle numbers
///   [strain_base, +n]        first entry of each vertex's stretch-constraint list (n + 1 offsets)
///   ...                      constraint indices
/// Returns the words it takes and sets *out_strain_base; fills out_words only when capacity is enough
/// (pass NULL, 0 to ask). Topology only: it does not change while the world lives.
int32_t weft_world_render_adjacency(const weft_world* world, uint32_t* out_words, int32_t capacity,
                                    int32_t* out_strain_base);

/// Particle count.
int32_t weft_world_particle_count(const weft_world* world);
/// Grid size in particles.
void weft_world_grid_size(const weft_world* world, int32_t* out_width, int32_t* out_height);
/// Positions, float4 per particle: x, y, z, inverse mass (0 = pinned).
float* weft_world_positions(weft_world* world);
/// Positions at the start of the current substep, float4 per particle (solver state).
float* weft_world_previous_positions(weft_world* world);
/// Velocities, float4 per particle (w unused, 0).
float* weft_world_velocities(weft_world* world);
/// Residuals, float4 per particle (w unused, 0): what float rounding kept out of the last predicted
/// position, carried into the next one (solver state, 0 at creation and reset).
float* weft_world_residuals(weft_world* world);
/// Rest positions, float4 per particle (w = inverse mass as built).
const float* weft_world_rest_positions(const weft_world* world);
/// Normals, float4 per particle (w 0), from weft_world_update_render_data.
const float* weft_world_normals(const weft_world* world);
/// Strain per particle: mean (L-L0)/L0 of its stretch constraints, from weft_world_update_render_data.
const float* weft_world_strain(const weft_world* world);
/// Texture coordinates, float2 per particle, in [0,1].
const float* weft_world_uvs(const weft_world* world);
/// Triangle indices (3 per triangle, two triangles per grid quad).
const uint32_t* weft_world_indices(const weft_world* world);
/// Number of indices (3 × triangles).
int32_t weft_world_index_count(const weft_world* world);
/// The coloured constraints.
weft_constraints_view weft_world_constraints(const weft_world* world);
/// Lagrange multipliers, one per constraint (solver state, reset every substep).
float* weft_world_lambdas(weft_world* world);
/// The tethers.
weft_tethers_view weft_world_tethers(const weft_world* world);
/// Simulated time in s.
double weft_world_time(const weft_world* world);
/// Frames stepped since creation or reset.
int64_t weft_world_frame(const weft_world* world);
/// Substeps run since creation or reset (the first one kicks the velocities by h/2).
int64_t weft_world_substeps_run(const weft_world* world);
/// Substeps the last frame took: substeps, or more near a collider or for a fast hand
/// (max_substeps), fewer while raised substeps are worked up to (WEFT_SETTINGS_RAMP); before the
/// first frame, substeps.
int32_t weft_world_frame_substeps(const weft_world* world);
/// Iterations a substep of the last frame took: iterations, or fewer while raised ones are worked up
/// to (WEFT_SETTINGS_RAMP); before the first frame, iterations.
int32_t weft_world_frame_iterations(const weft_world* world);
/// Substeps the last frame's motion asked for (the bound max_substeps works to: no particle near a
/// collider, and not the hand, moving more than its share of a spacing in one substep), whatever
/// max_substeps allowed, at most WEFT_MAX_SUBSTEPS; substeps without a collider or a grab, and
/// before the first frame. More than weft_world_frame_substeps: the cloth moved faster than its
/// substeps hold, and may pass through a thin part of a collider.
int32_t weft_world_frame_substeps_wanted(const weft_world* world);

/// Largest |L−L0|/L0 over the stretch constraints now (NaN if any of them is NaN).
float weft_world_max_stretch(const weft_world* world);
/// True if every position and velocity is finite.
bool weft_world_is_finite(const weft_world* world);
/// FNV-1a hash of positions and velocities (bit-exact determinism checks).
uint64_t weft_world_state_hash(const weft_world* world);

/// Turns the SIMD constraint solve on or off for every world (on by default where the build has
/// SIMD). Both paths give bit-identical results; the switch exists for benchmarks and tests.
void weft_set_simd_enabled(bool enabled);
/// True if this build has a SIMD path and it is on.
bool weft_simd_active(void);
/// Picks the constraint solve's path for every world: 0 scalar, 1 the widest this build and CPU
/// have (the default), 4 lanes (SSE2 on x86-64, SIMD128 in wasm), 8 lanes (AVX2, x86-64 CPUs that
/// have it, detected at run time; in wasm two SIMD128 fours), 16 lanes (AVX-512 F and DQ, x86-64
/// CPUs that have them, detected at run time; not the default on Intel's Skylake-SP, Cascade Lake
/// and Cooper Lake, whose clock drops under 512-bit arithmetic: 8 there). WEFT_ERROR_INVALID_ARGUMENT
/// for another value or a width the build or CPU lacks (the path stays as it was). All paths give
/// bit-identical results.
weft_result weft_set_simd_width(int32_t lanes);
/// Lanes of the solve that runs now: 0 (scalar), 4, 8 or 16.
int32_t weft_simd_width(void);

/// Constraint graph colouring of any topology: colours[k] for each of count constraints over
/// particle_count particles, so that no two constraints of one colour share a particle. Uses at
/// most budget colours; a constraint that fits none gets colour `budget` (the overflow batch).
/// hint (optional, may be NULL) proposes a colour per constraint; it is kept where it is valid.
/// *out_color_count = colours used (overflow not counted). scratch needs
/// weft_coloring_scratch_size(particle_count) bytes.
weft_result weft_color_constraints(const uint32_t* pairs, int32_t count, int32_t particle_count, int32_t budget,
                                   const uint8_t* hint, uint8_t* colours, int32_t* out_color_count, void* scratch);
/// Bytes of scratch weft_color_constraints needs.
size_t weft_coloring_scratch_size(int32_t particle_count);

/// Named scenes shared by the CLI, the tests and the page: "hang", "sphere", "flag", "bunny", "fold"
/// (weft_scene_names() lists them all). grid = particles per side.
typedef struct weft_scene_def {
	weft_world_def world;
	weft_cloth_def cloth;
	weft_sphere_def spheres[WEFT_MAX_SPHERES];
	int32_t sphere_count;
	float frame_dt;            ///< s, the scene's frame time (1/60)
	const char* mesh_collider; ///< built-in mesh collider fitted under the cloth ("bunny") or NULL
} weft_scene_def;

/// Fills *out for a named scene at grid × grid particles.
weft_result weft_scene(const char* name, int32_t grid, weft_scene_def* out);
/// Creates a world from a scene definition (cloth + spheres + any scene collider).
weft_result weft_world_create_scene(const char* name, int32_t grid, weft_world** out_world);
/// Creates a world from a (possibly edited) scene definition: cloth, spheres and its built-in mesh
/// collider, if it names one.
weft_result weft_world_create_from_scene(const weft_scene_def* scene, weft_world** out_world);
/// NULL-terminated list of scene names.
const char* const* weft_scene_names(void);

/// A destination for bytes: write(context, offset, data, size) puts size bytes at byte offset of
/// the output and returns false if it cannot. Offsets mostly grow; a writer may come back once to
/// fill in what it could only know at the end (the glTF writer's header and JSON). move (optional,
/// NULL for a file) moves size bytes already written from offset `from` down to `to` (memmove): a
/// memory sink lets the glTF writer drop the JSON room it reserved and did not use.
typedef struct weft_byte_sink {
	bool (*write)(void* context, uint64_t offset, const void* data, size_t size);
	void* context;
	bool (*move)(void* context, uint64_t to, uint64_t from, size_t size);
} weft_byte_sink;

/// Most frames one .glb may hold (its weights track grows as frames²).
#define WEFT_GLTF_MAX_FRAMES 16384

/// What a binary glTF 2.0 recording holds.
typedef struct weft_gltf_def {
	int32_t frame_capacity; ///< most frames weft_gltf_writer_add_frame may add, 0..WEFT_GLTF_MAX_FRAMES, default 600
	float frame_dt;         ///< s per world frame (the scene's frame_dt), (0, 1], default 1/60
	bool cloth;             ///< the cloth, animated; default true (false: colliders only)
	bool colliders;         ///< ground quad, spheres (animated), mesh collider; default true
} weft_gltf_def;

/// Default recording definition.
weft_gltf_def weft_default_gltf_def(void);

/// A .glb being written: the cloth (positions, normals, indices) as a mesh whose base is the
/// world at begin and with one morph target per added frame (POSITION and NORMAL deltas from the
/// base), played by one animation ("simulation") whose weights track shows frame k at
/// (world frame − base frame) × frame_dt; the colliders as static meshes (ground as a 20 m quad,
/// spheres as one unit sphere scaled per node with a translation track, the mesh collider in world
/// space). Nodes carry extras {"weft": "cloth" | "ground" | "sphere" | "mesh"}. The layout is fixed
/// by frame_capacity at begin, so the binary chunk is streamed to the sink frame by frame (nothing
/// but the base pose and one frame's scratch is held); finish writes the header and the JSON. With
/// fewer frames than the capacity, the JSON is padded with spaces, or, when the sink can move
/// bytes, the binary chunk is moved down and the file ends at the size finish reports.
typedef struct weft_gltf_writer weft_gltf_writer;

/// Starts a recording of world (its render data is brought up to date). WEFT_ERROR_TOO_LARGE when
/// frame_capacity frames of this world would pass the 4 GiB a .glb can hold; WEFT_ERROR_IO when the
/// sink refuses a write. On failure *out_writer is NULL.
weft_result weft_gltf_writer_begin(weft_world* world, const weft_gltf_def* def, weft_byte_sink sink,
                                   weft_gltf_writer** out_writer);
/// Adds the world's current state as the next frame (render data brought up to date).
/// WEFT_ERROR_INVALID_ARGUMENT past the capacity, for another particle count or a frame not after
/// the last one; WEFT_ERROR_NON_FINITE for NaN positions; WEFT_ERROR_IO when the sink refuses.
weft_result weft_gltf_writer_add_frame(weft_gltf_writer* writer, weft_world* world);
/// Writes the rest (animation data, JSON, header); *out_size (may be NULL) = the file's bytes.
weft_result weft_gltf_writer_finish(weft_gltf_writer* writer, uint64_t* out_size);
/// Frames added so far.
int32_t weft_gltf_writer_frame_count(const weft_gltf_writer* writer);
/// Frees the writer (finished or not; NULL is fine). It never closes the sink.
void weft_gltf_writer_destroy(weft_gltf_writer* writer);
/// Bytes a .glb of world with `frames` frames takes (frames ≤ def->frame_capacity), without writing.
weft_result weft_gltf_size(const weft_world* world, const weft_gltf_def* def, int32_t frames, uint64_t* out_size);

/// Wavefront OBJ text of the cloth as it is now, in world space: positions, UVs, normals (render
/// data brought up to date) and triangles, one object "cloth". Written front to back through sink
/// (its move is not used); *out_size (may be NULL) = the text's bytes. WEFT_ERROR_IO when the sink
/// refuses a write. The CLI's `run --export DIR` files and the page's OBJ download are this text.
weft_result weft_obj_write_cloth(weft_world* world, weft_byte_sink sink, uint64_t* out_size);
/// The same with the frame and time its first line names given (a solver that runs the cloth
/// elsewhere, the page's GPU solver, names its own; the world's positions are written as they are).
/// frame ≥ 0, time finite and ≥ 0 (s), else WEFT_ERROR_INVALID_ARGUMENT.
weft_result weft_obj_write_cloth_at(weft_world* world, int64_t frame, double time, weft_byte_sink sink,
                                    uint64_t* out_size);
/// The same for the colliders as simulated: the ground (a 20 m quad), the spheres (the core's unit
/// sphere, as in the .glb), the mesh collider; one object each.
weft_result weft_obj_write_colliders(const weft_world* world, weft_byte_sink sink, uint64_t* out_size);

#ifdef __cplusplus
}
#endif

#endif

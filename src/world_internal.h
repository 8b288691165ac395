// Private layout of a world. Hot per-particle state (positions, previous positions, velocities)
// is split from cold data (rest pose, UVs, render arrays); all arrays are allocated once at creation.
#ifndef WEFT_WORLD_INTERNAL_H
#define WEFT_WORLD_INTERNAL_H

#include "weft/weft.h"

// The most a particle near a mesh collider moves in one substep, in grid spacings: a frame where
// one would move more takes more substeps, up to max_substeps (frame_substeps.c; the `bunny`
// scene's max_substeps covers a hand at its fastest: scenes.c).
#define WEFT_MESH_MOTION_PER_SUBSTEP 0.1f

// A tether group's kind (tether_groups), where it has no one anchor (its anchor, ≥ 0, otherwise):
// no tether in the slot (the anchors' own "none"), anchors of their own (gathered), or four
// consecutive particles: the row under a pinned edge, tethered to the pins above it, reads them as
// one vector instead of gathering.
#define WEFT_TETHER_NONE (-1)
#define WEFT_TETHER_GATHER (-2)
#define WEFT_TETHER_CONSECUTIVE (-3)

typedef struct weft_sphere {
	weft_sphere_def def;
	weft_vec3 center;          // current centre
	weft_vec3 previous_center; // centre at the start of the substep (for friction)
	double motion_time;        // s of scripted motion run so far (advances only while moving)
	bool moving;
} weft_sphere;

typedef struct weft_self_collision weft_self_collision; // self_collision.c, optional
typedef struct weft_mesh_collider weft_mesh_collider;   // mesh collision (mesh.h), optional
typedef struct weft_thread_pool weft_thread_pool;       // worker threads (thread_pool.c), optional

// A run of one colour's constraints [begin, end) at fixed strides on the grid (solver_plan.c):
// CONTIGUOUS a = a0 + i, b = a + d; INTERLEAVED a = a0 + 2i, b = a + 1 (horizontal stretch);
// PAIRED a = a0 + 4⌊i/2⌋ + (i mod 2), b = a + 2 (horizontal bend); i = k − begin. Strided runs hold
// whole groups of 4. GATHER is anything else: indices read from the constraints, one at a time.
typedef enum weft_segment_kind {
	WEFT_SEGMENT_GATHER,
	WEFT_SEGMENT_CONTIGUOUS,
	WEFT_SEGMENT_INTERLEAVED,
	WEFT_SEGMENT_PAIRED,
} weft_segment_kind;

typedef struct weft_solve_segment {
	int32_t begin, end;
	int32_t kind; // weft_segment_kind
	int32_t a0, d;
} weft_solve_segment;

struct weft_world {
	weft_world_def def;
	weft_allocator allocator;
	int32_t width, height, particle_count;

	// hot state, float4 per particle (xyz + inverse mass in w for positions)
	float* positions;
	float* previous_positions;
	float* velocities;
	float* frame_start;     // float4 per particle: where it was when the last frame began (frame_substeps.c)
	bool frame_start_stale; // frame_start was not kept up to date (no collider): the next frame takes it afresh
	float* residuals;       // float4 per particle: what rounding kept out of the last prediction (solver.c)

	// constraints sorted by colour
	weft_constraint* constraints;
	float* lambdas;
	uint8_t* types;
	int32_t constraint_count;
	int32_t count_by_type[3];
	int32_t color_count;
	int32_t color_offsets[WEFT_COLOR_BUDGET + 2];

	// tethers: WEFT_TETHERS_PER_PARTICLE anchors (-1 none) and max distances per particle
	int32_t* tether_anchor;
	float* tether_max_distance;

	// The SIMD solve's private layout (solver_plan.c): while the constraints are solved, positions
	// live in soa as four rows of soa_stride floats (x, y, z, inverse mass), so a batch whose
	// constraints sit at fixed strides on the grid loads whole vectors, no gathers. Constraint values
	// in constraint order, the tethers per slot (row k holds every particle's k-th tether), and each
	// colour's runs of strided constraints (segments[batch_segments[c] .. batch_segments[c + 1])).
	float* soa;
	int32_t soa_stride;
	float* rest_lengths;
	float* compliances;
	int32_t* tether_anchor_rows;
	float* tether_distance_rows;
	int32_t* tether_groups; // per slot and 4 particles: their one anchor, or a WEFT_TETHER_* kind
	weft_solve_segment* segments;
	int32_t segment_count;
	int32_t batch_segments[WEFT_COLOR_BUDGET + 1];
	int32_t* gathered; // the constraints of every colour's gather segments, colour after colour
	int32_t batch_gathered[WEFT_COLOR_BUDGET + 1];
	int32_t simd_width; // lanes of the solve this frame: 0 scalar (positions in place), 4 or 8

	// cold data
	float* rest_positions;
	float* uvs;
	uint32_t* indices;
	int32_t index_count;
	float* normals;
	float* strain;
	float* triangle_forces; // float4 per triangle: a third of its air force (N), when air is on
	int32_t* strain_counts; // stretch constraints per particle (fixed topology)
	uint64_t* sweep_marks;  // the strain sweeps' two bitmaps of weft_sweep_mark_words words each (strain_sweeps.c)

	weft_sphere spheres[WEFT_MAX_SPHERES];
	int32_t sphere_count;

	float thickness;        // m, self-collision distance in force (resolved at creation, or set)
	float thickness_wanted; // m, the setting: a thicker one is worked up to (thickness_ramp.c)
	// Compliance a type (stretch, shear, bend) is set to, and the one its constraints have now: less
	// compliant settings on a world that has stepped are worked down to (compliance_ramp.c).
	float compliance_wanted[3], compliance_now[3];
	float strain_limit;        // the cloth's (0 = none)...
	float stretch_limit;       // ...1 + it, INFINITY for none (weft_strain_limited)
	int64_t strain_sweeps;     // sweeps run by the frame-end strain limit (strain_sweeps.c), all frames
	float self_rest_distance;  // m, two grid spacings: rest-pose pairs closer are never pushed
	weft_self_collision* self; // allocated when self-collision is first on

	weft_mesh_collider* mesh; // static triangle mesh collider or NULL
	weft_thread_pool* pool;   // NULL when thread_count is 1

	float tether_scale; // tethers' limits × this, this frame (weft_grab_advance_frame)
	int32_t grabbed;    // particle or -1
	float grabbed_inverse_mass;
	weft_vec3 grab_target;
	float grab_frame_dt;        // s, the frame being stepped (weft_grab_advance_frame)
	weft_vec3 grab_held;        // where the hand held the particle in the last substep (weft_grab_advance_hold)
	weft_vec3 grab_start;       // where the hand held it when this frame began...
	weft_vec3 grab_position;    // ...and where it holds it when the frame ends (weft_world_grab_position)
	int64_t grab_first_substep; // substeps_run before this frame: the hand's path is cut per substep

	int64_t substeps_run;          // since creation or reset
	int32_t frame_substeps;        // the substeps of the frame being stepped, or of the last one (frame_substeps.c)
	int32_t frame_substeps_wanted; // what that frame's motion asked for, whatever max_substeps allowed
	int32_t frame_iterations;      // the iterations a substep of that frame takes
	// The user's substeps and iterations the last frame took (less than def's while raised ones are
	// worked up to: WEFT_SETTINGS_RAMP, frame_substeps.c).
	int32_t ramp_substeps, ramp_iterations;
	bool stepped;    // this substep is not the first one (the leapfrog's half kick)
	bool non_finite; // the last step found the state NaN or infinite (steps refuse until it is finite)
	// The frame-end checks of each thread's slice of the particles (solver.c): FRAME_CHECK_* bits.
	uint8_t frame_checks[WEFT_MAX_THREADS];
	double clock;       // s simulated since creation or reset, at the start of this substep
	weft_vec3 air_wind; // m/s, the wind of this substep (gusts included)
	double time;
	int64_t frame;
};

// Allocation through the world's hook.
void* weft_alloc(const weft_allocator* allocator, size_t size);
void weft_free(const weft_allocator* allocator, void* ptr);
weft_allocator weft_resolve_allocator(weft_allocator allocator);

// render_adjacency.c. Each particle's stretch constraints in ascending order, at words[base...]:
// n + 1 offsets (absolute word indices), then the lists (every constraint under both ends). Returns
// the words it takes; with words NULL only that.
int32_t weft_stretch_adjacency(const weft_world* world, uint32_t* words, int32_t base);

// Records the message weft_last_error() returns; returns result for tail calls.
weft_result weft_fail(weft_result result, const char* format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

// Validation helpers shared by the definitions' checks.
bool weft_is_finite_vec3(weft_vec3 v);
weft_result weft_validate_world_def(const weft_world_def* def);
weft_result weft_validate_cloth_def(const weft_cloth_def* def);
weft_result weft_validate_sphere_def(const weft_sphere_def* def);
// [0, WEFT_MAX_COMPLIANCE]; field names the value in the message.
weft_result weft_validate_compliance(float compliance, const char* field);
weft_result weft_validate_strain_limit(float strain_limit);
// [0, 1) m (0: the grid spacing), weft_cloth_def.thickness and weft_world_set_thickness.
weft_result weft_validate_thickness(float thickness);
// Every type's constraints at its setting, at once (a reset: from rest nothing is worked down to).
void weft_compliance_settle(weft_world* world);
// Each component within ±WEFT_MAX_COORDINATE; field names the value in the message.
weft_result weft_validate_position(weft_vec3 position, const char* field);
// WEFT_OK if every position and velocity is finite, else WEFT_ERROR_NON_FINITE naming the first bad
// one (diagnostics.c).
weft_result weft_check_finite(const weft_world* world);
// True if the positions and velocities of particles [begin, end) are all finite.
bool weft_finite_range(const weft_world* world, int32_t begin, int32_t end);

// Cloth building (cloth.c): fills particles, constraints with colour hints, UVs, indices.
weft_result weft_cloth_build(weft_world* world, const weft_cloth_def* def);
// Tethers (tethers.c): nearest and outermost pinned particles in the rest pose.
void weft_tethers_build(weft_world* world);
// Particles [begin, end): no farther from the grabbed particle than in the rest pose (grab.c).
// Particle p's coordinates are px[stride p], py[stride p], pz[stride p], inverse mass pw[stride p]:
// the float4 positions (stride 4) or the SIMD solve's rows (stride 1).
void weft_grab_tethers(weft_world* world, float* px, float* py, float* pz, const float* pw, int32_t stride,
                       int32_t begin, int32_t end);
// Once a frame: the hand's path through the frame about to be stepped, and the stretch every tether
// allows (1, or more while a hand pulls beyond reach).
void weft_grab_advance_frame(weft_world* world, float dt);
// frame_substeps.c: the substeps of the next frame of dt s (after weft_grab_advance_frame); keeps
// where each particle begins it (frame_start).
int32_t weft_frame_substeps(weft_world* world, float dt);
// Where the hand holds the grabbed particle at the end of substep `substeps_run` of this frame.
weft_vec3 weft_grab_substep_position(const weft_world* world);
// Moves the hold to this substep and returns where the grabbed particle sits: the hand's position
// (weft_grab_substep_position) kept out of the spheres and above the ground by the collision
// margin, and a mesh met on the way from where it held it the substep before (weft_world_hand_path);
// stored in grab_held, which the next substep starts from, so it is called once a substep.
weft_vec3 weft_grab_advance_hold(weft_world* world);

// The frame-end strain limit (strain_sweeps.c). The check: true if a grid edge that starts at a
// particle of [begin, end) (to the next in its row or its column) ended the frame well beyond the
// limit, or is not finite (threads check slices of the particles). The sweeps of the stretch
// constraints, once a check found one: returns how many ran (at least 1).
bool weft_strain_check(const weft_world* world, int32_t begin, int32_t end);
int32_t weft_strain_sweeps(weft_world* world, float dt);
// Words of one of the sweeps' bitmaps (a bit a particle): world->sweep_marks holds two.
static inline int32_t weft_sweep_mark_words(int32_t particle_count) { return (particle_count + 63) / 64; }

// A ground contact of one particle at (*x, *y, *z) below floor_y: on the plane, then its slip along
// the ground over the substep: stopped where it is at most friction × the push up (static
// friction: a cloth lying on a slope or pulled gently stays put), else friction × it removed
// (collide.c's apply_friction with n = up and a still ground, operation for operation). Inline, so
// the fused pass keeps the particle in registers.
static inline void weft_ground_contact(float* x, float* y, float* z, const float* previous, float floor_y,
                                       float friction) {
	const float hold = friction * (floor_y - *y); // the most slip static friction stops
	*y = floor_y;
	const float sx = *x - previous[0] - 0.0f, sy = *y - previous[1] - 0.0f, sz = *z - previous[2] - 0.0f;
	const float along = sx * 0.0f + sy * 1.0f + sz * 0.0f;
	const float tx = sx - along * 0.0f, ty = sy - along * 1.0f, tz = sz - along * 0.0f;
	const float removed = tx * tx + ty * ty + tz * tz <= hold * hold ? 1.0f : friction;
	*x -= removed * tx;
	*y -= removed * ty;
	*z -= removed * tz;
}

// Collisions with spheres and the ground (collide.c), once per substep; the mesh is mesh_collide.c.
void weft_collide_primitives(weft_world* world, int32_t begin, int32_t end); // particles [begin, end)
void weft_collide_ground(weft_world* world, int32_t p);                      // particle p, the ground only
void weft_collide_primitives_push_out(weft_world* world, int32_t p);         // particle p, no friction
// Where the spheres (in order) and the ground put a free particle at `point`, friction aside.
weft_vec3 weft_collide_point_push_out(const weft_world* world, weft_vec3 point);
void weft_spheres_advance(weft_world* world, float dt);
void weft_sphere_place(weft_sphere* sphere);
void weft_spheres_reset(weft_world* world);


// Deterministic math (deterministic_math.c): the same bits on every platform and libm.
float weft_sin(float x);
double weft_atan(double r); // r ≥ 0
double weft_cbrt(double x); // x > 0

#endif

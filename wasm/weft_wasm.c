// The WebAssembly boundary: the only C that knows it runs inside a wasm instance.
//
// JavaScript sees a small flat API of scalar arguments (no structs by value, which the wasm C ABI
// passes through hidden pointers) and reads the core's arrays in place: every *_ptr export is the
// byte address of an array in linear memory, and JS wraps it in a typed-array view (zero copy).
// The arrays keep their address for the world's lifetime because the step never allocates; only
// world creation can grow memory, so JS re-makes its views after creating a world.
//
// A handle is a pointer to a wasm_world (world + the scene it came from). Functions that can fail
// return a weft_result code; last_error() holds the sentence that says why.
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wasm_world.h"
#include "weft/weft.h"


// The layout JS and WGSL mirror (weft.h documents it as 16 bytes); a test compares these with the
// TypeScript/WGSL constants through the layout exports below.
_Static_assert(sizeof(weft_constraint) == 16, "weft_constraint must stay 16 bytes");
_Static_assert(offsetof(weft_constraint, a) == 0, "weft_constraint.a at 0");
_Static_assert(offsetof(weft_constraint, b) == 4, "weft_constraint.b at 4");
_Static_assert(offsetof(weft_constraint, rest_length) == 8, "weft_constraint.rest_length at 8");
_Static_assert(offsetof(weft_constraint, compliance) == 12, "weft_constraint.compliance at 12");


// JS writes C strings (scene names) here before a call; 0-terminated.
static char string_buffer[256];

WASM_EXPORT(string_buffer) char* wasm_string_buffer(void) { return string_buffer; }
WASM_EXPORT(string_buffer_size) int32_t wasm_string_buffer_size(void) { return (int32_t)sizeof string_buffer; }
WASM_EXPORT(last_error) const char* wasm_last_error(void) { return weft_last_error(); }
WASM_EXPORT(result_string) const char* wasm_result_string(int32_t result) {
	return weft_result_string((weft_result)result);
}

WASM_EXPORT(scene_count) int32_t wasm_scene_count(void) {
	int32_t count = 0;
	for (const char* const* name = weft_scene_names(); name && *name; ++name) ++count;
	return count;
}
WASM_EXPORT(scene_name) const char* wasm_scene_name(int32_t index) {
	if (index < 0 || index >= wasm_scene_count()) return NULL;
	return weft_scene_names()[index];
}

// ---- world lifetime -------------------------------------------------------------------------

wasm_world* wasm_world_adopt(weft_world* world, const weft_scene_def* scene) {
	wasm_world* handle = calloc(1, sizeof *handle);
	if (!handle) {
		weft_world_destroy(world);
		return NULL;
	}
	// The render-data gather lists (topology: they never change) are built here, where creating a
	// world may grow memory anyway, so JS reads them through a view like every other array.
	int32_t words = weft_world_render_adjacency(world, NULL, 0, &handle->render_strain_base);
	handle->render_adjacency = malloc((size_t)(words > 0 ? words : 1) * sizeof(uint32_t));
	if (!handle->render_adjacency) {
		free(handle);
		weft_world_destroy(world);
		return NULL;
	}
	handle->render_adjacency_words = weft_world_render_adjacency(world, handle->render_adjacency, words, NULL);
	handle->world = world;
	handle->scene = *scene;
	return handle;
}

const char* wasm_scene_name_argument(void) {
	string_buffer[sizeof string_buffer - 1] = '\0';
	return string_buffer;
}

// Creates the named scene (name read from string_buffer) at grid × grid particles. 0 on failure.
WASM_EXPORT(world_create_scene) wasm_world* wasm_world_create_scene(int32_t grid) {
	const char* name = wasm_scene_name_argument();
	weft_scene_def scene;
	weft_world* world = NULL;
	if (weft_scene(name, grid, &scene) != WEFT_OK || weft_world_create_scene(name, grid, &world) != WEFT_OK)
		return NULL;
	return wasm_world_adopt(world, &scene);
}

WASM_EXPORT(world_destroy) void wasm_world_destroy(wasm_world* h) {
	if (!h) return;
	weft_world_destroy(h->world);
	free(h->render_adjacency);
	free(h->air_forces);
	free(h);
}

WASM_EXPORT(world_frame_dt) float wasm_world_frame_dt(const wasm_world* h) { return h->scene.frame_dt; }

// ---- stepping -------------------------------------------------------------------------------

WASM_EXPORT(world_step) int32_t wasm_world_step(wasm_world* h, float dt) { return weft_world_step(h->world, dt); }

// n frames of the scene's frame time in one call (benchmarks, step(n) while paused).
WASM_EXPORT(world_step_frames) int32_t wasm_world_step_frames(wasm_world* h, int32_t frames) {
	for (int32_t i = 0; i < frames; ++i) {
		weft_result result = weft_world_step(h->world, h->scene.frame_dt);
		if (result != WEFT_OK) return result;
	}
	return WEFT_OK;
}

WASM_EXPORT(world_reset) void wasm_world_reset(wasm_world* h) { weft_world_reset(h->world); }
WASM_EXPORT(world_update_render_data) void wasm_world_update_render_data(wasm_world* h) {
	weft_world_update_render_data(h->world);
}

// ---- live settings --------------------------------------------------------------------------
// One setter per setting keeps every call self-describing on the JS side (no field-offset tables).

static int32_t apply_def(wasm_world* h, weft_world_def def) { return weft_world_set_def(h->world, &def); }

WASM_EXPORT(world_get_substeps) int32_t wasm_world_get_substeps(const wasm_world* h) {
	return weft_world_get_def(h->world).substeps;
}
WASM_EXPORT(world_get_max_substeps) int32_t wasm_world_get_max_substeps(const wasm_world* h) {
	return weft_world_get_def(h->world).max_substeps;
}
WASM_EXPORT(world_get_iterations) int32_t wasm_world_get_iterations(const wasm_world* h) {
	return weft_world_get_def(h->world).iterations;
}
WASM_EXPORT(world_get_damping) float wasm_world_get_damping(const wasm_world* h) {
	return weft_world_get_def(h->world).damping;
}
WASM_EXPORT(world_get_drag) float wasm_world_get_drag(const wasm_world* h) { return weft_world_get_def(h->world).drag; }
WASM_EXPORT(world_get_wind) float* wasm_world_get_wind(wasm_world* h) {
	weft_vec3 wind = weft_world_get_def(h->world).wind;
	h->out[0] = wind.x, h->out[1] = wind.y, h->out[2] = wind.z;
	return h->out;
}
WASM_EXPORT(world_set_substeps) int32_t wasm_world_set_substeps(wasm_world* h, int32_t substeps, int32_t iterations) {
	weft_world_def def = weft_world_get_def(h->world);
	def.substeps = substeps;
	def.iterations = iterations;
	return apply_def(h, def);
}
WASM_EXPORT(world_set_max_substeps) int32_t wasm_world_set_max_substeps(wasm_world* h, int32_t max_substeps) {
	weft_world_def def = weft_world_get_def(h->world);
	def.max_substeps = max_substeps;
	return apply_def(h, def);
}
WASM_EXPORT(world_set_damping) int32_t wasm_world_set_damping(wasm_world* h, float damping) {
	weft_world_def def = weft_world_get_def(h->world);
	def.damping = damping;
	return apply_def(h, def);
}
WASM_EXPORT(world_set_drag) int32_t wasm_world_set_drag(wasm_world* h, float drag) {
	weft_world_def def = weft_world_get_def(h->world);
	def.drag = drag;
	return apply_def(h, def);
}
WASM_EXPORT(world_set_wind) int32_t wasm_world_set_wind(wasm_world* h, float x, float y, float z) {
	weft_world_def def = weft_world_get_def(h->world);
	def.wind = (weft_vec3){x, y, z};
	return apply_def(h, def);
}
// The air (weft_world_def's drag, lift, air_density, gust_strength, gust_seed): out[0] drag,
// out[1] lift, out[2] air density, out[3] gust strength, out[4] gust seed (exact as a float below
// 2^24; the setter takes it as an integer), out[5] air active (1/0).
WASM_EXPORT(world_air) float* wasm_world_air(wasm_world* h) {
	weft_world_def def = weft_world_get_def(h->world);
	h->out[0] = def.drag, h->out[1] = def.lift, h->out[2] = def.air_density, h->out[3] = def.gust_strength;
	h->out[4] = (float)def.gust_seed;
	h->out[5] = weft_world_air_active(h->world) ? 1.0f : 0.0f;
	return h->out;
}
WASM_EXPORT(world_set_air)
int32_t wasm_world_set_air(wasm_world* h, float drag, float lift, float air_density, float gust_strength,
                           uint32_t gust_seed) {
	weft_world_def def = weft_world_get_def(h->world);
	def.drag = drag;
	def.lift = lift;
	def.air_density = air_density;
	def.gust_strength = gust_strength;
	def.gust_seed = gust_seed;
	return apply_def(h, def);
}
// The wind (gusts included) a substep starting at `time` s feels (weft_world_air_wind): out[0..2].
WASM_EXPORT(world_air_wind) float* wasm_world_air_wind(wasm_world* h, double time) {
	weft_vec3 wind = weft_world_air_wind(h->world, time);
	h->out[0] = wind.x, h->out[1] = wind.y, h->out[2] = wind.z;
	return h->out;
}
// weft_world_air_forces (4 floats a triangle) into an array the handle keeps; its address, 0 on failure
// (tests: memory may grow on the first call, so JS makes its view after it).
WASM_EXPORT(world_air_forces) float* wasm_world_air_forces(wasm_world* h, double time) {
	const int32_t floats = 4 * (weft_world_index_count(h->world) / 3);
	if (!h->air_forces) h->air_forces = malloc((size_t)(floats > 0 ? floats : 1) * sizeof(float));
	if (!h->air_forces) return NULL;
	return weft_world_air_forces(h->world, time, h->air_forces, floats) == WEFT_OK ? h->air_forces : NULL;
}
WASM_EXPORT(world_set_gravity) int32_t wasm_world_set_gravity(wasm_world* h, float x, float y, float z) {
	weft_world_def def = weft_world_get_def(h->world);
	def.gravity = (weft_vec3){x, y, z};
	return apply_def(h, def);
}
// gradually: -1, the core's rule (a lower compliance on a world that has stepped is worked down to);
// 0, at once; 1, worked down to (the GPU solver, whose cloth steps outside the core world, says).
WASM_EXPORT(world_set_compliance)
int32_t wasm_world_set_compliance(wasm_world* h, int32_t type, float compliance, int32_t gradually) {
	if (type < WEFT_STRETCH || type > WEFT_BEND) return WEFT_ERROR_INVALID_ARGUMENT;
	return gradually < 0
	           ? weft_world_set_compliance(h->world, (weft_constraint_type)type, compliance)
	           : weft_world_set_compliance_gradually(h->world, (weft_constraint_type)type, compliance, gradually != 0);
}
WASM_EXPORT(world_get_compliance) float wasm_world_get_compliance(const wasm_world* h, int32_t type) {
	return weft_world_compliance(h->world, (weft_constraint_type)type);
}
WASM_EXPORT(world_compliance_now) float wasm_world_compliance_now(const wasm_world* h, int32_t type) {
	return weft_world_compliance_now(h->world, (weft_constraint_type)type);
}
// One frame of the compliances' ramp, for the GPU solver (weft_world_step does it for the core's):
// 1 when the constraint records changed (to upload again).
WASM_EXPORT(world_advance_compliance_ramp) int32_t wasm_world_advance_compliance_ramp(wasm_world* h) {
	return weft_world_advance_compliance_ramp(h->world) ? 1 : 0;
}

// Self-collision on or off (weft_world_def.self_collision), live.
WASM_EXPORT(world_set_self_collision) int32_t wasm_world_set_self_collision(wasm_world* h, int32_t on) {
	weft_world_def def = weft_world_get_def(h->world);
	def.self_collision = on != 0;
	return apply_def(h, def);
}
// The self-collision settings in force (weft_world_self_collision): out[0] enabled (1/0),
// out[1] thickness, out[2] reach, out[3] rest distance, out[4] max step (m), out[5] table size
// (a power of two: exact as a float), out[6] largest reach (m).
WASM_EXPORT(world_self_collision) float* wasm_world_self_collision(wasm_world* h) {
	weft_self_collision_view v = weft_world_self_collision(h->world);
	h->out[0] = v.enabled ? 1.0f : 0.0f;
	h->out[1] = v.thickness, h->out[2] = v.reach, h->out[3] = v.rest_distance, h->out[4] = v.max_step;
	h->out[5] = (float)v.table_size, h->out[6] = v.largest_reach;
	return h->out;
}
// The pins' scripted path: out[0..2] pin velocity (m/s), out[3] pin motion time (s).
WASM_EXPORT(world_pin_motion) float* wasm_world_pin_motion(wasm_world* h) {
	weft_world_def def = weft_world_get_def(h->world);
	h->out[0] = def.pin_velocity.x, h->out[1] = def.pin_velocity.y, h->out[2] = def.pin_velocity.z;
	h->out[3] = def.pin_motion_time;
	return h->out;
}

// Height of the ground plane in m, NaN when the scene has none.
WASM_EXPORT(world_ground_height) float wasm_world_ground_height(const wasm_world* h) {
	weft_world_def def = weft_world_get_def(h->world);
	return def.ground_enabled ? def.ground_height : NAN;
}

// ---- spheres --------------------------------------------------------------------------------

WASM_EXPORT(world_sphere_count) int32_t wasm_world_sphere_count(const wasm_world* h) {
	return weft_world_sphere_count(h->world);
}
WASM_EXPORT(world_set_sphere_moving)
int32_t wasm_world_set_sphere_moving(wasm_world* h, int32_t index, int32_t moving) {
	return weft_world_set_sphere_moving(h->world, (weft_sphere_id){index}, moving != 0);
}
// out[0..2] centre, out[3] radius, out[4] moving (1/0). Returns out, or 0 for a bad index.
WASM_EXPORT(world_get_sphere) float* wasm_world_get_sphere(wasm_world* h, int32_t index) {
	weft_vec3 center;
	float radius;
	bool moving;
	if (weft_world_get_sphere(h->world, (weft_sphere_id){index}, &center, &radius, &moving) != WEFT_OK) return NULL;
	h->out[0] = center.x, h->out[1] = center.y, h->out[2] = center.z;
	h->out[3] = radius;
	h->out[4] = moving ? 1.0f : 0.0f;
	return h->out;
}

// The scripted motion of a sphere: out[0..2] amplitude (m), out[3] frequency (Hz), out[4] moving at
// start (1/0), out[5] how long its motion has run (s), out[6..8] the centre the motion sways about.
// 0 for a bad index.
WASM_EXPORT(world_sphere_motion) float* wasm_world_sphere_motion(wasm_world* h, int32_t index) {
	weft_sphere_def def;
	double motion_time = 0.0;
	if (weft_world_get_sphere_def(h->world, (weft_sphere_id){index}, &def, &motion_time) != WEFT_OK) return NULL;
	h->out[0] = def.motion_amplitude.x, h->out[1] = def.motion_amplitude.y, h->out[2] = def.motion_amplitude.z;
	h->out[3] = def.motion_frequency;
	h->out[4] = def.moving ? 1.0f : 0.0f;
	h->out[5] = (float)motion_time;
	h->out[6] = def.center.x, h->out[7] = def.center.y, h->out[8] = def.center.z;
	return h->out;
}

// Settings the GPU solver mirrors: out[0..2] gravity (m/s²), out[3] max speed (m/s), out[4] friction,
// out[5] collision margin (m).
WASM_EXPORT(world_settings) float* wasm_world_settings(wasm_world* h) {
	weft_world_def def = weft_world_get_def(h->world);
	h->out[0] = def.gravity.x, h->out[1] = def.gravity.y, h->out[2] = def.gravity.z;
	h->out[3] = def.max_speed;
	h->out[4] = def.friction;
	h->out[5] = def.collision_margin;
	return h->out;
}

// ---- grab -----------------------------------------------------------------------------------

WASM_EXPORT(world_stretch_limit) float wasm_world_stretch_limit(const wasm_world* h) {
	return weft_world_stretch_limit(h->world);
}
WASM_EXPORT(world_strain_sweeps) double wasm_world_strain_sweeps(const wasm_world* h) {
	return (double)weft_world_strain_sweeps(h->world);
}
WASM_EXPORT(world_strain_limit) float wasm_world_strain_limit(const wasm_world* h) {
	return weft_world_strain_limit(h->world);
}
// The cloth's thickness, live (weft_world_set_thickness: 0 = the grid spacing); gradually as
// world_set_compliance's.
WASM_EXPORT(world_set_thickness) int32_t wasm_world_set_thickness(wasm_world* h, float thickness, int32_t gradually) {
	return gradually < 0 ? weft_world_set_thickness(h->world, thickness)
	                     : weft_world_set_thickness_gradually(h->world, thickness, gradually != 0);
}
WASM_EXPORT(world_thickness) float wasm_world_thickness(const wasm_world* h) { return weft_world_thickness(h->world); }
// One frame of the thickness's ramp, for the GPU solver: 1 when the thickness in force changed.
WASM_EXPORT(world_advance_thickness_ramp) int32_t wasm_world_advance_thickness_ramp(wasm_world* h) {
	return weft_world_advance_thickness_ramp(h->world) ? 1 : 0;
}
WASM_EXPORT(world_set_strain_limit) int32_t wasm_world_set_strain_limit(wasm_world* h, float strain_limit) {
	return weft_world_set_strain_limit(h->world, strain_limit);
}

// The small-results array of the last call that fills it (world_get_wind, world_get_sphere, world_raycast,
// world_grab_position_at).
WASM_EXPORT(world_out) float* wasm_world_out(wasm_world* h) { return h->out; }

// The particle hit by the ray (-1 for none); out[0] holds the ray parameter of the hit.
WASM_EXPORT(world_raycast)
int32_t wasm_world_raycast(wasm_world* h, float ox, float oy, float oz, float dx, float dy, float dz) {
	int32_t particle = -1;
	float distance = 0.0f;
	if (weft_world_raycast(h->world, (weft_vec3){ox, oy, oz}, (weft_vec3){dx, dy, dz}, &particle, &distance) != WEFT_OK)
		return -1;
	h->out[0] = distance;
	return particle;
}
WASM_EXPORT(world_grab) int32_t wasm_world_grab(wasm_world* h, int32_t particle, float x, float y, float z) {
	return weft_world_grab(h->world, particle, (weft_vec3){x, y, z});
}
WASM_EXPORT(world_grab_move) int32_t wasm_world_grab_move(wasm_world* h, float x, float y, float z) {
	return weft_world_grab_move(h->world, (weft_vec3){x, y, z});
}
WASM_EXPORT(world_release) void wasm_world_release(wasm_world* h) { weft_world_release(h->world); }
WASM_EXPORT(world_grabbed) int32_t wasm_world_grabbed(const wasm_world* h) { return weft_world_grabbed(h->world); }
WASM_EXPORT(world_tether_scale) float wasm_world_tether_scale(const wasm_world* h) {
	return weft_world_tether_scale(h->world);
}
// The hand's move through a frame of dt s that begins with it at (x, y, z) and the pins' clock at
// pin_time s (weft_world_grab_step): out[0..2] where it ends, out[3] the tether scale there.
WASM_EXPORT(world_grab_step)
float* wasm_world_grab_step(wasm_world* h, float x, float y, float z, double pin_time, float dt) {
	const weft_vec3 end = weft_world_grab_step(h->world, (weft_vec3){x, y, z}, pin_time, dt);
	h->out[0] = end.x, h->out[1] = end.y, h->out[2] = end.z;
	h->out[3] = weft_world_grab_tether_scale(h->world, end, pin_time);
	return h->out;
}
// Where the hand aims in a frame that starts at pin_time s: out[0..2].
WASM_EXPORT(world_grab_position_at) float* wasm_world_grab_position_at(wasm_world* h, double pin_time) {
	const weft_vec3 held = weft_world_grab_position_at(h->world, pin_time);
	h->out[0] = held.x, h->out[1] = held.y, h->out[2] = held.z;
	return h->out;
}

// Where a hand moving from (fx, fy, fz) to (tx, ty, tz) in one substep of a frame of dt s in
// `substeps` holds its particle, given the mesh collider (weft_world_hand_path): out[0..2].
WASM_EXPORT(world_hand_path)
float* wasm_world_hand_path(wasm_world* h, float fx, float fy, float fz, float tx, float ty, float tz, float dt,
                            int32_t substeps) {
	const weft_vec3 held =
	    weft_world_hand_path(h->world, (weft_vec3){fx, fy, fz}, (weft_vec3){tx, ty, tz}, dt, substeps);
	h->out[0] = held.x, h->out[1] = held.y, h->out[2] = held.z;
	return h->out;
}

// ---- counts and statistics ------------------------------------------------------------------

WASM_EXPORT(world_particle_count) int32_t wasm_world_particle_count(const wasm_world* h) {
	return weft_world_particle_count(h->world);
}
WASM_EXPORT(world_grid_width) int32_t wasm_world_grid_width(const wasm_world* h) {
	int32_t width, height;
	weft_world_grid_size(h->world, &width, &height);
	return width;
}
WASM_EXPORT(world_grid_height) int32_t wasm_world_grid_height(const wasm_world* h) {
	int32_t width, height;
	weft_world_grid_size(h->world, &width, &height);
	return height;
}
WASM_EXPORT(world_index_count) int32_t wasm_world_index_count(const wasm_world* h) {
	return weft_world_index_count(h->world);
}
WASM_EXPORT(world_constraint_count) int32_t wasm_world_constraint_count(const wasm_world* h) {
	return weft_world_constraints(h->world).count;
}
WASM_EXPORT(world_constraint_count_by_type)
int32_t wasm_world_constraint_count_by_type(const wasm_world* h, int32_t type) {
	return type >= 0 && type < 3 ? weft_world_constraints(h->world).count_by_type[type] : 0;
}
WASM_EXPORT(world_color_count) int32_t wasm_world_color_count(const wasm_world* h) {
	return weft_world_constraints(h->world).color_count;
}
WASM_EXPORT(world_frame) double wasm_world_frame(const wasm_world* h) { return (double)weft_world_frame(h->world); }
WASM_EXPORT(world_time) double wasm_world_time(const wasm_world* h) { return weft_world_time(h->world); }
WASM_EXPORT(world_substeps_run) double wasm_world_substeps_run(const wasm_world* h) {
	return (double)weft_world_substeps_run(h->world);
}
WASM_EXPORT(world_frame_substeps) int32_t wasm_world_frame_substeps(const wasm_world* h) {
	return weft_world_frame_substeps(h->world);
}
WASM_EXPORT(world_frame_substeps_wanted) int32_t wasm_world_frame_substeps_wanted(const wasm_world* h) {
	return weft_world_frame_substeps_wanted(h->world);
}
WASM_EXPORT(world_max_stretch) float wasm_world_max_stretch(const wasm_world* h) {
	return weft_world_max_stretch(h->world);
}
WASM_EXPORT(world_is_finite) int32_t wasm_world_is_finite(const wasm_world* h) {
	return weft_world_is_finite(h->world);
}
// uint64 crosses as a BigInt (i64) in JS.
WASM_EXPORT(world_state_hash) uint64_t wasm_world_state_hash(const wasm_world* h) {
	return weft_world_state_hash(h->world);
}

// ---- arrays, read in place (byte addresses in linear memory) --------------------------------

WASM_EXPORT(world_positions_ptr) float* wasm_world_positions_ptr(wasm_world* h) {
	return weft_world_positions(h->world);
}
WASM_EXPORT(world_previous_positions_ptr) float* wasm_world_previous_positions_ptr(wasm_world* h) {
	return weft_world_previous_positions(h->world);
}
WASM_EXPORT(world_velocities_ptr) float* wasm_world_velocities_ptr(wasm_world* h) {
	return weft_world_velocities(h->world);
}
WASM_EXPORT(world_residuals_ptr) float* wasm_world_residuals_ptr(wasm_world* h) {
	return weft_world_residuals(h->world);
}
WASM_EXPORT(world_rest_positions_ptr) const float* wasm_world_rest_positions_ptr(wasm_world* h) {
	return weft_world_rest_positions(h->world);
}
WASM_EXPORT(world_normals_ptr) const float* wasm_world_normals_ptr(wasm_world* h) {
	return weft_world_normals(h->world);
}
WASM_EXPORT(world_strain_ptr) const float* wasm_world_strain_ptr(wasm_world* h) { return weft_world_strain(h->world); }
WASM_EXPORT(world_uvs_ptr) const float* wasm_world_uvs_ptr(wasm_world* h) { return weft_world_uvs(h->world); }
WASM_EXPORT(world_indices_ptr) const uint32_t* wasm_world_indices_ptr(wasm_world* h) {
	return weft_world_indices(h->world);
}
WASM_EXPORT(world_lambdas_ptr) float* wasm_world_lambdas_ptr(wasm_world* h) { return weft_world_lambdas(h->world); }
// Constraints sorted by colour; colour c owns [color_offsets[c], color_offsets[c+1]); the entry at
// color_count starts the overflow batch and the one after it is the end (color_count + 2 entries).
WASM_EXPORT(world_constraints_ptr) const weft_constraint* wasm_world_constraints_ptr(wasm_world* h) {
	return weft_world_constraints(h->world).constraints;
}
WASM_EXPORT(world_constraint_types_ptr) const uint8_t* wasm_world_constraint_types_ptr(wasm_world* h) {
	return weft_world_constraints(h->world).types;
}
WASM_EXPORT(world_color_offsets_ptr) const int32_t* wasm_world_color_offsets_ptr(wasm_world* h) {
	return weft_world_constraints(h->world).color_offsets;
}
WASM_EXPORT(world_tether_anchor_ptr) const int32_t* wasm_world_tether_anchor_ptr(wasm_world* h) {
	return weft_world_tethers(h->world).anchor;
}
WASM_EXPORT(world_tether_max_distance_ptr) const float* wasm_world_tether_max_distance_ptr(wasm_world* h) {
	return weft_world_tethers(h->world).max_distance;
}
// The render data's gather lists (weft_world_render_adjacency): world_render_adjacency_words words.
WASM_EXPORT(world_render_adjacency_ptr) const uint32_t* wasm_world_render_adjacency_ptr(const wasm_world* h) {
	return h->render_adjacency;
}
WASM_EXPORT(world_render_adjacency_words) int32_t wasm_world_render_adjacency_words(const wasm_world* h) {
	return h->render_adjacency_words;
}
WASM_EXPORT(world_render_strain_base) int32_t wasm_world_render_strain_base(const wasm_world* h) {
	return h->render_strain_base;
}
// Particles with tethers; the arrays hold world_tether_count × layout_tethers_per_particle entries.
WASM_EXPORT(world_tether_count) int32_t wasm_world_tether_count(wasm_world* h) {
	return weft_world_tethers(h->world).count;
}

// ---- layout checks (compared with the TS/WGSL mirrors by a test) ----------------------------

WASM_EXPORT(layout_constraint_size) int32_t wasm_layout_constraint_size(void) {
	return (int32_t)sizeof(weft_constraint);
}
WASM_EXPORT(layout_constraint_offset_a) int32_t wasm_layout_constraint_offset_a(void) {
	return (int32_t)offsetof(weft_constraint, a);
}
WASM_EXPORT(layout_constraint_offset_b) int32_t wasm_layout_constraint_offset_b(void) {
	return (int32_t)offsetof(weft_constraint, b);
}
WASM_EXPORT(layout_constraint_offset_rest_length) int32_t wasm_layout_constraint_offset_rest_length(void) {
	return (int32_t)offsetof(weft_constraint, rest_length);
}
WASM_EXPORT(layout_constraint_offset_compliance) int32_t wasm_layout_constraint_offset_compliance(void) {
	return (int32_t)offsetof(weft_constraint, compliance);
}
WASM_EXPORT(layout_color_budget) int32_t wasm_layout_color_budget(void) { return WEFT_COLOR_BUDGET; }
WASM_EXPORT(layout_tethers_per_particle) int32_t wasm_layout_tethers_per_particle(void) {
	return WEFT_TETHERS_PER_PARTICLE;
}

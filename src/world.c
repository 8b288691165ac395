// World lifecycle (create, reset, destroy), live settings and read-only accessors.
#include <math.h>
#include <string.h>

#include "cloth.h"
#include "aerodynamics.h"
#include "mesh.h"
#include "self_collision.h"
#include "solver.h"
#include "thread_pool.h"
#include "world_internal.h"

// Worlds whose arrays would exceed this are refused up front rather than left to the allocator.
#define MAX_WORLD_BYTES ((uint64_t)8 << 30)

static uint64_t world_bytes(int64_t particles, int64_t constraints, int64_t indices) {
	uint64_t per_particle = 4 * 4 * sizeof(float) * 2 /* hot + rest/normals/scratch */ +
	                        4 * sizeof(float) /* residuals */ + 2 * sizeof(float) + sizeof(float) * 2 +
	                        sizeof(int32_t) * 2 + 12 * sizeof(float) /* the solve's rows and tether rows */;
	uint64_t per_constraint = sizeof(weft_constraint) + sizeof(float) + 1 + /* build scratch */ 16 +
	                          2 * sizeof(float) /* the plan's values */ + sizeof(weft_solve_segment);
	return (uint64_t)particles * per_particle + (uint64_t)constraints * per_constraint +
	       (uint64_t)indices * sizeof(uint32_t);
}

// The census of a cloth def already validated: weft_world_create has checked it and builds from
// these counts, so it does not validate it a second time.
static void census_of_valid(const weft_cloth_def* cloth_def, weft_cloth_census* out) {
	memset(out, 0, sizeof *out);
	const int32_t w = cloth_def->width, h = cloth_def->height;
	weft_cloth_counts(w, h, out->count_by_type);
	out->particles = w * h;
	out->count = out->count_by_type[0] + out->count_by_type[1] + out->count_by_type[2];
	out->index_count = 6 * (w - 1) * (h - 1); // two triangles per grid cell (build_triangles in cloth.c)
	out->color_count = weft_cloth_hint_colours(w, h);
	// The grid colouring's hints are a proper colouring (each class a matching) of at most 12
	// colours, within the budget, so the colouring keeps every hint and nothing overflows.
	out->overflow_count = 0;
	out->world_bytes = world_bytes(out->particles, out->count, out->index_count);
	out->fits = out->world_bytes <= MAX_WORLD_BYTES;
}

weft_result weft_cloth_census_of(const weft_cloth_def* cloth_def, weft_cloth_census* out) {
	if (out == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "weft_cloth_census_of: out is NULL");
	}
	memset(out, 0, sizeof *out);
	const weft_result result = weft_validate_cloth_def(cloth_def);
	if (result != WEFT_OK) {
		return result;
	}
	census_of_valid(cloth_def, out);
	return WEFT_OK;
}

static void free_arrays(weft_world* world) {
	const weft_allocator* a = &world->allocator;
	void* arrays[] = {world->positions,      world->previous_positions,
	                  world->velocities,     world->residuals,
	                  world->frame_start,    world->constraints,
	                  world->lambdas,        world->types,
	                  world->tether_anchor,  world->tether_max_distance,
	                  world->rest_positions, world->uvs,
	                  world->indices,        world->normals,
	                  world->strain,         world->triangle_forces,
	                  world->strain_counts,  world->sweep_marks};
	for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; ++k) {
		weft_free(a, arrays[k]);
	}
}

void weft_world_destroy(weft_world* world) {
	if (world == NULL) {
		return;
	}
	weft_allocator allocator = world->allocator;
	weft_mesh_collider_destroy(world->mesh, &allocator);
	weft_thread_pool_destroy(world->pool, &allocator);
	weft_self_collision_destroy(world);
	weft_solver_plan_free(world);
	free_arrays(world);
	weft_free(&allocator, world);
}

// The cloth's strain limit (validated) and the solve's factor from it (weft_strain_limited).
static void keep_strain_limit(weft_world* world, float strain_limit) {
	world->strain_limit = strain_limit;
	world->stretch_limit = strain_limit > 0.0f ? 1.0f + strain_limit : INFINITY;
}

weft_result weft_world_create(const weft_world_def* world_def, const weft_cloth_def* cloth_def,
                              weft_world** out_world) {
	if (out_world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "out_world is NULL");
	}
	*out_world = NULL;
	weft_result result = weft_validate_world_def(world_def);
	if (result == WEFT_OK) {
		result = weft_validate_cloth_def(cloth_def);
	}
	if (result != WEFT_OK) {
		return result;
	}
	weft_cloth_census census;
	census_of_valid(cloth_def, &census);
	const int64_t particles = census.particles, constraints = census.count;
	const int64_t indices = census.index_count;
	if (!census.fits) {
		return weft_fail(WEFT_ERROR_TOO_LARGE, "grid %d x %d needs more than 8 GiB", (int)cloth_def->width,
		                 (int)cloth_def->height);
	}

	weft_allocator allocator = weft_resolve_allocator(world_def->allocator);
	weft_world* world = weft_alloc(&allocator, sizeof *world);
	if (world == NULL) {
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "out of memory allocating the world");
	}
	memset(world, 0, sizeof *world);
	world->def = *world_def;
	world->allocator = allocator;
	world->width = cloth_def->width;
	world->height = cloth_def->height;
	world->particle_count = (int32_t)particles;
	world->constraint_count = census.count;
	memcpy(world->count_by_type, census.count_by_type, sizeof census.count_by_type);
	world->index_count = (int32_t)indices;
	world->grabbed = -1;
	world->tether_scale = 1.0f;

	const size_t p4 = (size_t)particles * 4 * sizeof(float);
	world->positions = weft_alloc(&allocator, p4);
	world->previous_positions = weft_alloc(&allocator, p4);
	world->velocities = weft_alloc(&allocator, p4);
	world->residuals = weft_alloc(&allocator, p4);
	world->frame_start = weft_alloc(&allocator, p4);
	world->rest_positions = weft_alloc(&allocator, p4);
	world->normals = weft_alloc(&allocator, p4);
	world->uvs = weft_alloc(&allocator, (size_t)particles * 2 * sizeof(float));
	world->strain = weft_alloc(&allocator, (size_t)particles * sizeof(float));
	world->strain_counts = weft_alloc(&allocator, (size_t)particles * sizeof(int32_t));
	world->sweep_marks =
	    weft_alloc(&allocator, 2 * (size_t)weft_sweep_mark_words((int32_t)particles) * sizeof(uint64_t));
	world->tether_anchor = weft_alloc(&allocator, (size_t)particles * WEFT_TETHERS_PER_PARTICLE * sizeof(int32_t));
	world->tether_max_distance = weft_alloc(&allocator, (size_t)particles * WEFT_TETHERS_PER_PARTICLE * sizeof(float));
	world->constraints = weft_alloc(&allocator, (size_t)constraints * sizeof(weft_constraint));
	world->lambdas = weft_alloc(&allocator, (size_t)constraints * sizeof(float));
	world->types = weft_alloc(&allocator, (size_t)constraints);
	world->indices = weft_alloc(&allocator, (size_t)indices * sizeof(uint32_t));
	if (!world->positions || !world->previous_positions || !world->velocities || !world->residuals ||
	    !world->frame_start || !world->rest_positions || !world->normals || !world->uvs || !world->strain ||
	    !world->strain_counts || !world->sweep_marks || !world->tether_anchor || !world->tether_max_distance ||
	    !world->constraints || !world->lambdas || !world->types || !world->indices) {
		weft_world_destroy(world);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "out of memory for a %d x %d cloth", (int)cloth_def->width,
		                 (int)cloth_def->height);
	}
	memset(world->strain_counts, 0, (size_t)particles * sizeof(int32_t));
	memset(world->lambdas, 0, (size_t)constraints * sizeof(float));

	result = weft_cloth_build(world, cloth_def);
	if (result != WEFT_OK) {
		weft_world_destroy(world);
		return result;
	}
	weft_tethers_build(world);
	result = weft_solver_plan_build(world);
	if (result != WEFT_OK) {
		weft_world_destroy(world);
		return result;
	}
	const float compliances[3] = {cloth_def->stretch_compliance, cloth_def->shear_compliance,
	                              cloth_def->bend_compliance};
	memcpy(world->compliance_wanted, compliances, sizeof compliances);
	memcpy(world->compliance_now, compliances, sizeof compliances);
	world->thickness = cloth_def->thickness > 0.0f ? cloth_def->thickness : weft_cloth_spacing(cloth_def);
	world->thickness_wanted = world->thickness;
	keep_strain_limit(world, cloth_def->strain_limit);
	world->self_rest_distance = 2.0f * weft_cloth_spacing(cloth_def);
	result = weft_aero_active(&world->def) ? weft_aero_prepare(world) : WEFT_OK;
	if (result != WEFT_OK) {
		weft_world_destroy(world);
		return result;
	}
	if (world->def.self_collision) {
		result = weft_self_collision_prepare(world);
		if (result != WEFT_OK) {
			weft_world_destroy(world);
			return result;
		}
	}
	result = world->def.thread_count > 1
	             ? weft_thread_pool_create(&world->allocator, world->def.thread_count, &world->pool)
	             : WEFT_OK;
	if (result != WEFT_OK) {
		weft_world_destroy(world);
		return result;
	}
	weft_world_reset(world);
	*out_world = world;
	return WEFT_OK;
}

void weft_world_reset(weft_world* world) {
	if (world == NULL) {
		return;
	}
	weft_world_release(world);
	const size_t p4 = (size_t)world->particle_count * 4 * sizeof(float);
	memcpy(world->positions, world->rest_positions, p4);
	memcpy(world->previous_positions, world->rest_positions, p4);
	memset(world->velocities, 0, p4);
	memset(world->residuals, 0, p4);
	world->substeps_run = 0;
	world->frame_substeps = world->def.substeps;
	world->frame_substeps_wanted = world->def.substeps;
	world->frame_iterations = world->ramp_iterations = world->def.iterations; // from rest: no ramp
	world->ramp_substeps = world->def.substeps;
	weft_compliance_settle(world);                         // from rest: the compliances set, at once
	world->thickness = world->thickness_wanted;            // and the thickness
	memcpy(world->frame_start, world->rest_positions, p4); // no motion before the first frame
	world->frame_start_stale = false;
	world->strain_sweeps = 0;
	memset(world->lambdas, 0, (size_t)world->constraint_count * sizeof(float));
	weft_spheres_reset(world);
	weft_self_collision_invalidate(world);
	world->time = 0.0;
	world->clock = 0.0;
	world->frame = 0;
	world->tether_scale = 1.0f;
	weft_world_update_render_data(world);
}

weft_result weft_world_set_def(weft_world* world, const weft_world_def* def) {
	if (world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world is NULL");
	}
	weft_result result = weft_validate_world_def(def);
	if (result != WEFT_OK) {
		return result;
	}
	// Tethers, threads and the allocator are fixed at creation.
	weft_world_def next = *def;
	next.tethers = world->def.tethers;
	next.thread_count = world->def.thread_count;
	next.allocator = world->def.allocator;
	if (weft_aero_active(&next)) {
		result = weft_aero_prepare(world); // the per-triangle forces, once
		if (result != WEFT_OK) {
			return result;
		}
	}
	if (next.self_collision) {
		result = weft_self_collision_prepare(world); // the arrays, once
		if (result != WEFT_OK) {
			return result;
		}
		if (!world->def.self_collision) {
			weft_self_collision_invalidate(world); // positions moved on while it was off
		}
	}
	world->def = next;
	if (world->substeps_run == 0) { // from rest, nothing to work up to (frame_substeps.c)
		world->frame_iterations = world->ramp_iterations = next.iterations;
		world->frame_substeps = world->ramp_substeps = next.substeps;
	}
	return WEFT_OK;
}

weft_world_def weft_world_get_def(const weft_world* world) { return world ? world->def : weft_default_world_def(); }

weft_result weft_world_set_strain_limit(weft_world* world, float strain_limit) {
	if (world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world is NULL");
	}
	weft_result result = weft_validate_strain_limit(strain_limit);
	if (result != WEFT_OK) {
		return result;
	}
	keep_strain_limit(world, strain_limit);
	return WEFT_OK;
}

float weft_world_strain_limit(const weft_world* world) { return world ? world->strain_limit : 0.0f; }

int32_t weft_world_particle_count(const weft_world* world) { return world ? world->particle_count : 0; }

void weft_world_grid_size(const weft_world* world, int32_t* out_width, int32_t* out_height) {
	if (out_width) *out_width = world ? world->width : 0;
	if (out_height) *out_height = world ? world->height : 0;
}

float* weft_world_positions(weft_world* world) { return world ? world->positions : NULL; }
float* weft_world_previous_positions(weft_world* world) { return world ? world->previous_positions : NULL; }
float* weft_world_velocities(weft_world* world) { return world ? world->velocities : NULL; }
float* weft_world_residuals(weft_world* world) { return world ? world->residuals : NULL; }
const float* weft_world_rest_positions(const weft_world* world) { return world ? world->rest_positions : NULL; }
const float* weft_world_normals(const weft_world* world) { return world ? world->normals : NULL; }
const float* weft_world_strain(const weft_world* world) { return world ? world->strain : NULL; }
const float* weft_world_uvs(const weft_world* world) { return world ? world->uvs : NULL; }
const uint32_t* weft_world_indices(const weft_world* world) { return world ? world->indices : NULL; }
int32_t weft_world_index_count(const weft_world* world) { return world ? world->index_count : 0; }
float* weft_world_lambdas(weft_world* world) { return world ? world->lambdas : NULL; }
float weft_world_stretch_limit(const weft_world* world) { return world ? world->stretch_limit : INFINITY; }

int64_t weft_world_strain_sweeps(const weft_world* world) { return world ? world->strain_sweeps : 0; }
double weft_world_time(const weft_world* world) { return world ? world->time : 0.0; }
int64_t weft_world_frame(const weft_world* world) { return world ? world->frame : 0; }
int64_t weft_world_substeps_run(const weft_world* world) { return world ? world->substeps_run : 0; }
int32_t weft_world_frame_substeps(const weft_world* world) { return world ? world->frame_substeps : 0; }
int32_t weft_world_frame_iterations(const weft_world* world) { return world ? world->frame_iterations : 0; }
int32_t weft_world_frame_substeps_wanted(const weft_world* world) { return world ? world->frame_substeps_wanted : 0; }

weft_constraints_view weft_world_constraints(const weft_world* world) {
	weft_constraints_view view = {0};
	if (world != NULL) {
		view.constraints = world->constraints;
		view.types = world->types;
		view.color_offsets = world->color_offsets;
		view.color_count = world->color_count;
		view.count = world->constraint_count;
		memcpy(view.count_by_type, world->count_by_type, sizeof view.count_by_type);
	}
	return view;
}

weft_tethers_view weft_world_tethers(const weft_world* world) {
	weft_tethers_view view = {0};
	if (world != NULL) {
		view.anchor = world->tether_anchor;
		view.max_distance = world->tether_max_distance;
		view.count = world->particle_count;
	}
	return view;
}

weft_self_collision_view weft_world_self_collision(const weft_world* world) {
	weft_self_collision_view view = {0};
	if (world != NULL) {
		weft_self_collision_describe(world, &view);
	}
	return view;
}

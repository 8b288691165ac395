// Ridge lifts: stretch edges caught across a ridge of the mesh, lifted back over it (once per
// substep, after the particles' push-out; whole, in particle order, so any thread count gives the
// same bits).
//
// The push-out keeps every particle outside the mesh, but a feature thicker than the margin and
// narrower than the cloth's spacing (the bunny's ears, at 96²) can still come between two
// neighbours: each end is then pushed out on its own side, the edge runs through the solid, and
// the stretch constraint can never pull it back, so the cloth hangs from the ridge stretched 2–4×.
//
// An edge is examined when the push-out moved one of its ends this substep and it is stretched
// beyond EXAMINED_STRETCH (a snag stretches it; a cloth lying on the mesh mostly is not), and lifted
// when it lies deep in the solid (MIN_LIFT) or is snagged on a sharp ridge (below). Its path a → b
// enters the mesh through a triangle of normal n1 and leaves through one of normal n2 (the first
// crossing from each end). Near the ridge the solid is the wedge behind both planes; the edge moves
// along the ridge's outward direction e (n1 + n2, less its part along the edge) by the least s that
// takes the whole segment out of the wedge grown by the margin. Along the segment x(t) = a + t (b − a), plane i's side is
// g_i(t, s) = A_i + t D_i + s E_i (A_i: a's distance less the margin, D_i: (b − a)·n_i, E_i: e·n_i);
// the segment is inside both where t > −(A1 + s E1)/D1 and t < −(A2 + s E2)/D2, so it is out once
// the first bound reaches the second: a linear equation in s. Curved features are not wedges: what
// the planes miss is taken up in the next substeps. Both free ends move, positions and previous
// positions alike, so the lift adds no velocity (a snag let go does not fling the cloth), and what
// velocity the ends had into the ridge (along −e) is taken out, as a contact's push-out would: kept,
// it carried the edge back in at the next substep, the cloth around pulling it down the ridge again.
//
// A rim thinner than the spacing (a bunny's ear, at 96²) that comes between two particles dips the
// edge only millimetres into it, less than a lift worth making over a rounded tip (MIN_LIFT), but
// stretches it at once (10–40%); left there, the cloth slides down the rim around it. So an edge
// stretched beyond SNAG_STRETCH over a sharp ridge is lifted at any depth. Bunny at 10 substeps, the
// mean of max stretch over seconds 3–5 at 64² / 96² / 128²: 0.40 / 0.72 / 1.34 with neither; 0.36 /
// 0.80 / 1.34 with the velocity taken out alone; 0.31 / 0.36 / 5.39 with the snags alone (lifted,
// the edge comes straight back); 0.24 / 0.36 / 0.47 with both.
#include <math.h>
#include <string.h>

#include "mesh.h"
#include "vec3.h"

// Edges longer than this × their rest length are examined.
#define EXAMINED_STRETCH 1.01f
// Lifts shorter than this many margins are left to the push-out: an edge over a rounded tip dips
// into it a little, and lifting it there only tents the cloth over the tip (bunny 64²: max stretch
// 0.23 → 0.39 with every lift, 0.13 with the deep ones only).
#define MIN_LIFT 4.0f
// Below this |e| (before normalising) the two faces are nearly opposite: a slab, no ridge to lift over.
#define MIN_RIDGE 0.25f
// Edges longer than this × their rest length are snagged: lifted however shallow the lift ...
#define SNAG_STRETCH 1.1f
// ... over a ridge whose two faces' normals are more than 60° apart (their dot below this): over a
// blunter one a shallow lift only tents the cloth (bunny 64² at 40 substeps settles at 8% stretch
// with this bound, 10% without it).
#define SNAG_MAX_COS 0.5f

// The lift of segment a → b out of the mesh's wedge: direction *out_e (unit) and length *out_s
// (false: it does not cross a ridge, or too shallow: less than MIN_LIFT margins unless snagged over a
// sharp ridge).
static bool lift_over_ridge(const weft_mesh_collider* mesh, weft_vec3 a, weft_vec3 b, float margin, bool snagged,
                            weft_vec3* out_e, float* out_s) {
	int32_t budget = WEFT_MESH_MAX_TESTS;
	float t_in, t_out;
	uint32_t entry, exit;
	if (!weft_mesh_first_crossing(mesh, a, b, &budget, &t_in, &entry)) return false;
	budget = WEFT_MESH_MAX_TESTS;
	if (!weft_mesh_first_crossing(mesh, b, a, &budget, &t_out, &exit)) return false;
	if (!(t_in < 1.0f - t_out)) return false; // the entry must come before the exit
	const weft_vec3 d = weft_sub(b, a);
	const weft_vec3 n1 = weft_load3(mesh->face_normals + 4 * entry), n2 = weft_load3(mesh->face_normals + 4 * exit);
	const float d1 = weft_dot(d, n1), d2 = weft_dot(d, n2);
	if (!(d1 < 0.0f && d2 > 0.0f)) return false; // not in through n1's front and out through n2's
	const float length2 = weft_dot(d, d);
	weft_vec3 e = weft_add(n1, n2);
	e = weft_sub(e, weft_scale(d, weft_dot(e, d) / length2));
	const float e_length = sqrtf(weft_dot(e, e));
	if (!(e_length > MIN_RIDGE)) return false;
	e = weft_scale(e, 1.0f / e_length);
	const weft_vec3 p1 = weft_add(a, weft_scale(d, t_in)), p2 = weft_sub(b, weft_scale(d, t_out));
	const float a1 = weft_dot(weft_sub(a, p1), n1) - margin, a2 = weft_dot(weft_sub(a, p2), n2) - margin;
	const float e1 = weft_dot(e, n1), e2 = weft_dot(e, n2);
	const float inside = -a1 / d1 + a2 / d2, lift = -e1 / d1 + e2 / d2;
	if (!(inside < 0.0f && lift > 0.0f)) return false;
	const float s = -inside / lift;
	const float min_lift = snagged && weft_dot(n1, n2) < SNAG_MAX_COS ? 0.0f : MIN_LIFT * margin;
	if (!(s > min_lift)) return false;
	const float most = sqrtf(length2); // a ridge lies within the edge's reach
	*out_e = e;
	*out_s = s < most ? s : most;
	return true;
}


weft_result weft_mesh_ridge_lifts_prepare(weft_mesh_collider* mesh, const weft_world* world) {
	const int32_t n = world->particle_count;
	const int32_t words = weft_stretch_adjacency(world, NULL, 0);
	mesh->touched = weft_alloc(&world->allocator, (size_t)n);
	mesh->stretch_lists = weft_alloc(&world->allocator, sizeof(uint32_t) * (size_t)words);
	if (mesh->touched == NULL || mesh->stretch_lists == NULL) {
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "mesh collider: out of memory");
	}
	memset(mesh->touched, 0, (size_t)n);
	weft_stretch_adjacency(world, mesh->stretch_lists, 0);
	return WEFT_OK;
}

// Moves free end i (at p) by s along e, its previous position too, less its motion into the ridge.
static void lift_end(float* x, float* previous, uint32_t i, weft_vec3 p, weft_vec3 e, float s) {
	const weft_vec3 start = weft_load3(previous + 4 * i);
	const float along = weft_dot(weft_sub(p, start), e); // this substep's motion along e
	weft_store3(x + 4 * i, weft_add(p, weft_scale(e, s)));
	weft_store3(previous + 4 * i, weft_add(start, weft_scale(e, along < 0.0f ? s + along : s)));
}

// Lifts edge c if it is stretched and crosses a ridge: both free ends move by the same shift.
static void lift_edge(weft_world* world, const weft_constraint c, float margin) {
	float* x = world->positions;
	float* previous = world->previous_positions;
	const float wa = x[4 * c.a + 3], wb = x[4 * c.b + 3];
	if (wa + wb == 0.0f) return;
	const weft_vec3 a = weft_load3(x + 4 * c.a), b = weft_load3(x + 4 * c.b);
	const weft_vec3 d = weft_sub(b, a);
	const float length2 = weft_dot(d, d);
	const float longest = EXAMINED_STRETCH * c.rest_length, snag_length = SNAG_STRETCH * c.rest_length;
	if (!(length2 > longest * longest)) return;
	weft_vec3 e;
	float s;
	if (!lift_over_ridge(world->mesh, a, b, margin, length2 > snag_length * snag_length, &e, &s)) return;
	if (wa > 0.0f) lift_end(x, previous, c.a, a, e, s);
	if (wb > 0.0f) lift_end(x, previous, c.b, b, e, s);
}

void weft_mesh_lift_ridges(weft_world* world) {
	const weft_mesh_collider* mesh = world->mesh;
	if (mesh->touched == NULL || mesh->clearance_count != world->particle_count) return;
	const float margin = weft_mesh_clamp_margin(mesh, world->def.collision_margin); // as the push-out's
	// A crossing edge has an end pushed out this substep (mostly both, one on each side of the ridge):
	// only the edges of touched particles are looked at, each once (from its lower touched end), in
	// particle order.
	const uint8_t* touched = mesh->touched;
	const uint32_t* lists = mesh->stretch_lists;
	for (int32_t i = 0; i < world->particle_count; i++) {
		if (!touched[i]) continue;
		for (uint32_t e = lists[i]; e < lists[i + 1]; e++) {
			const weft_constraint c = world->constraints[lists[e]];
			const uint32_t other = c.a == (uint32_t)i ? c.b : c.a;
			if (touched[other] && other < (uint32_t)i) continue; // looked at from there
			lift_edge(world, c, margin);
		}
	}
}

// The contacts stage of self-collision in 8 lanes (AVX2, no FMA; in wasm two SIMD128 fours,
// simd8.h): two listed particles side by side, each in a 128-bit half with four of its entries, so
// a particle's usual one four of entries within reach takes half the instructions of the 4-lane
// path. The lanes run self_contacts.h's kernel, the 4-lane path's, so every particle gets the same
// bits as on the scalar path. On x86-64 compiled with -mavx2 -mno-fma (CMakeLists.txt); chosen
// only where the solve's width is 8 (solver_avx2.c).
#include "simd8.h"

#if defined(WEFT_SIMD8)
#define WEFT_CONTACT_LANES 1
// The float4s of particles j[0..3] (low half) and j[4..7] (high half) of a as lanes of x, y, z, w.
static inline void gather_xyzw(const float* a, const uint32_t* j, vf* x, vf* y, vf* z, vf* w) {
	*x = vhalves(hload(&a[4 * j[0]]), hload(&a[4 * j[4]]));
	*y = vhalves(hload(&a[4 * j[1]]), hload(&a[4 * j[5]]));
	*z = vhalves(hload(&a[4 * j[2]]), hload(&a[4 * j[6]]));
	*w = vhalves(hload(&a[4 * j[3]]), hload(&a[4 * j[7]]));
	transpose(x, y, z, w);
}
#endif

#include "self_contacts.h"

#if defined(WEFT_SIMD8)

// A listed particle and the entries of its list in reach (whole fours).
typedef struct visit {
	int32_t i, reached;
} visit;

// Particle a's value in the low half, b's in the high one.
static inline vf split(float a, float b) { return vhalves(hsplat(a), hsplat(b)); }

static inline void store_sum(const weft_self_contacts_job* job, int32_t i, vhalf sums, vhalf largests) {
	float sum[4];
	hstore(sum, sums);
	sum[3] = contact_worth(sum[3], hmax_lanes(largests));
	memcpy(&job->corrections[4 * i], sum, sizeof sum);
}

// The contacts of a (low half) and b (high half; b = a: a alone), four entries of each at a time;
// where one list is done its half tests its particle against itself (coincident: no contact).
static inline __attribute__((always_inline)) void contacts_side_by_side(const weft_self_contacts_job* job, visit a,
                                                                        visit b) {
	const float* x = job->x;
	const float* previous = job->previous;
	const float* xa = &x[4 * a.i];
	const float* xb = &x[4 * b.i];
	const float* pa = &previous[4 * a.i];
	const float* pb = &previous[4 * b.i];
	const float t2 = job->t * job->t;
	const contact_lanes lanes = {split(xa[0], xb[0]),
	                             split(xa[1], xb[1]),
	                             split(xa[2], xb[2]),
	                             split(xa[3], xb[3]),
	                             split(xa[0] - pa[0], xb[0] - pb[0]),
	                             split(xa[1] - pa[1], xb[1] - pb[1]),
	                             split(xa[2] - pa[2], xb[2] - pb[2]),
	                             vsplat(job->t),
	                             vsplat(t2),
	                             vsplat(MIN_DISTANCE * MIN_DISTANCE),
	                             vsplat(job->friction),
	                             vsplat(job->lean[0]),
	                             vsplat(job->lean[1]),
	                             vsplat(job->lean[2])};
	const uint64_t* list_a = &job->neighbours[(size_t)a.i * MAX_NEIGHBOURS];
	const uint64_t* list_b = &job->neighbours[(size_t)b.i * MAX_NEIGHBOURS];
	const int32_t fours_end = a.reached > b.reached ? a.reached : b.reached;
	vf sums = vzero(), largests = vzero();
	for (int32_t e = 0; e < fours_end; e += 4) {
		uint32_t j[8];
		for (int32_t k = 0; k < 4; ++k) {
			j[k] = e < a.reached ? entry_partner(list_a[e + k]) : (uint32_t)a.i;
			j[4 + k] = e < b.reached ? entry_partner(list_b[e + k]) : (uint32_t)b.i;
		}
		sums = contacts_lanes(sums, &largests, x, previous, &lanes, j);
	}
	store_sum(job, a.i, vlow(sums), vlow(largests));
	if (b.i != a.i) {
		store_sum(job, b.i, vhigh(sums), vhigh(largests));
	}
}

void weft_self_contacts_8(const weft_self_contacts_job* job, int32_t begin, int32_t end) {
	visit waiting = {-1, 0}; // a particle waiting for a second to share the lanes with
	for (int32_t i = begin; i < end; ++i) {
		if (!contacts_listed(job, i)) {
			continue;
		}
		const visit v = {i, contact_entries(job, i)};
		if (v.reached == 0) {
			job->corrections[4 * i + 3] = 0.0f; // no contact: apply moves it by nothing
		} else if (waiting.i < 0) {
			waiting = v;
		} else {
			contacts_side_by_side(job, waiting, v);
			waiting.i = -1;
		}
	}
	if (waiting.i >= 0) {
		contacts_side_by_side(job, waiting, waiting);
	}
}

#else

// Never chosen (weft_eight_lanes_available is false: the solve's width is never 8); here so that other
// builds link.
void weft_self_contacts_8(const weft_self_contacts_job* job, int32_t begin, int32_t end) {
	weft_self_contacts_4(job, begin, end);
}

#endif

// Private: the neighbour lists' entries and the contacts stage's lanes, shared by the 4-lane and
// scalar paths (self_collision.c) and the 8-lane one (self_contacts_avx2.c, two particles side by
// side, one a 128-bit half). The lanes compute contact_push's expressions (self_collision.c), so
// every path gives the same bits.
#ifndef WEFT_SELF_CONTACTS_H
#define WEFT_SELF_CONTACTS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

// Listed neighbours per particle (the nearest are kept when more are within reach).
#define MAX_NEIGHBOURS 16
// Below this two particles have no direction and are left alone.
#define MIN_DISTANCE 1e-9f

// A list entry: the bits of its squared distance at the build above its partner's id. Squared
// distances are never negative or NaN, so their bits order as they do: entries order by (squared
// distance, partner) in one comparison, a total order, so a list's entries (its nearest
// MAX_NEIGHBOURS) and their order do not depend on the order pairs are found in.
static inline uint64_t entry_key(float d2, uint32_t j) {
	uint32_t bits;
	memcpy(&bits, &d2, sizeof bits);
	return (uint64_t)bits << 32 | j;
}
static inline uint32_t entry_partner(uint64_t key) { return (uint32_t)key; }

// What the contacts stage reads and writes.
typedef struct weft_self_contacts_job {
	const float* x;        // positions (float4: xyz, inverse mass)
	const float* previous; // positions at the substep's start
	const uint64_t* neighbours;
	const uint8_t* neighbour_count;
	const int32_t* particle_patch;
	const float* patch_reach2; // per patch: entries built farther than this (squared) are no contact
	float* corrections;        // per particle: the sum of its pushes (xyz) and their scale (w)
	float t, friction;
	float lean[3]; // up (against gravity) times STACK_LEAN, 0 without gravity (contact_push, self_collision.c)
	int32_t lanes; // 0 (scalar), 4 or 8: the frame's solve's
} weft_self_contacts_job;

// The contacts of particles [begin, end): scalar or 4 lanes as job->lanes says (self_collision.c),
// and 8 lanes, two particles at a time (self_contacts_avx2.c; only where weft_eight_lanes_available()).
void weft_self_contacts_4(const weft_self_contacts_job* job, int32_t begin, int32_t end);
void weft_self_contacts_8(const weft_self_contacts_job* job, int32_t begin, int32_t end);

// Whether particle i has contacts to look at: a list, and it is not pinned (apply skips it too).
static inline bool contacts_listed(const weft_self_contacts_job* job, int32_t i) {
	return job->neighbour_count[i] != 0 && job->x[4 * i + 3] != 0.0f;
}

// The entries of a listed particle i's list in the fours that start within this substep's reach
// (entries built beyond it cannot touch: leaving them out changes no sum).
static inline int32_t contact_entries(const weft_self_contacts_job* job, int32_t i) {
	const int32_t count = job->neighbour_count[i];
	const uint64_t* list = &job->neighbours[(size_t)i * MAX_NEIGHBOURS];
	const uint64_t within = entry_key(job->patch_reach2[job->particle_patch[i]], 0); // built closer than it
	int32_t reached = 0;
	while (reached < count && list[reached] < within) {
		reached += 4;
	}
	return reached;
}

// A particle's scale of its sum of pushes: the largest size over the sum of the sizes, one over
// what the pushes are worth in pushes (see weft_self_collision_apply); 0: no contact.
static inline float contact_worth(float size_sum, float largest) { return size_sum > 0.0f ? largest / size_sum : 0.0f; }

#if defined(WEFT_CONTACT_LANES)
// Included after a vf type and its operations (simd4.h, simd8.h) and gather_xyzw (the float4s of
// a lane's worth of particles as lanes of x, y, z, w, a four a 128-bit half).

// The particles of the lanes (one a four) and the substep's constants.
typedef struct contact_lanes {
	vf x, y, z, w; // position and inverse mass
	vf sx, sy, sz; // slip over the substep
	vf t, t2, min2, friction;
	vf lean_x, lean_y, lean_z;
} contact_lanes;

// The contacts of each four's particle with its entries j (one a lane) added to sum (x, y, z,
// sizes) four by four in entry order, each lane's (push + friction, the push's size) masked to zero
// where it is no contact (adding +0 changes no sum: they start at +0 and never become -0), so each
// four of sum takes contact_push's sums in the scalar order, without a branch per entry; *largest
// keeps the largest size in any lane (a maximum does not depend on the order).
static inline vf contacts_lanes(vf sum, vf* largest, const float* x, const float* previous, const contact_lanes* i,
                                const uint32_t* j) {
	vf jx, jy, jz, jw;
	gather_xyzw(x, j, &jx, &jy, &jz, &jw);
	const vf ex = vsub(i->x, jx);
	const vf ey = vsub(i->y, jy);
	const vf ez = vsub(i->z, jz);
	const vf d2 = vadd(vadd(vmul(ex, ex), vmul(ey, ey)), vmul(ez, ez));
	const vf contact = vand(vgreater(i->t2, d2), vgreater_equal(d2, i->min2));
	if (!vany(contact)) {
		return sum;
	}
	vf px, py, pz, pw;
	gather_xyzw(previous, j, &px, &py, &pz, &pw);
	const vf d = vsqrt(d2);
	const vf inverse_d = vdiv(vsplat(1.0f), d);
	const vf nx = vmul(ex, inverse_d), ny = vmul(ey, inverse_d), nz = vmul(ez, inverse_d);
	const vf lean = vadd(vadd(vmul(nx, i->lean_x), vmul(ny, i->lean_y)), vmul(nz, i->lean_z));
	const vf wi = vmul(i->w, vadd(vsplat(1.0f), lean)), wj = vmul(jw, vsub(vsplat(1.0f), lean));
	const vf share = vdiv(wi, vadd(wi, wj));
	const vf push = vmul(vsub(i->t, d), share);
	const vf sx = vsub(i->sx, vsub(jx, px));
	const vf sy = vsub(i->sy, vsub(jy, py));
	const vf sz = vsub(i->sz, vsub(jz, pz));
	const vf along = vadd(vadd(vmul(sx, nx), vmul(sy, ny)), vmul(sz, nz));
	const vf tx = vsub(sx, vmul(along, nx)), ty = vsub(sy, vmul(along, ny)), tz = vsub(sz, vmul(along, nz));
	const vf hold = vmul(i->friction, vsub(i->t, d));
	const vf slip2 = vadd(vadd(vmul(tx, tx), vmul(ty, ty)), vmul(tz, tz));
	const vf f = vselect(vgreater_equal(vmul(hold, hold), slip2), share, vmul(i->friction, share));
	vf cx = vand(contact, vsub(vmul(push, nx), vmul(f, tx)));
	vf cy = vand(contact, vsub(vmul(push, ny), vmul(f, ty)));
	vf cz = vand(contact, vsub(vmul(push, nz), vmul(f, tz)));
	vf cw = vand(contact, push); // the push's size
	*largest = vmax(*largest, cw);
	transpose(&cx, &cy, &cz, &cw); // now entry e + k's (x, y, z, size) in lanes, a four a half
	return vadd(vadd(vadd(vadd(sum, cx), cy), cz), cw);
}
#endif

#endif

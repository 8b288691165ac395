// Private: the SIMD solve on the plan's rows (solver_plan.c), written once for any vector width.
// The file that includes it defines LANES (4, 8 or 16), the vector type vf, the operations below and
// KERNEL(name) (the name with its path's suffix): solver_simd.c for SSE2 and wasm SIMD128 (4 lanes),
// solver_avx2.c for AVX2 (8 lanes, chosen at run time), solver_avx512.c for AVX-512 (16 lanes,
// chosen at run time).
//
//   vload vstore vsplat vzero vadd vsub vmul vdiv vsqrt vneg vand vselect(mask, yes, no) vany(mask)
//   vactive(w, length)      w != 0 and not (length < MIN_LENGTH): the scalar path's two skip tests
//   vnonzero(w) vgreater(a, b)
//   vsplit_interleaved / vjoin_interleaved   2·LANES neighbours ↔ (even, odd) particles
//   vsplit_paired / vjoin_paired             2·LANES particles ↔ (columns 0, 1 of each 4, columns 2, 3)
//   vload_lanes / vstore_lanes               constraint values in the lane order the two above give
//   vall(mask)
//   vvalid(index)                            index[i] ≥ 0 per lane (a tether slot in use)
//   vgather(row, index, mask)                row[index[i]] (indices ≥ 0; lanes outside mask may be anything)
//
// Every lane performs the scalar path's operations in the scalar path's order (no FMA, the same
// association and negation), and skipped constraints keep their bits through a select: the results
// are bit-identical to solve_constraints in solver_simd.c, whichever width runs.

// Inlined into each caller (their constants, the kind and first, then fold away; the group stays in
// registers, not in memory: in wasm, memory is the linear memory's shadow stack).
#if defined(__GNUC__) || defined(__clang__)
#define INLINE inline __attribute__((always_inline))
#else
#define INLINE inline
#endif

// One group of LANES constraints: their particles' rows (x, y, z, inverse mass) and their values.
typedef struct KERNEL(group) {
	vf ax, ay, az, aw, bx, by, bz, bw, rest, compliance;
	float* lambdas;
	int32_t count; // its constraints: LANES, fewer in a run's last group where the shims load part of a vector
} KERNEL(group);

// `count` values from p into the first lanes (the rest +0), and back: a whole vector, or where the
// shims have partial loads and stores (simd16.h: WEFT_SIMD_PARTIAL) the first `count` lanes only.
static INLINE vf KERNEL(load_part)(const float* p, int32_t count) {
#if defined(WEFT_SIMD_PARTIAL)
	if (count < LANES) {
		return vload_first(p, count);
	}
#endif
	(void)count;
	return vload(p);
}
static INLINE void KERNEL(store_part)(float* p, vf v, int32_t count) {
#if defined(WEFT_SIMD_PARTIAL)
	if (count < LANES) {
		vstore_first(p, v, count);
		return;
	}
#endif
	(void)count;
	vstore(p, v);
}
// The same for the constraints' values, in the lane order of the group's split where lanes_order.
static INLINE vf KERNEL(load_values)(const float* p, int32_t count, bool lanes_order) {
#if defined(WEFT_SIMD_PARTIAL)
	if (count < LANES) {
		return lanes_order ? vload_lanes_first(p, count) : vload_first(p, count);
	}
#endif
	(void)count;
	return lanes_order ? vload_lanes(p) : vload(p);
}
static INLINE void KERNEL(store_values)(float* p, vf v, int32_t count, bool lanes_order) {
#if defined(WEFT_SIMD_PARTIAL)
	if (count < LANES) {
		if (lanes_order) {
			vstore_lanes_first(p, v, count);
		} else {
			vstore_first(p, v, count);
		}
		return;
	}
#endif
	(void)count;
	if (lanes_order) {
		vstore_lanes(p, v);
	} else {
		vstore(p, v);
	}
}

// The strain limit (weft_strain_limited in solver.h, lane by lane): the correction never leaves the
// constraint longer than rest × stretch_limit. The test needs no division; the limit's division runs
// only where a lane is over it (rarely: a few percent off the solve at 4 lanes).
static INLINE vf KERNEL(limit_stretch)(vf delta_lambda, vf length, vf rest, vf w, vf stretch_limit) {
	const vf room = vsub(vmul(rest, stretch_limit), length);
	const vf over = vgreater(vmul(delta_lambda, w), room);
	if (!vany(over)) {
		return delta_lambda;
	}
	return vselect(over, vdiv(room, w), delta_lambda);
}

// U groups side by side (each statement for every group before the next one). One is what runs:
// two measured slower (16 vector registers do not hold two groups).
static INLINE void KERNEL(solve_groups)(KERNEL(group) * g, int U, vf inverse_h2, vf stretch_limit, bool first,
                                        bool lanes_order) {
	vf w[2], dx[2], dy[2], dz[2], length[2], mask[2], alpha[2], delta_lambda[2], lambda_after[2], s[2];
	for (int u = 0; u < U; ++u) {
		w[u] = vadd(g[u].aw, g[u].bw);
		dx[u] = vsub(g[u].ax, g[u].bx);
		dy[u] = vsub(g[u].ay, g[u].by);
		dz[u] = vsub(g[u].az, g[u].bz);
	}
	for (int u = 0; u < U; ++u) {
		length[u] = vsqrt(vadd(vadd(vmul(dx[u], dx[u]), vmul(dy[u], dy[u])), vmul(dz[u], dz[u])));
	}
	for (int u = 0; u < U; ++u) {
		mask[u] = vactive(w[u], length[u]);
		alpha[u] = vmul(g[u].compliance, inverse_h2);
	}
	for (int u = 0; u < U; ++u) {
		if (first) {
			// λ = 0 at the start of a substep: −α̃λ is +0, and x − (+0) is x, so the term is dropped.
			delta_lambda[u] = KERNEL(limit_stretch)(vdiv(vneg(vsub(length[u], g[u].rest)), vadd(w[u], alpha[u])),
			                                        length[u], g[u].rest, w[u], stretch_limit);
			lambda_after[u] = vselect(mask[u], vadd(vzero(), delta_lambda[u]), vzero());
		} else {
			const vf lambda = KERNEL(load_values)(g[u].lambdas, g[u].count, lanes_order);
			delta_lambda[u] = KERNEL(limit_stretch)(
			    vdiv(vsub(vneg(vsub(length[u], g[u].rest)), vmul(alpha[u], lambda)), vadd(w[u], alpha[u])), length[u],
			    g[u].rest, w[u], stretch_limit);
			lambda_after[u] = vselect(mask[u], vadd(lambda, delta_lambda[u]), lambda);
		}
	}
	for (int u = 0; u < U; ++u) {
		s[u] = vdiv(delta_lambda[u], length[u]);
	}
	for (int u = 0; u < U; ++u) {
		KERNEL(store_values)(g[u].lambdas, lambda_after[u], g[u].count, lanes_order);
		const vf as = vmul(g[u].aw, s[u]), bs = vmul(g[u].bw, s[u]);
		g[u].ax = vselect(mask[u], vadd(g[u].ax, vmul(as, dx[u])), g[u].ax);
		g[u].ay = vselect(mask[u], vadd(g[u].ay, vmul(as, dy[u])), g[u].ay);
		g[u].az = vselect(mask[u], vadd(g[u].az, vmul(as, dz[u])), g[u].az);
		g[u].bx = vselect(mask[u], vsub(g[u].bx, vmul(bs, dx[u])), g[u].bx);
		g[u].by = vselect(mask[u], vsub(g[u].by, vmul(bs, dy[u])), g[u].by);
		g[u].bz = vselect(mask[u], vsub(g[u].bz, vmul(bs, dz[u])), g[u].bz);
	}
}

// One group of LANES constraints: a and b are their particles' rows (x, y, z, inverse mass).
static INLINE void KERNEL(solve_group)(vf* ax, vf* ay, vf* az, vf aw, vf* bx, vf* by, vf* bz, vf bw, vf rest,
                                       vf compliance, vf inverse_h2, vf stretch_limit, float* lambdas, bool first,
                                       bool lanes_order) {
	KERNEL(group) g = {*ax, *ay, *az, aw, *bx, *by, *bz, bw, rest, compliance, lambdas, LANES};
	KERNEL(solve_groups)(&g, 1, inverse_h2, stretch_limit, first, lanes_order);
	*ax = g.ax;
	*ay = g.ay;
	*az = g.az;
	*bx = g.bx;
	*by = g.by;
	*bz = g.bz;
}

// The rows of the strided segment's group of `count` constraints at constraint k, and back (count:
// LANES, or fewer in a run's last group where the shims have partial loads and stores: the other
// lanes read +0, an inverse mass of 0 that leaves them as they are, and are not written).
static INLINE void KERNEL(load_group)(weft_world* world, const weft_solve_segment* s, weft_segment_kind kind, int32_t k,
                                      int32_t count, KERNEL(group) * g) {
	const int32_t stride = world->soa_stride;
	float* X = world->soa;
	float* Y = X + stride;
	float* Z = Y + stride;
	const float* W = Z + stride;
	g->lambdas = world->lambdas + k;
	g->count = count;
	if (kind == WEFT_SEGMENT_CONTIGUOUS) {
		const int32_t a = s->a0 + (k - s->begin), b = a + s->d;
		g->ax = KERNEL(load_part)(X + a, count);
		g->ay = KERNEL(load_part)(Y + a, count);
		g->az = KERNEL(load_part)(Z + a, count);
		g->aw = KERNEL(load_part)(W + a, count);
		g->bx = KERNEL(load_part)(X + b, count);
		g->by = KERNEL(load_part)(Y + b, count);
		g->bz = KERNEL(load_part)(Z + b, count);
		g->bw = KERNEL(load_part)(W + b, count);
		g->rest = KERNEL(load_part)(world->rest_lengths + k, count);
		g->compliance = KERNEL(load_part)(world->compliances + k, count);
		return;
	}
	// The group's 2·count particles are one block: [p, p + 2·count), the first LANES in one vector.
	const int32_t p = s->a0 + 2 * (k - s->begin);
	const int32_t first = 2 * count < LANES ? 2 * count : LANES, second = 2 * count - first;
	if (kind == WEFT_SEGMENT_PAIRED) {
		vsplit_paired(KERNEL(load_part)(X + p, first), KERNEL(load_part)(X + p + LANES, second), &g->ax, &g->bx);
		vsplit_paired(KERNEL(load_part)(Y + p, first), KERNEL(load_part)(Y + p + LANES, second), &g->ay, &g->by);
		vsplit_paired(KERNEL(load_part)(Z + p, first), KERNEL(load_part)(Z + p + LANES, second), &g->az, &g->bz);
		vsplit_paired(KERNEL(load_part)(W + p, first), KERNEL(load_part)(W + p + LANES, second), &g->aw, &g->bw);
	} else {
		vsplit_interleaved(KERNEL(load_part)(X + p, first), KERNEL(load_part)(X + p + LANES, second), &g->ax, &g->bx);
		vsplit_interleaved(KERNEL(load_part)(Y + p, first), KERNEL(load_part)(Y + p + LANES, second), &g->ay, &g->by);
		vsplit_interleaved(KERNEL(load_part)(Z + p, first), KERNEL(load_part)(Z + p + LANES, second), &g->az, &g->bz);
		vsplit_interleaved(KERNEL(load_part)(W + p, first), KERNEL(load_part)(W + p + LANES, second), &g->aw, &g->bw);
	}
	g->rest = KERNEL(load_values)(world->rest_lengths + k, count, true);
	g->compliance = KERNEL(load_values)(world->compliances + k, count, true);
}

static INLINE void KERNEL(store_group)(weft_world* world, const weft_solve_segment* s, weft_segment_kind kind,
                                       int32_t k, const KERNEL(group) * g) {
	const int32_t stride = world->soa_stride;
	float* X = world->soa;
	float* Y = X + stride;
	float* Z = Y + stride;
	const int32_t count = g->count;
	if (kind == WEFT_SEGMENT_CONTIGUOUS) {
		const int32_t a = s->a0 + (k - s->begin), b = a + s->d;
		KERNEL(store_part)(X + a, g->ax, count);
		KERNEL(store_part)(Y + a, g->ay, count);
		KERNEL(store_part)(Z + a, g->az, count);
		KERNEL(store_part)(X + b, g->bx, count);
		KERNEL(store_part)(Y + b, g->by, count);
		KERNEL(store_part)(Z + b, g->bz, count);
		return;
	}
	const int32_t p = s->a0 + 2 * (k - s->begin);
	const int32_t first = 2 * count < LANES ? 2 * count : LANES, second = 2 * count - first;
	vf v0, v1;
	if (kind == WEFT_SEGMENT_PAIRED) {
		vjoin_paired(g->ax, g->bx, &v0, &v1);
		KERNEL(store_part)(X + p, v0, first);
		KERNEL(store_part)(X + p + LANES, v1, second);
		vjoin_paired(g->ay, g->by, &v0, &v1);
		KERNEL(store_part)(Y + p, v0, first);
		KERNEL(store_part)(Y + p + LANES, v1, second);
		vjoin_paired(g->az, g->bz, &v0, &v1);
		KERNEL(store_part)(Z + p, v0, first);
		KERNEL(store_part)(Z + p + LANES, v1, second);
	} else {
		vjoin_interleaved(g->ax, g->bx, &v0, &v1);
		KERNEL(store_part)(X + p, v0, first);
		KERNEL(store_part)(X + p + LANES, v1, second);
		vjoin_interleaved(g->ay, g->by, &v0, &v1);
		KERNEL(store_part)(Y + p, v0, first);
		KERNEL(store_part)(Y + p + LANES, v1, second);
		vjoin_interleaved(g->az, g->bz, &v0, &v1);
		KERNEL(store_part)(Z + p, v0, first);
		KERNEL(store_part)(Z + p + LANES, v1, second);
	}
}

// Constraints [begin, end) of a strided segment (begin − s->begin and end − begin whole groups of 4),
// LANES at a time.
static INLINE void KERNEL(solve_strided_kind)(weft_world* world, const weft_solve_segment* s, weft_segment_kind kind,
                                              int32_t begin, int32_t end, float inverse_h2_scalar, bool first) {
	const vf inverse_h2 = vsplat(inverse_h2_scalar), stretch_limit = vsplat(world->stretch_limit);
	const bool lanes_order = kind != WEFT_SEGMENT_CONTIGUOUS;
	int32_t k = begin;
	for (; k + LANES <= end; k += LANES) {
		KERNEL(group) g;
		KERNEL(load_group)(world, s, kind, k, LANES, &g);
		KERNEL(solve_groups)(&g, 1, inverse_h2, stretch_limit, first, lanes_order);
		KERNEL(store_group)(world, s, kind, k, &g);
	}
#if defined(WEFT_SIMD_PARTIAL)
	if (k < end) {
		// The run's last groups of 4 as one partial group.
		KERNEL(group) g;
		KERNEL(load_group)(world, s, kind, k, end - k, &g);
		KERNEL(solve_groups)(&g, 1, inverse_h2, stretch_limit, first, lanes_order);
		KERNEL(store_group)(world, s, kind, k, &g);
	}
#elif LANES > 4
	if (k < end) {
		weft_solve_strided_rows_4(world, s, k, end, inverse_h2_scalar, first); // runs hold groups of 4
	}
#endif
}

static void KERNEL(solve_strided)(weft_world* world, const weft_solve_segment* s, int32_t begin, int32_t end,
                                  float inverse_h2, bool first) {
	switch ((weft_segment_kind)s->kind) {
	case WEFT_SEGMENT_CONTIGUOUS:
		if (first) {
			KERNEL(solve_strided_kind)(world, s, WEFT_SEGMENT_CONTIGUOUS, begin, end, inverse_h2, true);
		} else {
			KERNEL(solve_strided_kind)(world, s, WEFT_SEGMENT_CONTIGUOUS, begin, end, inverse_h2, false);
		}
		break;
	case WEFT_SEGMENT_INTERLEAVED:
		if (first) {
			KERNEL(solve_strided_kind)(world, s, WEFT_SEGMENT_INTERLEAVED, begin, end, inverse_h2, true);
		} else {
			KERNEL(solve_strided_kind)(world, s, WEFT_SEGMENT_INTERLEAVED, begin, end, inverse_h2, false);
		}
		break;
	case WEFT_SEGMENT_PAIRED:
		if (first) {
			KERNEL(solve_strided_kind)(world, s, WEFT_SEGMENT_PAIRED, begin, end, inverse_h2, true);
		} else {
			KERNEL(solve_strided_kind)(world, s, WEFT_SEGMENT_PAIRED, begin, end, inverse_h2, false);
		}
		break;
	default: break;
	}
}

// The constraints list[0 .. count), LANES at a time: indices from the constraints, the particles
// gathered into lanes and scattered back (a batch shares no particle, so this is safe). A short last
// group fills its spare lanes with the first constraint's particles and never writes them.
static INLINE void KERNEL(solve_gathered)(weft_world* world, const int32_t* list, int32_t count,
                                          float inverse_h2_scalar, bool first) {
	const int32_t stride = world->soa_stride;
	float* X = world->soa;
	float* Y = X + stride;
	float* Z = Y + stride;
	const float* W = Z + stride;
	const weft_constraint* constraints = world->constraints;
	const vf inverse_h2 = vsplat(inverse_h2_scalar), stretch_limit = vsplat(world->stretch_limit);
	for (int32_t j = 0; j < count; j += LANES) {
		const int32_t n = count - j < LANES ? count - j : LANES;
		int32_t ia[LANES], ib[LANES];
		float rest[LANES], compliance[LANES], lambda[LANES];
		for (int32_t i = 0; i < LANES; ++i) {
			// Spare lanes repeat the first constraint's particles: ours, so no other thread writes
			// them meanwhile (their results are never stored).
			const bool real = i < n;
			const int32_t k = list[real ? j + i : j];
			ia[i] = (int32_t)constraints[k].a;
			ib[i] = (int32_t)constraints[k].b;
			rest[i] = real ? constraints[k].rest_length : 1.0f;
			compliance[i] = real ? constraints[k].compliance : 0.0f;
			lambda[i] = real && !first ? world->lambdas[k] : 0.0f;
		}
		const vf all = vnonzero(vsplat(1.0f));
		KERNEL(group)
		g = {vgather(X, ia, all),
		     vgather(Y, ia, all),
		     vgather(Z, ia, all),
		     vgather(W, ia, all),
		     vgather(X, ib, all),
		     vgather(Y, ib, all),
		     vgather(Z, ib, all),
		     vgather(W, ib, all),
		     vload(rest),
		     vload(compliance),
		     lambda,
		     LANES};
		KERNEL(solve_groups)(&g, 1, inverse_h2, stretch_limit, first, false);
		float out[6][LANES];
		vstore(out[0], g.ax);
		vstore(out[1], g.ay);
		vstore(out[2], g.az);
		vstore(out[3], g.bx);
		vstore(out[4], g.by);
		vstore(out[5], g.bz);
		for (int32_t i = 0; i < n; ++i) {
			X[ia[i]] = out[0][i];
			Y[ia[i]] = out[1][i];
			Z[ia[i]] = out[2][i];
			X[ib[i]] = out[3][i];
			Y[ib[i]] = out[4][i];
			Z[ib[i]] = out[5][i];
			world->lambdas[list[j + i]] = lambda[i];
		}
	}
}

#if LANES == 4
void KERNEL(weft_solve_strided_rows)(weft_world* world, const weft_solve_segment* s, int32_t begin, int32_t end,
                                     float inverse_h2, bool first) {
	KERNEL(solve_strided)(world, s, begin, end, inverse_h2, first);
}
#endif

// The first entry of list[from .. to) (sorted) that is not below value.
static inline int32_t KERNEL(lower_bound)(const int32_t* list, int32_t from, int32_t to, int32_t value) {
	while (from < to) {
		const int32_t mid = from + (to - from) / 2;
		if (list[mid] < value) {
			from = mid + 1;
		} else {
			to = mid;
		}
	}
	return from;
}

// Constraints [begin, end) of colour `colour` on the rows (boundaries from weft_solver_batch_split).
void KERNEL(weft_solve_batch_rows)(weft_world* world, int32_t colour, int32_t begin, int32_t end, float inverse_h2,
                                   bool first) {
	for (int32_t j = world->batch_segments[colour]; j < world->batch_segments[colour + 1]; ++j) {
		const weft_solve_segment* s = &world->segments[j];
		const int32_t from = s->begin > begin ? s->begin : begin, to = s->end < end ? s->end : end;
		if (from < to && s->kind != WEFT_SEGMENT_GATHER) {
			KERNEL(solve_strided)(world, s, from, to, inverse_h2, first);
		}
	}
	// The gathered ones of this slice, all together.
	const int32_t* list = world->gathered;
	const int32_t from =
	    KERNEL(lower_bound)(list, world->batch_gathered[colour], world->batch_gathered[colour + 1], begin);
	const int32_t to = KERNEL(lower_bound)(list, from, world->batch_gathered[colour + 1], end);
	if (from < to && first) {
		KERNEL(solve_gathered)(world, list + from, to - from, inverse_h2, true);
	} else if (from < to) {
		KERNEL(solve_gathered)(world, list + from, to - from, inverse_h2, false);
	}
}

// Whether the fours of consecutive anchors a group's slots hold continue each other.
static INLINE bool KERNEL(fours_continue)(const int32_t* anchor) {
	bool continued = true;
	for (int32_t i = 4; i < LANES; i += 4) {
		continued = continued && anchor[i] == anchor[0] + i;
	}
	return continued;
}

// The pins' tethers of particles [begin, end) on the rows (weft_tethers_strided, LANES at a time).
// Groups start at multiples of LANES, where the plan says per slot whether every particle of the
// group has the same anchor (one broadcast) or none (skipped); others gather their anchors.
void KERNEL(weft_tethers_rows)(weft_world* world, int32_t begin, int32_t end) {
	const int32_t stride = world->soa_stride, per = WEFT_TETHERS_PER_PARTICLE;
	float* X = world->soa;
	float* Y = X + stride;
	float* Z = Y + stride;
	const float* W = Z + stride;
	const vf scale = vsplat(world->tether_scale);
	int32_t p = begin + (LANES - begin % LANES) % LANES;
	if (p > end) {
		p = end;
	}
	weft_tethers_strided(world, X, Y, Z, W, 1, world->tether_anchor_rows, world->tether_distance_rows, 1, stride, begin,
	                     p);
	const int32_t vector_end = p + (end - p) / LANES * LANES;
	for (; p < vector_end; p += LANES) {
		const vf free = vnonzero(vload(W + p));
		if (!vany(free)) {
			continue;
		}
		vf x = vload(X + p), y = vload(Y + p), z = vload(Z + p);
		bool moved = false;
		for (int32_t k = 0; k < per; ++k) {
			const int32_t* anchor = &world->tether_anchor_rows[k * stride + p];
			const int32_t group = world->tether_groups[k * (stride / 4) + p / 4];
			int32_t kind = group;
			for (int32_t i = 1; i < LANES / 4; ++i) {
				kind = world->tether_groups[k * (stride / 4) + p / 4 + i] == group ? kind : WEFT_TETHER_GATHER;
			}
			if (kind == WEFT_TETHER_NONE) {
				continue; // no tether in this slot
			}
			vf yx, yy, yz, mask = free;
			if (kind >= 0) {
				yx = vsplat(X[kind]);
				yy = vsplat(Y[kind]);
				yz = vsplat(Z[kind]);
			} else if (kind == WEFT_TETHER_CONSECUTIVE && KERNEL(fours_continue)(anchor)) {
				// The anchors side by side (each four consecutive, and the fours continue each other).
				yx = vload(X + anchor[0]);
				yy = vload(Y + anchor[0]);
				yz = vload(Z + anchor[0]);
			} else {
				// A slot without a tether reads the particle itself (its own: no other thread writes it).
				int32_t index[LANES];
				for (int32_t i = 0; i < LANES; ++i) {
					index[i] = anchor[i] >= 0 ? anchor[i] : p + i;
				}
				mask = vand(mask, vvalid(anchor));
				yx = vgather(X, index, mask);
				yy = vgather(Y, index, mask);
				yz = vgather(Z, index, mask);
			}
			const vf dx = vsub(x, yx), dy = vsub(y, yy), dz = vsub(z, yz);
			const vf d2 = vadd(vadd(vmul(dx, dx), vmul(dy, dy)), vmul(dz, dz));
			const vf limit = vmul(vload(&world->tether_distance_rows[k * stride + p]), scale);
			mask = vand(mask, vgreater(d2, vmul(limit, limit)));
			if (!vany(mask)) {
				continue;
			}
			const vf s = vdiv(limit, vsqrt(d2));
			x = vselect(mask, vadd(yx, vmul(dx, s)), x);
			y = vselect(mask, vadd(yy, vmul(dy, s)), y);
			z = vselect(mask, vadd(yz, vmul(dz, s)), z);
			moved = true;
		}
		if (!moved) {
			continue;
		}
		if (vall(free)) {
			vstore(X + p, x);
			vstore(Y + p, y);
			vstore(Z + p, z);
		} else {
			// A pinned particle is other particles' anchor, read by every thread: never written.
			float lanes[3][LANES];
			vstore(lanes[0], x);
			vstore(lanes[1], y);
			vstore(lanes[2], z);
			for (int32_t i = 0; i < LANES; ++i) {
				if (W[p + i] != 0.0f) {
					X[p + i] = lanes[0][i];
					Y[p + i] = lanes[1][i];
					Z[p + i] = lanes[2][i];
				}
			}
		}
	}
	weft_tethers_strided(world, X, Y, Z, W, 1, world->tether_anchor_rows, world->tether_distance_rows, 1, stride, p,
	                     end);
}

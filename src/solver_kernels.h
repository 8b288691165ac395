// Private: the SIMD solve on the plan's rows (solver_plan.c), written once for any vector width.
// The file that includes it defines LANES (4 or 8), the vector type vf, the operations below and
// KERNEL(name) (the name with its path's suffix): solver_simd.c for SSE2 and wasm SIMD128 (4 lanes),
// solver_avx2.c for AVX2 (8 lanes, chosen at run time).
//
//   vload vstore vsplat vzero vadd vsub vmul vdiv vsqrt vneg vand vselect(mask, yes, no) vany(mask)
//   vactive(w, length)      w != 0 and not (length < MIN_LENGTH): the scalar path's two skip tests
//   vnonzero(w) vgreater(a, b)
//   vsplit_interleaved / vjoin_interleaved   2·LANES neighbours ↔ (even, odd) particles
//   vsplit_paired / vjoin_paired             2·LANES particles ↔ (columns 0, 1 of each 4, columns 2, 3)
//   vload_lanes / vstore_lanes               constraint values in the lane order the two above give
//   vall(mask)
//   vvalid(index)                            index[i] ≥ 0 per lane (a tether slot in use)
//   vgather(row, index, mask)                row[index[i]] in the lanes of mask (others: anything finite)
//
// Every lane performs the scalar path's operations in the scalar path's order (no FMA, the same
// association and negation), and skipped constraints keep their bits through a select: the results
// are bit-identical to solve_constraints in solver_simd.c, whichever width runs.

// One group of LANES constraints: a and b are their particles' rows (x, y, z, inverse mass).
static inline void KERNEL(solve_group)(vf* ax, vf* ay, vf* az, vf aw, vf* bx, vf* by, vf* bz, vf bw, vf rest,
                                       vf compliance, vf inverse_h2, float* lambdas, bool first, bool lanes_order) {
	const vf w = vadd(aw, bw);
	const vf dx = vsub(*ax, *bx), dy = vsub(*ay, *by), dz = vsub(*az, *bz);
	const vf length = vsqrt(vadd(vadd(vmul(dx, dx), vmul(dy, dy)), vmul(dz, dz)));
	const vf mask = vactive(w, length);
	const vf alpha = vmul(compliance, inverse_h2);
	vf delta_lambda, lambda_after;
	if (first) {
		// λ = 0 at the start of a substep: −α̃λ is +0, and x − (+0) is x, so the term is dropped.
		delta_lambda = vdiv(vneg(vsub(length, rest)), vadd(w, alpha));
		lambda_after = vselect(mask, vadd(vzero(), delta_lambda), vzero());
	} else {
		const vf lambda = lanes_order ? vload_lanes(lambdas) : vload(lambdas);
		delta_lambda = vdiv(vsub(vneg(vsub(length, rest)), vmul(alpha, lambda)), vadd(w, alpha));
		lambda_after = vselect(mask, vadd(lambda, delta_lambda), lambda);
	}
	if (lanes_order) {
		vstore_lanes(lambdas, lambda_after);
	} else {
		vstore(lambdas, lambda_after);
	}
	const vf s = vdiv(delta_lambda, length);
	const vf as = vmul(aw, s), bs = vmul(bw, s);
	*ax = vselect(mask, vadd(*ax, vmul(as, dx)), *ax);
	*ay = vselect(mask, vadd(*ay, vmul(as, dy)), *ay);
	*az = vselect(mask, vadd(*az, vmul(as, dz)), *az);
	*bx = vselect(mask, vsub(*bx, vmul(bs, dx)), *bx);
	*by = vselect(mask, vsub(*by, vmul(bs, dy)), *by);
	*bz = vselect(mask, vsub(*bz, vmul(bs, dz)), *bz);
}

// Constraints [begin, end) of a strided segment (begin − s->begin and end − begin whole groups).
static inline void KERNEL(solve_strided)(weft_world* world, const weft_solve_segment* s, int32_t begin, int32_t end,
                                         float inverse_h2_scalar, bool first) {
	const int32_t stride = world->soa_stride;
	float* X = world->soa;
	float* Y = X + stride;
	float* Z = Y + stride;
	const float* W = Z + stride;
	const float* rest_lengths = world->rest_lengths;
	const float* compliances = world->compliances;
	float* lambdas = world->lambdas;
	const vf inverse_h2 = vsplat(inverse_h2_scalar);
	if (s->kind == WEFT_SEGMENT_CONTIGUOUS) {
		const int32_t d = s->d;
		for (int32_t k = begin; k < end; k += LANES) {
			const int32_t a = s->a0 + (k - s->begin), b = a + d;
			vf ax = vload(X + a), ay = vload(Y + a), az = vload(Z + a);
			vf bx = vload(X + b), by = vload(Y + b), bz = vload(Z + b);
			KERNEL(solve_group)
			(&ax, &ay, &az, vload(W + a), &bx, &by, &bz, vload(W + b), vload(rest_lengths + k), vload(compliances + k),
			 inverse_h2, lambdas + k, first, false);
			vstore(X + a, ax);
			vstore(Y + a, ay);
			vstore(Z + a, az);
			vstore(X + b, bx);
			vstore(Y + b, by);
			vstore(Z + b, bz);
		}
		return;
	}
	const bool paired = s->kind == WEFT_SEGMENT_PAIRED;
	for (int32_t k = begin; k < end; k += LANES) {
		// The group's 2·LANES particles are one block: [p, p + 2·LANES).
		const int32_t p = s->a0 + 2 * (k - s->begin);
		vf ax, ay, az, aw, bx, by, bz, bw;
		if (paired) {
			vsplit_paired(vload(X + p), vload(X + p + LANES), &ax, &bx);
			vsplit_paired(vload(Y + p), vload(Y + p + LANES), &ay, &by);
			vsplit_paired(vload(Z + p), vload(Z + p + LANES), &az, &bz);
			vsplit_paired(vload(W + p), vload(W + p + LANES), &aw, &bw);
		} else {
			vsplit_interleaved(vload(X + p), vload(X + p + LANES), &ax, &bx);
			vsplit_interleaved(vload(Y + p), vload(Y + p + LANES), &ay, &by);
			vsplit_interleaved(vload(Z + p), vload(Z + p + LANES), &az, &bz);
			vsplit_interleaved(vload(W + p), vload(W + p + LANES), &aw, &bw);
		}
		KERNEL(solve_group)
		(&ax, &ay, &az, aw, &bx, &by, &bz, bw, vload_lanes(rest_lengths + k), vload_lanes(compliances + k), inverse_h2,
		 lambdas + k, first, true);
		vf v0, v1;
		if (paired) {
			vjoin_paired(ax, bx, &v0, &v1);
			vstore(X + p, v0);
			vstore(X + p + LANES, v1);
			vjoin_paired(ay, by, &v0, &v1);
			vstore(Y + p, v0);
			vstore(Y + p + LANES, v1);
			vjoin_paired(az, bz, &v0, &v1);
			vstore(Z + p, v0);
			vstore(Z + p + LANES, v1);
		} else {
			vjoin_interleaved(ax, bx, &v0, &v1);
			vstore(X + p, v0);
			vstore(X + p + LANES, v1);
			vjoin_interleaved(ay, by, &v0, &v1);
			vstore(Y + p, v0);
			vstore(Y + p + LANES, v1);
			vjoin_interleaved(az, bz, &v0, &v1);
			vstore(Z + p, v0);
			vstore(Z + p + LANES, v1);
		}
	}
}

// Constraints [begin, end) of a gather segment, LANES at a time: indices from the constraints, the
// particles gathered into lanes and scattered back (a batch shares no particle, so this is safe).
// A short last group leaves its spare lanes on particle 0 and never writes them.
static inline void KERNEL(solve_gathered)(weft_world* world, int32_t begin, int32_t end, float inverse_h2_scalar,
                                          bool first) {
	const int32_t stride = world->soa_stride;
	float* X = world->soa;
	float* Y = X + stride;
	float* Z = Y + stride;
	const float* W = Z + stride;
	const weft_constraint* constraints = world->constraints;
	const vf inverse_h2 = vsplat(inverse_h2_scalar);
	for (int32_t k = begin; k < end; k += LANES) {
		const int32_t n = end - k < LANES ? end - k : LANES;
		int32_t ia[LANES], ib[LANES];
		float rest[LANES], compliance[LANES], lambda[LANES];
		for (int32_t i = 0; i < LANES; ++i) {
			const bool real = i < n;
			ia[i] = real ? (int32_t)constraints[k + i].a : 0;
			ib[i] = real ? (int32_t)constraints[k + i].b : 0;
			rest[i] = real ? constraints[k + i].rest_length : 1.0f;
			compliance[i] = real ? constraints[k + i].compliance : 0.0f;
			lambda[i] = real && !first ? world->lambdas[k + i] : 0.0f;
		}
		const vf all = vnonzero(vsplat(1.0f));
		vf ax = vgather(X, ia, all), ay = vgather(Y, ia, all), az = vgather(Z, ia, all);
		vf bx = vgather(X, ib, all), by = vgather(Y, ib, all), bz = vgather(Z, ib, all);
		KERNEL(solve_group)
		(&ax, &ay, &az, vgather(W, ia, all), &bx, &by, &bz, vgather(W, ib, all), vload(rest), vload(compliance),
		 inverse_h2, lambda, first, false);
		float out[6][LANES];
		vstore(out[0], ax);
		vstore(out[1], ay);
		vstore(out[2], az);
		vstore(out[3], bx);
		vstore(out[4], by);
		vstore(out[5], bz);
		for (int32_t i = 0; i < n; ++i) {
			X[ia[i]] = out[0][i];
			Y[ia[i]] = out[1][i];
			Z[ia[i]] = out[2][i];
			X[ib[i]] = out[3][i];
			Y[ib[i]] = out[4][i];
			Z[ib[i]] = out[5][i];
			world->lambdas[k + i] = lambda[i];
		}
	}
}

// Constraints [begin, end) of colour `colour` on the rows (boundaries from weft_solver_batch_split).
void KERNEL(weft_solve_batch_rows)(weft_world* world, int32_t colour, int32_t begin, int32_t end, float inverse_h2,
                                   bool first) {
	for (int32_t j = world->batch_segments[colour]; j < world->batch_segments[colour + 1]; ++j) {
		const weft_solve_segment* s = &world->segments[j];
		const int32_t from = s->begin > begin ? s->begin : begin, to = s->end < end ? s->end : end;
		if (from >= to) {
			continue;
		}
		if (s->kind == WEFT_SEGMENT_GATHER && first) {
			KERNEL(solve_gathered)(world, from, to, inverse_h2, true);
		} else if (s->kind == WEFT_SEGMENT_GATHER) {
			KERNEL(solve_gathered)(world, from, to, inverse_h2, false);
		} else if (first) {
			KERNEL(solve_strided)(world, s, from, to, inverse_h2, true);
		} else {
			KERNEL(solve_strided)(world, s, from, to, inverse_h2, false);
		}
	}
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
				kind = world->tether_groups[k * (stride / 4) + p / 4 + i] == group ? kind : -2;
			}
			if (kind == -1) {
				continue; // no tether in this slot
			}
			vf yx, yy, yz, mask = free;
			if (kind >= 0) {
				yx = vsplat(X[kind]);
				yy = vsplat(Y[kind]);
				yz = vsplat(Z[kind]);
			} else {
				mask = vand(mask, vvalid(anchor));
				yx = vgather(X, anchor, mask);
				yy = vgather(Y, anchor, mask);
				yz = vgather(Z, anchor, mask);
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

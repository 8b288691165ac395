// Orientation of the mesh collider's triangles, once, before the normals: a closed mesh collides
// the same whatever the winding the file gave it.
//
//  1. Consistent: triangles that share a manifold edge (exactly two triangles on it) must walk it
//     in opposite directions. A flood fill over that adjacency from the first triangle of each
//     connected piece flips every triangle that disagrees with its neighbour (a non-orientable
//     piece, a Möbius strip, keeps the first answer the fill reaches).
//  2. Outward: a piece that is closed (every edge of its triangles manifold) and encloses a
//     negative signed volume is inward: all its triangles are flipped.
// An open piece keeps the winding of its first triangle: it collides two-sided anyway, and its
// edge pseudo-normals are now sums of agreeing face normals. A flip swaps a triangle's last two
// indices; a consistently outward mesh (the bunny) is left exactly as it was.
#include <stdlib.h>
#include <string.h>

#include "mesh.h"

typedef struct half_edge {
	uint32_t lo, hi; // vertex indices, lo < hi
	uint32_t slot;   // 3 * triangle + edge
} half_edge;

static int compare_half_edges(const void* a, const void* b) {
	const half_edge* x = a;
	const half_edge* y = b;
	if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
	return x->slot < y->slot ? -1 : (x->slot > y->slot ? 1 : 0);
}

// Whether the triangle of `slot` walks that edge from its lower to its higher vertex, once flipped
// as flipped[] says (the flips are applied at the end, so slots keep their edges meanwhile).
static bool walks_forward(const uint32_t* indices, const uint8_t* flipped, uint32_t slot) {
	uint32_t t = slot / 3, e = slot % 3;
	return (indices[3 * t + e] < indices[3 * t + (e + 1) % 3]) != (flipped[t] != 0);
}

weft_result weft_mesh_orient(uint32_t* indices, int32_t triangle_count, const float* vertices,
                             const weft_allocator* allocator) {
	size_t slots = 3 * (size_t)triangle_count;
	half_edge* edges = weft_alloc(allocator, sizeof(half_edge) * slots);
	int32_t* neighbour = weft_alloc(allocator, sizeof(int32_t) * slots); // per slot: the other slot, -1 if none
	int32_t* piece = weft_alloc(allocator, sizeof(int32_t) * (size_t)triangle_count);
	int32_t* queue = weft_alloc(allocator, sizeof(int32_t) * (size_t)triangle_count);
	uint8_t* flipped = weft_alloc(allocator, (size_t)triangle_count);
	if (edges == NULL || neighbour == NULL || piece == NULL || queue == NULL || flipped == NULL) {
		weft_free(allocator, edges);
		weft_free(allocator, neighbour);
		weft_free(allocator, piece);
		weft_free(allocator, queue);
		weft_free(allocator, flipped);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "mesh collider: out of memory");
	}
	for (size_t s = 0; s < slots; s++) {
		uint32_t a = indices[s], b = indices[s - s % 3 + (s % 3 + 1) % 3];
		edges[s] = (half_edge){a < b ? a : b, a < b ? b : a, (uint32_t)s};
		neighbour[s] = -1;
	}
	qsort(edges, slots, sizeof(half_edge), compare_half_edges);
	for (size_t begin = 0; begin < slots;) {
		size_t end = begin + 1;
		while (end < slots && edges[end].lo == edges[begin].lo && edges[end].hi == edges[begin].hi) end++;
		if (end - begin == 2) {
			neighbour[edges[begin].slot] = (int32_t)edges[begin + 1].slot;
			neighbour[edges[begin + 1].slot] = (int32_t)edges[begin].slot;
		}
		begin = end;
	}
	weft_free(allocator, edges);

	memset(flipped, 0, (size_t)triangle_count);
	for (int32_t t = 0; t < triangle_count; t++) piece[t] = -1;
	for (int32_t seed = 0; seed < triangle_count; seed++) {
		if (piece[seed] >= 0) continue;
		// 1. Flood fill: breadth first from the seed, each triangle agreeing with the one that reached it.
		int32_t head = 0, tail = 0;
		piece[seed] = seed;
		queue[tail++] = seed;
		bool closed = true;
		while (head < tail) {
			int32_t t = queue[head++];
			for (int e = 0; e < 3; e++) {
				uint32_t slot = (uint32_t)(3 * t + e);
				int32_t other = neighbour[slot];
				if (other < 0) {
					closed = false;
					continue;
				}
				int32_t u = other / 3;
				if (piece[u] >= 0) continue;
				flipped[u] = walks_forward(indices, flipped, slot) == walks_forward(indices, flipped, (uint32_t)other);
				piece[u] = seed;
				queue[tail++] = u;
			}
		}
		if (!closed) continue;
		// 2. Outward: the signed volume of the closed piece (tetrahedra from its first vertex).
		for (int32_t k = 0; k < tail && closed; k++) {
			int32_t t = queue[k];
			for (int e = 0; e < 3; e++) {
				uint32_t slot = (uint32_t)(3 * t + e);
				closed = closed && walks_forward(indices, flipped, slot) !=
				                       walks_forward(indices, flipped, (uint32_t)neighbour[slot]);
			}
		}
		if (!closed) continue; // non-orientable: no inside to point away from
		const float* origin = vertices + 4 * indices[3 * seed];
		double volume = 0.0;
		for (int32_t k = 0; k < tail; k++) {
			const uint32_t* tri = indices + 3 * queue[k];
			double p[3][3];
			for (int c = 0; c < 3; c++)
				for (int axis = 0; axis < 3; axis++)
					p[c][axis] = (double)vertices[4 * tri[c] + axis] - (double)origin[axis];
			double sign = flipped[queue[k]] ? -1.0 : 1.0;
			volume += sign * (p[0][0] * (p[1][1] * p[2][2] - p[1][2] * p[2][1]) -
			                  p[0][1] * (p[1][0] * p[2][2] - p[1][2] * p[2][0]) +
			                  p[0][2] * (p[1][0] * p[2][1] - p[1][1] * p[2][0]));
		}
		if (volume < 0.0) {
			for (int32_t k = 0; k < tail; k++) flipped[queue[k]] ^= 1;
		}
	}
	for (int32_t t = 0; t < triangle_count; t++) {
		if (flipped[t]) { // swap the last two corners
			uint32_t swap = indices[3 * t + 1];
			indices[3 * t + 1] = indices[3 * t + 2];
			indices[3 * t + 2] = swap;
		}
	}
	weft_free(allocator, flipped);
	weft_free(allocator, neighbour);
	weft_free(allocator, piece);
	weft_free(allocator, queue);
	return WEFT_OK;
}

// Bounding spheres of the mesh collider, computed once: one per triangle (the exact test's cheap
// reject) and a few for the whole mesh (the broadphase).
//
// The broadphase spheres together cover every triangle grown by the query reach, fitted by k-means
// on the vertices (each triangle joins the cluster nearest its centroid), so a particle outside
// all of them cannot touch the mesh and skips the grid.
#include <math.h>

#include "mesh.h"
#include "vec3.h"

#define MESH_KMEANS_ITERATIONS 8

void weft_mesh_triangle_spheres(weft_mesh_collider* mesh) {
	for (int32_t t = 0; t < mesh->triangle_count; t++) {
		const uint32_t* tri = mesh->indices + 3 * t;
		const float* p[3] = {mesh->vertices + 4 * tri[0], mesh->vertices + 4 * tri[1], mesh->vertices + 4 * tri[2]};
		float* bound = mesh->triangle_spheres + 4 * t;
		float radius2 = 0.0f;
		for (int axis = 0; axis < 3; axis++) bound[axis] = (p[0][axis] + p[1][axis] + p[2][axis]) / 3.0f;
		for (int k = 0; k < 3; k++) {
			float d2 = weft_distance2(weft_load3(bound), weft_load3(p[k]));
			radius2 = d2 > radius2 ? d2 : radius2;
		}
		bound[3] = sqrtf(radius2) * 1.0001f + 1e-7f;
	}
}

// k-means over the vertices, then each triangle joins the centre nearest its centroid; a sphere's
// radius covers its triangles plus reach.
void weft_mesh_fit_spheres(weft_mesh_collider* mesh, float reach) {
	int32_t k = mesh->vertex_count < WEFT_MESH_MAX_SPHERES ? mesh->vertex_count : WEFT_MESH_MAX_SPHERES;
	float centres[WEFT_MESH_MAX_SPHERES][3];
	// Farthest-point initialisation from the vertex nearest the centroid (deterministic).
	double centroid[3] = {0, 0, 0};
	for (int32_t v = 0; v < mesh->vertex_count; v++) {
		for (int axis = 0; axis < 3; axis++) centroid[axis] += mesh->vertices[4 * v + axis];
	}
	float mean[3];
	for (int axis = 0; axis < 3; axis++) mean[axis] = (float)(centroid[axis] / mesh->vertex_count);
	int32_t first = 0;
	for (int32_t v = 1; v < mesh->vertex_count; v++) {
		if (weft_distance2(weft_load3(mesh->vertices + 4 * v), weft_load3(mean)) <
		    weft_distance2(weft_load3(mesh->vertices + 4 * first), weft_load3(mean))) {
			first = v;
		}
	}
	weft_store3(centres[0], weft_load3(mesh->vertices + 4 * first));
	for (int32_t c = 1; c < k; c++) {
		int32_t farthest = 0;
		float farthest_d2 = -1.0f;
		for (int32_t v = 0; v < mesh->vertex_count; v++) {
			float nearest = INFINITY;
			for (int32_t j = 0; j < c; j++) {
				float d2 = weft_distance2(weft_load3(mesh->vertices + 4 * v), weft_load3(centres[j]));
				nearest = d2 < nearest ? d2 : nearest;
			}
			if (nearest > farthest_d2) {
				farthest_d2 = nearest;
				farthest = v;
			}
		}
		weft_store3(centres[c], weft_load3(mesh->vertices + 4 * farthest));
	}
	for (int iteration = 0; iteration < MESH_KMEANS_ITERATIONS; iteration++) {
		double sums[WEFT_MESH_MAX_SPHERES][3] = {{0}};
		int32_t counts[WEFT_MESH_MAX_SPHERES] = {0};
		for (int32_t v = 0; v < mesh->vertex_count; v++) {
			int32_t best = 0;
			float best_d2 = INFINITY;
			for (int32_t j = 0; j < k; j++) {
				float d2 = weft_distance2(weft_load3(mesh->vertices + 4 * v), weft_load3(centres[j]));
				if (d2 < best_d2) {
					best_d2 = d2;
					best = j;
				}
			}
			for (int axis = 0; axis < 3; axis++) sums[best][axis] += mesh->vertices[4 * v + axis];
			counts[best]++;
		}
		for (int32_t j = 0; j < k; j++) {
			if (counts[j] > 0) {
				for (int axis = 0; axis < 3; axis++) centres[j][axis] = (float)(sums[j][axis] / counts[j]);
			}
		}
	}
	float radius2[WEFT_MESH_MAX_SPHERES];
	bool used[WEFT_MESH_MAX_SPHERES] = {false};
	for (int32_t j = 0; j < k; j++) radius2[j] = 0.0f;
	for (int32_t t = 0; t < mesh->triangle_count; t++) {
		const uint32_t* tri = mesh->indices + 3 * t;
		float centroid3[3];
		for (int axis = 0; axis < 3; axis++) {
			centroid3[axis] = (mesh->vertices[4 * tri[0] + axis] + mesh->vertices[4 * tri[1] + axis] +
			                   mesh->vertices[4 * tri[2] + axis]) /
			                  3.0f;
		}
		int32_t best = 0;
		float best_d2 = INFINITY;
		for (int32_t j = 0; j < k; j++) {
			float d2 = weft_distance2(weft_load3(centroid3), weft_load3(centres[j]));
			if (d2 < best_d2) {
				best_d2 = d2;
				best = j;
			}
		}
		used[best] = true;
		for (int corner = 0; corner < 3; corner++) {
			float d2 = weft_distance2(weft_load3(mesh->vertices + 4 * tri[corner]), weft_load3(centres[best]));
			radius2[best] = d2 > radius2[best] ? d2 : radius2[best];
		}
	}
	mesh->sphere_count = 0;
	for (int32_t j = 0; j < k; j++) {
		if (used[j]) {
			float* sphere = mesh->spheres + 4 * mesh->sphere_count++;
			weft_store3(sphere, weft_load3(centres[j]));
			// Float slack so rounding never leaves a vertex just outside.
			sphere[3] = sqrtf(radius2[j]) * 1.0001f + reach;
		}
	}
}

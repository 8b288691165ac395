// weft run: simulate a scene and export OBJ frames (cloth_0001.obj ..., as many digits as the last
// frame's, at least 4) plus the colliders, or one binary glTF (--export FILE.glb) with the cloth
// animated and the colliders.
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "commands.h"
#include "gltf_export.h"
#include "interrupt.h"
#include "json_string.h"
#include "obj_export.h"
#include "progress.h"
#include "scene_setup.h"

// The least an OBJ sequence of `samples` frames of world's cloth takes: every number is written
// with at least 8 characters ("0.000000") and every index with at least 1 (export_cloth_obj).
static uint64_t least_sequence_bytes(const weft_world* world, int64_t samples) {
	const uint64_t vertex = sizeof "v 0.000000 0.000000 0.000000\n" - 1 + sizeof "vt 0.000000 0.000000\n" - 1 +
	                        sizeof "vn 0.00000 0.00000 0.00000\n" - 1;
	const uint64_t face = sizeof "f 1/1/1 1/1/1 1/1/1\n" - 1;
	const uint64_t frame =
	    vertex * (uint64_t)weft_world_particle_count(world) + face * (uint64_t)(weft_world_index_count(world) / 3);
	return frame * (uint64_t)samples;
}

// The export directory, made if missing, and proven writable by creating and removing a probe
// file in it (permissions alone do not say: root ignores them, a read-only mount or an immutable
// directory does not), with room for at least `needed` bytes (a sequence that cannot fit is refused
// before it fills the disk). Prints the error and returns false otherwise.
static bool prepare_directory(const char* path, uint64_t needed) {
	struct stat info;
	bool made = false;
	if (stat(path, &info) == 0) {
		if (!S_ISDIR(info.st_mode)) {
			cli_error("--export '%s' is not a directory", path);
			return false;
		}
	} else if (mkdir(path, 0755) == 0) {
		made = true;
	} else if (errno == EEXIST) { // "file/": stat says ENOTDIR, mkdir EEXIST
		cli_error("--export '%s' is not a directory", path);
		return false;
	} else if (errno == ENOTDIR) {
		cli_error("--export '%s': a part of its path is a file, not a directory", path);
		return false;
	} else {
		cli_error("cannot create directory '%s': %s", path, strerror(errno));
		return false;
	}
	char probe[4096];
	snprintf(probe, sizeof probe, "%s/.weft-probe-%ld", path, (long)getpid());
	int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		cli_error("cannot write in directory '%s': %s", path, strerror(errno));
		if (made) rmdir(path);
		return false;
	}
	close(fd);
	unlink(probe);
	struct statvfs disk;
	if (statvfs(path, &disk) == 0) {
		const uint64_t free_bytes = (uint64_t)disk.f_bavail * (uint64_t)disk.f_frsize;
		if (needed > free_bytes) {
			cli_error("--export '%s': the frames need at least %.1f GB, %.1f GB are free there (raise --every, or "
			          "lower --frames or --grid)",
			          path, (double)needed / 1e9, (double)free_bytes / 1e9);
			if (made) rmdir(path);
			return false;
		}
	}
	return true;
}

// Frames f = every, 2 every, ... and the last one, streamed into one .glb.
static int run_gltf(const args* a, const char* path, int64_t frames, int64_t every, bool cloth) {
	if (strlen(path) > 3900) {
		cli_error("--export path is too long");
		return EXIT_BAD_INPUT;
	}
	const int64_t samples = frames / every + (frames % every != 0);
	if (samples > WEFT_GLTF_MAX_FRAMES) {
		cli_error("--export '%s': %lld sampled frames; a .glb holds at most %d (raise --every)", path,
		          (long long)samples, WEFT_GLTF_MAX_FRAMES);
		return EXIT_BAD_INPUT;
	}
	scene_setup setup;
	int code = scene_setup_create(a, &setup);
	if (code != 0) {
		return code;
	}
	weft_gltf_def def = weft_default_gltf_def();
	def.frame_capacity = (int32_t)samples;
	def.frame_dt = setup.frame_dt;
	def.cloth = cloth;
	interrupt_catch(); // from the file's creation on: a signal removes it
	gltf_export* out = gltf_export_open(path, setup.world, &def, &code);
	if (out == NULL) {
		weft_world_destroy(setup.world);
		interrupt_resend();
		return code;
	}
	progress bar = progress_start("run", frames);
	for (int64_t f = 1; f <= frames && code == 0 && !interrupt_requested(); ++f) {
		if (weft_world_step(setup.world, setup.frame_dt) != WEFT_OK) {
			cli_error("step %lld: %s", (long long)f, weft_last_error());
			code = 1;
		} else if ((f % every == 0 || f == frames) && !gltf_export_frame(out, setup.world)) {
			code = 1;
		}
		progress_update(&bar, f);
	}
	progress_finish(&bar);
	if (code == 0 && interrupt_requested()) {
		cli_error("interrupted: '%s' removed (an unfinished .glb is no glTF file)", path);
		code = 1;
	}
	uint64_t bytes = 0;
	if (code != 0) {
		gltf_export_abort(out);
	} else if (!gltf_export_close(out, &bytes)) {
		code = 1;
	}
	if (code == 0) {
		printf("{\"scene\":\"%s\",\"grid\":%d,\"frames\":%lld,\"files\":1,\"export\":", setup.scene, (int)setup.grid,
		       (long long)frames);
		json_write_string(stdout, path);
		printf(",\"samples\":%lld,\"bytes\":%llu,\"max_stretch\":%.6f,\"nan\":%s}\n", (long long)samples,
		       (unsigned long long)bytes, (double)weft_world_max_stretch(setup.world),
		       weft_world_is_finite(setup.world) ? "false" : "true");
	}
	weft_world_destroy(setup.world);
	interrupt_resend();
	return code;
}

int command_run(int argc, char** argv) {
	static const char* const allowed[] = {"scene",       "grid",       "frames",   "export",         "every",
	                                      "substeps",    "iterations", "collider", "self-collision", "spheres",
	                                      "ridge-lifts", "damping",    "threads",  "cloth",          "max-substeps",
	                                      "thickness",   NULL};
	args a;
	int64_t frames, every, cloth;
	if (!args_parse(argc, argv, allowed, &a) || !args_int(&a, "frames", 120, 1, 1000000, &frames) ||
	    !args_int(&a, "every", 1, 1, 1000000, &every) || !args_int(&a, "cloth", 1, 0, 1, &cloth)) {
		return EXIT_BAD_INPUT;
	}
	const char* directory = args_get(&a, "export");
	if (directory == NULL) {
		cli_error("run needs --export DIR or --export FILE.glb");
		return EXIT_BAD_INPUT;
	}
	if (gltf_export_wanted(directory)) {
		return run_gltf(&a, directory, frames, every, cloth != 0);
	}
	if (cloth == 0) {
		cli_error("--cloth 0 (colliders only) is for a .glb export");
		return EXIT_BAD_INPUT;
	}
	if (strlen(directory) > 3900) {
		cli_error("--export path is too long");
		return EXIT_BAD_INPUT;
	}
	// Every argument (scene, grid, collider, ...) is checked before anything is created, and the
	// destination before anything is simulated.
	scene_setup setup;
	int code = scene_setup_create(&a, &setup);
	if (code != 0) {
		return code;
	}
	const int64_t samples = frames / every + (frames % every != 0);
	if (!prepare_directory(directory, least_sequence_bytes(setup.world, samples))) {
		weft_world_destroy(setup.world);
		return EXIT_BAD_INPUT;
	}
	char path[4096];
	int written = 0;
	int digits = 4; // cloth_0001.obj ...; wider when the last frame needs it, so names sort as frames
	for (int64_t last = frames; last >= 10000 && digits < 19; last /= 10) digits++;
	interrupt_catch();
	progress bar = progress_start("run", frames);
	for (int64_t f = 1; f <= frames && code == 0 && !interrupt_requested(); ++f) {
		if (weft_world_step(setup.world, setup.frame_dt) != WEFT_OK) {
			cli_error("step %lld: %s", (long long)f, weft_last_error());
			code = 1;
			break;
		}
		if (f % every == 0 || f == frames) {
			snprintf(path, sizeof path, "%s/cloth_%0*lld.obj", directory, digits, (long long)f);
			if (!export_cloth_obj(setup.world, path)) {
				cli_error("cannot write '%s': %s", path, strerror(errno));
				code = 1;
			}
			written++;
		}
		progress_update(&bar, f);
	}
	progress_finish(&bar);
	if (code == 0 && interrupt_requested()) {
		cli_error("interrupted: %d frames written, no collider.obj", written);
		code = 1;
	}
	snprintf(path, sizeof path, "%s/collider.obj", directory);
	if (code == 0 && !export_colliders_obj(setup.world, path)) {
		cli_error("cannot write '%s': %s", path, strerror(errno));
		code = 1;
	}
	if (code == 0) {
		printf("{\"scene\":\"%s\",\"grid\":%d,\"frames\":%lld,\"files\":%d,\"export\":", setup.scene, (int)setup.grid,
		       (long long)frames, written);
		json_write_string(stdout, directory);
		printf(",\"max_stretch\":%.6f,\"nan\":%s}\n", (double)weft_world_max_stretch(setup.world),
		       weft_world_is_finite(setup.world) ? "false" : "true");
	}
	weft_world_destroy(setup.world);
	interrupt_resend();
	return code;
}

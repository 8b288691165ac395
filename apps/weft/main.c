// weft command-line tool: JSON on stdout, progress and errors on stderr, exit 2 on bad input.
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"

static void usage(FILE* out) {
	fputs("usage: weft <command> [options]\n"
	      "  info  [--grid WxH]                       particle, constraint and colour counts (64x64)\n"
	      "  bench [--scene S] [--grid N] [--substeps S] [--iterations K] [--frames F] [--threads T]\n"
	      "        [--simd 0|1|4|8|16] [--collider FILE.obj|none] [--self-collision 0|1] [--spheres 0|1]\n"
	      "        [--damping D] [--ridge-lifts 0|1] [--max-substeps M] [--thickness M]\n"
	      "  run   --export DIR [--scene S] [--grid N] [--frames F] [--every K] [--collider FILE.obj|none]\n"
	      "        [--substeps S] [--iterations K] [--threads T] [--self-collision 0|1] [--spheres 0|1] [--damping D]\n"
	      "        [--ridge-lifts 0|1] [--max-substeps M] [--thickness M]\n"
	      "  run   ... --export FILE.glb [--cloth 0|1]   one binary glTF: the cloth animated, the colliders\n"
	      "scenes: hang, sphere, flag, bunny, fold; defaults: --scene hang --grid 64, the scene's substeps,\n"
	      "  1 iteration, --frames 600 (bench) or 120 (run); near a mesh collider a fast frame takes more\n"
	      "  substeps, up to --max-substeps (32; 0: always the substeps); --thickness: what self-collision\n"
	      "  keeps between layers, m (0: the grid spacing, the default)\n",
	      out);
}

static bool is_help_flag(const char* arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

static bool is_command(const char* arg) {
	return strcmp(arg, "info") == 0 || strcmp(arg, "bench") == 0 || strcmp(arg, "run") == 0;
}

static int dispatch(int argc, char** argv) {
	if (argc < 2) {
		usage(stderr);
		cli_error("missing command");
		return EXIT_BAD_INPUT;
	}
	const char* command = argv[1];
	if (strcmp(command, "help") == 0 || is_help_flag(command) ||
	    (argc == 3 && is_command(command) && is_help_flag(argv[2]))) {
		usage(stdout); // `weft --help`, and `weft run --help` for a command's options
		return 0;
	}
	if (strcmp(command, "info") == 0) return command_info(argc - 2, argv + 2);
	if (strcmp(command, "bench") == 0) return command_bench(argc - 2, argv + 2);
	if (strcmp(command, "run") == 0) return command_run(argc - 2, argv + 2);
	usage(stderr);
	cli_error("unknown command '%s'", command);
	return EXIT_BAD_INPUT;
}

// The JSON on stdout is the result: a closed stdout is refused before anything runs (a file the
// command opens could take its descriptor), and a write that failed (/dev/full, a closed pipe)
// turns a success into exit 1 with a message.
int main(int argc, char** argv) {
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
		cli_error("stdout is closed: the result would be lost");
		return 1;
	}
	int code = dispatch(argc, argv);
	errno = 0;
	bool failed = fflush(stdout) != 0 || ferror(stdout);
	failed = fclose(stdout) != 0 || failed;
	if (failed) {
		cli_error("cannot write to stdout: %s", errno != 0 ? strerror(errno) : "write error");
		return code != 0 ? code : 1;
	}
	return code;
}

// weft command-line tool: JSON on stdout, progress and errors on stderr, exit 2 on bad input.
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"

static void usage(FILE* out) {
	fputs("usage: weft <command> [options]\n"
	      "  info  --grid WxH                         particle, constraint and colour counts\n"
	      "  bench --scene S --grid N --substeps S --iterations K --frames F [--threads T] [--simd 0|1]\n"
	      "        [--collider FILE.obj|none] [--self-collision 0|1]\n"
	      "  run   --scene S --grid N --frames F --export DIR [--every K] [--collider FILE.obj|none]\n"
	      "        [--substeps S] [--iterations K] [--threads T] [--self-collision 0|1]\n"
	      "scenes: hang, sphere, flag, bunny, fold\n",
	      out);
}

int main(int argc, char** argv) {
	if (argc < 2) {
		usage(stderr);
		cli_error("missing command");
		return EXIT_BAD_INPUT;
	}
	const char* command = argv[1];
	if (strcmp(command, "info") == 0) return command_info(argc - 2, argv + 2);
	if (strcmp(command, "bench") == 0) return command_bench(argc - 2, argv + 2);
	if (strcmp(command, "run") == 0) return command_run(argc - 2, argv + 2);
	if (strcmp(command, "help") == 0 || strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0) {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	cli_error("unknown command '%s'", command);
	return EXIT_BAD_INPUT;
}

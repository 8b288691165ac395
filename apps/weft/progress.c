#include "progress.h"

#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// Short runs finish before a bar would help; long ones get one.
#define PROGRESS_MIN_FRAMES 120

progress progress_start(const char* label, int64_t total) {
	progress p = {label, total, -1, total >= PROGRESS_MIN_FRAMES && (isatty(2) || getenv("WEFT_PROGRESS") != NULL)};
	progress_update(&p, 0);
	return p;
}

void progress_update(progress* p, int64_t done) {
	if (!p->enabled || p->total <= 0) {
		return;
	}
	int percent = (int)(done * 100 / p->total);
	if (percent / 2 == p->last_percent / 2 && p->last_percent >= 0) {
		return;
	}
	p->last_percent = percent;
	char bar[41];
	int filled = percent * 40 / 100;
	for (int k = 0; k < 40; ++k) {
		bar[k] = k < filled ? '#' : '.';
	}
	bar[40] = '\0';
	fprintf(stderr, "\r%s [%s] %3d%% (%lld/%lld frames)", p->label, bar, percent, (long long)done, (long long)p->total);
	fflush(stderr);
}

// The bar stays where the run stopped: a run that failed or was interrupted is not shown as done
// (one that finished drew 100% with its last update).
void progress_finish(progress* p) {
	if (p->enabled) {
		fputc('\n', stderr);
	}
}

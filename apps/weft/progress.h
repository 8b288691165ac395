// A progress bar on stderr for long runs (frames done / total), redrawn at most ~50 times.
#ifndef WEFT_CLI_PROGRESS_H
#define WEFT_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct progress {
	const char* label;
	int64_t total;
	int last_percent;
	bool enabled;
} progress;

progress progress_start(const char* label, int64_t total);
void progress_update(progress* p, int64_t done);
void progress_finish(progress* p);

#endif

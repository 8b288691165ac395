#define _POSIX_C_SOURCE 200809L
#include "interrupt.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t received_signal = 0;

static void on_signal(int number) { received_signal = number; }

void interrupt_catch(void) {
	struct sigaction action;
	memset(&action, 0, sizeof action);
	action.sa_handler = on_signal;
	action.sa_flags = SA_RESTART; // a write in progress completes
	sigemptyset(&action.sa_mask);
	const int numbers[] = {SIGINT, SIGTERM, SIGHUP};
	for (size_t k = 0; k < sizeof numbers / sizeof numbers[0]; ++k) {
		struct sigaction previous;
		// A signal the shell ignores (a background job's SIGINT, nohup's SIGHUP) stays ignored.
		if (sigaction(numbers[k], NULL, &previous) == 0 && previous.sa_handler != SIG_IGN) {
			sigaction(numbers[k], &action, NULL);
		}
	}
}

bool interrupt_requested(void) { return received_signal != 0; }

void interrupt_resend(void) {
	const int number = received_signal;
	if (number == 0) return;
	signal(number, SIG_DFL);
	raise(number);
}

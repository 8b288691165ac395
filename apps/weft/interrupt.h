// Ctrl-C (SIGINT), SIGTERM and SIGHUP during an export: the frame being written is finished, the
// export cleaned up (a partial .glb is no glTF: it is removed), then the process dies of the same
// signal, as it would have without the handler.
#ifndef WEFT_CLI_INTERRUPT_H
#define WEFT_CLI_INTERRUPT_H

#include <stdbool.h>

// Catches the signals from now on (a signal sets a flag and nothing else).
void interrupt_catch(void);
// Whether one of them has arrived.
bool interrupt_requested(void);
// Dies of the signal that arrived (its default action); returns only if none did.
void interrupt_resend(void);

#endif

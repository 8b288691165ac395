// The CLI's commands. Each returns the process exit code: 0 ok, 1 failure, 2 bad input.
#ifndef WEFT_CLI_COMMANDS_H
#define WEFT_CLI_COMMANDS_H

int command_info(int argc, char** argv);
int command_bench(int argc, char** argv);
int command_run(int argc, char** argv);

#define EXIT_BAD_INPUT 2

#endif

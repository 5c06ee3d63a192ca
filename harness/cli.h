/* cli.h — command-line option parsing shared by the subcommands (harness/main.c). The
 * parsers print one-line messages on bad usage and return the exit code to use; they
 * return -1 when parsing succeeded and the command should go on. */
#ifndef CC_CLI_H
#define CC_CLI_H

#include <stdarg.h>
#include "lib/runner.h"

typedef struct cc_cli {
    const char *cmd;
    const char *help;
} cc_cli;

void cc_cli_init(cc_cli *cli, const char *cmd, const char *help);
/* Prints the command's help to stdout; returns 0. */
int cc_cli_help(const cc_cli *cli);
/* If argv[*i] is `flag` ("--flag VALUE" or "--flag=VALUE") stores the value in *v,
 * advances *i past it and returns 1; returns 0 if argv[*i] is another argument and -1
 * (after printing why) when the flag lacks its value. */
int cc_cli_value(const cc_cli *cli, int argc, char **argv, int *i, const char *flag, const char **v);
/* Parses a non-negative decimal integer; 0 on success. */
int cc_cli_u64(const char *s, uint64_t *out);
/* --ops, --dtypes, --case, --quick and one positional word (stored in *positional when
 * positional is non-NULL). */
int cc_cli_parse_selection(const cc_cli *cli, int argc, char **argv, cc_selection *sel,
                           const char **positional);
/* Every option of `run`; fills o with defaults first. */
int cc_cli_parse_run(const cc_cli *cli, int argc, char **argv, cc_run_options *o);
/* Takes every --target-path DIRS (or --target-path=DIRS) out of argv[0..*argc) and loads
 * the backend plugins of those folders, then of $CROSSCHECK_TARGET_PATH, then of the
 * install's plugin folder (targets/loader.h), so that plugin targets are registered
 * before any option naming a target is parsed. Prints one line to stderr per plugin that
 * was rejected. Returns -1 to go on, or the exit code to return (2: bad usage, 3: fork
 * or memory failure). */
int cc_cli_load_plugins(const char *cmd, int *argc, char **argv);
/* Adds the targets of a --targets value (comma-separated NAME or NAME:DEVICE, e.g.
 * cuda:tf32) to targets[] / devices[] (*n of them, at most CC_RUN_MAX_TARGETS; a repeated
 * one is kept once). Returns -1 to go on, or 2 after printing one line naming cmd (an
 * empty item, an unknown target). */
int cc_cli_add_targets(const char *cmd, const char *v, const cc_target_iface **targets, const char **devices, int *n);
/* Appends every registered target that is not hidden (the default --targets of conformance
 * and scan), with the default device. */
void cc_cli_visible_targets(const cc_target_iface **targets, const char **devices, int *n);
/* `crosscheck bench ...` */
int cc_bench_main(int argc, char **argv);

/* Prints "crosscheck CMD: MESSAGE" (cmd NULL or "": "crosscheck: MESSAGE") as one line on
 * stderr, control characters of the message escaped (cc_escape_controls): a case id or a
 * file name from the command line can hold anything. */
void cc_cli_vsay(const char *cmd, const char *fmt, va_list ap);
void cc_cli_say(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

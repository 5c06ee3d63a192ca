/* commands.h — subcommands implemented outside main.c. Each parses its own options
 * (argv[0] is the first argument after the subcommand name) and returns the exit code. */
#ifndef CC_COMMANDS_H
#define CC_COMMANDS_H

/* cmd_regress.c: compare (0 no regression, 1 regression, 4 improvements only, 2 usage,
 * 3 infrastructure or not enough data), history, merge, export. */
int cc_cmd_compare(int argc, char **argv);
int cc_cmd_history(int argc, char **argv);
int cc_cmd_merge(int argc, char **argv);
int cc_cmd_export(int argc, char **argv);

/* cmd_model.c: `crosscheck list models` and `crosscheck model list|run`. */
int cc_cmd_list_models(void);
int cc_cmd_model(int argc, char **argv, const char *command_line, const char *libraries, const char *git_commit,
                 const char *version);

/* cmd_conformance.c: `crosscheck conformance` (the ONNX node tests on targets). */
int cc_cmd_conformance(int argc, char **argv, const char *command_line, const char *libraries, const char *git_commit,
                       const char *version);

/* cmd_scan.c: `crosscheck scan` (a model's op support per target, before running). */
int cc_cmd_scan(int argc, char **argv, const char *command_line, const char *libraries, const char *git_commit,
                const char *version);

#endif

/* loader.h — backends loaded at run time from shared libraries (plugins).
 *
 * The plugin contract (the entry point and its score) is in target.h. The loader walks a
 * search path of folders, in order, and tries every `*.so` file in each (sorted by name):
 *   1. probe, in a forked child: dlopen(RTLD_NOW | RTLD_LOCAL), find the entry point,
 *      ask it for the interface and the score, check ABI version, struct size, required
 *      members and the name. A crash or hang there (in a constructor, in the entry point)
 *      costs only the child; the plugin is rejected with the signal as the reason.
 *   2. choose: when several plugins offer the same target name, the higher score wins
 *      (the earlier in the search order on a tie).
 *   3. load, in this process, only what the probe accepted: dlopen again, register a
 *      full-size copy of the interface (members past a shorter struct_size are NULL) with
 *      cc_target_register. A registered plugin is never unloaded.
 * Each file gives one event: loaded, or rejected with a one-line reason. Nothing here
 * prints; the caller reports the events.
 *
 * Loading must happen before a worker process is forked and before any target is opened
 * (targets are only opened in workers, so a crash in a plugin's open() is recorded as
 * that target being unavailable, with the signal). */
#ifndef CC_LOADER_H
#define CC_LOADER_H

#include "target.h"

#define CC_PLUGIN_MAX_DIRS 32
#define CC_PLUGIN_PROBE_TIMEOUT_S 10.0 /* per plugin probe */

/* An ordered list of folders. required != 0 marks a folder the user named on the command
 * line: if it does not exist that is reported; other missing folders are skipped quietly. */
typedef struct cc_plugin_path {
    int n;
    char *dirs[CC_PLUGIN_MAX_DIRS];
    int required[CC_PLUGIN_MAX_DIRS];
} cc_plugin_path;

/* What happened to one file (or to a required folder that could not be read). */
typedef struct cc_plugin_event {
    const char *path;   /* the file or folder */
    int folder;         /* 1: path is a folder that could not be read */
    const char *target; /* the target name the plugin offers; "" when unknown */
    int score;          /* the plugin's score; 0 when unknown or "cannot run here" */
    int loaded;         /* 1: registered, reason is "" */
    const char *reason; /* one line: why it was rejected */
} cc_plugin_event;

typedef void (*cc_plugin_fn)(void *user, const cc_plugin_event *ev);

/* Empties p (no allocation). */
void cc_plugin_path_init(cc_plugin_path *p);
/* Appends the colon-separated folders of list (empty items are ignored) with the given
 * required flag. CC_ERR_ARG when more than CC_PLUGIN_MAX_DIRS folders result,
 * CC_ERR_NOMEM; on error p keeps what it had. */
cc_status cc_plugin_path_add(cc_plugin_path *p, const char *list, int required, cc_err *err);
/* Frees the folders of p and empties it. Accepts NULL. */
void cc_plugin_path_free(cc_plugin_path *p);

/* Probes, chooses and loads the plugins of every folder of p (see above), calling fn (may
 * be NULL) once per file tried. A plugin that fails is never an error: only
 * infrastructure failures are (CC_ERR_INTERNAL when fork or pipe fail, CC_ERR_NOMEM);
 * plugins loaded before such an error stay registered. */
cc_status cc_plugin_load_path(const cc_plugin_path *p, double timeout_s, cc_plugin_fn fn, void *user,
                              cc_err *err);

/* Step 1 alone: probes file in a forked child within timeout_s seconds. On success writes
 * the plugin's score (> 0) and target name (name_size bytes). A rejected plugin is
 * CC_ERR_IO (not loadable: not a shared library, missing dependencies), CC_ERR_ABI (no
 * entry point, wrong ABI version, bad interface, a crash or hang while loading) or
 * CC_ERR_UNSUPPORTED (score 0: it cannot run here), each with a one-line reason that
 * does not repeat the file name. CC_ERR_INTERNAL when fork or pipe fail. */
cc_status cc_plugin_probe(const char *file, double timeout_s, int *score, char *name, size_t name_size,
                          cc_err *err);

/* Step 3 alone: loads file into this process and registers its target; *out (may be
 * NULL) receives the registered interface. Errors as for cc_plugin_probe, plus those of
 * cc_target_register (a name already taken). Only call it for a file that passed
 * cc_plugin_probe: a crash here takes the calling process down. */
cc_status cc_plugin_load_file(const char *file, const cc_target_iface **out, int *score, cc_err *err);

/* A malloc'd full-size copy of t: the first t->struct_size bytes of t (at most
 * sizeof(cc_target_iface)), members past them zero, struct_size set to
 * sizeof(cc_target_iface). CC_ERR_ABI when t->struct_size is smaller than the ABI-1
 * required members (through release); CC_ERR_NOMEM. The caller frees it with free(). */
cc_status cc_plugin_adopt(const cc_target_iface *t, cc_target_iface **out, cc_err *err);

#endif

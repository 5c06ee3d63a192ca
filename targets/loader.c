/* loader.c — the plugin loader (see loader.h): search path, probe in a forked child,
 * choice among plugins offering the same name, dlopen into this process, registration. */
#include "loader.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NAME_MAX_LEN 64

/* ---- search path ------------------------------------------------------------------- */

void cc_plugin_path_init(cc_plugin_path *p)
{
    memset(p, 0, sizeof *p);
}

void cc_plugin_path_free(cc_plugin_path *p)
{
    if (!p) return;
    for (int i = 0; i < p->n; i++) free(p->dirs[i]);
    cc_plugin_path_init(p);
}

cc_status cc_plugin_path_add(cc_plugin_path *p, const char *list, int required, cc_err *err)
{
    int n0 = p->n;
    const char *s = list ? list : "";
    while (*s) {
        size_t len = strcspn(s, ":");
        if (len) {
            if (p->n == CC_PLUGIN_MAX_DIRS) {
                while (p->n > n0) free(p->dirs[--p->n]);
                return cc_err_set(err, CC_ERR_ARG, "too many plugin folders (at most %d)", CC_PLUGIN_MAX_DIRS);
            }
            char *d = strndup(s, len);
            if (!d) {
                while (p->n > n0) free(p->dirs[--p->n]);
                return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
            }
            p->dirs[p->n] = d;
            p->required[p->n++] = required;
        }
        s += len;
        if (*s == ':') s++;
    }
    return CC_OK;
}

/* ---- interface checks ---------------------------------------------------------------- */

cc_status cc_plugin_adopt(const cc_target_iface *t, cc_target_iface **out, cc_err *err)
{
    if (!t) return cc_err_set(err, CC_ERR_ABI, "the entry point returned no interface");
    if (t->abi_version < CC_TARGET_ABI_OLDEST || t->abi_version > CC_TARGET_ABI_VERSION)
        return cc_err_set(err, CC_ERR_ABI, "built for target ABI %u, crosscheck has ABI %u (and loads %u)",
                          t->abi_version, CC_TARGET_ABI_VERSION, CC_TARGET_ABI_OLDEST);
    if (t->struct_size < offsetof(cc_target_iface, run_timed))
        return cc_err_set(err, CC_ERR_ABI, "interface struct of %u bytes is too small (ABI %u needs %zu)",
                          t->struct_size, CC_TARGET_ABI_VERSION, offsetof(cc_target_iface, run_timed));
    cc_target_iface *c = calloc(1, sizeof *c);
    if (!c) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    size_t n = t->struct_size < sizeof *c ? t->struct_size : sizeof *c;
    memcpy(c, t, n);
    c->struct_size = (uint32_t)sizeof *c;
    *out = c;
    return CC_OK;
}

/* Target names are what users type: lower case letters, digits, '_' and '-'. */
static cc_status check_name(const char *name, cc_err *err)
{
    if (!name || !name[0]) return cc_err_set(err, CC_ERR_ABI, "the interface has no name");
    size_t len = strlen(name);
    if (len >= NAME_MAX_LEN) return cc_err_set(err, CC_ERR_ABI, "target name of %zu characters is too long", len);
    for (size_t i = 0; i < len; i++) {
        char ch = name[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-'))
            return cc_err_set(err, CC_ERR_ABI, "target name '%.63s' is not lower case letters, digits, '_' or '-'",
                              name);
    }
    return CC_OK;
}

/* dlopen + entry point + score + adopt in the calling process. On success *handle, *copy
 * (malloc'd) and *score are set; a plugin scoring 0 is CC_ERR_UNSUPPORTED with the
 * target's name in name when it gave one. */
static cc_status open_plugin(const char *file, void **handle, cc_target_iface **copy, int *score, char *name,
                             size_t name_size, cc_err *err)
{
    if (name_size) name[0] = '\0';
    dlerror();
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        /* dlerror starts with the file name; keep only what follows it */
        const char *colon = why ? strstr(why, ": ") : NULL;
        return cc_err_set(err, CC_ERR_IO, "not loadable: %.200s",
                          colon && strncmp(why, file, (size_t)(colon - why)) == 0 ? colon + 2 : why ? why : "?");
    }
    cc_status st;
    cc_plugin_entry_fn entry;
    void *sym = dlsym(h, CC_PLUGIN_ENTRY_NAME);
    memcpy(&entry, &sym, sizeof entry); /* object pointer to function pointer, as POSIX allows */
    if (!entry) {
        st = cc_err_set(err, CC_ERR_ABI, "no entry point %s() (not a crosscheck plugin, or built for another ABI)",
                        CC_PLUGIN_ENTRY_NAME);
        goto fail;
    }
    const cc_target_iface *t = NULL;
    char why[256] = "";
    int s = entry(CC_TARGET_ABI_VERSION, &t, why, sizeof why);
    why[sizeof why - 1] = '\0';
    if (t && t->name && name_size) snprintf(name, name_size, "%s", t->name);
    if (s <= 0) {
        st = cc_err_set(err, CC_ERR_UNSUPPORTED, "cannot run here (score %d): %.200s", s,
                        why[0] ? why : "no reason given");
        goto fail;
    }
    cc_target_iface *c = NULL;
    st = cc_plugin_adopt(t, &c, err);
    if (st) goto fail;
    st = check_name(c->name, err);
    if (st) {
        free(c);
        goto fail;
    }
    *handle = h;
    *copy = c;
    *score = s;
    return CC_OK;

fail:
    dlclose(h);
    return st;
}

/* ---- probe in a child ---------------------------------------------------------------- */

typedef struct probe_record {
    int status;
    int score;
    char name[NAME_MAX_LEN];
    char msg[256];
} probe_record;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void probe_child(const char *file, int fd)
{
    probe_record r;
    memset(&r, 0, sizeof r);
    cc_err e = { 0 };
    void *h = NULL;
    cc_target_iface *c = NULL;
    cc_status st = open_plugin(file, &h, &c, &r.score, r.name, sizeof r.name, &e);
    /* the registry of this child starts as the parent's: a name already taken shows now */
    if (!st) st = cc_target_register(c, &e);
    r.status = (int)st;
    snprintf(r.msg, sizeof r.msg, "%s", e.msg);
    const char *p = (const char *)&r;
    size_t left = sizeof r;
    while (left) {
        ssize_t k = write(fd, p, left);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        p += k;
        left -= (size_t)k;
    }
    _exit(0);
}

cc_status cc_plugin_probe(const char *file, double timeout_s, int *score, char *name, size_t name_size,
                          cc_err *err)
{
    int fds[2];
    if (pipe(fds)) return cc_err_set(err, CC_ERR_INTERNAL, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return cc_err_set(err, CC_ERR_INTERNAL, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        signal(SIGPIPE, SIG_DFL);
        probe_child(file, fds[1]);
    }
    close(fds[1]);

    probe_record r;
    memset(&r, 0, sizeof r);
    size_t got = 0;
    int timed_out = 0;
    double deadline = now_s() + timeout_s;
    while (got < sizeof r) {
        double left = deadline - now_s();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
        int k = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (k < 0 && errno == EINTR) continue;
        if (k == 0) continue;
        if (k < 0) break;
        ssize_t n = read(fds[0], (char *)&r + got, sizeof r - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fds[0]);
    if (timed_out) kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}

    if (timed_out)
        return cc_err_set(err, CC_ERR_ABI, "loading it did not finish within %.0f s (killed)", timeout_s);
    if (got < sizeof r) {
        if (WIFSIGNALED(status))
            return cc_err_set(err, CC_ERR_ABI, "crashed while loading (signal %d, %s)", WTERMSIG(status),
                              strsignal(WTERMSIG(status)));
        return cc_err_set(err, CC_ERR_ABI, "the process loading it exited with status %d",
                          WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    r.name[sizeof r.name - 1] = '\0';
    r.msg[sizeof r.msg - 1] = '\0';
    if (name_size) snprintf(name, name_size, "%s", r.name);
    if (r.status != CC_OK)
        return cc_err_set(err, (cc_status)r.status, "%s", r.msg[0] ? r.msg : cc_status_name((cc_status)r.status));
    *score = r.score;
    return CC_OK;
}

/* ---- load into this process -------------------------------------------------------------- */

cc_status cc_plugin_load_file(const char *file, const cc_target_iface **out, int *score, cc_err *err)
{
    void *h = NULL;
    cc_target_iface *c = NULL;
    char name[NAME_MAX_LEN];
    int s = 0;
    cc_status st = open_plugin(file, &h, &c, &s, name, sizeof name, err);
    if (st) return st;
    st = cc_target_register(c, err);
    if (st) {
        free(c);
        dlclose(h);
        return st;
    }
    /* registered: the copy and the library stay for the life of the process */
    if (out) *out = c;
    if (score) *score = s;
    return CC_OK;
}

/* ---- the search ------------------------------------------------------------------------ */

typedef struct candidate {
    char *path;
    char real[PATH_MAX];
    char name[NAME_MAX_LEN];
    int score;
    cc_status st;
    char reason[256];
} candidate;

static int is_plugin_file(const char *dir, const char *entry, char *path, size_t n)
{
    size_t len = strlen(entry);
    if (len < 4 || strcmp(entry + len - 3, ".so") != 0 || entry[0] == '.') return 0;
    if (snprintf(path, n, "%s/%s", dir, entry) >= (int)n) return 0;
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void emit(cc_plugin_fn fn, void *user, const char *path, int folder, const char *target, int score,
                 int loaded, const char *reason)
{
    if (!fn) return;
    cc_plugin_event ev = { path, folder, target ? target : "", score, loaded, reason ? reason : "" };
    fn(user, &ev);
}

/* Appends the plugin files of dir, sorted, to *list (n, cap); a folder that cannot be
 * read is reported when required. */
static cc_status list_dir(const char *dir, int required, candidate **list, int *n, int *cap, cc_plugin_fn fn,
                          void *user, cc_err *err)
{
    DIR *d = opendir(dir);
    if (!d) {
        if (required) {
            char why[300];
            snprintf(why, sizeof why, "%s", strerror(errno));
            emit(fn, user, dir, 1, "", 0, 0, why);
        }
        return CC_OK;
    }
    char **names = NULL;
    int nn = 0, cn = 0;
    cc_status st = CC_OK;
    struct dirent *de;
    char path[PATH_MAX];
    while ((de = readdir(d))) {
        if (!is_plugin_file(dir, de->d_name, path, sizeof path)) continue;
        if (nn == cn) {
            cn = cn ? cn * 2 : 16;
            char **g = realloc(names, sizeof *names * (size_t)cn);
            if (!g) {
                st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
                goto done;
            }
            names = g;
        }
        if (!(names[nn] = strdup(path))) {
            st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
            goto done;
        }
        nn++;
    }
    qsort(names, (size_t)nn, sizeof *names, by_name);
    for (int i = 0; i < nn; i++) {
        char real[PATH_MAX];
        if (!realpath(names[i], real)) snprintf(real, sizeof real, "%s", names[i]);
        int dup = 0;
        for (int k = 0; k < *n && !dup; k++) dup = strcmp((*list)[k].real, real) == 0;
        if (dup) continue; /* the same file through two folders of the path */
        if (*n == *cap) {
            int c2 = *cap ? *cap * 2 : 16;
            candidate *g = realloc(*list, sizeof *g * (size_t)c2);
            if (!g) {
                st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
                goto done;
            }
            *list = g;
            *cap = c2;
        }
        candidate *c = &(*list)[*n];
        memset(c, 0, sizeof *c);
        c->path = names[i];
        names[i] = NULL;
        snprintf(c->real, sizeof c->real, "%s", real);
        (*n)++;
    }
done:
    for (int i = 0; i < nn; i++) free(names[i]);
    free(names);
    closedir(d);
    return st;
}

cc_status cc_plugin_load_path(const cc_plugin_path *p, double timeout_s, cc_plugin_fn fn, void *user,
                              cc_err *err)
{
    candidate *list = NULL;
    int n = 0, cap = 0;
    cc_status st = CC_OK;
    for (int i = 0; i < p->n && !st; i++) st = list_dir(p->dirs[i], p->required[i], &list, &n, &cap, fn, user, err);
    if (st) goto done;

    /* 1. probe every file */
    for (int i = 0; i < n; i++) {
        cc_err e = { 0 };
        candidate *c = &list[i];
        c->st = cc_plugin_probe(c->path, timeout_s, &c->score, c->name, sizeof c->name, &e);
        if (c->st == CC_ERR_INTERNAL) {
            st = cc_err_set(err, CC_ERR_INTERNAL, "probing plugin %s: %s", c->path, e.msg);
            goto done;
        }
        snprintf(c->reason, sizeof c->reason, "%s", e.msg);
    }
    /* 2. one plugin per target name: the higher score, then the earlier */
    for (int i = 0; i < n; i++) {
        candidate *c = &list[i];
        if (c->st) continue;
        for (int k = 0; k < i; k++) {
            candidate *o = &list[k];
            if (o->st || strcmp(o->name, c->name) != 0) continue;
            candidate *lose = c->score > o->score ? o : c, *win = lose == c ? o : c;
            lose->st = CC_ERR_ARG;
            snprintf(lose->reason, sizeof lose->reason, "target '%.40s' is also offered by %.120s with score %d (this one: %d)",
                     lose->name, win->path, win->score, lose->score);
            if (lose == c) break;
        }
    }
    /* 3. load the chosen ones here, in search order */
    for (int i = 0; i < n; i++) {
        candidate *c = &list[i];
        if (!c->st) {
            cc_err e = { 0 };
            const cc_target_iface *t = NULL;
            c->st = cc_plugin_load_file(c->path, &t, &c->score, &e);
            if (c->st) snprintf(c->reason, sizeof c->reason, "%s", e.msg);
        }
        emit(fn, user, c->path, 0, c->name, c->st == CC_ERR_UNSUPPORTED ? 0 : c->score, c->st == CC_OK,
             c->st ? c->reason : "");
    }
done:
    for (int i = 0; i < n; i++) free(list[i].path);
    free(list);
    return st;
}

/* test_loader.c — the plugin loader's parts that need no plugin built for the purpose:
 * search-path parsing, the zero-padded copy of a short interface struct, and rejection of
 * files that are not plugins (missing, not a shared library, a shared library without the
 * entry point) in the probe child and through a folder search. Loading real plugins is
 * covered end to end by harness/tests/integration/plugins.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../harness/cctest.h"
#include "../loader.h"

static void test_path(void)
{
    cc_plugin_path p;
    cc_plugin_path_init(&p);
    cc_err err = { 0 };
    CHECK(cc_plugin_path_add(&p, "/a::/b/c:", 1, &err) == CC_OK);
    CHECK(cc_plugin_path_add(&p, NULL, 0, &err) == CC_OK);
    CHECK(cc_plugin_path_add(&p, "/d", 0, &err) == CC_OK);
    CHECK(p.n == 3);
    CHECK(p.n == 3 && strcmp(p.dirs[0], "/a") == 0 && strcmp(p.dirs[1], "/b/c") == 0 && strcmp(p.dirs[2], "/d") == 0);
    CHECK(p.required[0] == 1 && p.required[1] == 1 && p.required[2] == 0);
    /* too many folders: an error, and the path keeps what it had */
    char many[CC_PLUGIN_MAX_DIRS * 4 + 1] = "";
    for (int i = 0; i < CC_PLUGIN_MAX_DIRS; i++) strcat(many, "/x:");
    CHECK(cc_plugin_path_add(&p, many, 0, &err) == CC_ERR_ARG);
    CHECK(p.n == 3);
    cc_plugin_path_free(&p);
    CHECK(p.n == 0);
}

static cc_status fake_open(const char *d, void **ctx, cc_device_desc *desc, cc_err *err)
{
    (void)d, (void)ctx, (void)desc, (void)err;
    return CC_OK;
}

static void fake_describe(void *ctx, void *plan, char *buf, size_t n)
{
    (void)ctx, (void)plan, (void)buf, (void)n;
}

static void test_adopt(void)
{
    cc_err err = { 0 };
    cc_target_iface full;
    memset(&full, 0, sizeof full);
    full.abi_version = CC_TARGET_ABI_VERSION;
    full.name = "short";
    full.open = fake_open;
    full.describe_plan = fake_describe; /* past the short struct: must not be copied */
    /* an ABI-1 struct that ends before the optional members */
    full.struct_size = (uint32_t)offsetof(cc_target_iface, run_timed);
    cc_target_iface *c = NULL;
    CHECK(cc_plugin_adopt(&full, &c, &err) == CC_OK);
    CHECK(c && c->struct_size == sizeof(cc_target_iface));
    CHECK(c && c->open == fake_open && strcmp(c->name, "short") == 0);
    CHECK(c && c->describe_plan == NULL && c->run_timed == NULL);
    CHECK(c && !CC_TARGET_HAS(c, describe_plan) && CC_TARGET_HAS(c, open));
    CHECK(!CC_TARGET_HAS(&full, describe_plan)); /* the accessor respects struct_size */
    free(c);

    full.struct_size = (uint32_t)sizeof full;
    c = NULL;
    CHECK(cc_plugin_adopt(&full, &c, &err) == CC_OK && c && c->describe_plan == fake_describe);
    free(c);

    full.struct_size = (uint32_t)offsetof(cc_target_iface, release);
    c = NULL;
    CHECK(cc_plugin_adopt(&full, &c, &err) == CC_ERR_ABI && c == NULL);
    CHECK(strstr(err.msg, "too small") != NULL);

    /* a plugin built for ABI 6: its struct ends before output_shape, which reads as unset */
    full.abi_version = 6;
    full.struct_size = (uint32_t)offsetof(cc_target_iface, output_shape);
    c = NULL;
    CHECK(cc_plugin_adopt(&full, &c, &err) == CC_OK && c && c->describe_plan == fake_describe);
    CHECK(c && c->output_shape == NULL && !CC_TARGET_HAS(c, output_shape));
    free(c);
    full.abi_version = CC_TARGET_ABI_OLDEST - 1;
    c = NULL;
    CHECK(cc_plugin_adopt(&full, &c, &err) == CC_ERR_ABI && c == NULL);

    full.struct_size = (uint32_t)sizeof full;
    full.abi_version = CC_TARGET_ABI_VERSION + 1;
    CHECK(cc_plugin_adopt(&full, &c, &err) == CC_ERR_ABI && c == NULL);
    CHECK(strstr(err.msg, "built for target ABI") != NULL);
}

typedef struct seen {
    int n, loaded, folder;
    char last[512];
} seen;

static void on_event(void *user, const cc_plugin_event *ev)
{
    seen *s = user;
    s->n++;
    s->loaded += ev->loaded;
    s->folder += ev->folder;
    snprintf(s->last, sizeof s->last, "%s: %s", ev->path, ev->reason);
}

static void test_rejections(void)
{
    cc_err err = { 0 };
    int score = -1;
    char name[64] = "untouched";
    CHECK(cc_plugin_probe("/nonexistent/plugin.so", 5, &score, name, sizeof name, &err) == CC_ERR_IO);
    CHECK(strstr(err.msg, "not loadable") != NULL);
    CHECK(score == -1);

    char dir[] = "/tmp/cc_test_loader_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/text.so", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("not an ELF file\n", f);
        fclose(f);
    }
    CHECK(cc_plugin_probe(path, 5, &score, name, sizeof name, &err) == CC_ERR_IO);
    CHECK(strstr(err.msg, "not loadable") != NULL);

    /* a real shared library without the entry point */
    const char *libm = "libm.so.6";
    CHECK(cc_plugin_probe(libm, 5, &score, name, sizeof name, &err) == CC_ERR_ABI);
    CHECK(strstr(err.msg, CC_PLUGIN_ENTRY_NAME) != NULL);

    /* a folder search: the text .so is reported, a file without .so ignored, a missing
     * required folder reported, a missing optional one not */
    char other[256];
    snprintf(other, sizeof other, "%s/readme.txt", dir);
    f = fopen(other, "w");
    if (f) fclose(f);
    cc_plugin_path p;
    cc_plugin_path_init(&p);
    char list[600];
    snprintf(list, sizeof list, "%s:%s/missing", dir, dir);
    CHECK(cc_plugin_path_add(&p, list, 1, &err) == CC_OK);
    CHECK(cc_plugin_path_add(&p, "/nonexistent-optional", 0, &err) == CC_OK);
    seen s = { 0 };
    int before = cc_target_count();
    CHECK(cc_plugin_load_path(&p, 5, on_event, &s, &err) == CC_OK);
    CHECK(s.n == 2 && s.loaded == 0 && s.folder == 1);
    cc_plugin_path_free(&p);
    CHECK(cc_target_count() == before); /* nothing registered */
    unlink(path);
    unlink(other);
    rmdir(dir);
}

int main(void)
{
    test_path();
    test_adopt();
    test_rejections();
    return CC_TEST_RESULT();
}

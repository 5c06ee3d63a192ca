/* plugin_fixture.c — small backend plugins for the plugin-loader test (plugins.sh), one
 * per -DFIXTURE_<KIND>, built against the installed headers:
 *   TOY         a working target "toy": Relu on f32, everything else unsupported; its
 *               interface is the ABI-1 struct cut before the optional members, which the
 *               loader must pad with NULLs
 *   WRONG_ABI   a target built for ABI 99
 *   NO_ENTRY    a shared library without the entry point
 *   CTOR_CRASH  crashes in a constructor, as soon as it is loaded
 *   OPEN_CRASH  loads, then crashes in open() (a worker's problem, not the loader's)
 *   RUN_CRASH   claims Relu, then crashes running it
 *   SCORE_ZERO  says it cannot run on this machine
 *   DUP_NAME    offers a target called "cpu", a built-in's name */
#include <crosscheck/targets/target.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#if defined(FIXTURE_CTOR_CRASH)
__attribute__((constructor)) static void crash_on_load(void)
{
    *(volatile int *)0 = 1; /* a real fault: raise() can be swallowed by a host's handlers */
}
#endif

#if defined(FIXTURE_TOY)
#define NAME "toy"
#elif defined(FIXTURE_WRONG_ABI)
#define NAME "wrongabi"
#elif defined(FIXTURE_OPEN_CRASH)
#define NAME "opencrash"
#elif defined(FIXTURE_RUN_CRASH)
#define NAME "runcrash"
#elif defined(FIXTURE_DUP_NAME)
#define NAME "cpu"
#else
#define NAME "fixture"
#endif

#if !defined(FIXTURE_NO_ENTRY)
static cc_status toy_open(const char *device, void **ctx, cc_device_desc *desc, cc_err *err)
{
#if defined(FIXTURE_OPEN_CRASH)
    *(volatile int *)0 = 1;
#endif
    if (device && device[0]) return cc_err_set(err, CC_ERR_DEVICE, NAME ": no device '%s'", device);
    memset(desc, 0, sizeof *desc);
    snprintf(desc->name, sizeof desc->name, "the " NAME " test plugin");
    *ctx = NULL;
    return CC_OK;
}

static void toy_close(void *ctx)
{
    (void)ctx;
}

static cc_support toy_supports(void *ctx, const cc_graph *g, const cc_node *node, char *reason, size_t n)
{
    (void)ctx;
    if (strcmp(node->op->name, "Relu") != 0) {
        snprintf(reason, n, NAME ": only Relu");
        return CC_SUPPORT_NO;
    }
    if (g->values[node->in[0]].dtype != CC_F32) {
        snprintf(reason, n, NAME ": Relu on f32 only");
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

typedef struct toy_plan {
    const cc_graph *g;
} toy_plan;

static toy_plan the_plan;

static cc_status toy_prepare(void *ctx, const cc_graph *g, void **plan, cc_err *err)
{
    (void)ctx;
    if (g->n_nodes != 1 || g->n_inputs != 1 || g->n_outputs != 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, NAME ": one Relu node only");
    the_plan.g = g;
    *plan = &the_plan;
    return CC_OK;
}

static cc_status toy_run(void *ctx, void *plan, void *const *inputs, void *const *outputs, cc_err *err)
{
    (void)ctx;
    (void)err;
#if defined(FIXTURE_RUN_CRASH)
    *(volatile int *)0 = 1;
#endif
    const toy_plan *p = plan;
    int64_t n = cc_tensor_numel(&p->g->values[p->g->inputs[0]]);
    const float *x = inputs[0];
    float *y = outputs[0];
    for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0.0f;
    return CC_OK;
}

static void toy_release(void *ctx, void *plan)
{
    (void)ctx;
    (void)plan;
}

static const cc_target_iface toy = {
#if defined(FIXTURE_WRONG_ABI)
    .abi_version = 99,
#else
    .abi_version = CC_TARGET_ABI_VERSION,
#endif
    /* the struct as an ABI-1 plugin without the optional members would have it */
    .struct_size = offsetof(cc_target_iface, run_timed),
    .name = NAME,
    .description = "crosscheck plugin-loader test fixture",
    .open = toy_open,
    .close = toy_close,
    .supports = toy_supports,
    .buffer_alloc = cc_host_buffer_alloc, /* resolved from the crosscheck executable */
    .buffer_free = cc_host_buffer_free,
    .upload = cc_host_upload,
    .download = cc_host_download,
    .prepare = toy_prepare,
    .run = toy_run,
    .sync = cc_host_sync,
    .release = toy_release,
};

CC_PLUGIN_EXPORT int crosscheck_target_v1(uint32_t host_abi, const cc_target_iface **target, char *reason,
                                          size_t reason_size)
{
    (void)host_abi;
    *target = &toy;
#if defined(FIXTURE_SCORE_ZERO)
    snprintf(reason, reason_size, "needs a frobnicator, none found");
    return 0;
#else
    (void)reason;
    (void)reason_size;
    return 1;
#endif
}
#else
CC_PLUGIN_EXPORT int crosscheck_target_v0(void)
{
    return 0;
}
#endif

/* recurrent.c — the recurrent family (opset 14): RNN, GRU and LSTM, one layer, forward,
 * reverse or bidirectional, time-major (layout 0: X is seq x batch x input) or batch-major
 * (layout 1: batch x seq x input).
 *
 * Inputs X, W [dirs, G*H, I], R [dirs, G*H, H], B [dirs, 2*G*H] (Wb then Rb; absent: 0),
 * sequence_lens [batch] (i32; absent: every sequence is seq long), initial_h [dirs, batch,
 * H] (absent: 0), and for LSTM initial_c and the peepholes P [dirs, 3*H] (i, o, f). G is 1
 * (RNN), 3 (GRU: z, r, h) or 4 (LSTM: i, o, f, c). Outputs Y [seq, dirs, batch, H], Y_h
 * [dirs, batch, H] and (LSTM) Y_c (batch first with layout 1). For each direction (the
 * reverse one runs t = len-1 .. 0), with a_* = X_t W_*^T + H_{t-1} R_*^T + Wb_* + Rb_*:
 *   RNN   H_t = f(a)
 *   GRU   z = f(a_z), r = f(a_r),
 *         h = g(X_t W_h^T + (r . H_{t-1}) R_h^T + Rb_h + Wb_h)          linear_before_reset 0
 *         h = g(X_t W_h^T + r . (H_{t-1} R_h^T + Rb_h) + Wb_h)          linear_before_reset 1
 *         H_t = (1 - z) . h + z . H_{t-1}
 *   LSTM  i = f(a_i + P_i . C_{t-1}), f_ = f(a_f + P_f . C_{t-1}), c = g(a_c),
 *         C_t = f_ . C_{t-1} + i . c, o = f(a_o + P_o . C_t), H_t = o . h(C_t)
 * with the default activations f = Sigmoid, g = h = Tanh (RNN: Tanh), or the attribute's
 * names per direction (one list for both directions is accepted too), each taking its
 * alpha and beta, where it has them, from activation_alpha/activation_beta in order
 * (defaults: LeakyRelu 0.01, ThresholdedRelu 1, HardSigmoid 0.2 and 0.5, Elu 1, Affine 1
 * and 0, ScaledTanh 1 and 1). clip bounds every gate's pre-activation to [-clip, clip].
 * Steps at or beyond a sequence's length leave Y at 0; Y_h (Y_c) holds the state after
 * the sequence's last step. LSTM's input_forget=1 is refused (no node test or exporter
 * uses it). A length outside [1, seq] is refused.
 *
 * Error terms: the golden model carries, beside every value v, a magnitude S(v) such that
 * a float computation of the same recurrence is within c * gamma(K) * u * S(v) of it to
 * first order: a pre-activation's S sums |x w|, |h r| and the biases (the dot product's
 * bound, K = I + H + 3) plus sum_j |r_j| S(h_j), what the previous state's error becomes;
 * an activation's S is L * S(input) + |value| with L the activation's largest slope (tanh
 * 1, sigmoid 1/4, hard sigmoid alpha, ...; ThresholdedRelu's step is taken as slope 1); a
 * product's S is |a| S(b) + |b| S(a) + |ab| and a sum's the sum of both plus |value|. The
 * bound grows with the sequence as the recurrence amplifies errors, as a real one does. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "op.h"
#include "sweep.h"

enum { R_X, R_W, R_R, R_B, R_LENS, R_H0, R_C0, R_P };

typedef enum { A_RELU, A_TANH, A_SIGMOID, A_AFFINE, A_LEAKY, A_THRESH, A_SCALEDTANH, A_HARDSIG, A_ELU, A_SOFTSIGN,
               A_SOFTPLUS } act_kind;

typedef struct act {
    act_kind kind;
    double alpha, beta;
} act;

typedef struct rnn_geom {
    int gates;        /* G: 1, 3 or 4 */
    int n_act;        /* activations per direction: 1, 2 or 3 */
    int dirs;         /* 1 or 2 */
    int reverse;      /* direction "reverse" (dirs 1) */
    int64_t seq, batch, in, hid;
    int layout;
    int has_clip;
    double clip;
    int lbr;          /* GRU's linear_before_reset */
    act acts[2][3];   /* per direction */
} rnn_geom;

static const struct {
    const char *name;
    act_kind kind;
    int n_params;     /* 0, 1 (alpha) or 2 (alpha, beta) */
    double alpha, beta;
} act_table[] = {
    { "Relu", A_RELU, 0, 0, 0 },           { "Tanh", A_TANH, 0, 0, 0 },
    { "Sigmoid", A_SIGMOID, 0, 0, 0 },     { "Affine", A_AFFINE, 2, 1, 0 },
    { "LeakyRelu", A_LEAKY, 1, 0.01, 0 },  { "ThresholdedRelu", A_THRESH, 1, 1, 0 },
    { "ScaledTanh", A_SCALEDTANH, 2, 1, 1 }, { "HardSigmoid", A_HARDSIG, 2, 0.2, 0.5 },
    { "Elu", A_ELU, 1, 1, 0 },             { "Softsign", A_SOFTSIGN, 0, 0, 0 },
    { "Softplus", A_SOFTPLUS, 0, 0, 0 },
};

static double act_apply(const act *a, double x)
{
    switch (a->kind) {
    case A_RELU: return x > 0 ? x : 0;
    case A_TANH: return tanh(x);
    case A_SIGMOID: return 1 / (1 + exp(-x));
    case A_AFFINE: return a->alpha * x + a->beta;
    case A_LEAKY: return x >= 0 ? x : a->alpha * x;
    case A_THRESH: return x > a->alpha ? x : 0;
    case A_SCALEDTANH: return a->alpha * tanh(a->beta * x);
    case A_HARDSIG: return fmin(fmax(a->alpha * x + a->beta, 0), 1);
    case A_ELU: return x >= 0 ? x : a->alpha * (exp(x) - 1);
    case A_SOFTSIGN: return x / (1 + fabs(x));
    case A_SOFTPLUS: return log1p(exp(-fabs(x))) + fmax(x, 0);
    }
    return NAN;
}

/* The largest slope of the activation: how much of its input's error reaches its output. */
static double act_slope(const act *a)
{
    switch (a->kind) {
    case A_SIGMOID: return 0.25;
    case A_AFFINE: return fabs(a->alpha);
    case A_LEAKY: return fmax(1, fabs(a->alpha));
    case A_SCALEDTANH: return fabs(a->alpha * a->beta);
    case A_HARDSIG: return fabs(a->alpha);
    case A_ELU: return fmax(1, fabs(a->alpha));
    default: return 1;
    }
}

static int op_gates(const cc_op_def *op)
{
    return op->id == CC_OP_ID_LSTM ? 4 : op->id == CC_OP_ID_GRU ? 3 : 1;
}

static cc_status parse_acts(const cc_node *node, rnn_geom *g, cc_err *err)
{
    const char *op = node->op->name;
    static const char *const defaults[3][3] = { { "Tanh" }, { "Sigmoid", "Tanh" }, { "Sigmoid", "Tanh", "Tanh" } };
    const cc_attr_value *names = cc_attr_get(node, "activations");
    const cc_attr_value *al = cc_attr_get(node, "activation_alpha"), *be = cc_attr_get(node, "activation_beta");
    int n = names->set ? names->n : g->n_act;
    if (n != g->n_act && n != g->n_act * g->dirs)
        return cc_err_set(err, CC_ERR_ARG, "%s: activations has %d names, needs %d per direction", op, n, g->n_act);
    int ia = 0, ib = 0;
    for (int k = 0; k < n; k++) {
        const char *nm = names->set ? names->strs[k] : defaults[g->n_act - 1][k];
        int found = -1;
        for (size_t q = 0; q < sizeof act_table / sizeof act_table[0]; q++)
            if (strcasecmp(nm, act_table[q].name) == 0) found = (int)q;
        if (found < 0) return cc_err_set(err, CC_ERR_ARG, "%s: unknown activation '%s'", op, nm);
        act a = { act_table[found].kind, act_table[found].alpha, act_table[found].beta };
        if (act_table[found].n_params >= 1 && al->set && ia < al->n) a.alpha = (double)(float)al->floats[ia++];
        if (act_table[found].n_params >= 2 && be->set && ib < be->n) a.beta = (double)(float)be->floats[ib++];
        g->acts[k / g->n_act][k % g->n_act] = a;
    }
    if (n == g->n_act && g->dirs == 2) memcpy(g->acts[1], g->acts[0], sizeof g->acts[0]);
    return CC_OK;
}

static cc_status expect_shape(const char *op, const char *name, const cc_tensor *t, cc_dtype dt, int rank,
                              const int64_t *dims, cc_err *err)
{
    if (!t) return CC_OK;
    cc_shape want = cc_shape_make(rank, dims);
    char a[64], b[64];
    if (t->dtype != dt || !cc_shape_equal(&t->shape, &want))
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must be %s %s, got %s %s", op, name, cc_dtype_name(dt),
                          cc_shape_format(&want, a, sizeof a), cc_dtype_name(t->dtype),
                          cc_shape_format(&t->shape, b, sizeof b));
    return CC_OK;
}

static const cc_tensor *opt_in(const cc_node *node, const cc_tensor *const *in, int i)
{
    return i < node->n_in ? in[i] : NULL;
}

static cc_status geometry(const cc_node *node, const cc_tensor *const *in, rnn_geom *out, cc_err *err)
{
    const char *op = node->op->name;
    rnn_geom g;
    memset(&g, 0, sizeof g);
    g.gates = op_gates(node->op);
    g.n_act = g.gates == 4 ? 3 : g.gates == 3 ? 2 : 1;
    const cc_tensor *x = in[R_X], *w = opt_in(node, in, R_W), *r = opt_in(node, in, R_R);
    if (!x || !w || !r) return cc_err_set(err, CC_ERR_ARG, "%s: X, W and R are required", op);
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "%s: X must be f32, f16 or bf16, got %s", op, cc_dtype_name(x->dtype));
    const char *dir = cc_attr_s(node, "direction");
    if (!strcmp(dir, "forward")) g.dirs = 1;
    else if (!strcmp(dir, "reverse")) g.dirs = 1, g.reverse = 1;
    else if (!strcmp(dir, "bidirectional")) g.dirs = 2;
    else return cc_err_set(err, CC_ERR_ARG, "%s: direction '%s' (forward, reverse or bidirectional)", op, dir);
    int64_t layout = cc_attr_i(node, "layout");
    if (layout != 0 && layout != 1) return cc_err_set(err, CC_ERR_ARG, "%s: layout must be 0 or 1, got %lld", op, (long long)layout);
    g.layout = (int)layout;
    if (x->shape.rank != 3) return cc_err_set(err, CC_ERR_ARG, "%s: X must have rank 3, got %d", op, x->shape.rank);
    g.seq = x->shape.dims[layout ? 1 : 0];
    g.batch = x->shape.dims[layout ? 0 : 1];
    g.in = x->shape.dims[2];
    if (r->shape.rank != 3) return cc_err_set(err, CC_ERR_ARG, "%s: R must have rank 3, got %d", op, r->shape.rank);
    g.hid = r->shape.dims[2];
    const cc_attr_value *hs = cc_attr_get(node, "hidden_size");
    if (hs->set && hs->i != g.hid)
        return cc_err_set(err, CC_ERR_ARG, "%s: hidden_size is %lld, R's last dim %lld", op, (long long)hs->i,
                          (long long)g.hid);
    if (g.hid < 1 || g.seq < 1 || g.in < 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: sequence length, input size and hidden size must be >= 1", op);
    int64_t gh = g.gates * g.hid;
    cc_status st;
    if ((st = expect_shape(op, "W", w, x->dtype, 3, (int64_t[]){ g.dirs, gh, g.in }, err)) ||
        (st = expect_shape(op, "R", r, x->dtype, 3, (int64_t[]){ g.dirs, gh, g.hid }, err)) ||
        (st = expect_shape(op, "B", opt_in(node, in, R_B), x->dtype, 2, (int64_t[]){ g.dirs, 2 * gh }, err)) ||
        (st = expect_shape(op, "sequence_lens", opt_in(node, in, R_LENS), CC_I32, 1, &g.batch, err)))
        return st;
    int64_t state[3] = { g.dirs, g.batch, g.hid };
    if (layout) state[0] = g.batch, state[1] = g.dirs;
    if ((st = expect_shape(op, "initial_h", opt_in(node, in, R_H0), x->dtype, 3, state, err))) return st;
    if (g.gates == 4) {
        if ((st = expect_shape(op, "initial_c", opt_in(node, in, R_C0), x->dtype, 3, state, err)) ||
            (st = expect_shape(op, "P", opt_in(node, in, R_P), x->dtype, 2, (int64_t[]){ g.dirs, 3 * g.hid }, err)))
            return st;
        if (cc_attr_i(node, "input_forget") != 0)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: input_forget=1 (coupled input and forget gates) is not "
                              "implemented", op);
    }
    if (g.gates == 3) {
        int64_t lbr = cc_attr_i(node, "linear_before_reset");
        if (lbr != 0 && lbr != 1)
            return cc_err_set(err, CC_ERR_ARG, "%s: linear_before_reset must be 0 or 1, got %lld", op, (long long)lbr);
        g.lbr = (int)lbr;
    }
    const cc_attr_value *cl = cc_attr_get(node, "clip");
    if (cl->set) {
        if (!(cl->f > 0)) return cc_err_set(err, CC_ERR_ARG, "%s: clip must be > 0, got %g", op, cl->f);
        g.has_clip = 1;
        g.clip = (double)(float)cl->f;
    }
    if ((st = parse_acts(node, &g, err))) return st;
    *out = g;
    return CC_OK;
}

static cc_status rnn_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    const char *op = node->op->name;
    if (n_out < 1 || n_out > node->op->max_outputs)
        return cc_err_set(err, CC_ERR_ARG, "%s: has 1 to %d outputs, asked for %d", op, node->op->max_outputs, n_out);
    const cc_attr_value *k = cc_attr_get(node, "outputs");
    if (k->set && k->i != n_out)
        return cc_err_set(err, CC_ERR_ARG, "%s: outputs is %lld but %d are asked for", op, (long long)k->i, n_out);
    rnn_geom g;
    cc_status st = geometry(node, in, &g, err);
    if (st) return st;
    const cc_tensor *lens = opt_in(node, in, R_LENS);
    for (int64_t b = 0; lens && lens->data && b < g.batch; b++) {
        int64_t l = cc_load_i64(lens->data, CC_I32, (size_t)b);
        if (l < 1 || l > g.seq)
            return cc_err_set(err, CC_ERR_ARG, "%s: sequence_lens[%lld] is %lld, outside [1, %lld]", op, (long long)b,
                              (long long)l, (long long)g.seq);
    }
    int64_t y[4] = { g.seq, g.dirs, g.batch, g.hid }, s[3] = { g.dirs, g.batch, g.hid };
    if (g.layout) {
        y[0] = g.batch, y[1] = g.seq, y[2] = g.dirs;
        s[0] = g.batch, s[1] = g.dirs;
    }
    for (int j = 0; j < n_out; j++) {
        out[j].dtype = in[R_X]->dtype;
        out[j].shape = j == 0 ? cc_shape_make(4, y) : cc_shape_make(3, s);
        out[j].data = NULL;
    }
    return CC_OK;
}

/* the case knob outputs (a model node has its own): 1 to max_outputs, default all */
static int rnn_count_outputs(const cc_node *node)
{
    const cc_attr_value *k = cc_attr_get(node, "outputs");
    return k->set ? (int)k->i : node->op->max_outputs;
}

static void rnn_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                     double *bytes)
{
    const cc_tensor *x = in[R_X], *r = opt_in(node, in, R_R);
    int64_t gates = op_gates(node->op), hid = r && r->shape.rank == 3 ? r->shape.dims[2] : 0;
    int64_t dirs = r && r->shape.rank == 3 ? r->shape.dims[0] : 1, steps = x->shape.rank == 3 ? x->shape.dims[0] * x->shape.dims[1] : 0;
    int64_t in_sz = x->shape.rank == 3 ? x->shape.dims[2] : 0;
    *flops = 2.0 * (double)(dirs * steps * gates * hid * (in_sz + hid)) + 10.0 * (double)(dirs * steps * hid * gates);
    *bytes = 0;
    for (int i = 0; i < node->n_in; i++)
        if (in[i]) *bytes += (double)cc_tensor_bytes(in[i]);
    for (int j = 0; j < n_out; j++) *bytes += (double)cc_tensor_bytes(&out[j]);
}

/* A value and its S (above). */
typedef struct vs {
    double v, s;
} vs;

static vs act_vs(const act *a, vs x, const rnn_geom *g)
{
    if (g->has_clip) x.v = fmin(fmax(x.v, -g->clip), g->clip);
    double y = act_apply(a, x.v);
    return (vs){ y, act_slope(a) * x.s + fabs(y) };
}

static vs mul_vs(vs a, vs b)
{
    double p = a.v * b.v;
    return (vs){ p, fabs(a.v) * b.s + fabs(b.v) * a.s + fabs(p) };
}

static vs add_vs(vs a, vs b)
{
    double p = a.v + b.v;
    return (vs){ p, a.s + b.s + fabs(p) };
}

/* Index of X's element (t, b, i) and of a state's (d, b, j) in their layouts. */
static int64_t x_at(const rnn_geom *g, int64_t t, int64_t b, int64_t i)
{
    return (g->layout ? b * g->seq + t : t * g->batch + b) * g->in + i;
}

static int64_t st_at(const rnn_geom *g, int d, int64_t b, int64_t j)
{
    return (g->layout ? b * g->dirs + d : d * g->batch + b) * g->hid + j;
}

static int64_t y_at(const rnn_geom *g, int64_t t, int d, int64_t b, int64_t j)
{
    return (g->layout ? (b * g->seq + t) * g->dirs + d : (t * g->dirs + d) * g->batch + b) * g->hid + j;
}

static double ld(const cc_tensor *t, int64_t i)
{
    return t ? cc_load(t->data, t->dtype, (size_t)i) : 0;
}

/* x . W_row + h . R_row + biases, the row `row` of direction d's gate block: value and S
 * (with the previous state's S carried through R). hr_only: the R part alone (GRU's
 * linear_before_reset), with Rb; x_only: the W part with Wb. */
static vs pre_act(const rnn_geom *g, const cc_tensor *const *in, const cc_node *node, int d, int64_t t, int64_t b,
                  int64_t row, const vs *h, int use_x, int use_h, int wb, int rb)
{
    const cc_tensor *x = in[R_X], *w = in[R_W], *r = in[R_R], *bias = opt_in(node, in, R_B);
    int64_t gh = g->gates * g->hid;
    double v = 0, s = 0;
    for (int64_t i = 0; use_x && i < g->in; i++) {
        double p = ld(x, x_at(g, t, b, i)) * ld(w, (d * gh + row) * g->in + i);
        v += p;
        s += fabs(p);
    }
    for (int64_t j = 0; use_h && j < g->hid; j++) {
        double rj = ld(r, (d * gh + row) * g->hid + j), p = h[j].v * rj;
        v += p;
        s += fabs(p) + fabs(rj) * h[j].s;
    }
    if (bias && wb) {
        double c = ld(bias, d * 2 * gh + row);
        v += c;
        s += fabs(c);
    }
    if (bias && rb) {
        double c = ld(bias, d * 2 * gh + gh + row);
        v += c;
        s += fabs(c);
    }
    return (vs){ v, s + fabs(v) };
}

static cc_status rnn_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    rnn_geom g;
    cc_status st = geometry(node, in, &g, err);
    if (st) return st;
    const cc_tensor *lens = opt_in(node, in, R_LENS), *h0 = opt_in(node, in, R_H0);
    const cc_tensor *c0 = g.gates == 4 ? opt_in(node, in, R_C0) : NULL, *p = g.gates == 4 ? opt_in(node, in, R_P) : NULL;
    const int64_t H = g.hid;
    vs *h = calloc((size_t)(3 * H), sizeof *h), *c = h + H, *hn = h + 2 * H;
    if (!h) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", node->op->name);
    for (int j = 0; j < n_out; j++) {
        out[j].k = (double)(g.in + H + 3);
        /* Y is 0 where a sequence has ended */
        int64_t n = cc_shape_numel(&out[j].shape);
        memset(out[j].value, 0, sizeof(double) * (size_t)n);
        memset(out[j].mag, 0, sizeof(double) * (size_t)n);
    }
    for (int d = 0; d < g.dirs; d++) {
        int rev = g.reverse || d == 1;
        const act *a = g.acts[d];
        for (int64_t b = 0; b < g.batch; b++) {
            int64_t len = lens ? cc_load_i64(lens->data, CC_I32, (size_t)b) : g.seq;
            if (len < 1 || len > g.seq) {
                free(h);
                return cc_err_set(err, CC_ERR_ARG, "%s: sequence_lens[%lld] is %lld, outside [1, %lld]", node->op->name,
                                  (long long)b, (long long)len, (long long)g.seq);
            }
            for (int64_t j = 0; j < H; j++) {
                double v = ld(h0, st_at(&g, d, b, j));
                h[j] = (vs){ v, fabs(v) };
                v = ld(c0, st_at(&g, d, b, j));
                c[j] = (vs){ v, fabs(v) };
            }
            for (int64_t step = 0; step < len; step++) {
                int64_t t = rev ? len - 1 - step : step;
                for (int64_t j = 0; j < H; j++) {
                    if (g.gates == 1) {
                        hn[j] = act_vs(&a[0], pre_act(&g, in, node, d, t, b, j, h, 1, 1, 1, 1), &g);
                    } else if (g.gates == 3) {
                        vs z = act_vs(&a[0], pre_act(&g, in, node, d, t, b, j, h, 1, 1, 1, 1), &g);
                        vs hh;
                        if (g.lbr) {
                            vs r = act_vs(&a[0], pre_act(&g, in, node, d, t, b, H + j, h, 1, 1, 1, 1), &g);
                            vs xw = pre_act(&g, in, node, d, t, b, 2 * H + j, h, 1, 0, 1, 0);
                            vs hr = pre_act(&g, in, node, d, t, b, 2 * H + j, h, 0, 1, 0, 1);
                            hh = act_vs(&a[1], add_vs(xw, mul_vs(r, hr)), &g);
                        } else {
                            /* (r . H_{t-1}) R_h^T needs every r of this step: computed below */
                            hh = (vs){ 0, 0 };
                        }
                        hn[j] = hh;
                        c[j] = z; /* GRU has no cell: c holds z until the step's end */
                    } else {
                        vs pi = pre_act(&g, in, node, d, t, b, j, h, 1, 1, 1, 1);
                        vs po = pre_act(&g, in, node, d, t, b, H + j, h, 1, 1, 1, 1);
                        vs pf = pre_act(&g, in, node, d, t, b, 2 * H + j, h, 1, 1, 1, 1);
                        vs pc = pre_act(&g, in, node, d, t, b, 3 * H + j, h, 1, 1, 1, 1);
                        vs cp = c[j];
                        if (p) {
                            pi = add_vs(pi, mul_vs((vs){ ld(p, d * 3 * H + j), fabs(ld(p, d * 3 * H + j)) }, cp));
                            pf = add_vs(pf, mul_vs((vs){ ld(p, d * 3 * H + 2 * H + j), fabs(ld(p, d * 3 * H + 2 * H + j)) }, cp));
                        }
                        vs gi = act_vs(&a[0], pi, &g), gf = act_vs(&a[0], pf, &g), gc = act_vs(&a[1], pc, &g);
                        vs ct = add_vs(mul_vs(gf, cp), mul_vs(gi, gc));
                        if (p) po = add_vs(po, mul_vs((vs){ ld(p, d * 3 * H + H + j), fabs(ld(p, d * 3 * H + H + j)) }, ct));
                        vs go = act_vs(&a[0], po, &g);
                        /* h(C_t): the clip bounds gate inputs only */
                        double hc = act_apply(&a[2], ct.v);
                        vs hv = { hc, act_slope(&a[2]) * ct.s + fabs(hc) };
                        hn[j] = mul_vs(go, hv);
                        c[j] = ct; /* read by later rows only through cp of their own j */
                    }
                }
                if (g.gates == 3) {
                    if (!g.lbr) {
                        /* r for every j first, then h over r . H_{t-1} */
                        vs *rh = malloc(sizeof *rh * (size_t)H);
                        if (!rh) {
                            free(h);
                            return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", node->op->name);
                        }
                        for (int64_t j = 0; j < H; j++) {
                            vs r = act_vs(&a[0], pre_act(&g, in, node, d, t, b, H + j, h, 1, 1, 1, 1), &g);
                            rh[j] = mul_vs(r, h[j]);
                        }
                        for (int64_t j = 0; j < H; j++)
                            hn[j] = act_vs(&a[1], pre_act(&g, in, node, d, t, b, 2 * H + j, rh, 1, 1, 1, 1), &g);
                        free(rh);
                    }
                    for (int64_t j = 0; j < H; j++) {
                        vs z = c[j], one_z = { 1 - z.v, z.s + fabs(1 - z.v) };
                        hn[j] = add_vs(mul_vs(one_z, hn[j]), mul_vs(z, h[j]));
                    }
                }
                memcpy(h, hn, sizeof *h * (size_t)H);
                for (int64_t j = 0; j < H; j++) {
                    int64_t at = y_at(&g, t, d, b, j);
                    out[0].value[at] = h[j].v;
                    out[0].mag[at] = h[j].s;
                }
            }
            for (int64_t j = 0; j < H; j++) {
                int64_t at = st_at(&g, d, b, j);
                if (n_out > 1) {
                    out[1].value[at] = h[j].v;
                    out[1].mag[at] = h[j].s;
                }
                if (n_out > 2) {
                    out[2].value[at] = c[j].v;
                    out[2].mag[at] = c[j].s;
                }
            }
        }
    }
    free(h);
    return CC_OK;
}

/* sequence_lens within [1, seq]; every third sequence shorter than seq where seq > 1 */
static cc_status rnn_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)exact;
    (void)err;
    if (!rng || node->n_in <= R_LENS || !in[R_LENS].data || in[R_X].shape.rank != 3) return CC_OK;
    int64_t seq = in[R_X].shape.dims[cc_attr_i(node, "layout") ? 1 : 0], n = cc_tensor_numel(&in[R_LENS]);
    for (int64_t b = 0; b < n; b++)
        cc_store(in[R_LENS].data, CC_I32, (size_t)b, (double)(b % 3 == 1 && seq > 1 ? cc_rng_int(rng, 1, seq - 1) : seq));
    return CC_OK;
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* clang-format off */
static const cc_sweep_row rnn_sweep[] = {
    { Q, "X=5x2x3,W=1x4x3,R=1x4x4", NULL, 0 },
    { Q, "X=4x3x2,W=1x5x2,R=1x5x5,B=1x10", "outputs=2", 0 },
    { Q, "X=6x2x3,W=2x4x3,R=2x4x4,B=2x8,sequence_lens=2:i32,initial_h=2x2x4", "direction=bidirectional", 0 },
    { Q, "X=2x5x3,W=1x4x3,R=1x4x4", "layout=1,direction=reverse", 0 },
    { Q, "X=5x3x2,W=1x3x2,R=1x3x3,B=1x6,sequence_lens=3:i32", "activations=[Relu]|[LeakyRelu]|[HardSigmoid],activation_alpha=[0.3],activation_beta=[0.4]", 0 },
    { Q, "X=4x2x3,W=1x4x3,R=1x4x4", "clip=0.5", 0 },
    { EDGE, "X=1x3x2,W=1x2x2,R=1x2x2", NULL, 0 },                     /* one step */
    { EDGE, "X=7x1x2,W=2x3x2,R=2x3x3", "direction=bidirectional,activations=[Tanh,Softsign]", 0 },
    { 0, "X=16x4x32,W=1x64x32,R=1x64x64,B=1x128", NULL, 0 },
};

static const cc_sweep_row gru_sweep[] = {
    { Q, "X=5x2x3,W=1x12x3,R=1x12x4", NULL, 0 },
    { Q, "X=4x3x2,W=1x15x2,R=1x15x5,B=1x30", "linear_before_reset=1", 0 },
    { Q, "X=6x2x3,W=2x12x3,R=2x12x4,B=2x24,sequence_lens=2:i32,initial_h=2x2x4", "direction=bidirectional", 0 },
    { Q, "X=2x5x3,W=1x12x3,R=1x12x4,B=1x24", "layout=1,direction=reverse,outputs=1", 0 },
    { Q, "X=5x3x2,W=1x9x2,R=1x9x3,B=1x18,sequence_lens=3:i32", "linear_before_reset=0|1", 0 },
    { Q, "X=4x2x3,W=1x12x3,R=1x12x4", "clip=0.6,activations=[HardSigmoid,Softsign],activation_alpha=[0.25],activation_beta=[0.45]", 0 },
    { EDGE, "X=1x3x2,W=1x6x2,R=1x6x2", NULL, 0 },
    { EDGE, "X=7x1x2,W=2x9x2,R=2x9x3", "direction=bidirectional,linear_before_reset=1", 0 },
    { MODEL, "X=2x5x6,W=2x36x6,R=2x36x12,B=2x72", "layout=1,direction=bidirectional,linear_before_reset=1", 0 }, /* the gru fixture */
    { 0, "X=16x4x32,W=1x192x32,R=1x192x64,B=1x384", NULL, 0 },
};

static const cc_sweep_row lstm_sweep[] = {
    { Q, "X=5x2x3,W=1x16x3,R=1x16x4", NULL, 0 },
    { Q, "X=4x3x2,W=1x20x2,R=1x20x5,B=1x40", "outputs=2", 0 },
    { Q, "X=6x2x3,W=2x16x3,R=2x16x4,B=2x32,sequence_lens=2:i32,initial_h=2x2x4,initial_c=2x2x4", "direction=bidirectional", 0 },
    { Q, "X=2x5x3,W=1x16x3,R=1x16x4,B=1x32", "layout=1,direction=reverse", 0 },
    { Q, "X=5x3x2,W=1x12x2,R=1x12x3,B=1x24,sequence_lens=3:i32,initial_h=1x3x3,initial_c=1x3x3,P=1x9", NULL, 0 },
    { Q, "X=4x2x3,W=1x16x3,R=1x16x4", "clip=0.7", 0 },
    { Q, "X=4x2x3,W=1x16x3,R=1x16x4,B=1x32", "activations=[HardSigmoid,Tanh,Softsign],activation_alpha=[0.2],activation_beta=[0.5]", 0 },
    { EDGE, "X=1x3x2,W=1x8x2,R=1x8x2", NULL, 0 },
    { EDGE, "X=7x1x2,W=2x12x2,R=2x12x3,P=2x9", "direction=bidirectional", 0 },
    { MODEL, "X=5x2x6,W=1x48x6,R=1x48x12,B=1x96", NULL, 0 },                 /* the lstm fixture */
    { 0, "X=16x4x32,W=1x256x32,R=1x256x64,B=1x512", NULL, 0 },
};
/* clang-format on */

#define RNN_INPUTS_COMMON                                                                              \
    { .name = "X", .role = CC_IN_DATA },                                                               \
    { .name = "W", .role = CC_IN_DATA, .lo = -0.6, .hi = 0.6, .ilo = -1, .ihi = 1 },                   \
    { .name = "R", .role = CC_IN_DATA, .lo = -0.6, .hi = 0.6, .ilo = -1, .ihi = 1 },                   \
    { .name = "B", .role = CC_IN_DATA, .optional = 1, .lo = -0.5, .hi = 0.5, .ilo = -1, .ihi = 1 },    \
    { .name = "sequence_lens", .role = CC_IN_DATA, .optional = 1, .ilo = 1, .ihi = 1 },                \
    { .name = "initial_h", .role = CC_IN_DATA, .optional = 1 }

#define OUTPUTS_KNOB { .name = "outputs", .kind = CC_ATTR_INT, .def = NULL, .input = -1, .knob = 1 },

const cc_op_def cc_op_RNN = {
    .id = CC_OP_ID_RNN, .name = "RNN", .domain = "", .since_version = 14, .family = "recurrent",
    .n_inputs = 6, .inputs = { RNN_INPUTS_COMMON },
    .min_outputs = 1, .max_outputs = 2, .count_outputs = rnn_count_outputs,
    .n_attrs = CC_ONNX_NATTRS(RNN, 14) + 1, .attrs = { CC_ONNX_ATTRS(RNN, 14) OUTPUTS_KNOB },
    .dtypes = CC_DTYPES_FLOAT, .infer = rnn_infer, .cost = rnn_cost, .gen = rnn_gen, .golden = rnn_golden,
    CC_SWEEP(rnn_sweep),
};

const cc_op_def cc_op_GRU = {
    .id = CC_OP_ID_GRU, .name = "GRU", .domain = "", .since_version = 14, .family = "recurrent",
    .n_inputs = 6, .inputs = { RNN_INPUTS_COMMON },
    .min_outputs = 1, .max_outputs = 2, .count_outputs = rnn_count_outputs,
    .n_attrs = CC_ONNX_NATTRS(GRU, 14) + 1, .attrs = { CC_ONNX_ATTRS(GRU, 14) OUTPUTS_KNOB },
    .dtypes = CC_DTYPES_FLOAT, .infer = rnn_infer, .cost = rnn_cost, .gen = rnn_gen, .golden = rnn_golden,
    CC_SWEEP(gru_sweep),
};

const cc_op_def cc_op_LSTM = {
    .id = CC_OP_ID_LSTM, .name = "LSTM", .domain = "", .since_version = 14, .family = "recurrent",
    .n_inputs = 8,
    .inputs = { RNN_INPUTS_COMMON, { .name = "initial_c", .role = CC_IN_DATA, .optional = 1 },
                { .name = "P", .role = CC_IN_DATA, .optional = 1, .lo = -0.5, .hi = 0.5, .ilo = -1, .ihi = 1 } },
    .min_outputs = 1, .max_outputs = 3, .count_outputs = rnn_count_outputs,
    .n_attrs = CC_ONNX_NATTRS(LSTM, 14) + 1, .attrs = { CC_ONNX_ATTRS(LSTM, 14) OUTPUTS_KNOB },
    .dtypes = CC_DTYPES_FLOAT, .infer = rnn_infer, .cost = rnn_cost, .gen = rnn_gen, .golden = rnn_golden,
    CC_SWEEP(lstm_sweep),
};

/* test_recurrent.c — RNN, GRU and LSTM against values worked out by hand with scalar
 * formulas (one hidden unit, one input feature): the biases, the initial state, GRU's
 * linear_before_reset (which differs only through Rb_h), LSTM's peepholes and cell, the
 * sequence lengths (Y 0 after a sequence's end, Y_h its last state), reverse and
 * bidirectional runs, batch-major layout, activations with alpha and beta, clip; S grows
 * along the sequence; rejections; the sweep. */
#include "op_test.h"

static double sig(double x) { return 1 / (1 + exp(-x)); }

static cc_node rnn_node(const char *op, int n_in)
{
    return node_make(family_op(cc_catalog_family("recurrent"), op), n_in);
}

/* runs n (n_out outputs) and returns output j's values in want-sized buffers; CHECKs OK */
static int run_golden(const cc_node *n, const cc_tensor *const *in, int n_out, cc_golden *g)
{
    cc_tensor out[3];
    cc_err e = { 0 };
    cc_status st = golden_run(n, in, n_out, out, g, &e);
    CHECK(st == CC_OK);
    if (st) fprintf(stderr, "  %s: %s\n", n->op->name, e.msg);
    return st == CC_OK;
}

static void test_rnn(void)
{
    /* X = [0.5, -1] (seq 2, batch 1, input 1), W = 2, R = 0.5, Wb = 0.125, Rb = 0.25, h0 = 0.375
     * (values float32 holds exactly) */
    cc_tensor x = tensor_of(CC_F32, 3, (int64_t[]){ 2, 1, 1 }, (double[]){ 0.5, -1 });
    cc_tensor w = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 1 }, (double[]){ 2 });
    cc_tensor r = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 1 }, (double[]){ 0.5 });
    cc_tensor b = tensor_of(CC_F32, 2, (int64_t[]){ 1, 2 }, (double[]){ 0.125, 0.25 });
    cc_tensor h0 = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 1 }, (double[]){ 0.375 });
    const cc_tensor *in[6] = { &x, &w, &r, &b, NULL, &h0 };
    double h1 = tanh(0.5 * 2 + 0.375 * 0.5 + 0.375), h2 = tanh(-1 * 2 + h1 * 0.5 + 0.375);
    cc_node n = rnn_node("RNN", 6);
    cc_golden g[2];
    if (run_golden(&n, in, 2, g)) {
        expect_values(&g[0], (double[]){ h1, h2 }, 2, 1e-15);
        expect_values(&g[1], (double[]){ h2 }, 1, 1e-15);
        CHECK(g[0].shape.rank == 4 && g[1].shape.rank == 3);
        CHECK(g[0].k == 1 + 1 + 3);
        /* S of step 1: |x w| + |h0 r| + |R| S(h0) + biases + |pre-activation|, times tanh's slope 1,
         * + |h1| */
        double s1 = 1 + 0.1875 + 0.5 * 0.375 + 0.375 + 1.5625 + fabs(h1);
        CHECK_NEAR(g[0].mag[0], s1, 1e-12);
        /* step 2 carries step 1's S through R: S2 = ... + |R| S1 */
        double s2 = 2 + fabs(h1 * 0.5) + 0.5 * s1 + 0.375 + fabs(-2 + h1 * 0.5 + 0.375) + fabs(h2);
        CHECK_NEAR(g[0].mag[1], s2, 1e-12);
        cc_golden_free(g, 2);
    }
    /* reverse: the same steps from the last input to the first; Y at each step's own time */
    cc_node rev = rnn_node("RNN", 6);
    attr_set_s(&rev, "direction", "reverse");
    double r1 = tanh(-1 * 2 + 0.375 * 0.5 + 0.375), r0 = tanh(0.5 * 2 + r1 * 0.5 + 0.375);
    if (run_golden(&rev, in, 2, g)) {
        expect_values(&g[0], (double[]){ r0, r1 }, 2, 1e-15);
        expect_values(&g[1], (double[]){ r0 }, 1, 1e-15);
        cc_golden_free(g, 2);
    }
    /* bidirectional: direction 0 is the forward run, 1 the reverse one (W, R, B, h0 per
     * direction; the second direction's the same values here) */
    cc_tensor w2 = tensor_of(CC_F32, 3, (int64_t[]){ 2, 1, 1 }, (double[]){ 2, 2 });
    cc_tensor r2 = tensor_of(CC_F32, 3, (int64_t[]){ 2, 1, 1 }, (double[]){ 0.5, 0.5 });
    cc_tensor b2 = tensor_of(CC_F32, 2, (int64_t[]){ 2, 2 }, (double[]){ 0.125, 0.25, 0.125, 0.25 });
    cc_tensor h02 = tensor_of(CC_F32, 3, (int64_t[]){ 2, 1, 1 }, (double[]){ 0.375, 0.375 });
    const cc_tensor *in2[6] = { &x, &w2, &r2, &b2, NULL, &h02 };
    cc_node bi = rnn_node("RNN", 6);
    attr_set_s(&bi, "direction", "bidirectional");
    if (run_golden(&bi, in2, 2, g)) {
        /* Y [seq, dirs, batch, hidden] */
        expect_values(&g[0], (double[]){ h1, r0, h2, r1 }, 4, 1e-15);
        expect_values(&g[1], (double[]){ h2, r0 }, 2, 1e-15);
        cc_golden_free(g, 2);
    }
    /* activations with alpha and beta: LeakyRelu(alpha 0.1) takes the first alpha */
    cc_node lr = rnn_node("RNN", 6);
    attr_set_text(&lr, "activations", "[LeakyRelu]");
    attr_set_floats(&lr, "activation_alpha", (double[]){ 0.1 }, 1);
    double l1 = 1.5625, l2pre = -2 + l1 * 0.5 + 0.375, l2 = l2pre >= 0 ? l2pre : (double)0.1f * l2pre;
    if (run_golden(&lr, in, 2, g)) {
        expect_values(&g[0], (double[]){ l1, l2 }, 2, 1e-7);
        cc_golden_free(g, 2);
    }
    /* clip 0.5 bounds the pre-activation */
    cc_node cl = rnn_node("RNN", 6);
    attr_set_f(&cl, "clip", 0.5);
    double c1 = tanh(0.5), c2 = tanh(fmax(-0.5, -2 + c1 * 0.5 + 0.375));
    if (run_golden(&cl, in, 2, g)) {
        expect_values(&g[0], (double[]){ c1, c2 }, 2, 1e-15);
        cc_golden_free(g, 2);
    }
    /* rejections */
    cc_node bad = rnn_node("RNN", 6);
    attr_set_text(&bad, "activations", "[Swish]");
    expect_reject(&bad, in, 2, CC_ERR_ARG, "unknown activation 'Swish'");
    cc_node two = rnn_node("RNN", 6);
    attr_set_text(&two, "activations", "[Tanh,Relu,Tanh]");
    expect_reject(&two, in, 2, CC_ERR_ARG, "needs 1 per direction");
    cc_node dir = rnn_node("RNN", 6);
    attr_set_s(&dir, "direction", "sideways");
    expect_reject(&dir, in, 2, CC_ERR_ARG, "direction 'sideways'");
    cc_node hs = rnn_node("RNN", 6);
    attr_set_i(&hs, "hidden_size", 3);
    expect_reject(&hs, in, 2, CC_ERR_ARG, "hidden_size is 3");
    const cc_tensor *inw[6] = { &x, &w2, &r, &b, NULL, &h0 }; /* W for two directions, one asked for */
    expect_reject(&n, inw, 2, CC_ERR_ARG, "W must be f32 1x1x1");
    cc_tensor_free(&x);
    cc_tensor_free(&w);
    cc_tensor_free(&r);
    cc_tensor_free(&b);
    cc_tensor_free(&h0);
    cc_tensor_free(&w2);
    cc_tensor_free(&r2);
    cc_tensor_free(&b2);
    cc_tensor_free(&h02);
}

static void test_sequence_lens(void)
{
    /* batch 2 with lengths 1 and 2; batch-major layout (X [batch, seq, input]) */
    cc_tensor x = tensor_of(CC_F32, 3, (int64_t[]){ 2, 2, 1 }, (double[]){ 1, 2, -1, 0.5 });
    cc_tensor w = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 1 }, (double[]){ 0.75 });
    cc_tensor r = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 1 }, (double[]){ -0.375 });
    cc_tensor lens = tensor_of(CC_I32, 1, (int64_t[]){ 2 }, (double[]){ 1, 2 });
    const cc_tensor *in[6] = { &x, &w, &r, NULL, &lens, NULL };
    cc_node n = rnn_node("RNN", 6);
    attr_set_i(&n, "layout", 1);
    double a0 = tanh(0.75), b0 = tanh(-0.75), b1 = tanh(0.375 - 0.375 * b0);
    cc_golden g[2];
    if (run_golden(&n, in, 2, g)) {
        /* Y [batch, seq, dirs, hidden]: sequence 0 ends after one step */
        expect_values(&g[0], (double[]){ a0, 0, b0, b1 }, 4, 1e-15);
        CHECK(g[0].mag[1] == 0);
        expect_values(&g[1], (double[]){ a0, b1 }, 2, 1e-15);
        cc_golden_free(g, 2);
    }
    /* reverse with lengths: each sequence starts from its own last step */
    cc_node rev = rnn_node("RNN", 6);
    attr_set_i(&rev, "layout", 1);
    attr_set_s(&rev, "direction", "reverse");
    double rb1 = tanh(0.375), rb0 = tanh(-0.75 - 0.375 * rb1);
    if (run_golden(&rev, in, 2, g)) {
        expect_values(&g[0], (double[]){ a0, 0, rb0, rb1 }, 4, 1e-15);
        expect_values(&g[1], (double[]){ a0, rb0 }, 2, 1e-15);
        cc_golden_free(g, 2);
    }
    cc_tensor bad = tensor_of(CC_I32, 1, (int64_t[]){ 2 }, (double[]){ 0, 2 });
    const cc_tensor *inb[6] = { &x, &w, &r, NULL, &bad, NULL };
    expect_reject(&n, inb, 2, CC_ERR_ARG, "sequence_lens[0] is 0, outside [1, 2]");
    cc_tensor_free(&x);
    cc_tensor_free(&w);
    cc_tensor_free(&r);
    cc_tensor_free(&lens);
    cc_tensor_free(&bad);
}

static void test_gru(void)
{
    /* one step, hidden 1: W = [wz, wr, wh], R = [rz, rr, rh], B = [Wb z r h, Rb z r h] */
    const double wz = 0.25, wr = -0.625, wh = 0.875, rz = 0.5, rr = 0.1875, rh = -0.75;
    const double bwz = 0.125, bwr = 0.25, bwh = -0.3125, brz = 0.0625, brr = -0.125, brh = 0.375, xv = 1.5,
                 hv = -0.8125;
    cc_tensor x = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 1 }, (double[]){ xv });
    cc_tensor w = tensor_of(CC_F32, 3, (int64_t[]){ 1, 3, 1 }, (double[]){ wz, wr, wh });
    cc_tensor r = tensor_of(CC_F32, 3, (int64_t[]){ 1, 3, 1 }, (double[]){ rz, rr, rh });
    cc_tensor b = tensor_of(CC_F32, 2, (int64_t[]){ 1, 6 }, (double[]){ bwz, bwr, bwh, brz, brr, brh });
    cc_tensor h0 = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 1 }, (double[]){ hv });
    const cc_tensor *in[6] = { &x, &w, &r, &b, NULL, &h0 };
    double z = sig(xv * wz + hv * rz + bwz + brz), rg = sig(xv * wr + hv * rr + bwr + brr);
    double hh0 = tanh(xv * wh + (rg * hv) * rh + brh + bwh);   /* linear_before_reset 0 */
    double hh1 = tanh(xv * wh + rg * (hv * rh + brh) + bwh);   /* linear_before_reset 1 */
    CHECK(fabs(hh0 - hh1) > 0.01); /* Rb_h makes them differ */
    cc_node n = rnn_node("GRU", 6);
    cc_golden g[2];
    if (run_golden(&n, in, 2, g)) {
        expect_values(&g[1], (double[]){ (1 - z) * hh0 + z * hv }, 1, 1e-15);
        cc_golden_free(g, 2);
    }
    cc_node lbr = rnn_node("GRU", 6);
    attr_set_i(&lbr, "linear_before_reset", 1);
    if (run_golden(&lbr, in, 2, g)) {
        expect_values(&g[1], (double[]){ (1 - z) * hh1 + z * hv }, 1, 1e-15);
        cc_golden_free(g, 2);
    }
    /* activations [HardSigmoid, Softsign] with alpha 0.25 and beta 0.4 for HardSigmoid */
    cc_node act = rnn_node("GRU", 6);
    attr_set_text(&act, "activations", "[HardSigmoid,Softsign]");
    attr_set_floats(&act, "activation_alpha", (double[]){ 0.25 }, 1);
    attr_set_floats(&act, "activation_beta", (double[]){ 0.4 }, 1);
    double hz = fmin(fmax(0.25 * (xv * wz + hv * rz + bwz + brz) + (double)0.4f, 0), 1);
    double hr = fmin(fmax(0.25 * (xv * wr + hv * rr + bwr + brr) + (double)0.4f, 0), 1);
    double pre = xv * wh + (hr * hv) * rh + brh + bwh, hs = pre / (1 + fabs(pre));
    if (run_golden(&act, in, 2, g)) {
        expect_values(&g[1], (double[]){ (1 - hz) * hs + hz * hv }, 1, 1e-7);
        cc_golden_free(g, 2);
    }
    cc_tensor_free(&x);
    cc_tensor_free(&w);
    cc_tensor_free(&r);
    cc_tensor_free(&b);
    cc_tensor_free(&h0);
}

static void test_lstm(void)
{
    /* one step, hidden 1, gates i o f c; peepholes P = [pi, po, pf] */
    const double W[4] = { 0.375, -0.25, 0.75, 0.625 }, R[4] = { 0.1875, 0.5, -0.375, 0.3125 };
    const double P[3] = { 0.125, -0.1875, 0.25 };
    const double xv = 0.875, hv = -0.5, cv = 0.6875, Bw[4] = { 0.125, 0, -0.125, 0.1875 },
                 Br[4] = { 0, 0.0625, 0, -0.0625 };
    cc_tensor x = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 1 }, (double[]){ xv });
    cc_tensor w = tensor_of(CC_F32, 3, (int64_t[]){ 1, 4, 1 }, W);
    cc_tensor r = tensor_of(CC_F32, 3, (int64_t[]){ 1, 4, 1 }, R);
    cc_tensor b = tensor_of(CC_F32, 2, (int64_t[]){ 1, 8 },
                            (double[]){ Bw[0], Bw[1], Bw[2], Bw[3], Br[0], Br[1], Br[2], Br[3] });
    cc_tensor h0 = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 1 }, (double[]){ hv });
    cc_tensor c0 = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 1 }, (double[]){ cv });
    cc_tensor p = tensor_of(CC_F32, 2, (int64_t[]){ 1, 3 }, P);
    const cc_tensor *in[8] = { &x, &w, &r, &b, NULL, &h0, &c0, &p };
    double a[4];
    for (int k = 0; k < 4; k++) a[k] = xv * W[k] + hv * R[k] + Bw[k] + Br[k];
    double i = sig(a[0] + P[0] * cv), f = sig(a[2] + P[2] * cv), c = tanh(a[3]);
    double ct = f * cv + i * c, o = sig(a[1] + P[1] * ct), ht = o * tanh(ct);
    cc_node n = rnn_node("LSTM", 8);
    cc_golden g[3];
    if (run_golden(&n, in, 3, g)) {
        expect_values(&g[0], (double[]){ ht }, 1, 1e-15);
        expect_values(&g[1], (double[]){ ht }, 1, 1e-15);
        expect_values(&g[2], (double[]){ ct }, 1, 1e-15);
        cc_golden_free(g, 3);
    }
    /* without peepholes, initial state or biases: the defaults (zeros) */
    const cc_tensor *in0[8] = { &x, &w, &r, NULL, NULL, NULL, NULL, NULL };
    double i0 = sig(xv * W[0]), c00 = tanh(xv * W[3]), o0 = sig(xv * W[1]), ct0 = i0 * c00;
    if (run_golden(&n, in0, 3, g)) {
        expect_values(&g[1], (double[]){ o0 * tanh(ct0) }, 1, 1e-15);
        expect_values(&g[2], (double[]){ ct0 }, 1, 1e-15);
        cc_golden_free(g, 3);
    }
    cc_node coupled = rnn_node("LSTM", 8);
    attr_set_i(&coupled, "input_forget", 1);
    expect_reject(&coupled, in, 3, CC_ERR_UNSUPPORTED, "input_forget");
    cc_tensor p4 = tensor_of(CC_F32, 2, (int64_t[]){ 1, 4 }, NULL);
    const cc_tensor *inp[8] = { &x, &w, &r, &b, NULL, &h0, &c0, &p4 };
    expect_reject(&n, inp, 3, CC_ERR_ARG, "P must be f32 1x3");
    cc_tensor_free(&x);
    cc_tensor_free(&w);
    cc_tensor_free(&r);
    cc_tensor_free(&b);
    cc_tensor_free(&h0);
    cc_tensor_free(&c0);
    cc_tensor_free(&p);
    cc_tensor_free(&p4);
}

int main(void)
{
    test_rnn();
    test_sequence_lens();
    test_gru();
    test_lstm();
    /* every sweep row parses, and the quick cases' golden outputs are finite in both regimes */
    CHECK(family_cases_check(cc_catalog_family("recurrent"), 3, 7, 9) > 0);
    return CC_TEST_RESULT();
}

/* judge.c — a model's verdict on a target (see judge.h). */
#include "judge.h"

#include <math.h>
#include <stdio.h>

double cc_model_conf_need(double noise_db)
{
    return (noise_db < CC_CONF_CAP_DB ? noise_db : CC_CONF_CAP_DB) - CC_CONF_MARGIN_DB;
}

cc_verdict cc_model_judge(const cc_model_measured *m, const cc_budget *budget, int *conforms, char *reason,
                          size_t n)
{
    char why[CC_REASON_MAX] = "";
    int within = 1;
    if (m->task == CC_TASK_DETECT) {
        if (m->det) within = cc_budget_check_detect(budget, m->det, why, sizeof why);
    } else if (m->task == CC_TASK_CLASSIFY) {
        within = cc_budget_check_classify(budget, m->acc, why, sizeof why);
    }
    double need = cc_model_conf_need(m->noise_db);
    *conforms = m->conf_sqnr_db >= need;
    if (!*conforms) {
        snprintf(reason, n,
                 "differs from the %s golden model: SQNR %.1f dB, needs %.1f dB (the %s golden is %.1f dB from FP32)%s%s",
                 m->prec, m->conf_sqnr_db, need, m->prec, m->noise_db, why[0] ? "; " : "", why);
        return CC_FAILED;
    }
    if (!within) {
        snprintf(reason, n, "accuracy against FP32 outside budget: %s", why);
        return CC_FAILED;
    }
    snprintf(reason, n, "%s", m->pass_note ? m->pass_note : "");
    return CC_PASSED;
}

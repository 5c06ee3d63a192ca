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
    if (m->task == CC_TASK_DETECT || m->task == CC_TASK_DETECTIONS) {
        if (m->det) within = cc_budget_check_detect(budget, m->det, why, sizeof why);
    } else if (m->task == CC_TASK_CLASSIFY) {
        within = cc_budget_check_classify(budget, m->acc, why, sizeof why);
    }
    double need = cc_model_conf_need(m->noise_db);
    *conforms = m->conf_sqnr_db >= need;
    const cc_detect_agree *ag = m->task == CC_TASK_DETECTIONS ? m->agree : NULL;
    if (*conforms && ag && ag->n_disagree) {
        *conforms = 0;
        snprintf(reason, n, "differs from the %s golden model: %d of %d detections unmatched beyond near-ties; %s%s%s",
                 m->prec, ag->n_disagree, ag->n_gold + ag->n_cand, ag->first, why[0] ? "; " : "", why);
        return CC_FAILED;
    }
    if (!*conforms) {
        snprintf(reason, n,
                 "differs from the %s golden model: %sSQNR %.1f dB, needs %.1f dB (the %s golden is %.1f dB from FP32)%s%s",
                 m->prec, ag ? "the matched detections' " : "", m->conf_sqnr_db, need, m->prec, m->noise_db, why[0] ? "; " : "", why);
        return CC_FAILED;
    }
    if (!within) {
        snprintf(reason, n, "accuracy against FP32 outside budget: %s", why);
        return CC_FAILED;
    }
    if (ag)
        snprintf(reason, n, "%d of %d golden detections matched, %d near-ties unmatched%s%s", ag->n_matched,
                 ag->n_gold, ag->n_tolerated, m->pass_note && m->pass_note[0] ? "; " : "",
                 m->pass_note ? m->pass_note : "");
    else
        snprintf(reason, n, "%s", m->pass_note ? m->pass_note : "");
    return CC_PASSED;
}

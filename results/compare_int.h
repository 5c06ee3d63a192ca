/* compare_int.h — internal to results/: the second stage of the timing rule of compare.c,
 * the op-family confirmation with thresholds from the machine's A/A history (family.c). */
#ifndef CC_COMPARE_INT_H
#define CC_COMPARE_INT_H

#include "compare.h"

/* Whether the reference loop's speed steadies timings on this machine: sets
 * c->ref_unsteady when, over the baseline's A/A history (at least two runs besides the
 * baseline), the op families' level spreads summed are wider with the reference's scaling
 * than without it (the loop then measures something the cases do not feel: on one
 * Sapphire Rapids VM it ran 825-1366 ns from run to run while the cases moved a few
 * percent). compare then judges the candidate's raw samples and the history's raw levels.
 * Without the history (or noise_auto off): 0, the scaling stays. CC_ERR_DB, CC_ERR_NOMEM. */
cc_status cc_compare_ref_check(cc_db *base_db, cc_comparison *c, cc_err *err);

/* Confirms or demotes the row-level timing changes of c (rows whose timing_change was set
 * by the row test): fills every timed row's family_change, family_threshold, family_rows
 * and noise_runs, and c->noise_history; a row change whose family did not move the same
 * way beyond its threshold becomes timing_change NONE with unconfirmed = +1 (slower) or -1
 * (faster), unless c->lone_rule is set and its own evidence is strong (then lone = 1 and
 * the change stands). A row is timed when its p is not NaN. With c->opt.noise_auto the
 * A/A history is read from base_db (the rule is in compare.h). CC_ERR_DB, CC_ERR_NOMEM. */
cc_status cc_compare_families(cc_db *base_db, cc_comparison *c, cc_err *err);

/* The same for the model rows (a model is its own family): fills every timed model row's
 * family_threshold and noise_runs (timed: change not NaN and timing judged), and demotes a
 * timing change whose |log(1 + change)| does not pass the threshold to unconfirmed. With
 * c->opt.noise_auto the A/A history is read from base_db. CC_ERR_DB, CC_ERR_NOMEM. */
cc_status cc_compare_model_families(cc_db *base_db, cc_comparison *c, cc_err *err);

#endif

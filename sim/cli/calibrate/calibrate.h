/* calibrate.h -- `fleetsim calibrate`'s parts: the command (cmd_calibrate.c:
 * options, the catalog, reading the measurements, the fit), its output
 * (calibrate_out.c: the parameters, the residuals, the profile file) and
 * the shared-row fit over several deployments (calibrate_shared.c). */
#ifndef FS_CALIBRATE_H
#define FS_CALIBRATE_H

#include "models/llm/llm_fit.h"
#include "models/llm/measure.h"

typedef struct calibration {
    fs_llm_config cfg;
    fs_llm_hw hw;
    fs_measures ms;          /* the runs fitted */
    size_t skipped;          /* CSV rows of other configurations */
    int nfiles;
    fs_llm_fit fit;
    double seconds;          /* the fit's, leave-one-out included */
    int shared;              /* --shared: one row for every deployment */
    fs_llm_config *cfgs;     /* shared: run i's model and TP */
    fs_llm_hw *hws;
    size_t deployments;      /* shared: distinct (model, TP) */
    const fs_llm_engine *start;   /* shared: --start's row, or NULL (the
                                     --engine row's figures) */
} calibration;

/* The fit, the residual table and the leave-one-out summary on stdout. */
void calibrate_print(const calibration *c);
/* The fitted parameters as an engine profile (--out). */
int calibrate_write_profile(const calibration *c, const char *path,
                            fs_error *err);

/* --shared (calibrate_shared.c): each run's configuration from its row
 * (its model and TP; c->cfg's GPU, precision and engine), 0 or -1 with
 * why naming the run; the fit of one profile row to them all; the heading
 * naming the deployments; the fitted row (version calibrated). */
int calibrate_shared_setup(calibration *c, const fs_llm_catalog *mc,
                           char *why, size_t len);
int calibrate_shared_fit(calibration *c, const int *use, char *why,
                         size_t len);
void calibrate_shared_heading(const calibration *c);
int calibrate_shared_row(const calibration *c, fs_llm_engine *row,
                         char *why, size_t len);
void calibrate_shared_free(calibration *c);

#endif

/* calibrate.h -- `fleetsim calibrate`'s parts: the command (cmd_calibrate.c:
 * options, the catalog, reading the measurements, the fit) and its output
 * (calibrate_out.c: the parameters, the residuals, the profile file). */
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
} calibration;

/* The fit, the residual table and the leave-one-out summary on stdout. */
void calibrate_print(const calibration *c);
/* The fitted parameters as an engine profile (--out). */
int calibrate_write_profile(const calibration *c, const char *path,
                            fs_error *err);

#endif

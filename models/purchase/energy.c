/* energy.c -- the linear power model of energy.h (doc/energy.md).
 *
 * Linear in utilization: the draw at u is idle + u (TDP - idle).  A GPU
 * near idle draws its idle power, a GPU busy all the time at most its TDP
 * (measured training runs stay below it: the TDP bounds the figure).  The
 * energy over a run is then the provisioned GPU-hours at idle plus the
 * busy GPU-hours at the span, with no need of the hour-by-hour trace. */
#include "models/purchase/energy.h"

#include <math.h>

/* The watts of one GPU-hour provisioned and one busy, at the meter. */
static double facility(const fs_energy_model *e)
{
    return (1 + e->host_share) * e->pue;
}

double fs_energy_draw_w(const fs_energy_model *e, double u)
{
    if (!(e->tdp_w > 0))
        return 0;
    return (e->idle_w + u * (e->tdp_w - e->idle_w)) * facility(e);
}

double fs_energy_kwh(const fs_energy_model *e, double gpu_hours,
                     double busy_gpu_hours)
{
    if (!(e->tdp_w > 0))
        return 0;
    double wh = gpu_hours * e->idle_w + busy_gpu_hours * (e->tdp_w - e->idle_w);
    return wh * facility(e) / 1000;
}

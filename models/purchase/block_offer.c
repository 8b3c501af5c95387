/* block_offer.c -- a capacity block for a training pool's window; see
 * block_offer.h. */
#include "models/purchase/block_offer.h"

#include <math.h>
#include <string.h>

int fs_block_days(double hours)
{
    /* a whole day: the window's hours rounded up (a hair under a day's
     * boundary from the seconds' rounding is that day) */
    int days = (int)ceil(hours / 24 - 1e-9);
    if (days < 1)
        days = 1;
    if (days > 14)
        days = 7 * (int)ceil(days / 7.0);   /* 7-day steps above 14 */
    return days > FS_BLOCK_MAX_DAYS ? 0 : days;
}

int fs_block_offer_make(double start_s, double end_s, long count,
                        double rate, double on_demand, fs_block_offer *o)
{
    memset(o, 0, sizeof *o);
    o->start_s = start_s;
    o->end_s = end_s;
    o->count = count;
    o->rate = rate;
    if (!(end_s > start_s) || count <= 0)
        return 1;
    double hours = (end_s - start_s) / 3600;
    o->busy_instance_h = (double)count * hours;
    o->on_demand_usd = o->busy_instance_h * on_demand;
    o->days = fs_block_days(hours);
    if (o->days == 0 || count > FS_BLOCK_MAX_INSTANCES)
        return 2;
    o->block_usd = (double)count * o->days * 24 * rate;
    return 0;
}

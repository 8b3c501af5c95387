/* scenario_limits.h -- the documented upper bounds of a scenario.
 *
 * Each is far above what a capacity plan needs and low enough that what it
 * allows fits in memory: a value beyond one is refused with file:line:key
 * before anything is allocated, rather than ending in "out of memory" (or
 * an abort under AddressSanitizer).  doc/scenarios.md ("Limits") and `fleetsim help
 * scenario` list them; durations are bounded by FS_DURATION_MAX (grammar.h)
 * and files and lines by config.h. */
#ifndef FS_SCENARIO_LIMITS_H
#define FS_SCENARIO_LIMITS_H

#define FS_MAX_INSTANCES 1000000       /* count, min, max of a pool */
#define FS_MAX_GPUS_PER_INSTANCE 64
#define FS_MAX_BATCH 65536             /* batch_max */
#define FS_MAX_REPLICATIONS 10000
/* Servers of a pool (instances x servers per instance) times the largest
 * batch_max of its workloads: the request slots it allocates. */
#define FS_MAX_POOL_SLOTS 4194304
/* Pools x replications x (utilization samples + months): the rows a run
 * holds in memory until it is stored. */
#define FS_MAX_RESULT_ROWS 5000000
#define FS_MAX_PRICE 10000.0           /* $ per instance-hour */
#define FS_MAX_SPOT_NOTICE_S 3600.0    /* a spot pool's notice = */
#define FS_MAX_RATE_SCALE 1000.0
#define FS_WINDOW_EVERY_MIN 60.0       /* seconds: a window's `every` */

#endif

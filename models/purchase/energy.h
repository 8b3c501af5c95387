/* energy.h -- the power a pool's GPUs draw, and the energy it adds up to.
 *
 * One model for every pool (doc/energy.md), so that the energy a run
 * reports and the power an owned pool is billed are the same figure:
 * a GPU draws its idle power plus its utilization's share of the span to
 * its TDP (linear between the two, the model of the datasheet's TDP and a
 * measured idle), the rest of the server a share of that draw
 * (host_share), and the facility PUE times the IT load.  A cloud pool
 * counts its GPUs alone at PUE 1 (the provider's PUE and host power are
 * not known): its figure is information, not a bill. */
#ifndef FS_ENERGY_H
#define FS_ENERGY_H

typedef struct fs_energy_model {
    double tdp_w, idle_w;   /* one GPU's, from gpus.csv */
    double host_share;      /* the server's non-GPU draw per W of GPU draw */
    double pue;             /* facility energy per IT energy, >= 1 */
} fs_energy_model;

/* A GPU's draw at the meter at utilization u (0..1), W: (idle + u (tdp -
 * idle)) x (1 + host_share) x pue.  0 when the GPU's TDP is unknown. */
double fs_energy_draw_w(const fs_energy_model *e, double u);

/* kWh at the meter of gpu_hours provisioned of which busy_gpu_hours busy:
 * linear in both, so a pool's hours give it exactly whatever the
 * utilization did hour by hour. */
double fs_energy_kwh(const fs_energy_model *e, double gpu_hours,
                     double busy_gpu_hours);

#endif

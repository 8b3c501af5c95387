/* test_gpu_peaks.c -- gpus.csv's tensor peaks against their clocks.
 *
 *   - every shipped GPU gives the clock its peaks are stated at
 *     (boost_mhz), or marks boost_mhz unsourced;
 *   - the dense 16-bit peak is SMs x dense FLOP a clock an SM x the clock,
 *     within 0.5%, for every GPU whose architecture whitepaper gives the
 *     SM count and the per-SM rate (Volta and Turing 1,024, GA100 2,048,
 *     GA10x and Ada 1,024, Hopper 4,096 FLOP a clock an SM; the counts
 *     below): a sparse figure (2x) or a wrong clock fails it;
 *   - dense, not sparse, across precisions: fp8 and int8 are twice the
 *     16-bit peak wherever the GPU has them (within 2.5%: the L40S
 *     datasheet prints 733 against 362.05);
 *   - an unsourced cell naming no gpus.csv column, or a negative clock, is
 *     refused with file:line: column. */
#include "check.h"
#include "models/catalog/catalog.h"

#include <unistd.h>

typedef struct clock_check {
    const char *gpu;
    int sms;            /* streaming multiprocessors */
    double flop_clk;    /* dense 16-bit tensor FLOP a clock an SM */
} clock_check;

/* SM counts: the Volta (V100 80), Turing (T4 40), Ampere (A100 108, A30
 * 56, A10 72) and Hopper (H100 SXM5 132, PCIe 114) whitepapers; the L4
 * product brief (7,424 CUDA cores, 128 an SM: 58). */
static const clock_check clocks[] = {
    {"T4", 40, 1024},         {"L4", 58, 1024},
    {"A10", 72, 1024},        {"A10G", 72, 1024},
    {"V100-16GB", 80, 1024},  {"V100-32GB", 80, 1024},
    {"A100-40GB", 108, 2048}, {"A100-80GB", 108, 2048},
    {"A30", 56, 2048},        {"H100-80GB", 132, 4096},
    {"H100-PCIE", 114, 4096}, {"H200", 132, 4096},
};

static void shipped(void)
{
    char g[1024], i[1024];
    check_path(g, sizeof g, "models/catalog/gpus.csv");
    check_path(i, sizeof i, "models/catalog/instances.csv");
    fs_error err;
    fs_catalog *c = fs_catalog_load(g, i, &err);
    CHECK(c != NULL);
    if (!c)
        return;
    for (size_t k = 0; k < c->ngpus; k++) {
        const fs_gpu *p = &c->gpus[k];
        CHECK(p->boost_mhz > 0 || strstr(p->unsourced, "boost_mhz"));
        CHECK(p->boost_mhz == 0 || p->clock_source[0]);
        if (p->fp8_tflops > 0)
            CHECK_NEAR(p->fp8_tflops / p->bf16_tflops, 2.0, 0.05);
        if (p->int8_tops > 0)
            CHECK_NEAR(p->int8_tops / p->bf16_tflops, 2.0, 0.05);
    }
    for (size_t k = 0; k < sizeof clocks / sizeof clocks[0]; k++) {
        const fs_gpu *p = fs_catalog_gpu(c, clocks[k].gpu);
        CHECK(p != NULL);
        if (!p)
            continue;
        double peak = clocks[k].sms * clocks[k].flop_clk * p->boost_mhz *
                      1e6 / 1e12;
        printf("%-10s %3d SMs x %4.0f x %4.0f MHz = %6.1f TF, catalog "
               "%6.1f\n", p->name, clocks[k].sms, clocks[k].flop_clk,
               p->boost_mhz, peak, p->bf16_tflops);
        CHECK_NEAR(peak / p->bf16_tflops, 1.0, 0.005);
    }
    fs_catalog_free(c);
}

static int write_tmp(char *path, size_t len, const char *text)
{
    snprintf(path, len, "/tmp/fs_test_gpu_peaks_XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return -1;
    fputs(text, f);
    fclose(f);
    return 0;
}

/* A gpus.csv row with these provenance cells: 0, or -1 with err. */
static int load_row(const char *boost, const char *unsourced, fs_error *err)
{
    char g[64], i[64], text[512];
    snprintf(text, sizeof text,
             "name,memory_gb,memory_bw_gbs,bf16_tflops,fp8_tflops,int8_tops,"
             "tdp_w,mig,source,boost_mhz,unsourced\n"
             "X1,80,2000,300,0,600,400,yes,test,%s,%s\n", boost, unsourced);
    if (write_tmp(g, sizeof g, text) ||
        write_tmp(i, sizeof i, "provider,instance,gpu,gpus,on_demand_usd_h,"
                               "spot_usd_h,reserved_1y_usd_h,"
                               "reserved_3y_usd_h,region,as_of,source\n"))
        return -1;
    fs_catalog *c = fs_catalog_load(g, i, err);
    int rc = c ? 0 : -1;
    if (c) {
        CHECK(c->gpus[0].boost_mhz == atof(boost));
        CHECK(strcmp(c->gpus[0].unsourced, unsourced) == 0);
    }
    fs_catalog_free(c);
    unlink(g);
    unlink(i);
    return rc;
}

static void bad_cells(void)
{
    fs_error err;
    CHECK(load_row("1410", "", &err) == 0);
    CHECK(load_row("0", "boost_mhz;tdp_w", &err) == 0);
    CHECK(load_row("1410", "tdp_w;clock", &err) == -1);
    CHECK_CONTAINS(err.msg, ":2: unsourced");
    CHECK_CONTAINS(err.msg, "'clock'");
    CHECK(load_row("1410", "source", &err) == -1);
    CHECK(load_row("-5", "", &err) == -1);
    CHECK_CONTAINS(err.msg, ":2: boost_mhz");
}

int main(void)
{
    shipped();
    bad_cells();
    return check_report("gpu_peaks");
}

/* catalog.h -- GPUs and cloud instance types, with their prices.
 *
 * The family models/catalog/ (lowest of models/, beside dist/): the
 * catalog's readers and lookups, beside the CSV files they read.
 *
 * Read from models/catalog/gpus.csv and instances.csv (or the user's own
 * files: negotiated prices) through the streaming CSV reader.  Every figure
 * keeps its source column so a printed price can be traced to a page. */
#ifndef FS_CATALOG_H
#define FS_CATALOG_H

#include <stddef.h>
#include "sim/base/csvin.h"
#include "sim/base/error.h"

/* The largest memory_gb a gpus.csv row may give (10 TB, some 35 times the
 * largest GPU of 2026): past it an LLM's KV cache holds more tokens than
 * a long counts (a double beyond long, undefined behaviour to cast). */
#define FS_GPU_MEMORY_GB_MAX 10000

/* Bytes in a GiB: the unit drivers, torch and vLLM's log print memory in. */
#define FS_GIB 1073741824.0

typedef struct fs_gpu {
    char name[32];
    double memory_gb, memory_bw_gbs;
    double bf16_tflops, fp8_tflops, int8_tops;   /* dense */
    double tdp_w;
    int mig;
    char source[256];
    /* The LLM model's columns (optional in a user's gpus.csv): dense fp16
     * tensor peak (absent: bf16's), dense int4 (0: none on the datasheet),
     * NVLink and PCIe bandwidth per GPU (GB/s, both directions; 0 = none),
     * fp8 tensor cores, the generation (turing, volta, ampere, ada, hopper:
     * the default efficiencies) and the form factor (sxm | pcie). */
    double fp16_tflops, int4_tops, nvlink_gbs, pcie_gbs;
    int fp8_native;
    char generation[16];
    char form[8];
    /* Provenance (optional columns): the clock the datasheet's tensor
     * peaks are stated at, MHz (0: no vendor document gives it), and the
     * columns no vendor document gives for this part, ';'-separated ("":
     * every figure is a vendor's). */
    double boost_mhz;
    char unsourced[96];
    char clock_source[160];   /* the document boost_mhz comes from */
    /* Power (optional columns): the board's draw at idle, W, and where
     * it comes from; an empty cell is FS_GPU_IDLE_SHARE of tdp_w (the
     * energy model of doc/energy.md). */
    double idle_w;
    char idle_source[160];
    /* The memory the driver reports (optional columns): the total
     * cudaMemGetInfo gives, as torch, nvidia-smi or vLLM's log prints it,
     * GiB (0: no reported figure found; the datasheet's memory_gb
     * stands), and where it was printed.  Engines size their KV cache
     * from it (fs_gpu_reported_gb), not from the datasheet's GB. */
    double reported_gib;
    char reported_source[160];
} fs_gpu;

/* The memory the driver reports, GB (10^9 bytes): reported_gib, or the
 * datasheet's memory_gb where no reported figure was found. */
double fs_gpu_reported_gb(const fs_gpu *g);

/* An idle GPU's draw as a share of its TDP where gpus.csv gives no
 * measured idle_w (doc/energy.md, models/catalog/SOURCES.md). */
#define FS_GPU_IDLE_SHARE 0.15

/* A reservation's payment options, and (index 3 of a commitment cell) the
 * Savings Plan. */
enum { FS_UPFRONT_NONE, FS_UPFRONT_PARTIAL, FS_UPFRONT_ALL, FS_COMMIT_PLAN };

/* Where a commitment figure comes from: not in any source read; the
 * provider's published figure; derived from a published one by a
 * documented rule (commitments.csv says which); an option the provider does
 * not sell for this type. */
enum { FS_RATE_UNKNOWN, FS_RATE_PUBLISHED, FS_RATE_DERIVED, FS_RATE_NOT_SOLD };

/* One commitment option of an instance type: $ up front per instance for
 * the whole term and $ per instance-hour (a Savings Plan: the plan's
 * hourly rate for this type, no upfront). */
typedef struct fs_commit_cell {
    double hourly, upfront;
    int status;             /* FS_RATE_* */
} fs_commit_cell;

typedef struct fs_instance_type {
    char provider[16];      /* aws | gcp | azure */
    char name[64];          /* p4d.24xlarge */
    char gpu[32];
    int gpus;
    /* $ per instance-hour; NaN where the option does not exist */
    double on_demand, spot, reserved_1y, reserved_3y;
    /* Published upfront options of a reservation, [0] = 1 year, [1] = 3
     * years (optional columns; NaN where not published): the partial
     * upfront hourly rate and its upfront payment, the all-upfront
     * payment (per instance, for the whole term). */
    double ri_partial_h[2], ri_partial_upfront[2], ri_all_upfront[2];
    /* Published Savings Plan discount off on-demand, 0..1 (NaN: unknown). */
    double sp_discount[2];
    /* Every commitment option, [term][FS_UPFRONT_* or FS_COMMIT_PLAN]:
     * from instances.csv's columns, then commitments.csv beside it. */
    fs_commit_cell commit[2][4];
    char region[32];
    char as_of[16];
    char source[256];
    /* Network bandwidth between instances (Gbps; NaN: not in the
     * catalog), the link a KV cache crosses from a prefill pool to a
     * decode pool and what a launching LLM replica pulls its weights over
     * (sim/fleet/pool/coldstart.c), and where the figure comes from
     * (optional columns). */
    double network_gbps;
    char network_source[160];
} fs_instance_type;

/* Where a restore or a weights pull reads from, for its transfer price:
 * the same zone (nothing to pay), another zone of the region, another
 * region, another cloud (the internet). */
enum { FS_TRANSFER_NONE, FS_TRANSFER_ZONE, FS_TRANSFER_REGION,
       FS_TRANSFER_INTERNET, FS_TRANSFER_N };

/* One provider's published object-storage and data-transfer prices
 * (storage.csv, catalog_storage.c): $ per GB-month stored, $ per GB moved
 * for each FS_TRANSFER_* (index 0, none, is 0). */
typedef struct fs_storage_price {
    char provider[16];
    double storage_gb_month;
    double transfer_gb[FS_TRANSFER_N];
    char region[32];
    char as_of[16];
    char source[256];
    char transfer_source[512];
} fs_storage_price;

typedef struct fs_catalog {
    fs_gpu *gpus;
    size_t ngpus;
    fs_instance_type *inst;
    size_t ninst;
    fs_storage_price *storage;    /* storage.csv beside instances.csv
                                     (fs_catalog_load_storage) */
    size_t nstorage;
} fs_catalog;

/* storage.csv (path; an absent file is no error) into c->storage: the
 * scenario loads it beside instances.csv (fs_catalog_load does not: the
 * reader uses catalog.c's loader).  0, or -1 with "path:line: column:
 * why". */
int fs_catalog_load_storage(fs_catalog *c, const char *path, fs_error *err);
/* The provider's storage prices; NULL when storage.csv has none. */
const fs_storage_price *fs_catalog_storage(const fs_catalog *c,
                                           const char *provider);
/* "none", "zone", "region", "internet" */
extern const char *const fs_transfer_names[FS_TRANSFER_N + 1];

/* Loads both files, and commitments.csv from the directory of
 * instances_csv when it is there (one row per instance x term x option,
 * catalog_commit.c); "path:line: column: ..." on a malformed row, an
 * instance whose GPU is not in gpus.csv, or a missing column. */
fs_catalog *fs_catalog_load(const char *gpus_csv, const char *instances_csv,
                            fs_error *err);
void fs_catalog_free(fs_catalog *c);

/* Case-insensitive lookups; NULL when absent. */
const fs_gpu *fs_catalog_gpu(const fs_catalog *c, const char *name);
/* "aws:p4d.24xlarge", or a bare type name when only one provider has it. */
const fs_instance_type *fs_catalog_instance(const fs_catalog *c,
                                            const char *name);

/* Writes "did you mean 'X'?" (or the list of known names) into buf. */
void fs_catalog_suggest_gpu(const fs_catalog *c, const char *name, char *buf,
                            size_t len);
void fs_catalog_suggest_instance(const fs_catalog *c, const char *name,
                                 char *buf, size_t len);
/* The same for any catalog table: n rows of size bytes at rows, each
 * row's name a string name_off bytes in; what names the listing
 * ("see `fleetsim catalog WHAT`"). */
void fs_catalog_suggest_rows(const char *name, const void *rows, size_t n,
                             size_t size, size_t name_off, const char *what,
                             char *buf, size_t len);

/* The cheapest catalog instance with this GPU (per GPU-hour) for a purchase
 * column: 0 on-demand, 1 spot, 2 reserved 1y, 3 reserved 3y.  Prefers an
 * exact GPU count match when gpus > 0.  NULL when none is priced. */
const fs_instance_type *fs_catalog_cheapest(const fs_catalog *c,
                                            const char *gpu, int gpus,
                                            int column);
/* The same among one provider's instances (provider NULL: any). */
const fs_instance_type *fs_catalog_cheapest_at(const fs_catalog *c,
                                               const char *provider,
                                               const char *gpu, int gpus,
                                               int column);
double fs_instance_price(const fs_instance_type *t, int column);

/* A reservation's payment option: the hourly rate and the upfront payment
 * (per instance, whole term) for term 0 = 1 year, 1 = 3 years and upfront
 * FS_UPFRONT_*.  The one place that answers "what does this option cost
 * and where from": a published option is taken as it is, one the catalog
 * derives by the provider's rule (commitments.csv) likewise with status
 * DERIVED; otherwise it is derived from the no-upfront rate as
 * fs_reserved_derive does.  -1 when the provider does not sell it (status
 * NOT_SOLD: never derived) or nothing is known (UNKNOWN). */
typedef struct fs_reserved_option {
    double hourly, upfront;
    int derived;
    int status;             /* FS_RATE_*; NOT_SOLD or UNKNOWN with -1 */
    int from_rate;          /* derived from the no-upfront rate here (no
                               figure of the provider's for the option) */
    const char *basis;      /* "published", "derived (split by rule)",
                               "derived (from the no-upfront rate)", "not
                               sold", "not found" */
} fs_reserved_option;
int fs_instance_reserved_option(const fs_instance_type *t, int term,
                                int upfront, fs_reserved_option *out);
/* Derives an upfront option from the no-upfront hourly rate over a term of
 * term_months: partial pays half the term's cost up front and half the
 * rate, all pays the whole term's cost up front and no rate (the same
 * total).  Used where the provider's figure is not published. */
void fs_reserved_derive(double rate, int term_months, int upfront,
                        double *hourly, double *upfront_usd);

/* Providers: a GPU sold by several is priced from one only when the
 * scenario says which (pool key provider, or instance).
 * fs_catalog_providers counts the providers selling gpu and lists them
 * ("aws, gcp") in catalog order; fs_catalog_list_instances lists its
 * instance types ("aws:p4d.24xlarge, gcp:a2-highgpu-1g"). */
int fs_catalog_providers(const fs_catalog *c, const char *gpu, char *buf,
                         size_t len);
int fs_catalog_sells(const fs_catalog *c, const char *provider,
                     const char *gpu);
void fs_catalog_list_instances(const fs_catalog *c, const char *gpu,
                               char *buf, size_t len);

/* The directory holding the default gpus.csv and instances.csv:
 * $FLEETSIM_CATALOG, else the installed data directory, else the source
 * tree's models/catalog. */
const char *fs_catalog_default_dir(void);

/* The Savings Plan's hourly rate for term (published cells only): 0 with
 * *hourly set, -1 when none is published. */
int fs_instance_plan_rate(const fs_instance_type *t, int term,
                          double *hourly);

/* Reads path (commitments.csv) into c's instance rows; an absent file is
 * no error.  0, or -1 with "path:line: column: why". */
int fs_catalog_load_commitments(fs_catalog *c, const char *path,
                                fs_error *err);
/* Fills t->commit from its instances.csv columns (called per row). */
void fs_instance_commit_from_columns(fs_instance_type *t);
/* "published", "derived", "not sold", "not found" */
const char *fs_rate_status_name(int status);

/* The rows of a catalog file after its header (models, engines, GPUs,
 * instances), into a growing array *rows of *n: each new row zeroed, then
 * filled by read(r, row, ctx, err), which returns 0 or -1 with its
 * message set; *n counts the rows read.  0 at the end of the file; -1 at
 * the first error ("out of memory reading PATH" when the array cannot
 * grow).  *rows is valid (rows 0..*n) while read runs, so a row may be
 * checked against those before it. */
typedef int (*fs_catalog_row_fn)(fs_csv *r, void *row, void *ctx,
                                 fs_error *err);
int fs_catalog_read_rows(fs_csv *r, void **rows, size_t *n, size_t size,
                         fs_catalog_row_fn read, void *ctx, fs_error *err);

/* The one loader of a catalog file: opened, its header line read ("empty
 * file (expected a header)" when none), its columns found by
 * header(r, header_ctx, err) (0, or -1 with its message set), its rows
 * read by fs_catalog_read_rows with read and ctx, closed.  0, or -1. */
typedef int (*fs_catalog_header_fn)(fs_csv *r, void *header_ctx,
                                    fs_error *err);
int fs_catalog_load_file(const char *path, fs_catalog_header_fn header,
                         void *header_ctx, void **rows, size_t *n, size_t size,
                         fs_catalog_row_fn read, void *ctx, fs_error *err);

#endif

/* The traffic model against real hardware: tests/fixtures/ncu-sm90.csv holds
 * the Nsight Compute counters measured on a Hopper GPU (sm_90; the device is
 * named in every row) for every modelled solution kernel, written by
 * `checker/gpu-report.sh` (check --counters-csv; see docs/results/).
 * Instruction counts must match exactly, sector counts within 1%. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>

#include "labs.h"
#include "model.h"
#include "tests.h"

#define FIXTURE "fixtures/ncu-sm90.csv"

static int within_one_percent(unsigned long long model, unsigned long long measured)
{
    double diff = model > measured ? (double)(model - measured) : (double)(measured - model);
    return diff <= 0.01 * (double)measured;
}

static void test_model_matches_h100(void)
{
    char line[1024], lab[64], variant[64];
    long long n, block, rows, cols, m, k;
    unsigned long long gld, gst, gld_sec, gst_sec;
    int rows_checked = 0;
    int **seen = calloc((size_t)check_lab_count, sizeof *seen); /* seen[lab][variant] */
    int *lab_rows = calloc((size_t)check_lab_count, sizeof *lab_rows);
    CU_ASSERT_FATAL(seen && lab_rows);
    for (int l = 0; l < check_lab_count; l++)
        CU_ASSERT_PTR_NOT_NULL_FATAL(seen[l] = calloc((size_t)check_labs[l].variant_count + 1, sizeof *seen[l]));
    FILE *f = fopen(FIXTURE, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fgets(line, sizeof line, f)); /* header */
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "%63[^,],%63[^,],%lld,%lld,%lld,%lld,%lld,%lld,%llu,%llu,%llu,%llu", lab, variant, &n, &block,
                   &rows, &cols, &m, &k, &gld, &gst, &gld_sec, &gst_sec) != 12) {
            CU_FAIL("malformed fixture line");
            continue;
        }
        const check_variant *v = check_find_variant(lab, variant);
        CU_ASSERT_PTR_NOT_NULL_FATAL(v);
        /* sms: the fixture's device, an H100 80GB HBM3 (SXM5), has 132 SMs */
        lab_sizes size = {.m = m, .k = k, .n = n, .block = block, .rows = rows, .cols = cols};
        model_params p = model_params_of(v, &size, 132);
        model_counts c;
        if (model_traffic(&p, &c) != 0)
            continue; /* not modelled (device-side recursion) */
        int ok = c.gld_inst == gld && c.gst_inst == gst && within_one_percent(c.gld_sectors, gld_sec) &&
                 within_one_percent(c.gst_sectors, gst_sec);
        if (!ok)
            fprintf(stderr, "\n  %s/%s: model ld %llu st %llu ld-sectors %llu st-sectors %llu; "
                            "H100 %llu %llu %llu %llu\n",
                    lab, variant, (unsigned long long)c.gld_inst, (unsigned long long)c.gst_inst,
                    (unsigned long long)c.gld_sectors, (unsigned long long)c.gst_sectors, gld, gst, gld_sec, gst_sec);
        CU_ASSERT_TRUE(ok);
        rows_checked++;
        const check_lab *l = check_find_lab(lab);
        seen[l - check_labs][v - l->variants] = 1;
        lab_rows[l - check_labs]++;
    }
    fclose(f);
    /* Every modelled kernel of the curriculum is in the fixture (the whole sum's model needs
     * the SM count: the fixture's 132). A lab with no row at all has not been through an H100
     * run yet (a new lab): its kernels are listed, not failed, until the run that adds its
     * rows; a lab with some rows must have them all. */
    for (int l = 0; l < check_lab_count; l++)
        for (int i = 0; i < check_labs[l].variant_count; i++) {
            const check_variant *v = &check_labs[l].variants[i];
            lab_sizes size = {.m = 64, .k = 64, .n = 1024, .block = 256, .rows = 64, .cols = 64};
            model_params p = model_params_of(v, &size, 132);
            model_counts c;
            if (model_traffic(&p, &c) != 0 || seen[l][i])
                continue;
            if (lab_rows[l] == 0) {
                fprintf(stderr, "\n  note: %s/%s awaits its first H100 run (no counters in %s yet)\n",
                        check_labs[l].dir, v->name, FIXTURE);
            } else {
                fprintf(stderr, "\n  %s/%s has no hardware counters in %s\n", check_labs[l].dir, v->name, FIXTURE);
                CU_FAIL("a modelled kernel is missing from the fixture");
            }
        }
    CU_ASSERT_TRUE(rows_checked > 0);
    for (int l = 0; l < check_lab_count; l++)
        free(seen[l]);
    free(seen);
    free(lab_rows);
}

int add_fixture_tests(void)
{
    CU_pSuite suite = CU_add_suite("model vs H100 counters", NULL, NULL);
    if (!suite)
        return -1;
    if (!CU_add_test(suite, "model equals ncu on every solution kernel", test_model_matches_h100))
        return -1;
    return 0;
}

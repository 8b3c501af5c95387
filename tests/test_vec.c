/* test_vec.c -- fs_vec_grow: the capacities it picks, the values it keeps,
 * and a refusal that leaves the array as it was. */
#include "tests/check.h"
#include "sim/base/vec.h"

#include <errno.h>
#include <stdint.h>

int main(void)
{
    size_t cap = 0;
    double *a = fs_vec_grow(NULL, &cap, 1, sizeof *a);
    CHECK(a != NULL && cap == FS_VEC_FIRST);

    /* room already: the same array, untouched capacity */
    CHECK(fs_vec_grow(a, &cap, FS_VEC_FIRST, sizeof *a) == a);
    CHECK(cap == FS_VEC_FIRST);

    /* one at a time, 1000 values: doubling, and every value kept */
    size_t n = 0, grown = 0;
    for (int i = 0; i < 1000; i++) {
        size_t before = cap;
        double *p = fs_vec_grow(a, &cap, n + 1, sizeof *p);
        if (!p)
            break;
        a = p;
        grown += cap != before;
        a[n++] = i * 0.5;
    }
    CHECK(n == 1000 && cap == 1024);
    CHECK(grown == 6);                     /* 16 -> 32 -> ... -> 1024 */
    int kept = 1;
    for (size_t i = 0; i < n; i++)
        kept &= a[i] == (double)i * 0.5;
    CHECK(kept);

    /* a jump: doubled as often as needed, in one allocation */
    double *p = fs_vec_grow(a, &cap, 5000, sizeof *p);
    CHECK(p != NULL && cap == 8192);
    if (p)
        a = p;
    CHECK(a[999] == 499.5);

    /* too large to count in bytes: refused, array and capacity as they were */
    errno = 0;
    CHECK(fs_vec_grow(a, &cap, SIZE_MAX / 4, sizeof *a) == NULL);
    CHECK(errno == ENOMEM);
    CHECK(cap == 8192 && a[999] == 499.5);
    errno = 0;
    CHECK(fs_vec_grow(a, &cap, SIZE_MAX, 1) == NULL);
    CHECK(errno == ENOMEM && cap == 8192);
    free(a);

    /* need 0 still gives an array, so NULL always means a failure */
    cap = 0;
    char *c = fs_vec_grow(NULL, &cap, 0, 1);
    CHECK(c != NULL && cap == FS_VEC_FIRST);
    free(c);

    /* an item of several bytes (a row of cells) */
    cap = 0;
    char **rows = fs_vec_grow(NULL, &cap, 3, 8 * sizeof *rows);
    CHECK(rows != NULL && cap == FS_VEC_FIRST);
    free(rows);

    /* a full ring of 4 wrapped at 2 (head 2: 30 40 10 20), unrolled
     * oldest first into twice the room: head 0, the same order */
    int *ring = malloc(4 * sizeof *ring);
    CHECK(ring != NULL);
    if (ring) {
        size_t head = 2, rcap = 4;
        ring[0] = 10, ring[1] = 20, ring[2] = 30, ring[3] = 40;
        int *u = fs_ring_grow(ring, &head, 4, &rcap, 64, sizeof *u);
        CHECK(u != NULL && head == 0 && rcap == 8);
        CHECK(u && u[0] == 30 && u[1] == 40 && u[2] == 10 && u[3] == 20);
        free(u ? u : ring);
    }
    /* none yet: an empty ring gets its first room */
    size_t head = 0, rcap = 0;
    int *e = fs_ring_grow(NULL, &head, 0, &rcap, 64, sizeof *e);
    CHECK(e != NULL && rcap == 64 && head == 0);
    free(e);
    return check_report("vec");
}

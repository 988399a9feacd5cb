/* Unit tests for server/util/strset: adding, finding, repeats keeping the first value,
 * growth past many doublings, and keys made to collide under an unkeyed hash. */
#include "server/util/strset.h"
#include "test.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void test_add_find(void)
{
    struct strset *s = strset_new();
    ASSERT_NOT_NULL(s);
    long v = 0;
    ASSERT_INT_EQ(strset_add(s, "a", 1, NULL), 1);
    ASSERT_INT_EQ(strset_add(s, "b", 2, NULL), 1);
    ASSERT_INT_EQ(strset_add(s, "", 3, NULL), 1); /* the empty string is a key too */
    ASSERT_INT_EQ(strset_add(s, "a", 9, &v), 0);
    ASSERT_INT_EQ(v, 1); /* the first value is kept */
    ASSERT_INT_EQ(strset_find(s, "b", &v), 1);
    ASSERT_INT_EQ(v, 2);
    ASSERT_INT_EQ(strset_find(s, "c", &v), 0);
    ASSERT_INT_EQ(strset_find(s, "", NULL), 1);
    ASSERT_UINT_EQ(strset_count(s), 3);
    strset_free(s);
    strset_free(NULL);
}

static void test_growth(void)
{
    struct strset *s = strset_new();
    char key[32];
    for (long i = 0; i < 100000; i++) {
        snprintf(key, sizeof(key), "id/%ld", i);
        ASSERT_INT_EQ(strset_add(s, key, i, NULL), 1);
    }
    ASSERT_UINT_EQ(strset_count(s), 100000);
    for (long i = 0; i < 100000; i += 997) {
        long v = -1;
        snprintf(key, sizeof(key), "id/%ld", i);
        ASSERT_INT_EQ(strset_find(s, key, &v), 1);
        ASSERT_INT_EQ(v, i);
    }
    ASSERT_INT_EQ(strset_find(s, "id/100000", NULL), 0);
    strset_free(s);
}

/* FNV-1a from state h over a NUL-terminated s (the unkeyed hash strset once used). */
static uint64_t fnv_from(uint64_t h, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    return h;
}

#define LOW 0xffffffull /* 24 bits: every table of up to 2^24 slots puts them in one place */

static void block(unsigned i, char out[5])
{
    for (int k = 0; k < 4; k++, i /= 26)
        out[k] = (char)('a' + i % 26);
    out[4] = '\0';
}

/* m pairs of 4-byte blocks: from the state the blocks before leave, both of a pair give the
 * same low 24 bits (a birthday search), and those bits depend on nothing but low bits, so
 * every one of the 2^m choices of a block per pair ends in the same low 24 bits. */
static void collide(int m, char (*pairs)[2][5])
{
    enum { SLOTS = 1 << 16 };
    uint64_t *seen = malloc(SLOTS * sizeof(*seen)); /* low bits << 20 | i + 1, by low bits */
    uint64_t h = 0xcbf29ce484222325ull;
    if (!seen)
        abort();
    for (int k = 0; k < m; k++) {
        memset(seen, 0, SLOTS * sizeof(*seen));
        for (unsigned i = 0;; i++) {
            char b[5];
            block(i, b);
            uint64_t t = fnv_from(h, b) & LOW;
            size_t at = t & (SLOTS - 1);
            while (seen[at] && (seen[at] >> 20) != t)
                at = (at + 1) & (SLOTS - 1);
            if (seen[at]) {
                block((unsigned)(seen[at] & 0xfffff) - 1, pairs[k][0]);
                memcpy(pairs[k][1], b, 5);
                break;
            }
            seen[at] = t << 20 | (i + 1);
        }
        h = fnv_from(h, pairs[k][0]);
    }
    free(seen);
}

/* This thread's CPU time adding the first 2^n of those keys, in seconds. */
static double add_time(char (*pairs)[2][5], int m, int n, bool *added)
{
    struct strset *s = strset_new();
    char key[4 * 32 + 1];
    struct timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    for (long i = 0; i < 1L << n; i++) {
        for (int k = 0; k < m; k++)
            memcpy(key + 4 * k, pairs[k][(i >> k) & 1], 4);
        key[4 * m] = '\0';
        *added = *added && strset_add(s, key, i, NULL) == 1;
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    *added = *added && strset_count(s) == (size_t)1 << n;
    strset_free(s);
    return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
}

/* Keys a client makes to share their hash's low bits (a few thousand tries) cost what any
 * keys cost: 8x the keys, about 8x the time, not 64x (one probe sequence for all of them). */
static void test_made_collisions(void)
{
    enum { M = 14 };
    char pairs[M][2][5];
    collide(M, pairs);
    char a[4 * M + 1] = "", b[4 * M + 1] = ""; /* two of the keys: their low bits agree */
    for (int k = 0; k < M; k++) {
        strcat(a, pairs[k][0]);
        strcat(b, pairs[k][k % 2]);
    }
    ASSERT_TRUE(strcmp(a, b) != 0);
    ASSERT_TRUE(((fnv_from(0xcbf29ce484222325ull, a) ^ fnv_from(0xcbf29ce484222325ull, b)) & LOW) ==
                0);
    bool added = true;
    double t1 = 1e9, t8 = 1e9;
    for (int i = 0; i < 3; i++) {
        double x = add_time(pairs, M, 11, &added), y = add_time(pairs, M, 14, &added);
        t1 = x < t1 ? x : t1;
        t8 = y < t8 ? y : t8;
    }
    ASSERT_TRUE(added);
    double ratio = t8 / (t1 > 1e-6 ? t1 : 1e-6);
    if (ratio >= 24 || getenv("VERDICT_TEST_VERBOSE"))
        fprintf(stderr, "2048 keys %.4f s, 16384 keys %.4f s: x%.1f\n", t1, t8, ratio);
    ASSERT_TRUE(ratio < 24); /* linear: about 8; one probe sequence for all: 64 */
}

int main(void)
{
    TEST_RUN(test_add_find);
    TEST_RUN(test_growth);
    TEST_RUN(test_made_collisions);
    return TEST_EXIT();
}

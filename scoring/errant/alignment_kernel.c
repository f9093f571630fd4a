/* ERRANT's linguistic Damerau-Levenshtein alignment (errant 3.0.2, Alignment), compiled.
 *
 * Input per token: spaCy's ORTH, LOWER, LEMMA and POS (the rows of Doc.to_array), and
 * the character cost of every pair of distinct words (rapidfuzz's Indel distance, made
 * by the caller: a table of the distinct words' pairs, with each token's word number,
 * so an essay's table holds its vocabulary's pairs, not every token pair). The
 * substitution cost is ERRANT's get_sub_cost, summed in its order; the DP is ERRANT's
 * loop: the same additions in the same order, the same "first cheapest of trans, sub,
 * ins, del" choice, and the same diagonal walk for transpositions. The
 * walk's test, "the two windows hold the same lower-cased tokens", is kept exact with a
 * running count per distinct LOWER instead of sorting both windows at every step.
 * Finally the cheapest path is walked back as get_cheapest_align_seq does, so Python
 * receives the alignment sequence, not two matrices to convert.
 *
 * Op codes: 0 O, 1 M, 2 S, 3 I, 4 D, 4 + k the transposition "T<k+1>".
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

enum { ORTH, LOWER, LEMMA, POS, N_FEATURES };

static void count_token(int32_t *count, int *unequal, int32_t id, int32_t delta) {
    int32_t before = count[id];
    count[id] = before + delta;
    if (before == 0)
        ++*unequal;
    else if (count[id] == 0)
        --*unequal;
}

/* Small ids for the LOWER hashes of both sides (an open-addressing table). */
static int intern_lower(int n, int m, const uint64_t *o_feat, const uint64_t *c_feat, int32_t *ids) {
    int size = 1;
    while (size < 2 * (n + m))
        size <<= 1;
    uint64_t *keys = malloc((size_t)size * sizeof(uint64_t));
    int32_t *values = malloc((size_t)size * sizeof(int32_t));
    if (keys == NULL || values == NULL) {
        free(keys);
        free(values);
        return -1;
    }
    for (int s = 0; s < size; ++s)
        values[s] = -1;
    int next = 0;
    for (int t = 0; t < n + m; ++t) {
        uint64_t key = t < n ? o_feat[t * N_FEATURES + LOWER] : c_feat[(t - n) * N_FEATURES + LOWER];
        int s = (int)((key ^ (key >> 29)) & (uint64_t)(size - 1));
        while (values[s] >= 0 && keys[s] != key)
            s = (s + 1) & (size - 1);
        if (values[s] < 0) {
            keys[s] = key;
            values[s] = next++;
        }
        ids[t] = values[s];
    }
    free(keys);
    free(values);
    return next;
}

static int is_open(uint64_t pos, const uint64_t *open_pos, int n_open) {
    for (int k = 0; k < n_open; ++k)
        if (open_pos[k] == pos)
            return 1;
    return 0;
}

/* get_sub_cost: 0 for the same lower-cased token, else lemma + POS + character cost. */
static double sub_cost_of(const uint64_t *o, const uint64_t *c, double char_cost, const uint64_t *open_pos, int n_open) {
    if (o[LOWER] == c[LOWER])
        return 0.0;
    double lemma_cost = o[LEMMA] == c[LEMMA] ? 0.0 : 0.499;
    double pos_cost;
    if (o[POS] == c[POS])
        pos_cost = 0.0;
    else if (is_open(o[POS], open_pos, n_open) && is_open(c[POS], open_pos, n_open))
        pos_cost = 0.25;
    else
        pos_cost = 0.5;
    return lemma_cost + pos_cost + char_cost;
}

/* The cheapest path, walked back from (n, m); written forward, 5 ints a step
 * (op, o_start, o_end, c_start, c_end). Returns the number of steps (<= n + m). */
static int cheapest_path(int n, int m, const int32_t *ops, int32_t *path) {
    const int w = m + 1;
    int i = n, j = m, steps = 0;
    while (i + j != 0) {
        int32_t op = ops[i * w + j];
        int32_t *step = path + 5 * steps++;
        step[0] = op;
        if (op == 1 || op == 2) {
            step[1] = i - 1; step[2] = i; step[3] = j - 1; step[4] = j;
            --i; --j;
        } else if (op == 4) {
            step[1] = i - 1; step[2] = i; step[3] = j; step[4] = j;
            --i;
        } else if (op == 3) {
            step[1] = i; step[2] = i; step[3] = j - 1; step[4] = j;
            --j;
        } else {
            int k = op - 3;  /* "T<k>" */
            step[1] = i - k; step[2] = i; step[3] = j - k; step[4] = j;
            i -= k; j -= k;
        }
    }
    for (int a = 0, b = steps - 1; a < b; ++a, --b)
        for (int f = 0; f < 5; ++f) {
            int32_t t = path[5 * a + f];
            path[5 * a + f] = path[5 * b + f];
            path[5 * b + f] = t;
        }
    return steps;
}

/* Fills cost and ops ((n+1) x (m+1)) and path; returns the path's length, -1 when out
 * of memory. Token i of orig is word o_word[i], token j of cor word c_word[j]; their
 * character cost is char_cost[o_word[i] * c_words + c_word[j]], only read without lev. */
int errant_align(int n, int m, const uint64_t *o_feat, const uint64_t *c_feat, const uint64_t *open_pos, int n_open,
                 const double *char_cost, const int32_t *o_word, const int32_t *c_word, int c_words,
                 int lev, double *cost, int32_t *ops, int32_t *path) {
    const int w = m + 1;
    int32_t *ids = malloc((size_t)(n + m + 1) * sizeof(int32_t));
    if (ids == NULL)
        return -1;
    int n_low = intern_lower(n, m, o_feat, c_feat, ids);
    int32_t *count = n_low < 0 ? NULL : calloc(n_low > 0 ? n_low : 1, sizeof(int32_t));
    if (count == NULL) {
        free(ids);
        return -1;
    }
    const int32_t *o_low = ids, *c_low = ids + n;
    cost[0] = 0.0;
    ops[0] = 0;
    for (int i = 1; i <= n; ++i) {
        cost[i * w] = cost[(i - 1) * w] + 1;
        ops[i * w] = 4;
    }
    for (int j = 1; j <= m; ++j) {
        cost[j] = cost[j - 1] + 1;
        ops[j] = 3;
    }
    for (int i = 0; i < n; ++i) {
        const double *prev = cost + i * w;
        double *row = cost + (i + 1) * w;
        int32_t *op_row = ops + (i + 1) * w;
        const uint64_t *o = o_feat + i * N_FEATURES;
        for (int j = 0; j < m; ++j) {
            const uint64_t *c = c_feat + j * N_FEATURES;
            if (o[ORTH] == c[ORTH]) {
                row[j + 1] = prev[j];
                op_row[j + 1] = 1;
                continue;
            }
            double del_cost = prev[j + 1] + 1;
            double ins_cost = row[j] + 1;
            double trans_cost = INFINITY;
            double sub_cost;
            int k = 1;
            if (lev) {
                sub_cost = prev[j] + 1;
            } else {
                sub_cost = prev[j] + sub_cost_of(o, c, char_cost[(size_t)o_word[i] * c_words + c_word[j]], open_pos, n_open);
                int unequal = 0, added = 0;
                count_token(count, &unequal, o_low[i], 1);
                count_token(count, &unequal, c_low[j], -1);
                while (i - k >= 0 && j - k >= 0 && cost[(i - k + 1) * w + j - k + 1] != cost[(i - k) * w + j - k]) {
                    count_token(count, &unequal, o_low[i - k], 1);
                    count_token(count, &unequal, c_low[j - k], -1);
                    added = k;
                    if (unequal == 0) {
                        trans_cost = cost[(i - k) * w + j - k] + k;
                        break;
                    }
                    ++k;
                }
                for (int t = 0; t <= added; ++t) {
                    count[o_low[i - t]] = 0;
                    count[c_low[j - t]] = 0;
                }
            }
            double best = trans_cost;
            int32_t op = 4 + k;
            if (sub_cost < best) { best = sub_cost; op = 2; }
            if (ins_cost < best) { best = ins_cost; op = 3; }
            if (del_cost < best) { best = del_cost; op = 4; }
            row[j + 1] = best;
            op_row[j + 1] = op;
        }
    }
    free(count);
    free(ids);
    return cheapest_path(n, m, ops, path);
}

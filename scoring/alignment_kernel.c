/* ERRANT's linguistic Damerau-Levenshtein DP (errant 3.0.2, Alignment.align), compiled.
 *
 * The substitution costs come in precomputed; everything else is ERRANT's loop: the same
 * additions in the same order, the same "first cheapest of trans, sub, ins, del" choice,
 * and the same diagonal walk for transpositions. The walk's test, "the two windows hold
 * the same lower-cased tokens", is kept exact with a running count per token id instead
 * of sorting both windows at every step.
 *
 * Op codes: 0 O, 1 M, 2 S, 3 I, 4 D, 4 + k the transposition "T<k+1>".
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static void count_token(int32_t *count, int *unequal, int32_t id, int32_t delta) {
    int32_t before = count[id];
    count[id] = before + delta;
    if (before == 0)
        ++*unequal;
    else if (count[id] == 0)
        --*unequal;
}

int errant_align(int n, int m, const uint64_t *o_orth, const uint64_t *c_orth,
                 const int32_t *o_low, const int32_t *c_low, int n_low,
                 const double *sub, int lev, double *cost, int32_t *ops) {
    const int w = m + 1;
    int32_t *count = calloc(n_low > 0 ? n_low : 1, sizeof(int32_t));
    if (count == NULL)
        return -1;
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
        for (int j = 0; j < m; ++j) {
            if (o_orth[i] == c_orth[j]) {
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
                sub_cost = prev[j] + sub[i * m + j];
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
    return 0;
}

/* M2's edit lattice and its path search, compiled: lattice.py and path.py step for step.
 *
 * m2_build makes the lattice of one sentence exactly as scoring/m2/lattice.py does: the
 * two Levenshtein alignments (substitution cost 1 and 2; here over the full matrix, whose
 * optimal paths are those of lattice.py's band), the base edges in (u, w) order, each
 * listed once per alignment holding it, the transitive arcs as a forward extension in
 * m2scorer's (k, u, w) order, then the removal of unchanged arcs with m2scorer's skip of
 * the next entry, numbering the entries and adding EPSILON per entry in the same order.
 * m2_path is path.py's best_predecessors: exact minima in vertex order, then the replay
 * of Bellman-Ford's scan order among the arcs offering the final distance. The floating
 * point sums are the same additions in the same order (built with -ffp-contract=off), so
 * every weight and distance is bit-identical to the Python engine's.
 *
 * Vertices are numbered in ascending cell order (cell = i * width + j), so comparing
 * vertex numbers compares cells, as the Python engine's sorts do.
 *
 * A build stops (OVER_BUDGET) once the lattice has more vertices or arcs than the caller
 * allows, so memory and time stay bounded (scoring/m2/budget.py says what happens then);
 * m2_alignment_path gives the one alignment along which such a line is split.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { DIAGONAL = 1, DELETION = 2, INSERTION = 4 };
enum { OUT_OF_MEMORY = -1, OVER_BUDGET = -2 };
static const double EPSILON = 0.001;
static const double TIE = 1e-6;

typedef struct {
    int32_t u, w;                 /* vertices */
    int32_t length, unchanged, start;
    int32_t entries;              /* times listed in the edge list */
    int32_t first;                /* its positions: positions[first .. first + entries) */
    int32_t alive;
    double weight;                /* when it matches no gold edit */
} Arc;

typedef struct {
    int64_t time;
    double value;
    int32_t u, arc;
} Step;

typedef struct {
    int32_t width, n_vertices, n_arcs, size;
    int32_t *cell;                /* vertex -> cell */
    int32_t *edit_end;            /* vertex -> source offset where an edit ending there ends */
    Arc *arcs;                    /* alive arcs only */
    int32_t *positions;
    int32_t *in_first, *in_arcs;  /* arcs into vertex w: in_arcs[in_first[w] .. in_first[w + 1]) */
} Lattice;

/* ---- growable arrays -------------------------------------------------------------------- */

typedef struct { void *data; size_t used, capacity, item; } Vec;

static int vec_reserve(Vec *v, size_t more) {
    if (v->used + more <= v->capacity)
        return 0;
    size_t capacity = v->capacity ? v->capacity : 64;
    while (capacity < v->used + more)
        capacity *= 2;
    void *data = realloc(v->data, capacity * v->item);
    if (data == NULL)
        return -1;
    v->data = data;
    v->capacity = capacity;
    return 0;
}

/* ---- the alignments ------------------------------------------------------------------- */

/* Per cell, the optimal steps into it for one substitution cost (lattice.optimal_moves). */
static void optimal_moves(int n, int m, const int32_t *source, const int32_t *target, int substitution,
                          int32_t *previous, int32_t *row, uint8_t *moves) {
    const int width = m + 1;
    for (int j = 0; j <= m; ++j) {
        previous[j] = j;
        moves[j] = j ? INSERTION : 0;
    }
    for (int i = 1; i <= n; ++i) {
        row[0] = i;
        moves[i * width] = DELETION;
        for (int j = 1; j <= m; ++j) {
            int32_t up = previous[j] + 1, left = row[j - 1] + 1;
            int32_t diagonal = previous[j - 1] + (source[i - 1] == target[j - 1] ? 0 : substitution);
            int32_t best = diagonal < up ? diagonal : up;
            if (left < best)
                best = left;
            row[j] = best;
            moves[i * width + j] = (uint8_t)((diagonal == best ? DIAGONAL : 0) | (up == best ? DELETION : 0) | (left == best ? INSERTION : 0));
        }
        int32_t *swap = previous;
        previous = row;
        row = swap;
    }
}

/* Per cell, the steps into it that lie on some optimal path from the last cell back to
 * the first (lattice.alignment_edges): marks[w] & DIAGONAL is the edge (w - width - 1, w). */
static int alignment_marks(int n, int m, const uint8_t *moves, uint8_t *marks, int32_t *stack) {
    const int width = m + 1, end = n * width + m;
    uint8_t *seen = calloc((size_t)(n + 1) * width, 1);
    if (seen == NULL)
        return -1;
    int top = 0;
    stack[top++] = end;
    seen[end] = 1;
    while (top) {
        int w = stack[--top], i = w / width, j = w % width;
        uint8_t step = moves[w], bits = 0;
        int from[3] = {-1, -1, -1};
        if ((step & DIAGONAL) && i > 0 && j > 0) { bits |= DIAGONAL; from[0] = w - width - 1; }
        if ((step & DELETION) && i > 0) { bits |= DELETION; from[1] = w - width; }
        if ((step & INSERTION) && j > 0) { bits |= INSERTION; from[2] = w - 1; }
        marks[w] = bits;
        for (int k = 0; k < 3; ++k)
            if (from[k] >= 0 && !seen[from[k]]) {
                seen[from[k]] = 1;
                stack[top++] = from[k];
            }
    }
    free(seen);
    return 0;
}

/* ---- building ------------------------------------------------------------------------- */

typedef struct {
    Vec arcs, appended, numbered;  /* Arc; int32 arc per appended entry; int32 arc per numbered entry */
    Vec *into;                     /* vertex w -> the arcs into it, as int64 u << 32 | arc */
    int32_t n_into;
    int32_t *successors;           /* vertex -> up to 3 base edges out of it (arc numbers) */
    uint8_t *n_successors;
    int32_t *slots[3];             /* per base edge out of k, to w: u -> arc u -> w, or -1 */
    int64_t max_arcs;
} Build;

static int add_arc(Build *b, int32_t u, int32_t w, int32_t length, int32_t unchanged, int32_t start) {
    if ((int64_t)b->arcs.used >= b->max_arcs)
        return OVER_BUDGET;
    if (vec_reserve(&b->arcs, 1) != 0)
        return OUT_OF_MEMORY;
    int32_t index = (int32_t)b->arcs.used++;
    Arc *arc = (Arc *)b->arcs.data + index;
    memset(arc, 0, sizeof *arc);
    arc->u = u;
    arc->w = w;
    arc->length = length;
    arc->unchanged = unchanged;
    arc->start = start;
    arc->alive = 1;
    if (vec_reserve(b->into + w, 1) != 0)
        return OUT_OF_MEMORY;
    ((int64_t *)b->into[w].data)[b->into[w].used++] = (int64_t)u << 32 | index;
    return index;
}

static int ascending(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Fills (fill = 1) or clears the slots of the t-th base edge out of k, into w. */
static void set_slots(Build *b, int t, int32_t w, int fill) {
    const int64_t *into = b->into[w].data;
    for (size_t e = 0; e < b->into[w].used; ++e)
        b->slots[t][into[e] >> 32] = fill ? (int32_t)(into[e] & 0xffffffff) : -1;
}

/* lattice.Lattice._transitive_arcs: each arc into k, by u, extended by each base edge out
 * of k; the arc u -> w it would replace is found in the slots of w. */
static int transitive_arcs(Build *b, int n_vertices, int max_unchanged) {
    for (int32_t k = 0; k < n_vertices; ++k) {
        const int n_out = b->n_successors[k];
        if (b->into[k].used == 0 || n_out == 0)
            continue;
        qsort(b->into[k].data, b->into[k].used, sizeof(int64_t), ascending);
        Arc steps[3];
        for (int t = 0; t < n_out; ++t) {
            steps[t] = ((Arc *)b->arcs.data)[b->successors[3 * k + t]];
            set_slots(b, t, steps[t].w, 1);
        }
        for (size_t s = 0; s < b->into[k].used; ++s) {
            const int32_t a = (int32_t)(((int64_t *)b->into[k].data)[s] & 0xffffffff);
            const Arc into_k = ((Arc *)b->arcs.data)[a];  /* a copy: adding arcs may move them */
            const int32_t length = into_k.length + 1;
            for (int t = 0; t < n_out; ++t) {
                int32_t current = b->slots[t][into_k.u];
                if (current >= 0 && ((Arc *)b->arcs.data)[current].length <= length)
                    continue;
                const int32_t unchanged = into_k.unchanged + steps[t].unchanged;
                if (unchanged > max_unchanged)
                    continue;
                if (current >= 0) {
                    Arc *arc = (Arc *)b->arcs.data + current;
                    arc->length = length;
                    arc->unchanged = unchanged;
                    arc->start = into_k.start;
                } else if ((current = add_arc(b, into_k.u, steps[t].w, length, unchanged, into_k.start)) < 0) {
                    return current;
                } else {
                    b->slots[t][into_k.u] = current;
                }
                if (vec_reserve(&b->appended, 1) != 0)
                    return -1;
                ((int32_t *)b->appended.data)[b->appended.used++] = current;
            }
        }
        for (int t = 0; t < n_out; ++t)
            set_slots(b, t, steps[t].w, 0);
    }
    return 0;
}

/* lattice.Lattice._remove_unchanged_arcs: the removal that skips the entry after each
 * removal, numbering the entries left and weighing their arcs as it goes. */
static int remove_unchanged_arcs(Build *b, int32_t *size) {
    int32_t position = *size;
    int skip = 0;
    for (size_t e = 0; e < b->appended.used; ++e) {
        Arc *arc = (Arc *)b->arcs.data + ((int32_t *)b->appended.data)[e];
        if (!arc->alive)
            continue;
        if (arc->unchanged == arc->length) {
            if (!skip) {
                arc->alive = 0;
                skip = 1;
                continue;
            }
            arc->weight = (double)arc->length;
        } else if (arc->entries) {
            arc->weight += EPSILON;
        } else {
            arc->weight = (double)arc->length + EPSILON;
        }
        skip = 0;
        ++arc->entries;
        if (vec_reserve(&b->numbered, 1) != 0)
            return -1;
        ((int32_t *)b->numbered.data)[b->numbered.used++] = ((int32_t *)b->appended.data)[e];
        ++position;
    }
    *size = position;
    return 0;
}

/* The alive arcs, renumbered, with their positions and the arcs into each vertex. */
static int compact(Build *b, Lattice *lattice, int32_t base_arcs, int32_t base_size) {
    Arc *all = (Arc *)b->arcs.data;
    int32_t *renumbered = malloc((b->arcs.used + 1) * sizeof(int32_t));
    int32_t alive = 0;
    if (renumbered == NULL)
        return -1;
    for (size_t a = 0; a < b->arcs.used; ++a)
        renumbered[a] = all[a].alive ? alive++ : -1;
    lattice->n_arcs = alive;
    lattice->arcs = malloc((alive + 1) * sizeof(Arc));
    lattice->positions = malloc(((size_t)lattice->size + 1) * sizeof(int32_t));
    lattice->in_first = calloc(lattice->n_vertices + 1, sizeof(int32_t));
    lattice->in_arcs = malloc((alive + 1) * sizeof(int32_t));
    if (!lattice->arcs || !lattice->positions || !lattice->in_first || !lattice->in_arcs) {
        free(renumbered);
        return -1;
    }
    int32_t first = 0;
    for (size_t a = 0; a < b->arcs.used; ++a)
        if (all[a].alive) {
            Arc *arc = lattice->arcs + renumbered[a];
            *arc = all[a];
            arc->first = first;
            first += arc->entries;
            ++lattice->in_first[arc->w + 1];
        }
    int32_t *filled = calloc(alive + 1, sizeof(int32_t));
    if (filled == NULL) {
        free(renumbered);
        return -1;
    }
    for (int32_t a = 0, position = 0; a < base_arcs; ++a)  /* base edges: listed first, never removed */
        for (int32_t e = 0; e < all[a].entries; ++e)
            lattice->positions[lattice->arcs[renumbered[a]].first + filled[renumbered[a]]++] = position++;
    for (size_t e = 0; e < b->numbered.used; ++e) {
        int32_t a = renumbered[((int32_t *)b->numbered.data)[e]];
        if (a >= 0)  /* an arc numbered, then removed at a later entry, only keeps its places in the list */
            lattice->positions[lattice->arcs[a].first + filled[a]++] = base_size + (int32_t)e;
    }
    for (int32_t v = 0; v < lattice->n_vertices; ++v)
        lattice->in_first[v + 1] += lattice->in_first[v];
    memset(filled, 0, (alive + 1) * sizeof(int32_t));
    for (int32_t a = 0; a < alive; ++a) {
        int32_t w = lattice->arcs[a].w;
        lattice->in_arcs[lattice->in_first[w] + filled[w]++] = a;
    }
    free(filled);
    free(renumbered);
    return 0;
}

void m2_free(Lattice *lattice) {
    if (lattice == NULL)
        return;
    free(lattice->cell);
    free(lattice->edit_end);
    free(lattice->arcs);
    free(lattice->positions);
    free(lattice->in_first);
    free(lattice->in_arcs);
    free(lattice);
}

/* quirk >= 0: the first row is the sentence's first (m2scorer's offsets there, see
 * lattice.edit_start), its columns counted from quirk; quirk < 0: a row inside a sentence. */
static int build(Lattice *lattice, Build *b, int n, int m, const int32_t *source, const int32_t *target, int max_unchanged, int quirk, int64_t max_vertices) {
    const int width = m + 1;
    const size_t cells = (size_t)(n + 1) * width;
    int32_t *rows = malloc(2 * (size_t)width * sizeof(int32_t));
    int32_t *stack = malloc(cells * sizeof(int32_t));
    int32_t *vertex = malloc(cells * sizeof(int32_t));
    uint8_t *moves = malloc(cells), *marks[2] = {calloc(cells, 1), calloc(cells, 1)};
    int status = -1;
    if (!rows || !stack || !vertex || !moves || !marks[0] || !marks[1])
        goto done;
    for (int a = 0; a < 2; ++a) {
        optimal_moves(n, m, source, target, a + 1, rows, rows + width, moves);
        if (alignment_marks(n, m, moves, marks[a], stack) != 0)
            goto done;
    }
    /* vertices: the ends of every edge, in cell order */
    int32_t n_vertices = 0;
    for (size_t c = 0; c < cells; ++c)
        vertex[c] = -1;
    for (size_t c = 0; c < cells; ++c) {
        uint8_t bits = marks[0][c] | marks[1][c];
        if (bits)  /* 0 marks a vertex until numbered below */
            vertex[c] = 0;
        if (bits & DIAGONAL) vertex[c - width - 1] = 0;
        if (bits & DELETION) vertex[c - width] = 0;
        if (bits & INSERTION) vertex[c - 1] = 0;
    }
    for (size_t c = 0; c < cells; ++c)
        if (vertex[c] == 0)
            vertex[c] = n_vertices++;
    if (n_vertices > max_vertices) {
        status = OVER_BUDGET;
        goto done;
    }
    lattice->width = width;
    lattice->n_vertices = n_vertices;
    lattice->cell = malloc((n_vertices + 1) * sizeof(int32_t));
    lattice->edit_end = malloc((n_vertices + 1) * sizeof(int32_t));
    b->n_into = n_vertices;
    b->into = calloc(n_vertices + 1, sizeof(Vec));
    b->successors = malloc(3 * ((size_t)n_vertices + 1) * sizeof(int32_t));
    b->n_successors = calloc(n_vertices + 1, 1);
    for (int t = 0; t < 3; ++t)
        b->slots[t] = malloc((n_vertices + 1) * sizeof(int32_t));
    if (!lattice->cell || !lattice->edit_end || !b->into || !b->successors || !b->n_successors || !b->slots[0] || !b->slots[1] || !b->slots[2])
        goto done;
    for (int32_t v = 0; v < n_vertices; ++v) {
        b->into[v].item = sizeof(int64_t);
        b->slots[0][v] = b->slots[1][v] = b->slots[2][v] = -1;
    }
    for (size_t c = 0; c < cells; ++c)
        if (vertex[c] >= 0) {
            int32_t v = vertex[c], i = (int32_t)(c / width), j = (int32_t)(c % width);
            lattice->cell[v] = (int32_t)c;
            lattice->edit_end[v] = i > 0 || quirk < 0 ? i : j - 1 + quirk;
        }
    /* base edges in (u, w) order: w = u + 1 (insertion) < u + width (deletion) < u + width + 1 */
    int32_t position = 0;
    for (int32_t u = 0; u < n_vertices; ++u) {
        int32_t c = lattice->cell[u], i = c / width, j = c % width;
        const int32_t targets[3] = {c + 1, c + width, c + width + 1};
        const uint8_t kinds[3] = {INSERTION, DELETION, DIAGONAL};
        const int possible[3] = {j < m, i < n, i < n && j < m};
        for (int t = 0; t < 3; ++t) {
            if (!possible[t])
                continue;
            int entries = ((marks[0][targets[t]] & kinds[t]) != 0) + ((marks[1][targets[t]] & kinds[t]) != 0);
            if (!entries)
                continue;
            int unchanged = kinds[t] == DIAGONAL && source[i] == target[j];
            int start = (quirk >= 0 && i == 0 && targets[t] == c + 1) ? j + quirk : i;
            int32_t w = vertex[targets[t]];
            int32_t a = add_arc(b, u, w, 1, unchanged, start);
            if (a < 0) {
                status = a;
                goto done;
            }
            Arc *arc = (Arc *)b->arcs.data + a;
            arc->entries = entries;
            if (unchanged) {
                arc->weight = 1.0;
            } else {  /* lattice.default_weight: its length, then EPSILON per entry */
                arc->weight = 1.0 + EPSILON;
                for (int e = 1; e < entries; ++e)
                    arc->weight += EPSILON;
            }
            b->successors[3 * u + b->n_successors[u]++] = a;
            position += entries;
        }
    }
    int32_t base_arcs = (int32_t)b->arcs.used;
    if ((status = transitive_arcs(b, n_vertices, max_unchanged)) != 0)
        goto done;
    status = OUT_OF_MEMORY;
    lattice->size = position;
    if (remove_unchanged_arcs(b, &lattice->size) != 0)
        goto done;
    status = compact(b, lattice, base_arcs, position);
done:
    free(rows);
    free(stack);
    free(vertex);
    free(moves);
    free(marks[0]);
    free(marks[1]);
    return status;
}

/* The lattice of source against target (tokens as ids), or NULL with info[0] set to
 * OUT_OF_MEMORY or OVER_BUDGET (more than max_vertices vertices or max_arcs arcs).
 * info receives the number of vertices, of arcs, and the edge list's length. */
Lattice *m2_build(int n, int m, const int32_t *source, const int32_t *target, int max_unchanged, int quirk,
                  int64_t max_vertices, int64_t max_arcs, int64_t *info) {
    Lattice *lattice = calloc(1, sizeof(Lattice));
    Build b;
    memset(&b, 0, sizeof b);
    b.arcs.item = sizeof(Arc);
    b.appended.item = b.numbered.item = sizeof(int32_t);
    b.max_arcs = max_arcs;
    int status = lattice ? build(lattice, &b, n, m, source, target, max_unchanged, quirk, max_vertices) : OUT_OF_MEMORY;
    free(b.arcs.data);
    free(b.appended.data);
    free(b.numbered.data);
    for (int32_t v = 0; b.into != NULL && v < b.n_into; ++v)
        free(b.into[v].data);
    free(b.into);
    for (int t = 0; t < 3; ++t)
        free(b.slots[t]);
    free(b.successors);
    free(b.n_successors);
    if (status != 0) {
        m2_free(lattice);
        info[0] = status;
        return NULL;
    }
    info[0] = lattice->n_vertices;
    info[1] = lattice->n_arcs;
    info[2] = lattice->size;
    return lattice;
}

/* An arc as the search reads it: its number, u's cell, w's cell, edit start, edit end,
 * length, unchanged tokens, entries in the edge list. */
enum { ROW = 8 };

static void write_row(const Lattice *lattice, int32_t index, int64_t *row) {
    const Arc *arc = lattice->arcs + index;
    row[0] = index;
    row[1] = lattice->cell[arc->u];
    row[2] = lattice->cell[arc->w];
    row[3] = arc->start;
    row[4] = lattice->edit_end[arc->w];
    row[5] = arc->length;
    row[6] = arc->unchanged;
    row[7] = arc->entries;
}

/* The rows of the arcs whose edit span (start, end) is one of the n spans; returns how
 * many there are, writing at most capacity rows. */
int m2_span_arcs(const Lattice *lattice, int n, const int32_t *starts, const int32_t *ends, int capacity, int64_t *rows) {
    int count = 0;
    for (int32_t w = 0; w < lattice->n_vertices; ++w) {
        int32_t end = lattice->edit_end[w];
        int ends_here = 0;
        for (int s = 0; s < n && !ends_here; ++s)
            ends_here = ends[s] == end;
        if (!ends_here)
            continue;
        for (int32_t k = lattice->in_first[w]; k < lattice->in_first[w + 1]; ++k) {
            int32_t a = lattice->in_arcs[k];
            for (int s = 0; s < n; ++s)
                if (ends[s] == end && starts[s] == lattice->arcs[a].start) {
                    if (count < capacity)
                        write_row(lattice, a, rows + ROW * count);
                    ++count;
                    break;
                }
        }
    }
    return count;
}

static int by_time(const void *a, const void *b) {
    const Step *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return (x->u > y->u) - (x->u < y->u);
}

/* path.best_predecessors with the weights of n_special arcs replaced; then the rows of
 * the arcs on the path that change something, first to last (room for a row per vertex).
 * Returns the number of rows, or -1 (out of memory) or -2 (a vertex whose offers all
 * come after the last round, where the Python engine fails too). */
int m2_path(Lattice *lattice, int n_special, const int32_t *special_arcs, const double *special_weights, int64_t *rows) {
    const int32_t n_vertices = lattice->n_vertices;
    const int64_t scan = (int64_t)lattice->size + 1;
    const int64_t last_time = (int64_t)(n_vertices > 1 ? n_vertices - 1 : 0) * scan + scan - 1;
    double *saved = malloc((n_special + 1) * sizeof(double));
    double *distance = malloc((n_vertices + 1) * sizeof(double));
    double *offers = NULL;
    int32_t *history_first = malloc((n_vertices + 1) * sizeof(int32_t));
    int32_t *history_count = malloc((n_vertices + 1) * sizeof(int32_t));
    int32_t *chosen = malloc((n_vertices + 1) * sizeof(int32_t));
    Vec history = {NULL, 0, 0, sizeof(Step)}, timed = {NULL, 0, 0, sizeof(Step)};
    int status = -1, in_max = 1, replaced = 0;
    for (int32_t w = 0; w < n_vertices; ++w)
        if (lattice->in_first[w + 1] - lattice->in_first[w] > in_max)
            in_max = lattice->in_first[w + 1] - lattice->in_first[w];
    offers = malloc(in_max * sizeof(double));
    if (!saved || !distance || !offers || !history_first || !history_count || !chosen || vec_reserve(&history, 1) != 0)
        goto done;
    for (int s = 0; s < n_special; ++s) {
        saved[s] = lattice->arcs[special_arcs[s]].weight;
        lattice->arcs[special_arcs[s]].weight = special_weights[s];
    }
    replaced = 1;
    distance[0] = 0.0;
    ((Step *)history.data)[0] = (Step){scan - 1, 0.0, -1, -1};
    history.used = 1;
    history_first[0] = 0;
    history_count[0] = 1;
    for (int32_t w = 1; w < n_vertices; ++w) {
        const int32_t *into = lattice->in_arcs + lattice->in_first[w];
        const int32_t n_into = lattice->in_first[w + 1] - lattice->in_first[w];
        double best = 0.0;
        for (int32_t k = 0; k < n_into; ++k) {
            const Arc *arc = lattice->arcs + into[k];
            offers[k] = distance[arc->u] + arc->weight;
            if (k == 0 || offers[k] < best)
                best = offers[k];
        }
        distance[w] = best;
        const double within = best + TIE;
        timed.used = 0;
        for (int32_t k = 0; k < n_into; ++k) {
            if (!(within >= offers[k]))
                continue;
            const Arc *arc = lattice->arcs + into[k];
            const int32_t *positions = lattice->positions + arc->first;
            for (int32_t h = 0; h < history_count[arc->u]; ++h) {
                const Step before = ((Step *)history.data)[history_first[arc->u] + h];
                const int64_t position_u = before.time % scan, start = before.time - position_u;
                int32_t low = 0, high = arc->entries;  /* bisect_right: the first position after u's */
                while (low < high) {
                    int32_t middle = (low + high) / 2;
                    if (positions[middle] <= position_u)
                        low = middle + 1;
                    else
                        high = middle;
                }
                const int64_t time = low < arc->entries ? start + positions[low] : start + scan + positions[0];
                if (time > last_time)
                    continue;
                if (vec_reserve(&timed, 1) != 0)
                    goto done;
                ((Step *)timed.data)[timed.used++] = (Step){time, before.value + arc->weight, arc->u, into[k]};
            }
        }
        if (timed.used > 1)
            qsort(timed.data, timed.used, sizeof(Step), by_time);
        if (vec_reserve(&history, timed.used) != 0)
            goto done;
        history_first[w] = (int32_t)history.used;
        double current = 1.0 / 0.0;
        for (size_t t = 0; t < timed.used; ++t) {
            const Step step = ((Step *)timed.data)[t];
            if (timed.used == 1 || step.value < current) {
                ((Step *)history.data)[history.used++] = step;
                current = step.value;
            }
        }
        history_count[w] = (int32_t)history.used - history_first[w];
        if (history_count[w] == 0) {
            status = -2;
            goto done;
        }
        chosen[w] = ((Step *)history.data)[history.used - 1].arc;
    }
    int32_t edits = 0;  /* walked back twice: to count the edits, then to write them first to last */
    for (int32_t w = n_vertices - 1; w > 0; w = lattice->arcs[chosen[w]].u)
        edits += lattice->arcs[chosen[w]].unchanged < lattice->arcs[chosen[w]].length;
    status = edits;
    for (int32_t w = n_vertices - 1; w > 0; w = lattice->arcs[chosen[w]].u)
        if (lattice->arcs[chosen[w]].unchanged < lattice->arcs[chosen[w]].length)
            write_row(lattice, chosen[w], rows + ROW * --edits);
done:
    if (replaced)
        for (int s = n_special - 1; s >= 0; --s)
            lattice->arcs[special_arcs[s]].weight = saved[s];
    free(saved);
    free(distance);
    free(offers);
    free(history_first);
    free(history_count);
    free(chosen);
    free(history.data);
    free(timed.data);
    return status;
}

/* One optimal alignment of source against target (substitution cost 1), as cells
 * i * (m + 1) + j from the first to the last: the one that, walked back from the last
 * cell, prefers an insertion, then a deletion, then a diagonal step (so that insertions
 * come as late as they may). Returns the number of cells, or OUT_OF_MEMORY; cells needs
 * room for n + m + 1. */
int m2_alignment_path(int n, int m, const int32_t *source, const int32_t *target, int32_t *cells) {
    const int width = m + 1;
    int32_t *rows = malloc(2 * (size_t)width * sizeof(int32_t));
    uint8_t *moves = malloc((size_t)(n + 1) * width);
    if (!rows || !moves) {
        free(rows);
        free(moves);
        return OUT_OF_MEMORY;
    }
    optimal_moves(n, m, source, target, 1, rows, rows + width, moves);
    int count = 0;
    for (int i = n, j = m;; ) {
        cells[count++] = i * width + j;
        const uint8_t step = moves[i * width + j];
        if (j > 0 && (step & INSERTION))
            --j;
        else if (i > 0 && (step & DELETION))
            --i;
        else if (i > 0 && j > 0)
            --i, --j;
        else
            break;
    }
    for (int a = 0, z = count - 1; a < z; ++a, --z) {
        int32_t swap = cells[a];
        cells[a] = cells[z];
        cells[z] = swap;
    }
    free(rows);
    free(moves);
    return count;
}

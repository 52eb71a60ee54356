/* N-Queens(n) on hive: a hive_group per position, a task per safe square
 * (nqueens.h). */
#include "workloads/nqueens.h"

#include <string.h>

#include "hive/hive.h"

struct node {
    struct hive_task task;
    unsigned n, task_rows, row; /* row: the next row to place */
    struct wl_queens_pos pos;
    uint64_t count;
    int err; /* HIVE_OK, or the first refused call's code here or below */
};

static void node_run(struct hive_task *t)
{
    struct node *q = HIVE_CONTAINER_OF(t, struct node, task);
    if (wl_queens_leaf(q->n, q->task_rows, q->row)) {
        q->count = wl_queens_serial(q->n, q->row, q->pos);
        return;
    }
    struct node child[WL_QUEENS_MAX];
    unsigned k = 0;
    struct hive_group g = HIVE_GROUP_INIT;
    for (uint32_t s = wl_queens_safe(q->n, q->pos); s; s &= s - 1) {
        struct node *c = &child[k++];
        memset(c, 0, sizeof *c);
        c->n = q->n;
        c->task_rows = q->task_rows;
        c->row = q->row + 1;
        c->pos = wl_queens_place(q->pos, wl_queens_lowest(s));
        int rc = hive_group_spawn(&g, &c->task, node_run);
        if (rc != HIVE_OK && q->err == HIVE_OK)
            q->err = rc; /* that child's solutions are missing from the count */
    }
    int rc = hive_group_wait(&g);
    if (rc != HIVE_OK && q->err == HIVE_OK)
        q->err = rc;
    q->count = 0;
    for (unsigned i = 0; i < k; i++) {
        q->count += child[i].count;
        if (child[i].err != HIVE_OK && q->err == HIVE_OK)
            q->err = child[i].err;
    }
}

void wl_queens_task(void *p)
{
    struct wl_queens *w = p;
    if (w->n < 1 || w->n > WL_QUEENS_MAX) {
        w->count = 0;
        w->err = HIVE_EINVAL;
        return;
    }
    struct node root;
    memset(&root, 0, sizeof root);
    root.n = w->n;
    root.task_rows = w->task_rows;
    root.pos = wl_queens_empty();
    node_run(&root.task);
    w->count = root.count;
    w->err = root.err;
}

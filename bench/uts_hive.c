/* UTS on hive: a task per node, a hive_group per node with children (uts.h). */
#include "uts.h"

#include <stdlib.h>
#include <string.h>

#include "hive/hive.h"

struct uts_task {
    struct hive_task task;
    const struct uts_tree *tree;
    const struct uts_node *parent; /* in the parent's frame until its wait returns */
    unsigned index;                /* which child of parent */
    uint64_t count;                /* out: the nodes of its subtree */
    int err;                       /* out: HIVE_OK, or the first refused call's code */
};

static uint64_t visit(const struct uts_tree *t, const struct uts_node *n, int *err);

static void child_run(struct hive_task *task)
{
    struct uts_task *c = HIVE_CONTAINER_OF(task, struct uts_task, task);
    struct uts_node node;
    uts_child(c->parent, c->index, &node);
    c->count = visit(c->tree, &node, &c->err);
}

static uint64_t visit(const struct uts_tree *t, const struct uts_node *n, int *err)
{
    unsigned k = uts_num_children(t, n);
    if (k == 0)
        return 1;
    struct uts_task inline_children[UTS_INLINE_CHILDREN];
    struct uts_task *child = inline_children;
    if (k > UTS_INLINE_CHILDREN) {
        child = malloc(k * sizeof *child);
        if (!child) {
            *err = HIVE_ENOMEM;
            return 0;
        }
    }
    struct hive_group g = HIVE_GROUP_INIT;
    for (unsigned i = 0; i < k; i++) {
        struct uts_task *c = &child[i];
        memset(c, 0, sizeof *c);
        c->tree = t;
        c->parent = n;
        c->index = i;
        int rc = hive_group_spawn(&g, &c->task, child_run);
        if (rc != HIVE_OK && *err == HIVE_OK)
            *err = rc; /* that subtree is missing from the count */
    }
    int rc = hive_group_wait(&g);
    if (rc != HIVE_OK && *err == HIVE_OK)
        *err = rc;
    uint64_t count = 1;
    for (unsigned i = 0; i < k; i++) {
        count += child[i].count;
        if (child[i].err != HIVE_OK && *err == HIVE_OK)
            *err = child[i].err;
    }
    if (child != inline_children)
        free(child);
    return count;
}

void uts_task(void *p)
{
    struct uts_run *r = p;
    struct uts_node root;
    uts_root(&r->tree, &root);
    r->err = HIVE_OK;
    r->nodes = visit(&r->tree, &root, &r->err);
}

/* skynet on hive: a hive_group per inner node, a task per child (skynet.h). */
#include "skynet.h"

#include <string.h>

#include "hive/hive.h"

struct skynet_task {
    struct hive_task task;
    uint64_t num, size; /* the leaves num..num+size-1 */
    uint64_t sum;       /* out */
    int err;            /* out: HIVE_OK, or the first refused call's code */
};

static void node_run(struct hive_task *task)
{
    struct skynet_task *s = HIVE_CONTAINER_OF(task, struct skynet_task, task);
    if (s->size == 1) {
        s->sum = s->num;
        return;
    }
    struct skynet_task child[SKYNET_FANOUT];
    struct hive_group g = HIVE_GROUP_INIT;
    uint64_t sub = s->size / SKYNET_FANOUT;
    for (unsigned i = 0; i < SKYNET_FANOUT; i++) {
        struct skynet_task *c = &child[i];
        memset(c, 0, sizeof *c);
        c->num = s->num + i * sub;
        c->size = sub;
        int rc = hive_group_spawn(&g, &c->task, node_run);
        if (rc != HIVE_OK && s->err == HIVE_OK)
            s->err = rc; /* that child's leaves are missing from the sum */
    }
    int rc = hive_group_wait(&g);
    if (rc != HIVE_OK && s->err == HIVE_OK)
        s->err = rc;
    s->sum = 0;
    for (unsigned i = 0; i < SKYNET_FANOUT; i++) {
        s->sum += child[i].sum;
        if (child[i].err != HIVE_OK && s->err == HIVE_OK)
            s->err = child[i].err;
    }
}

void skynet_task(void *p)
{
    struct skynet_run *r = p;
    struct skynet_task root;
    memset(&root, 0, sizeof root);
    root.size = r->leaves;
    node_run(&root.task);
    r->sum = root.sum;
    r->err = root.err;
}

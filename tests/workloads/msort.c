/* Merge sort on hive: a hive_join for the halves of every split (msort.h). */
#include "workloads/msort.h"

#include "hive/hive.h"

void wl_msort_task(void *p)
{
    struct wl_msort *s = p;
    if (s->n <= WL_MSORT_LEAF) {
        wl_insertion_sort(s->a, s->n);
        return;
    }
    size_t h = s->n / 2;
    struct wl_msort l = {s->a, s->tmp, h}, r = {s->a + h, s->tmp + h, s->n - h};
    /* r, the upper half, is the one offered to thieves, as the peers fork it.
     * A refused join (it cannot be, in task context) runs neither half: the
     * range is left unsorted, unmerged, which the checker sees. */
    if (hive_join(wl_msort_task, &l, wl_msort_task, &r) != HIVE_OK)
        return;
    wl_merge(s->a, s->tmp, s->n, h);
}

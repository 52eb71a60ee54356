/*
 * Flattened device tree reader (the Devicetree Specification's DTB format,
 * versions 16 and 17). See fdt.h for what it promises.
 *
 * How it stays in bounds: hive_fdt_open checks the header against the bytes
 * the caller may read and keeps the structure and strings blocks' offsets;
 * every later read goes through a check against the block it lies in. The
 * walk advances by at least 4 bytes a token inside a block of bounded size,
 * so it ends, and it keeps no more than MAX_DEPTH nodes (a fixed array on
 * the stack), walking over deeper ones.
 *
 * No libc: this runs before .bss is cleared, and with the MMU off on
 * aarch64, where memory is Device and an unaligned access faults (built
 * with -mstrict-align there, so byte reads stay byte reads).
 */
#include "kernel/fdt.h"

#include <stdbool.h>

#define FDT_MAGIC      0xd00dfeedu
#define FDT_BEGIN_NODE 1u
#define FDT_END_NODE   2u
#define FDT_PROP       3u
#define FDT_NOP        4u
#define FDT_END        9u
#define HEADER_SIZE    40u
/* The nodes the walk keeps: what it looks for is at depth 2 or 3. Deeper
 * nodes are walked over but not kept. */
#define MAX_DEPTH      4u

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A counted string (not NUL-terminated in the blob's value). */
struct span {
    const unsigned char *p;
    uint32_t len;
};

/* What the walk knows of one open node when it closes. */
struct node {
    struct span name;           /* "memory@80000000", without the NUL */
    struct span reg, device_type, status;
    uint32_t addr_cells, size_cells;   /* for its children */
};

/* s (NUL-terminated in the blob, len without the NUL) equals lit. */
static bool span_is(struct span s, const char *lit)
{
    uint32_t i = 0;
    for (; i < s.len && lit[i]; i++)
        if (s.p[i] != (unsigned char)lit[i])
            return false;
    return i == s.len && !lit[i];
}

/* A node name "base" or "base@unit". */
static bool name_is(struct span name, const char *base)
{
    uint32_t i = 0;
    for (; i < name.len && base[i]; i++)
        if (name.p[i] != (unsigned char)base[i])
            return false;
    return !base[i] && (i == name.len || name.p[i] == '@');
}

/* A string property's value: up to its first NUL, which must be there. */
static struct span prop_string(struct span v)
{
    for (uint32_t i = 0; i < v.len; i++)
        if (v.p[i] == 0)
            return (struct span){v.p, i};
    return (struct span){0, 0};
}

static bool node_enabled(const struct node *n)
{
    if (!n->status.p)
        return true;
    struct span s = prop_string(n->status);
    return span_is(s, "okay") || span_is(s, "ok");
}

int hive_fdt_open(struct hive_fdt *fdt, const void *blob, size_t avail)
{
    const unsigned char *b = blob;
    if (!b || avail < 4 || be32(b) != FDT_MAGIC)
        return HIVE_FDT_ENOTREE;
    if (avail < HEADER_SIZE)
        return HIVE_FDT_ECORRUPT;
    uint32_t total = be32(b + 4), off_struct = be32(b + 8), off_strings = be32(b + 12);
    uint32_t off_rsvmap = be32(b + 16), version = be32(b + 20), last_comp = be32(b + 24);
    uint32_t size_strings = be32(b + 32);
    if (total < HEADER_SIZE || total > avail || version < 16 || last_comp > 17)
        return HIVE_FDT_ECORRUPT;
    /* Version 16 has no size_dt_struct: the block may run to the end. */
    uint32_t size_struct = version >= 17 ? be32(b + 36) : total - (off_struct <= total ? off_struct : total);
    if (off_struct % 4 || off_struct < HEADER_SIZE || off_struct > total ||
        size_struct > total - off_struct || off_strings > total ||
        size_strings > total - off_strings || off_rsvmap % 8 || off_rsvmap < HEADER_SIZE ||
        off_rsvmap > total)
        return HIVE_FDT_ECORRUPT;
    fdt->blob = b;
    fdt->size = total;
    fdt->struct_off = off_struct;
    fdt->struct_size = size_struct;
    fdt->strings_off = off_strings;
    fdt->strings_size = size_strings;
    fdt->rsvmap_off = off_rsvmap;
    return HIVE_FDT_OK;
}

/* Called as each node closes, with every open node from the root down:
 * nodes[depth - 1] is the one closing (depth 1: the root). Returns 1 to
 * stop the walk with success, 0 to go on, or an error. */
typedef int visit_fn(const struct node *nodes, uint32_t depth, void *ctx);

/* The property name at nameoff of the strings block. */
static int prop_name(const struct hive_fdt *fdt, uint32_t nameoff, struct span *name)
{
    if (nameoff >= fdt->strings_size)
        return HIVE_FDT_ECORRUPT;
    const unsigned char *s = fdt->blob + fdt->strings_off + nameoff;
    uint32_t room = fdt->strings_size - nameoff;
    for (uint32_t i = 0; i < room; i++)
        if (s[i] == 0) {
            *name = (struct span){s, i};
            return HIVE_FDT_OK;
        }
    return HIVE_FDT_ECORRUPT;
}

static uint32_t cells_value(struct span v, uint32_t fallback)
{
    return v.len == 4 ? be32(v.p) : fallback;
}

static int walk(const struct hive_fdt *fdt, visit_fn *visit, void *ctx)
{
    const unsigned char *blk = fdt->blob + fdt->struct_off;
    const uint32_t size = fdt->struct_size & ~3u;
    struct node nodes[MAX_DEPTH];
    uint32_t depth = 0;
    bool root_done = false;
    uint32_t off = 0;
    while (off + 4 <= size) {
        uint32_t token = be32(blk + off);
        off += 4;
        switch (token) {
        case FDT_BEGIN_NODE: {
            if (root_done || depth == UINT32_MAX)
                return HIVE_FDT_ECORRUPT;
            uint32_t len = 0;
            while (off + len < size && blk[off + len])
                len++;
            if (off + len >= size)
                return HIVE_FDT_ECORRUPT;   /* no NUL inside the block */
            if (depth < MAX_DEPTH)
                nodes[depth] = (struct node){
                    .name = {blk + off, len}, .addr_cells = 2, .size_cells = 1};
            depth++;
            off += (len + 1 + 3) & ~3u;
            break;
        }
        case FDT_END_NODE: {
            if (depth == 0)
                return HIVE_FDT_ECORRUPT;
            int r = depth <= MAX_DEPTH ? visit(nodes, depth, ctx) : 0;
            if (r != 0)
                return r > 0 ? HIVE_FDT_OK : r;
            if (--depth == 0)
                root_done = true;
            break;
        }
        case FDT_PROP: {
            if (depth == 0 || size - off < 8)
                return HIVE_FDT_ECORRUPT;
            uint32_t len = be32(blk + off), nameoff = be32(blk + off + 4);
            off += 8;
            if (len > size - off)
                return HIVE_FDT_ECORRUPT;
            struct span name, value = {blk + off, len};
            int err = prop_name(fdt, nameoff, &name);
            if (err)
                return err;
            if (depth <= MAX_DEPTH) {   /* else a node too deep to keep */
                struct node *n = &nodes[depth - 1];
                if (span_is(name, "reg"))
                    n->reg = value;
                else if (span_is(name, "device_type"))
                    n->device_type = value;
                else if (span_is(name, "status"))
                    n->status = value;
                else if (span_is(name, "#address-cells"))
                    n->addr_cells = cells_value(value, 2);
                else if (span_is(name, "#size-cells"))
                    n->size_cells = cells_value(value, 1);
            }
            off += (len + 3) & ~3u;
            break;
        }
        case FDT_NOP:
            break;
        case FDT_END:
            return depth == 0 && root_done ? HIVE_FDT_ENOTFOUND : HIVE_FDT_ECORRUPT;
        default:
            return HIVE_FDT_ECORRUPT;
        }
    }
    return HIVE_FDT_ECORRUPT;   /* ran off the block without FDT_END */
}

/* One address or size of `cells` 32-bit cells (1 or 2) at *p, advancing it. */
static bool read_cells(struct span *v, uint32_t cells, uint64_t *out)
{
    if (cells < 1 || cells > 2 || v->len < 4 * cells)
        return false;
    uint64_t x = be32(v->p);
    if (cells == 2)
        x = x << 32 | be32(v->p + 4);
    v->p += 4 * cells;
    v->len -= 4 * cells;
    *out = x;
    return true;
}

struct memory_query {
    uint64_t addr, base, size;
};

static int visit_memory(const struct node *nodes, uint32_t depth, void *ctx)
{
    struct memory_query *q = ctx;
    const struct node *n = &nodes[depth - 1];
    if (depth != 2 || !n->reg.p || !node_enabled(n))
        return 0;
    if (!span_is(prop_string(n->device_type), "memory") && !name_is(n->name, "memory"))
        return 0;
    uint32_t ac = nodes[0].addr_cells, sc = nodes[0].size_cells;
    struct span reg = n->reg;
    uint64_t base, size;
    while (read_cells(&reg, ac, &base) && read_cells(&reg, sc, &size)) {
        /* base + size may wrap only in a corrupt tree; such a region holds
         * nothing here. */
        if (size && q->addr >= base && q->addr - base < size) {
            q->base = base;
            q->size = size;
            return 1;
        }
    }
    return 0;
}

int hive_fdt_memory(const struct hive_fdt *fdt, uint64_t addr, uint64_t *base, uint64_t *size)
{
    struct memory_query q = {.addr = addr};
    int err = walk(fdt, visit_memory, &q);
    if (err)
        return err;
    *base = q.base;
    *size = q.size;
    return HIVE_FDT_OK;
}

struct cpu_query {
    void (*fn)(uint64_t hw_id, void *ctx);
    void *ctx;
    int count;
};

static int visit_cpu(const struct node *nodes, uint32_t depth, void *ctx)
{
    struct cpu_query *q = ctx;
    const struct node *n = &nodes[depth - 1];
    if (depth != 3 || !name_is(nodes[1].name, "cpus") || !node_enabled(n))
        return 0;
    if (!span_is(prop_string(n->device_type), "cpu") && !name_is(n->name, "cpu"))
        return 0;
    struct span reg = n->reg;
    uint64_t hw_id;
    if (!reg.p || !read_cells(&reg, nodes[1].addr_cells, &hw_id))
        hw_id = UINT64_MAX;
    if (q->count == INT32_MAX)
        return HIVE_FDT_ECORRUPT;
    q->count++;
    if (q->fn)
        q->fn(hw_id, q->ctx);
    return 0;
}

int hive_fdt_cpus(const struct hive_fdt *fdt, void (*fn)(uint64_t hw_id, void *ctx), void *ctx)
{
    struct cpu_query q = {.fn = fn, .ctx = ctx};
    int err = walk(fdt, visit_cpu, &q);
    if (err == HIVE_FDT_ENOTFOUND)  /* the whole tree walked: that is the answer */
        return q.count;
    return err;
}

struct reserved_query {
    void (*fn)(uint64_t base, uint64_t size, void *ctx);
    void *ctx;
    int count;
};

static int note_reserved(struct reserved_query *q, uint64_t base, uint64_t size)
{
    if (!size)
        return HIVE_FDT_OK;
    if (q->count == INT32_MAX)
        return HIVE_FDT_ECORRUPT;
    q->count++;
    if (q->fn)
        q->fn(base, size, q->ctx);
    return HIVE_FDT_OK;
}

static int visit_reserved(const struct node *nodes, uint32_t depth, void *ctx)
{
    struct reserved_query *q = ctx;
    const struct node *n = &nodes[depth - 1];
    if (depth != 3 || !name_is(nodes[1].name, "reserved-memory") || !n->reg.p ||
        !node_enabled(n))
        return 0;
    struct span reg = n->reg;
    uint64_t base, size;
    while (read_cells(&reg, nodes[1].addr_cells, &base) && read_cells(&reg, nodes[1].size_cells, &size)) {
        int err = note_reserved(q, base, size);
        if (err)
            return err;
    }
    return 0;
}

int hive_fdt_reserved(const struct hive_fdt *fdt,
                      void (*fn)(uint64_t base, uint64_t size, void *ctx), void *ctx)
{
    struct reserved_query q = {.fn = fn, .ctx = ctx};
    /* The reservation block: 64-bit (address, size) pairs up to a pair of
     * zeros. Only totalsize bounds it (open checked that it starts inside),
     * and each step stays inside, so the loop ends. */
    for (uint32_t off = fdt->rsvmap_off;; off += 16) {
        if (fdt->size - off < 16)
            return HIVE_FDT_ECORRUPT;
        const unsigned char *e = fdt->blob + off;
        uint64_t base = (uint64_t)be32(e) << 32 | be32(e + 4);
        uint64_t size = (uint64_t)be32(e + 8) << 32 | be32(e + 12);
        if (!base && !size)
            break;
        int err = note_reserved(&q, base, size);
        if (err)
            return err;
    }
    int err = walk(fdt, visit_reserved, &q);
    if (err == HIVE_FDT_ENOTFOUND)  /* the whole tree walked: that is the answer */
        return q.count;
    return err;
}

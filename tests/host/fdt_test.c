/*
 * kernel/fdt.c on real device trees (dumped from QEMU: tests/host/dtb/) and
 * on broken ones: every truncation, bad header fields, and every byte of a
 * real tree flipped - each must give an answer (an error code or a result
 * inside the blob's bounds), never a read outside the buffer. The test is
 * built with ASan and UBSan, so a read one byte past the copy fails it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kernel/fdt.h"

int main(void) { return hive_test_main(); }

struct blob {
    unsigned char *p;
    size_t size;
};

static struct blob load(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", HIVE_DTB_DIR, name);
    struct blob b = {0};
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return b;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b.p = malloc((size_t)n);
    if (b.p && fread(b.p, 1, (size_t)n, f) == (size_t)n)
        b.size = (size_t)n;
    fclose(f);
    return b;
}

/* An exact-size heap copy, so ASan sees any read past its end. */
static unsigned char *copy(const unsigned char *p, size_t n)
{
    unsigned char *c = malloc(n ? n : 1);
    memcpy(c, p, n);
    return c;
}

struct cpus {
    unsigned n;
    uint64_t ids[64];
};

static void note_cpu(uint64_t hw_id, void *ctx)
{
    struct cpus *c = ctx;
    if (c->n < 64)
        c->ids[c->n] = hw_id;
    c->n++;
}

HIVE_TEST(riscv_virt_memory_and_harts)
{
    struct blob b = load("qemu-virt-riscv64-4harts-256m.dtb");
    CHECK(b.size > 0);
    struct hive_fdt fdt;
    CHECK_EQ(hive_fdt_open(&fdt, b.p, b.size), HIVE_FDT_OK);
    uint64_t base = 0, size = 0;
    CHECK_EQ(hive_fdt_memory(&fdt, 0x80200000, &base, &size), HIVE_FDT_OK);
    CHECK_EQ(base, 0x80000000u);
    CHECK_EQ(size, 256u << 20);
    /* An address outside every memory region has none. */
    CHECK_EQ(hive_fdt_memory(&fdt, 0x90000000, &base, &size), HIVE_FDT_ENOTFOUND);
    CHECK_EQ(hive_fdt_memory(&fdt, 0x7fffffff, &base, &size), HIVE_FDT_ENOTFOUND);
    struct cpus c = {0};
    CHECK_EQ(hive_fdt_cpus(&fdt, note_cpu, &c), 4);
    CHECK_EQ(c.n, 4u);
    for (unsigned i = 0; i < 4; i++)
        CHECK_EQ(c.ids[i], i);
    free(b.p);
}

HIVE_TEST(aarch64_virt_memory_and_cores)
{
    struct blob b = load("qemu-virt-aarch64-12cores-64m.dtb");
    CHECK(b.size > 0);
    struct hive_fdt fdt;
    CHECK_EQ(hive_fdt_open(&fdt, b.p, b.size), HIVE_FDT_OK);
    uint64_t base = 0, size = 0;
    CHECK_EQ(hive_fdt_memory(&fdt, 0x40200000, &base, &size), HIVE_FDT_OK);
    CHECK_EQ(base, 0x40000000u);
    CHECK_EQ(size, 64u << 20);
    struct cpus c = {0};
    CHECK_EQ(hive_fdt_cpus(&fdt, note_cpu, &c), 12);
    /* GICv3 virt: MPIDR Aff0 counts up within a cluster of 16. */
    for (unsigned i = 0; i < 12; i++)
        CHECK_EQ(c.ids[i], i);
    /* No callback: still the count. */
    CHECK_EQ(hive_fdt_cpus(&fdt, NULL, NULL), 12);
    free(b.p);
}

HIVE_TEST(sifive_u_counts_the_monitor_hart)
{
    /* The E51 (hart 0) is a CPU of the tree like the U54s: leaving it out
     * is the board's business, not the reader's. */
    struct blob b = load("sifive_u-5harts-256m.dtb");
    CHECK(b.size > 0);
    struct hive_fdt fdt;
    CHECK_EQ(hive_fdt_open(&fdt, b.p, b.size), HIVE_FDT_OK);
    struct cpus c = {0};
    CHECK_EQ(hive_fdt_cpus(&fdt, note_cpu, &c), 5);
    CHECK_EQ(c.ids[0], 0u);
    CHECK_EQ(c.ids[4], 4u);
    uint64_t base = 0, size = 0;
    CHECK_EQ(hive_fdt_memory(&fdt, 0x80200000, &base, &size), HIVE_FDT_OK);
    CHECK_EQ(size, 256u << 20);
    free(b.p);
}

HIVE_TEST(absent_tree_is_an_answer)
{
    struct hive_fdt fdt;
    unsigned char zeros[64] = {0};
    CHECK_EQ(hive_fdt_open(&fdt, NULL, 1 << 20), HIVE_FDT_ENOTREE);
    CHECK_EQ(hive_fdt_open(&fdt, zeros, sizeof zeros), HIVE_FDT_ENOTREE);
    /* Magic, then nothing more that may be read. */
    unsigned char magic[4] = {0xd0, 0x0d, 0xfe, 0xed};
    unsigned char *m = copy(magic, 4);
    CHECK_EQ(hive_fdt_open(&fdt, m, 4), HIVE_FDT_ECORRUPT);
    CHECK_EQ(hive_fdt_open(&fdt, m, 3), HIVE_FDT_ENOTREE);
    free(m);
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

struct regions {
    unsigned n;
    uint64_t base[8], size[8];
};

static void note_region(uint64_t base, uint64_t size, void *ctx)
{
    struct regions *r = ctx;
    if (r->n < 8) {
        r->base[r->n] = base;
        r->size[r->n] = size;
    }
    r->n++;
}

/* Open the tree, and if it opens, ask it everything; the answers must be
 * codes or counts, and what it reads stays inside [p, p + n). */
static int exercise(const unsigned char *p, size_t n)
{
    unsigned char *c = copy(p, n);
    struct hive_fdt fdt;
    int r = hive_fdt_open(&fdt, c, n);
    if (r == HIVE_FDT_OK) {
        uint64_t base, size;
        int m = hive_fdt_memory(&fdt, 0x80200000, &base, &size);
        if (!(m == HIVE_FDT_OK || m == HIVE_FDT_ENOTFOUND || m == HIVE_FDT_ECORRUPT))
            r = 100;
        int k = hive_fdt_cpus(&fdt, note_cpu, &(struct cpus){0});
        if (k < HIVE_FDT_ENOTFOUND)
            r = 100;
        int v = hive_fdt_reserved(&fdt, note_region, &(struct regions){0});
        if (v < HIVE_FDT_ENOTFOUND)
            r = 100;
    }
    free(c);
    return r;
}

HIVE_TEST(every_truncation_is_refused)
{
    struct blob b = load("qemu-virt-riscv64-4harts-256m.dtb");
    CHECK(b.size > 0);
    /* Fewer bytes than the header's totalsize: the open refuses. */
    unsigned refused = 0;
    for (size_t n = 0; n < b.size; n++)
        refused += exercise(b.p, n) != HIVE_FDT_OK;
    CHECK_EQ(refused, b.size);
    free(b.p);
}

HIVE_TEST(bad_header_fields_are_refused)
{
    struct blob b = load("qemu-virt-riscv64-4harts-256m.dtb");
    CHECK(b.size > 0);
    struct hive_fdt fdt;
    unsigned char *c = copy(b.p, b.size);
    const struct { unsigned off; uint32_t value; } bad[] = {
        {4, (uint32_t)b.size + 1},  /* totalsize past what may be read */
        {4, 8},                     /* totalsize inside the header */
        {8, (uint32_t)b.size},      /* structure block at the very end... */
        {8, 0x3a},                  /* ...misaligned */
        {8, 4},                     /* ...inside the header */
        {12, (uint32_t)b.size + 4}, /* strings block past the end */
        {16, 0x2c},                 /* reservation map misaligned */
        {20, 15},                   /* version too old */
        {24, 18},                   /* last compatible version too new */
        {32, 0xffffffffu},          /* strings size past the end */
        {36, 0xfffffff0u},          /* structure size past the end */
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(c, b.p, b.size);
        put32(c + bad[i].off, bad[i].value);
        int r = hive_fdt_open(&fdt, c, b.size);
        if (r != HIVE_FDT_ECORRUPT)
            printf("header field at %u = %#x: %d\n", bad[i].off, bad[i].value, r);
        CHECK_EQ(r, HIVE_FDT_ECORRUPT);
    }
    free(c);
    free(b.p);
}

HIVE_TEST(broken_structure_is_an_answer)
{
    struct blob b = load("qemu-virt-aarch64-12cores-64m.dtb");
    CHECK(b.size > 0);
    struct hive_fdt fdt;
    CHECK_EQ(hive_fdt_open(&fdt, b.p, b.size), HIVE_FDT_OK);
    unsigned char *c = copy(b.p, b.size);
    /* Structure block cut short (size_dt_struct): no FDT_END inside it. */
    put32(c + 36, fdt.struct_size / 2 & ~3u);
    CHECK_EQ(hive_fdt_open(&fdt, c, b.size), HIVE_FDT_OK);
    CHECK_EQ(hive_fdt_cpus(&fdt, NULL, NULL), HIVE_FDT_ECORRUPT);
    /* A property name offset past the strings block. */
    memcpy(c, b.p, b.size);
    CHECK_EQ(hive_fdt_open(&fdt, c, b.size), HIVE_FDT_OK);
    uint32_t off = fdt.struct_off + 4;
    while (off + 12 < fdt.struct_off + fdt.struct_size &&
           !(c[off] == 0 && c[off + 1] == 0 && c[off + 2] == 0 && c[off + 3] == 3))
        off += 4;
    put32(c + off + 8, fdt.strings_size);
    CHECK_EQ(hive_fdt_memory(&fdt, 0x40200000, &(uint64_t){0}, &(uint64_t){0}), HIVE_FDT_ECORRUPT);
    /* An unknown token. */
    memcpy(c, b.p, b.size);
    put32(c + fdt.struct_off, 7);
    CHECK_EQ(hive_fdt_cpus(&fdt, NULL, NULL), HIVE_FDT_ECORRUPT);
    /* The root closed twice: FDT_END_NODE with nothing open. */
    memcpy(c, b.p, b.size);
    uint32_t end = fdt.struct_off + fdt.struct_size - 4;  /* FDT_END */
    put32(c + end, 2);
    CHECK_EQ(hive_fdt_cpus(&fdt, NULL, NULL), HIVE_FDT_ECORRUPT);
    free(c);
    free(b.p);
}

HIVE_TEST(every_byte_flipped_is_an_answer)
{
    const char *names[] = {"qemu-virt-riscv64-4harts-256m.dtb", "sifive_u-5harts-256m.dtb"};
    for (unsigned t = 0; t < 2; t++) {
        struct blob b = load(names[t]);
        CHECK(b.size > 0);
        unsigned char *c = copy(b.p, b.size);
        unsigned bad = 0;
        for (size_t i = 0; i < b.size; i++) {
            static const unsigned char flips[] = {0x01, 0x80, 0xff};
            for (unsigned f = 0; f < sizeof flips; f++) {
                c[i] ^= flips[f];
                bad += exercise(c, b.size) == 100;
                c[i] ^= flips[f];
            }
        }
        CHECK_EQ(bad, 0u);
        free(c);
        free(b.p);
    }
}

/* ---- reservations: a tree built here, as OpenSBI and a Pi's firmware write them -- */

/* A small device tree writer: the blocks laid out as dtc does. */
struct dtb_writer {
    unsigned char st[1024], str[256];
    uint32_t st_len, str_len;
};

static void st32(struct dtb_writer *w, uint32_t v)
{
    put32(w->st + w->st_len, v);
    w->st_len += 4;
}

static void begin_node(struct dtb_writer *w, const char *name)
{
    st32(w, 1);
    size_t n = strlen(name) + 1;
    memset(w->st + w->st_len, 0, (n + 3) & ~(size_t)3);
    memcpy(w->st + w->st_len, name, n);
    w->st_len += (uint32_t)((n + 3) & ~(size_t)3);
}

static void prop(struct dtb_writer *w, const char *name, const uint32_t *cells, unsigned ncells)
{
    uint32_t off = w->str_len;
    size_t n = strlen(name) + 1;
    memcpy(w->str + w->str_len, name, n);
    w->str_len += (uint32_t)n;
    st32(w, 3);
    st32(w, 4 * ncells);
    st32(w, off);
    for (unsigned i = 0; i < ncells; i++)
        st32(w, cells[i]);
}

static void prop_str(struct dtb_writer *w, const char *name, const char *value)
{
    uint32_t off = w->str_len;
    size_t n = strlen(name) + 1, vn = strlen(value) + 1;
    memcpy(w->str + w->str_len, name, n);
    w->str_len += (uint32_t)n;
    st32(w, 3);
    st32(w, (uint32_t)vn);
    st32(w, off);
    memset(w->st + w->st_len, 0, (vn + 3) & ~(size_t)3);
    memcpy(w->st + w->st_len, value, vn);
    w->st_len += (uint32_t)((vn + 3) & ~(size_t)3);
}

/* The header, `rsv` (pairs of 64-bit address and size, ended by zeros),
 * the structure and the strings block; returns the blob's size. */
static size_t dtb_finish(struct dtb_writer *w, const uint64_t *rsv, unsigned rsv_words,
                         unsigned char *out)
{
    uint32_t off_rsv = 40, off_st = off_rsv + 8 * rsv_words, off_str = off_st + w->st_len;
    uint32_t total = off_str + w->str_len;
    memset(out, 0, total);
    const uint32_t hdr[10] = {0xd00dfeedu, total, off_st, off_str, off_rsv, 17, 16, 0, w->str_len, w->st_len};
    for (unsigned i = 0; i < 10; i++)
        put32(out + 4 * i, hdr[i]);
    for (unsigned i = 0; i < rsv_words; i++) {
        put32(out + off_rsv + 8 * i, (uint32_t)(rsv[i] >> 32));
        put32(out + off_rsv + 8 * i + 4, (uint32_t)rsv[i]);
    }
    memcpy(out + off_st, w->st, w->st_len);
    memcpy(out + off_str, w->str, w->str_len);
    return total;
}

/* RAM at 0x80000000; the reservation block keeps 0x0-0xfff (a Pi's armstub);
 * /reserved-memory (2 address and 2 size cells, as OpenSBI writes it) keeps
 * OpenSBI's region 0x80000000+0x40000 and a buffer at 0x8f000000+0x100000
 * in one node of two regions, a disabled node, and a node with no reg. */
static size_t reserved_tree(unsigned char *out)
{
    struct dtb_writer w = {0};
    begin_node(&w, "");
    prop(&w, "#address-cells", (const uint32_t[]){2}, 1);
    prop(&w, "#size-cells", (const uint32_t[]){2}, 1);
    begin_node(&w, "memory@80000000");
    prop_str(&w, "device_type", "memory");
    prop(&w, "reg", (const uint32_t[]){0, 0x80000000u, 0, 0x10000000u}, 4);
    st32(&w, 2);
    begin_node(&w, "reserved-memory");
    prop(&w, "#address-cells", (const uint32_t[]){2}, 1);
    prop(&w, "#size-cells", (const uint32_t[]){2}, 1);
    begin_node(&w, "mmode_resv0@80000000");
    prop(&w, "reg", (const uint32_t[]){0, 0x80000000u, 0, 0x40000u, 0, 0x8f000000u, 0, 0x100000u}, 8);
    st32(&w, 2);
    begin_node(&w, "off@90000000");
    prop(&w, "reg", (const uint32_t[]){0, 0x90000000u, 0, 0x1000u}, 4);
    prop_str(&w, "status", "disabled");
    st32(&w, 2);
    begin_node(&w, "dynamic");
    prop(&w, "size", (const uint32_t[]){0, 0x400000u}, 2);
    st32(&w, 2);
    st32(&w, 2); /* reserved-memory */
    st32(&w, 2); /* root */
    st32(&w, 9);
    const uint64_t rsv[] = {0x0, 0x1000, 0, 0};
    return dtb_finish(&w, rsv, 4, out);
}

HIVE_TEST(reserved_memory_is_listed)
{
    unsigned char tree[2048];
    size_t n = reserved_tree(tree);
    unsigned char *c = copy(tree, n);
    struct hive_fdt fdt;
    CHECK_EQ(hive_fdt_open(&fdt, c, n), HIVE_FDT_OK);
    uint64_t base = 0, size = 0;
    CHECK_EQ(hive_fdt_memory(&fdt, 0x80200000, &base, &size), HIVE_FDT_OK);
    CHECK_EQ(base, 0x80000000u);
    struct regions r = {0};
    CHECK_EQ(hive_fdt_reserved(&fdt, note_region, &r), 3);
    CHECK_EQ(r.n, 3u);
    CHECK_EQ(r.base[0], 0x0u);
    CHECK_EQ(r.size[0], 0x1000u);
    CHECK_EQ(r.base[1], 0x80000000u);
    CHECK_EQ(r.size[1], 0x40000u);
    CHECK_EQ(r.base[2], 0x8f000000u);
    CHECK_EQ(r.size[2], 0x100000u);
    /* QEMU's own trees reserve nothing. */
    struct blob b = load("qemu-virt-riscv64-4harts-256m.dtb");
    CHECK(b.size > 0);
    CHECK_EQ(hive_fdt_open(&fdt, b.p, b.size), HIVE_FDT_OK);
    CHECK_EQ(hive_fdt_reserved(&fdt, NULL, NULL), 0);
    free(b.p);
    /* A reservation block with no terminator inside the blob: corrupt, and
     * nothing read past it. Every truncation and flipped byte: an answer. */
    memcpy(c, tree, n);
    CHECK_EQ(hive_fdt_open(&fdt, c, n), HIVE_FDT_OK);
    fdt.rsvmap_off = (uint32_t)n - 8;
    CHECK_EQ(hive_fdt_reserved(&fdt, NULL, NULL), HIVE_FDT_ECORRUPT);
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) {
        bad += exercise(tree, i) == 100;
        static const unsigned char flips[] = {0x01, 0x80, 0xff};
        for (unsigned f = 0; f < sizeof flips; f++) {
            tree[i] ^= flips[f];
            bad += exercise(tree, n) == 100;
            tree[i] ^= flips[f];
        }
    }
    CHECK_EQ(bad, 0u);
    free(c);
}

/*
 * Bring-up in C, common to every board: what picolibc's single-core crt0
 * cannot do. The arch entry has already given us a stack, .data, a zeroed
 * .bss, the MMU and FP (see kernel/platform.h for the whole flow).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "hive/board.h" /* HIVE_BOARD_NAME */
#include "kernel/console.h"
#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "kernel/machine.h"
#include "kernel/timer.h"

struct hive_cpu hive_cpus[HIVE_MAX_CORES];
char hive_stacks[HIVE_MAX_CORES][HIVE_STACK_SLOT] __attribute__((aligned(4096)));

char hive_irq_stacks[HIVE_MAX_CORES][HIVE_IRQ_STACK_SLOT]
    __attribute__((aligned(HIVE_IRQ_STACK_SLOT)));

int hive_irq_stack_guard_core(uintptr_t va)
{
    uintptr_t base = (uintptr_t)hive_irq_stacks;
    if (va < base || va >= base + sizeof hive_irq_stacks)
        return -1;
    return (va - base) % HIVE_IRQ_STACK_SLOT < HIVE_IRQ_STACK_GUARD
               ? (int)((va - base) / HIVE_IRQ_STACK_SLOT) : -1;
}

int hive_stack_guard_core(uintptr_t va)
{
    uintptr_t base = (uintptr_t)hive_stacks;
    if (va < base || va >= base + sizeof hive_stacks)
        return -1;
    return (va - base) % HIVE_STACK_SLOT < HIVE_STACK_GUARD ? (int)((va - base) / HIVE_STACK_SLOT) : -1;
}

/* picolibc's TLS template, from the linker script. */
extern char __tls_size[], __tls_align[];
void _init_tls(void *block);
void _set_tls(void *block);
void __libc_init_array(void);
int main(void);
/* kernel/exit.c: exit(status), known there to be main's return. */
noreturn void hive_exit_from_main(int status);

/* Each core's TLS block: errno and every other _Thread_local live here. */
#define TLS_BLOCK_SIZE 512
static char tls_blocks[HIVE_MAX_CORES][TLS_BLOCK_SIZE] __attribute__((aligned(64)));

static atomic_uint cores_online;
/* Which cores arrived: for the report of one that did not, and for a panic
 * before every one has (hive_cpu_online). */
static atomic_bool core_arrived[HIVE_MAX_CORES];
static unsigned cores_expected;

unsigned hive_cpu_count(void)
{
    /* acquire: pairs with the release increment in cpu_online(), so the
     * counted cores' setup is visible to whoever counts them. */
    return atomic_load_explicit(&cores_online, memory_order_acquire);
}

bool hive_cpu_online(unsigned id)
{
    /* acquire: pairs with the release store in cpu_online(), so a core seen
     * online has its interrupt setup visible (a panic rings its doorbell). */
    return id < HIVE_MAX_CORES && atomic_load_explicit(&core_arrived[id], memory_order_acquire);
}

int hive_cpu_of_hw_id(uintptr_t hw_id)
{
    /* hive_kernel_main records the boot core's first, start_secondaries
     * each other's before it starts that core, from 0 up; entries not used
     * yet read 0, so the first match is the recorded one. */
    for (unsigned i = 0; i < HIVE_MAX_CORES; i++)
        if (hive_cpus[i].hw_id == hw_id)
            return (int)i;
    return -1;
}

static void cpu_setup(unsigned id)
{
    struct hive_cpu *cpu = &hive_cpus[id];
    cpu->id = id;
    arch_set_this_cpu(cpu);

    /* The block holds .tdata + .tbss at its start; on aarch64 _set_tls
     * points TPIDR_EL0 below it by the TCB size, on riscv tp = block. */
    if ((uintptr_t)__tls_size > TLS_BLOCK_SIZE || (uintptr_t)__tls_align > 64) {
        hive_console_emergency_panic(id, "TLS template larger than TLS_BLOCK_SIZE\n");
        board_exit(1);
    }
    cpu->tls = tls_blocks[id];
    _init_tls(cpu->tls);
    _set_tls(cpu->tls);
}

static void cpu_online(unsigned id)
{
    /* Interrupts on before the core counts as online: from here on its
     * timer and its doorbell work (kernel/irq.c). */
    hive_irq_cpu_init();
    /* release: pairs with the acquire load in hive_cpu_count(). */
    atomic_fetch_add_explicit(&cores_online, 1, memory_order_release);
    /* release: pairs with the acquire load in hive_cpu_online(). */
    atomic_store_explicit(&core_arrived[id], true, memory_order_release);
}

/*
 * Start every core the board lists except the boot one, up to HIVE_MAX_CORES
 * in all, with dense logical ids 1, 2, ... in the board's order. Returns the
 * number of cores, boot core included.
 */
static unsigned start_secondaries(uintptr_t boot_hw_id)
{
    unsigned n = 1;
    for (unsigned i = 0; i < board_core_hw_id_count && n < HIVE_MAX_CORES; i++) {
        uintptr_t hw_id = board_core_hw_ids[i];
        if (hw_id == boot_hw_id)
            continue;
        hive_cpus[n].hw_id = hw_id;
        /* Publish hw_id, the page tables and the MMU settings before the
         * core runs; it reads them with no other synchronisation than the
         * firmware call that starts it. */
        atomic_thread_fence(memory_order_seq_cst);
        if (board_start_core(hw_id, n) == 0)
            n++;
    }
    return n;
}

/* Whether the firmware says it is still starting one of the started cores
 * that have not come online (the arrival wait below). */
static bool firmware_starting(unsigned expected)
{
    for (unsigned i = 1; i < expected; i++) {
        /* relaxed: a diagnostic, as where it is stored. */
        if (atomic_load_explicit(&core_arrived[i], memory_order_relaxed))
            continue;
        bool starting;
        arch_core_firmware_state(hive_cpus[i].hw_id, &starting);
        if (starting)
            return true;
    }
    return false;
}

/* At the arrival deadline: name each started core that never came online,
 * with what its firmware says of it where the arch can ask. */
static void report_missing(unsigned expected)
{
    for (unsigned i = 1; i < expected; i++) {
        /* relaxed: a diagnostic, as where it is stored. */
        if (atomic_load_explicit(&core_arrived[i], memory_order_relaxed))
            continue;
        bool starting;
        const char *fw = arch_core_firmware_state(hive_cpus[i].hw_id, &starting);
        printf("hive: core %u (hardware id %#lx) was started and never came online%s%s%s\n", i,
               (unsigned long)hive_cpus[i].hw_id, fw ? " (" : "", fw ? fw : "", fw ? ")" : "");
    }
}

noreturn void hive_kernel_main(uintptr_t boot_hw_id)
{
    hive_cpus[0].hw_id = boot_hw_id;
    cpu_setup(0);
    board_console_init();
    __libc_init_array();
    /* Every clock and timer divides by it: 0 would stop the clock at 0 and
     * arm timers at nonsense ticks. The firmware sets it (CNTFRQ_EL0 on
     * aarch64; the board's timebase on riscv64); one that did not is named. */
    if (arch_counter_hz() == 0)
        hive_panic("the counter's frequency reads 0 (on aarch64 CNTFRQ_EL0, which the firmware "
                   "must set): no clock or timer can work");
    hive_irq_init();
    cpu_online(0);

    cores_expected = start_secondaries(boot_hw_id);

    /* A core that never arrives is a bring-up bug: fail loudly, never hang.
     * The deadline is 5 s after the last core that arrived, not after the
     * first start: under an emulator on a busy host each core's firmware
     * start-up can take a good part of a second (96 harts of QEMU virt
     * riscv64 through OpenSBI, two such machines on two host CPUs, took
     * longer than 5 s in all), while a core that is lost stops the count
     * for good, and is named 5 s later either way. A core the firmware
     * still says it is starting (riscv64: SBI HSM start pending) has not
     * reached hive yet: its start-up is the firmware's, and it is waited
     * for up to 60 s from the last arrival before it is named - 97 harts of
     * QEMU on a loaded 2-CPU host once left 82 of them start pending for
     * those first 5 s. */
    unsigned arrived = hive_cpu_count();
    uint64_t hz = arch_counter_hz(), last = arch_counter();
    uint64_t deadline = hive_deadline_after(last, hz * 5);
    for (unsigned online; (online = hive_cpu_count()) < cores_expected; arch_cpu_relax()) {
        uint64_t now = arch_counter();
        if (online != arrived) {
            arrived = online;
            last = now;
            deadline = hive_deadline_after(now, hz * 5);
        }
        if (now <= deadline)
            continue;
        if (now - last < hz * 60 && firmware_starting(cores_expected)) {
            deadline = hive_deadline_after(now, hz * 5);
            continue;
        }
        report_missing(cores_expected);
        hive_panic("only %u of %u cores came online", hive_cpu_count(), cores_expected);
    }
    printf("hive: %u core%s online (%s)\n", cores_expected,
           cores_expected == 1 ? "" : "s", HIVE_BOARD_NAME);
    hive_machine_report(cores_expected);

    hive_exit_from_main(main());
}

void hive_smp_secondary_loop(void);

noreturn void hive_kernel_secondary(unsigned id)
{
    cpu_setup(id);
    cpu_online(id);
    hive_smp_secondary_loop();
    arch_halt();
}

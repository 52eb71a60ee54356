/* board_irq_* for a board whose interrupt controller is a PLIC and whose
 * doorbell is an SBI IPI: see plic_sbi_board_irq.h. */
#include "drivers/plic_sbi_board_irq.h"
#include "drivers/sbi.h"
#include "kernel/board.h"
#include "kernel/kernel.h"

void board_irq_init(void)
{
    plic_init(&board_plic);
}

void board_irq_init_cpu(unsigned core)
{
    plic_init_cpu(core);
}

int board_irq_route(unsigned line, unsigned core, bool on)
{
    return plic_route(line, core, on);
}

void board_irq_doorbell(unsigned core)
{
    /* sbi_send_ipi fences the waker's stores (its wake word) before the
     * device write that raises the IPI. */
    sbi_send_ipi(1, hive_cpus[core].hw_id);
}

int board_irq_claim(uint32_t *claim)
{
    return plic_claim(claim);
}

void board_irq_complete(uint32_t claim)
{
    plic_complete(claim);
}

/* board_irq_* for a board whose interrupt controller is the GIC: see
 * gic_board_irq.h. */
#include "drivers/gic_board_irq.h"
#include "kernel/board.h"

void board_irq_init(void)
{
    gic_init(&board_gic);
}

void board_irq_init_cpu(unsigned core)
{
    gic_init_cpu(core);
}

int board_irq_route(unsigned line, unsigned core, bool on)
{
    return gic_route(line, core, on);
}

void board_irq_doorbell(unsigned core)
{
    gic_doorbell(core);
}

int board_irq_claim(uint32_t *claim)
{
    return gic_claim(claim);
}

void board_irq_complete(uint32_t claim)
{
    gic_complete(claim);
}

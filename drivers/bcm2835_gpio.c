/* The BCM2835-family GPIO block's function select: see bcm2835_gpio.h. */
#include "drivers/bcm2835_gpio.h"

#define GPFSEL0 0x00    /* GPFSEL0-5: pins 0-9, 10-19, ... */

void bcm2835_gpio_set_function(const struct bcm2835_gpio_config *cfg, unsigned pin,
                               enum bcm2835_gpio_function fn)
{
    volatile uint32_t *fsel = (volatile uint32_t *)(cfg->base + GPFSEL0 + pin / 10 * 4);
    unsigned shift = pin % 10 * 3;
    *fsel = (*fsel & ~(7u << shift)) | (uint32_t)fn << shift;
}

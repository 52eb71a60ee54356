/*
 * The example's interrupting device: one line that software can raise and
 * the handler quiets (device-BOARD.c, one per board it runs on).
 */
#ifndef EXAMPLE_DEVICE_H
#define EXAMPLE_DEVICE_H

/* Set the device up, its line quiet; returns the line for hive_irq_attach. */
unsigned device_init(void);
/* Make the device interrupt. */
void device_raise(void);
/* Quiet it (from its handler: a line still asserted fires again). */
void device_ack(void);

#endif

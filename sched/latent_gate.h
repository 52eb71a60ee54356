/*
 * Opening and closing the gate of hive_join's inline path (latent_gate.c).
 * The interrupt hooks are the kernel's, inline in sched/sched.h.
 */
#ifndef HIVE_SCHED_LATENT_GATE_H
#define HIVE_SCHED_LATENT_GATE_H

#include "hive/join_inline.h"

/* The calling core's worker begins running tasks with this latent list /
 * has stopped (worker.c). The gate is closed after either. */
void hive_latent_gate_begin(struct hive_latent_stack *stack);
void hive_latent_gate_end(struct hive_latent_stack *stack);

/* The owner, in task context, after its list's newest frame or floor
 * changed (join.c): open the gate if the inline path may run now, else
 * close it. */
void hive_latent_gate_update(struct hive_latent_stack *stack);

/* Open the gate to `stack` unless some core wants work: the one way it
 * opens. Also how an interrupt handler or a lock gives back the open gate
 * it found and closed. */
void hive_latent_gate_reopen(struct hive_latent_stack *stack);

#ifdef HIVE_DEBUG_CHECKS
/* spinlock.c: `core` took a lock, holding held_before others / released
 * one, holding held_after now. */
void hive_latent_gate_lock_taken(unsigned core, unsigned held_before);
void hive_latent_gate_lock_released(unsigned core, unsigned held_after);
#endif

#endif

/*
 * sched/port.h's stack room on the host: a core is a thread, and its stack
 * is the one pthreads reports for it - the main thread's too, whose size is
 * the stack rlimit (glibc finds where it lies by reading the process's own
 * maps: tens of microseconds, more than a whole short run). So each thread
 * asks once and keeps the answer, which does not change while it lives.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "sched/port.h"

static _Thread_local struct {
    bool known;
    uintptr_t low, high; /* the stack's bounds; low == high: not known */
} stack;

size_t hive_port_stack_room(void)
{
    uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
    if (!stack.known) {
        pthread_attr_t attr;
        void *low = NULL;
        size_t size = 0;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            if (pthread_attr_getstack(&attr, &low, &size) == 0) {
                stack.low = (uintptr_t)low;
                stack.high = (uintptr_t)low + size;
            }
            pthread_attr_destroy(&attr);
        }
        stack.known = true;
    }
    if (frame <= stack.low || frame > stack.high)
        return 0;
    return frame - stack.low;
}

/*
 * sched/port.h's stack room on the host: a core is a thread, and its stack
 * is the one pthreads reports for it - the main thread's too, whose size is
 * the stack rlimit (glibc reads it, and where the stack lies, from the
 * process's own maps). Asked once per run on each core: the call is not
 * cheap, and the answer does not change while the thread lives.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>

#include "sched/port.h"

size_t hive_port_stack_room(void)
{
    uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
    pthread_attr_t attr;
    void *low = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return 0;
    int rc = pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
    if (rc != 0 || frame <= (uintptr_t)low || frame > (uintptr_t)low + size)
        return 0;
    return frame - (uintptr_t)low;
}

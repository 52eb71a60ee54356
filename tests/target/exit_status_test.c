/*
 * main returns 256: whoever launched the board sees 8 bits of a status, and
 * 256's are 0 - a pass. The system must end with a failure instead
 * (kernel/exit.c), on every board's exit path. ctest expects failure plus
 * the kernel's line saying it folded the status (EXPECT_FAIL).
 */
#include <stdio.h>

int main(void)
{
    printf("exit_status: main returns 256\n");
    return 256;
}

/* CSR access for C: the few registers arch/riscv64 touches outside assembly. */
#ifndef HIVE_RISCV64_CSR_H
#define HIVE_RISCV64_CSR_H

#define csr_read(csr) ({                                                      \
    unsigned long v_;                                                         \
    __asm__ volatile("csrr %0, " #csr : "=r"(v_) : : "memory");               \
    v_; })

#define csr_write(csr, val)                                                   \
    __asm__ volatile("csrw " #csr ", %0" : : "rK"((unsigned long)(val)) : "memory")

#define csr_set(csr, bits)                                                    \
    __asm__ volatile("csrs " #csr ", %0" : : "rK"((unsigned long)(bits)) : "memory")

#define csr_clear(csr, bits)                                                  \
    __asm__ volatile("csrc " #csr ", %0" : : "rK"((unsigned long)(bits)) : "memory")

/* Read-and-clear in one instruction, so nothing can slip in between. */
#define csr_read_clear(csr, bits) ({                                          \
    unsigned long v_;                                                         \
    __asm__ volatile("csrrc %0, " #csr ", %1"                                 \
                     : "=r"(v_) : "rK"((unsigned long)(bits)) : "memory");    \
    v_; })

#endif

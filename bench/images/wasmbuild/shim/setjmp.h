/* Shim: wasi-libc 2024's setjmp.h #errors without wasm exception handling. gen2brain's encode.c
   defines setjmp() { return 0; } and a no-op longjmp() (as the old wasi-sdk builds linked), so only
   declarations are needed here. */
#ifndef AVIFWASM_SHIM_SETJMP_H
#define AVIFWASM_SHIM_SETJMP_H
typedef long jmp_buf[8];
typedef long sigjmp_buf[8];
int setjmp(jmp_buf env);
void longjmp(jmp_buf env, int val);
#endif

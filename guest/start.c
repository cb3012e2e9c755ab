/* guest/start.c - the glibc flavour's own process entry point.
 *
 * glibc's crt1.o from a 2.34+ toolchain calls __libc_start_main@GLIBC_2.34,
 * which older distributions lack. The glibc flavour links with
 * -nostartfiles and uses this _start instead, which calls the
 * GLIBC_2.2.5 version of __libc_start_main (still exported by every glibc
 * since, including 2.34+ where it is a compatibility alias of the same
 * code). It passes no init/fini functions: the guest has no ELF
 * constructors or destructors of its own (no crtbegin/crtend are linked).
 *
 * Position independent, so the result may be linked as PIE (Debian's
 * default). On the musl flavour (no GUEST_GLIBC_COMPAT) this file is empty
 * and the toolchain's start files are used.
 */
#include "compat.h"

#if GUEST_PIN_GLIBC
/* x86_64 System V process entry: %rsp -> argc, argv[], NULL, envp[], auxv;
 * %rdx = function for the dynamic linker's finalisation (rtld_fini).
 * __libc_start_main(main, argc, argv, init, fini, rtld_fini, stack_end)
 * takes its 7th argument on the stack, which must stay 16-byte aligned. */
__asm__(".symver __libc_start_main,__libc_start_main@GLIBC_2.2.5\n"
	"\t.text\n"
	"\t.globl _start\n"
	"\t.type _start,@function\n"
	"_start:\n"
	"\t.cfi_startproc\n"
	"\t.cfi_undefined rip\n"
	"\txorl %ebp, %ebp\n"		/* outermost frame */
	"\tmovq %rdx, %r9\n"		/* rtld_fini */
	"\tpopq %rsi\n"			/* argc */
	"\tmovq %rsp, %rdx\n"		/* argv */
	"\tandq $-16, %rsp\n"
	"\tpushq %rax\n"		/* padding: keep 16-byte alignment */
	"\tpushq %rsp\n"		/* stack_end */
	"\txorl %r8d, %r8d\n"		/* fini = NULL */
	"\txorl %ecx, %ecx\n"		/* init = NULL */
	"\tleaq main(%rip), %rdi\n"
	"\tcall *__libc_start_main@GOTPCREL(%rip)\n"
	"\thlt\n"
	"\t.cfi_endproc\n"
	"\t.size _start, . - _start\n");
#else
/* ISO C forbids an empty translation unit. */
typedef int guest_start_unused;
#endif

/**
 * Skia's native module (@napi-rs/canvas) allocates through its own mimalloc, which by default
 * asks the kernel for transparent huge pages. Every pixel read-back (`canvas.data()`, a 3 MB copy
 * of a 4-player picture) then lands in memory that mimalloc gave back after the previous picture,
 * and the kernel zeroes a whole 2 MiB page on each first touch: measured on this machine kind,
 * 8-10 ms of system CPU per `data()` of a 600x1284 canvas with huge pages, 2 ms without (perf:
 * `clear_page_erms` under `do_huge_pmd_anonymous_page`, two thirds of the samples). mimalloc reads
 * MIMALLOC_ALLOW_THP when the module loads, so this module must be imported before
 * @napi-rs/canvas (render.ts imports it first; the build's lazy stand-in loads Skia at first use,
 * after every module has run). Only mimalloc reads the variable; an operator's own value wins.
 */
process.env.MIMALLOC_ALLOW_THP ??= '0';

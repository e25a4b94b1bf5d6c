/* The fixes emulator diagnostics name where the checker may know better: the emulator writes the
 * text, and the checker finds it to put the lab's fix in its place (checker/explain.c: a kernel
 * whose manifest says sync block answers a [warp-sync] finding with the block barrier, not with
 * lab 05's __syncwarp()). One text, two readers. */
#ifndef LAB_FIXES_H
#define LAB_FIXES_H

/* A [warp-sync] finding's words: its head ("... in kernel K, block ..."), what is missing between
 * the two accesses, why it matters since Volta, and the fix, before its mode note. */
#define LAB_WARP_SYNC_HEAD "warp-synchronous exchange without __syncwarp()"
#define LAB_WARP_SYNC_NONE "with no __syncwarp(), __syncthreads() or warp shuffle/vote in between"
#define LAB_WARP_SYNC_WHY                                                                                     \
    "This is wrong on real GPUs even if the result here is right: the emulator runs the 32 lanes of a warp "  \
    "in lockstep, as GPUs before Volta did, but since Volta (sm_70) independent thread scheduling lets the "  \
    "lanes of a warp run apart, so the load may see the old value, volatile or not."
#define LAB_FIX_WARP_SYNC                                                                                     \
    "Put __syncwarp() between the store and the load (and between a load and a store that overwrites the "     \
    "word), or pass the values with __shfl_*_sync()"

/* The end of a race message between warps of a block, in parentheses, where the lines tell
 * nothing more; the checker names a wrong index instead where both accesses are one line of one
 * step (no barrier can come between them). */
#define LAB_FIX_RACE "a missing __syncthreads()?"

#endif

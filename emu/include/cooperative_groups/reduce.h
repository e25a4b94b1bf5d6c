/* cooperative_groups/reduce.h of the CPU emulator: cg::reduce over a tile or a coalesced group,
 * with cg::plus, cg::less (the minimum), cg::greater (the maximum) and the bitwise operations.
 * Every thread of the group gets the result. A tile reduces with shfl_xor steps (log2 N
 * shuffles), a coalesced group by reading every member in rank order (any size); both go
 * through the emulator's own shuffles, so their mask rules and counts apply.
 */
#ifndef EMU_COOPERATIVE_GROUPS_REDUCE_H
#define EMU_COOPERATIVE_GROUPS_REDUCE_H

#include "../cooperative_groups.h"

#ifdef __cplusplus

#define EMU_CG_FN __attribute__((always_inline)) inline

namespace cooperative_groups {

template <typename T> struct plus {
    EMU_CG_FN T operator()(const T &a, const T &b) const { return a + b; }
};
template <typename T> struct less { /* the smaller of the two: reduce gives the minimum */
    EMU_CG_FN T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <typename T> struct greater { /* the larger: reduce gives the maximum */
    EMU_CG_FN T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <typename T> struct bit_and {
    EMU_CG_FN T operator()(const T &a, const T &b) const { return a & b; }
};
template <typename T> struct bit_or {
    EMU_CG_FN T operator()(const T &a, const T &b) const { return a | b; }
};
template <typename T> struct bit_xor {
    EMU_CG_FN T operator()(const T &a, const T &b) const { return a ^ b; }
};

template <unsigned int N, typename T, typename Op>
EMU_CG_FN T reduce(const thread_block_tile<N> &g, T value, Op op)
{
    for (unsigned int step = N / 2; step > 0; step /= 2)
        value = op(value, g.shfl_xor(value, step));
    return value;
}

template <typename T, typename Op> EMU_CG_FN T reduce(const coalesced_group &g, T value, Op op)
{
    T total = g.shfl(value, 0);
    for (unsigned int r = 1; r < (unsigned int)g.size(); r++)
        total = op(total, g.shfl(value, r));
    return total;
}

} // namespace cooperative_groups

#undef EMU_CG_FN
#endif /* __cplusplus */
#endif /* EMU_COOPERATIVE_GROUPS_REDUCE_H */

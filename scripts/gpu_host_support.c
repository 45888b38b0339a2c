/* What the host libraries of nd's GPU check need beyond libc when the
 * build machine's C compiler (gcc 12) lacks it: `__truncsfbf2`, the float to
 * bf16 conversion LLVM calls on x86-64 for bf16 arithmetic (compiler-rt
 * provides it; gcc's runtime only from gcc 13). Rounds to nearest, ties to
 * even, as compiler-rt and the GPU's cvt.rn.bf16.f32 do; a NaN stays a
 * (quiet) NaN. The bf16 result is returned in xmm0, as a _Float16 is. */
#include <stdint.h>
#include <string.h>

_Float16 __truncsfbf2(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  uint16_t result;
  if ((bits & 0x7fffffffu) > 0x7f800000u) {
    result = (uint16_t)((bits >> 16) | 0x0040u);
  } else {
    uint32_t bias = 0x7fffu + ((bits >> 16) & 1u);
    result = (uint16_t)((bits + bias) >> 16);
  }
  _Float16 out;
  memcpy(&out, &result, sizeof out);
  return out;
}

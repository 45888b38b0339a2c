//===- BFloat16.h - conversions to bfloat16 ---------------------*- C++ -*-===//
//
// The conversions to bfloat16 that LLVM's code generator calls on CPUs
// without instructions for them (nd-c/RuntimeABI.h): round to nearest even,
// NaNs stay NaN (quiet, with their sign).
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_RUNTIME_BFLOAT16_H
#define ND_LIB_RUNTIME_BFLOAT16_H

#include <cstdint>

namespace nd::runtime {

/// The bfloat16 nearest to `value` (ties to even), as bits.
uint16_t toBFloat16(float value);
uint16_t toBFloat16(double value);

/// The bits of a bfloat16 in the low half of a float's, as LLVM takes a
/// bfloat16 returned by a function.
float asReturnedBFloat16(uint16_t bits);

} // namespace nd::runtime

#endif // ND_LIB_RUNTIME_BFLOAT16_H

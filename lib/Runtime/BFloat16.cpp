//===- BFloat16.cpp - conversions to bfloat16 -------------------*- C++ -*-===//
//
// See BFloat16.h. A float becomes a bfloat16 by dropping the low 16 bits of
// its pattern after adding half of their range (less one, plus the kept
// part's lowest bit: ties go to even). A double is first made a float
// rounded to odd (toward zero, with the lowest bit set when anything was
// dropped), which keeps the float's rounding to bfloat16 exact: rounding
// twice to nearest could round a value just above a tie down.
//
//===----------------------------------------------------------------------===//

#include "BFloat16.h"

#include <cmath>
#include <cstring>

using namespace nd::runtime;

uint16_t nd::runtime::toBFloat16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x0040u);
  uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

uint16_t nd::runtime::toBFloat16(double value) {
  if (std::isnan(value)) {
    uint16_t sign = std::signbit(value) ? 0x8000u : 0;
    return static_cast<uint16_t>(sign | 0x7fc0u);
  }
  auto single = static_cast<float>(value);
  // Toward zero: one step back where rounding to nearest went past.
  if (std::fabs(static_cast<double>(single)) > std::fabs(value))
    single = std::nextafter(single, 0.0f);
  if (static_cast<double>(single) != value) {
    uint32_t bits;
    std::memcpy(&bits, &single, sizeof bits);
    bits |= 1u;
    std::memcpy(&single, &bits, sizeof bits);
  }
  return toBFloat16(single);
}

float nd::runtime::asReturnedBFloat16(uint16_t bits) {
  uint32_t wide = bits;
  float result;
  std::memcpy(&result, &wide, sizeof result);
  return result;
}

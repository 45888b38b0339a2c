//===- Compare.cpp - Comparing host tensors ---------------------*- C++ -*-===//
//
// Element-wise comparison with numpy.isclose's tolerance rule.
//
//===----------------------------------------------------------------------===//

#include "nd/Runner/Compare.h"
#include "RunnerSupport.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::detail;
using llvm::Error;
using llvm::Twine;

/// numpy.isclose with equal_nan: NaN matches NaN, infinities match only
/// themselves.
static bool isClose(double actual, double expected, double rtol, double atol) {
  if (std::isnan(actual) || std::isnan(expected))
    return std::isnan(actual) && std::isnan(expected);
  if (actual == expected)
    return true;
  if (std::isinf(actual) || std::isinf(expected))
    return false;
  return std::fabs(actual - expected) <= atol + rtol * std::fabs(expected);
}

static bool isComplexClose(std::pair<double, double> actual,
                           std::pair<double, double> expected, double rtol,
                           double atol) {
  auto isFinite = [](std::pair<double, double> z) {
    return std::isfinite(z.first) && std::isfinite(z.second);
  };
  // Special values compare per component; finite ones by magnitude, as
  // numpy does for complex numbers.
  if (!isFinite(actual) || !isFinite(expected))
    return isClose(actual.first, expected.first, rtol, atol) &&
           isClose(actual.second, expected.second, rtol, atol);
  double diff = std::hypot(actual.first - expected.first,
                           actual.second - expected.second);
  return diff <= atol + rtol * std::hypot(expected.first, expected.second);
}

Error mlir::nd::compare(const HostTensor &actual, const HostTensor &expected,
                        const CompareOptions &options) {
  if (actual.getDType() != expected.getDType())
    return makeError("dtype mismatch: got " +
                     stringifyDType(actual.getDType()) + ", expected " +
                     stringifyDType(expected.getDType()));
  if (actual.getShape() != expected.getShape())
    return makeError("shape mismatch: got " + formatShape(actual.getShape()) +
                     ", expected " + formatShape(expected.getShape()));

  DType dtype = actual.getDType();
  double rtol = 1e-5, atol = 1e-6;
  if (dtype == DType::F16) {
    rtol = 1e-3;
    atol = 1e-5;
  } else if (dtype == DType::BF16) {
    rtol = 1e-2;
    atol = 1e-5;
  }
  rtol = options.rtol.value_or(rtol);
  atol = options.atol.value_or(atol);

  int64_t firstMismatch = -1, mismatches = 0;
  for (int64_t i = 0, e = actual.getNumElements(); i < e; ++i) {
    bool same;
    if (isComplexDType(dtype))
      same = isComplexClose(actual.getComplexElement(i),
                            expected.getComplexElement(i), rtol, atol);
    else if (isFloatDType(dtype))
      same = isClose(actual.getElementAsDouble(i),
                     expected.getElementAsDouble(i), rtol, atol);
    else
      same = actual.getElementAsUInt64(i) == expected.getElementAsUInt64(i);
    if (same)
      continue;
    if (firstMismatch < 0)
      firstMismatch = i;
    ++mismatches;
  }
  if (firstMismatch < 0)
    return Error::success();
  return makeError("value mismatch at index " +
                   formatIndex(actual.getShape(), firstMismatch) + ": got " +
                   formatElement(actual, firstMismatch) + ", expected " +
                   formatElement(expected, firstMismatch) + " (" +
                   Twine(mismatches) + " of " + Twine(actual.getNumElements()) +
                   " elements differ)");
}

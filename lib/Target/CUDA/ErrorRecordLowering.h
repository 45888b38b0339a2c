//===- ErrorRecordLowering.h - a GPU function's error record ----*- C++ -*-===//
//
// Internal to the NdCUDATarget library: the host half of the error record
// that `--convert-nd-to-gpu` leaves in each host function whose kernels
// check at run time (lib/Conversion/NdToGPU/ErrorRecord.h describes the
// record, its words and the two nd_rt ops that stand for it):
// `nd_rt.gpu_error_record` at the function's start and
// `nd_rt.gpu_error_record_end` before each return.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_TARGET_CUDA_ERRORRECORDLOWERING_H
#define ND_LIB_TARGET_CUDA_ERRORRECORDLOWERING_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::nd::cuda {

/// `--nd-gpu-run-on-host`: the records of `module` in host memory, cleared
/// at the start of their function; each failed check reported at a return
/// through `nd_rt.report` with its message.
void expandErrorRecordsOnHost(ModuleOp module);

/// `--nd-gpu-call-stream`: the records of `module` from nd's CUDA runtime
/// (ND_ABI_CUDA_ERROR_RECORD and ND_ABI_CUDA_ERROR_RECORD_END of
/// nd-c/RuntimeABI.h, through MLIR's C interface), each function's messages
/// in a constant global that the runtime reads when it reports.
void lowerErrorRecordsForDevice(ModuleOp module);

} // namespace mlir::nd::cuda

#endif // ND_LIB_TARGET_CUDA_ERRORRECORDLOWERING_H

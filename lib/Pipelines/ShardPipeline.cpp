//===- ShardPipeline.cpp - the nd-sharded-to-llvm pipeline ------*- C++ -*-===//
//
// From a module with sharded functions to the LLVM dialect: partition, lower
// the collectives that MLIR 22 cannot convert, convert the shard ops to MPI,
// lower with `nd-to-llvm`, and drop what mlir-runner cannot parse. A
// pipeline built on top of the dialect's sharding passes
// (nd/Dialect/Nd/Transforms) and of `nd-to-llvm`, so it lives here and not
// in the dialect's library.
//
//===----------------------------------------------------------------------===//

#include "nd/Pipelines/Pipelines.h"

#include "mlir/Conversion/ShardToMPI/ShardToMPI.h"
#include "mlir/Pass/PassManager.h"
#include "nd/Dialect/Nd/Transforms/Passes.h"

using namespace mlir;

void mlir::nd::buildNdShardedToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createNdPartition());
  pm.addPass(createNdLowerShardCollectives());
  pm.addPass(createConvertShardToMPIPass());
  buildNdToLLVMPipeline(pm, NdToLLVMPipelineOptions());
  pm.addPass(createNdStripShardMetadata());
}

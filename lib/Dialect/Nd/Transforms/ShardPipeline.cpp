//===- ShardPipeline.cpp - the nd-sharded-to-llvm pipeline ----------------===//
//
// From a module with sharded functions to the LLVM dialect: partition, lower
// the collectives that MLIR 22 cannot convert, convert the shard ops to MPI,
// lower with `nd-to-llvm`, and drop what mlir-runner cannot parse.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Transforms/Passes.h"

#include "mlir/Conversion/ShardToMPI/ShardToMPI.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "nd/Pipelines/Pipelines.h"

using namespace mlir;

void mlir::nd::buildNdShardedToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createNdPartition());
  pm.addPass(createNdLowerShardCollectives());
  pm.addPass(createConvertShardToMPIPass());
  buildNdToLLVMPipeline(pm, NdToLLVMPipelineOptions());
  pm.addPass(createNdStripShardMetadata());
}

void mlir::nd::registerNdShardPipelines() {
  PassPipelineRegistration<>(
      "nd-sharded-to-llvm",
      "Lower a module with sharded functions to the LLVM dialect for MPI "
      "(nd-partition, nd-lower-shard-collectives, convert-shard-to-mpi, "
      "nd-to-llvm, nd-strip-shard-metadata), with their default options",
      buildNdShardedToLLVMPipeline);
}

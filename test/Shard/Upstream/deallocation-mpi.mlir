// MLIR 22's MPI ops declare no memory effects, and bufferization's
// deallocation rejects every function that uses one, including the
// all-reduce that convert-shard-to-mpi emits. nd declares them (nd-opt,
// NdPlugin.so and nd-run register the models), and the same input
// deallocates.
// RUN: not %mlir_opt %s --convert-shard-to-mpi --one-shot-bufferize="bufferize-function-boundaries" --buffer-deallocation-pipeline 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// RUN: nd-opt %s --convert-shard-to-mpi --one-shot-bufferize="bufferize-function-boundaries" --buffer-deallocation-pipeline | FileCheck %s --check-prefix=ND

// UPSTREAM: error: ops with unknown memory side effects are not supported

// ND-LABEL: func.func @sum(
// ND: %[[BUFFER:.*]] = memref.alloc() : memref<3xf32>
// ND: mpi.allreduce(%[[BUFFER]], %[[BUFFER]], MPI_SUM, %{{.*}}) : memref<3xf32>, memref<3xf32>
// ND: memref.dealloc %[[BUFFER]]
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  shard.grid @grid(shape = 2)
  func.func @sum(%x: tensor<3xf32>) -> f32 {
    %s = shard.all_reduce %x on @grid grid_axes = [0] : tensor<3xf32> -> tensor<3xf32>
    %c0 = arith.constant 0 : index
    %r = tensor.extract %s[%c0] : tensor<3xf32>
    return %r : f32
  }
}

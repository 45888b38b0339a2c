// MLIR 22: convert-shard-to-mpi converts shard.all_reduce but neither
// shard.all_slice nor shard.all_gather, which shard-partition inserts to
// reshard values. nd's --nd-lower-shard-collectives rewrites them first
// (test/Shard/lower-shard-collectives.mlir). The pass also reports the ops
// it cannot convert without failing: mlir-opt exits with status 0 and
// prints them unconverted.
// RUN: %mlir_opt %s --convert-shard-to-mpi -split-input-file 2>&1 | FileCheck %s

module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  shard.grid @grid(shape = 2)
  func.func @slice(%x: tensor<4xf32>) -> tensor<2xf32> {
    // CHECK: error: failed to legalize operation 'shard.all_slice' that was explicitly marked illegal
    // CHECK: shard.all_slice %{{.*}} on @grid
    %s = shard.all_slice %x on @grid grid_axes = [0] slice_axis = 0 : tensor<4xf32> -> tensor<2xf32>
    return %s : tensor<2xf32>
  }
}

// -----

module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  shard.grid @grid(shape = 2)
  func.func @gather(%x: tensor<2xf32>) -> tensor<4xf32> {
    // CHECK: error: failed to legalize operation 'shard.all_gather' that was explicitly marked illegal
    // CHECK: shard.all_gather %{{.*}} on @grid
    %g = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<2xf32> -> tensor<4xf32>
    return %g : tensor<4xf32>
  }
}

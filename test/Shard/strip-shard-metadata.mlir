// RUN: nd-opt %s --nd-strip-shard-metadata -split-input-file -verify-diagnostics | FileCheck %s

// The grid and the MPI entry go; other DLTI entries stay.
// CHECK: module attributes {dlti.map = #dlti.map<"other" = 1 : i32>} {
// CHECK-NOT: shard.grid
// CHECK: llvm.func @f()
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH", "other" = 1 : i32>} {
  shard.grid @grid(shape = 2)
  llvm.func @f() {
    llvm.return
  }
}

// -----

// A map with the MPI entry only goes altogether.
// CHECK: module {
// CHECK-NOT: shard.grid
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  shard.grid @grid(shape = 2)
}

// -----

module {
  // expected-error @below {{shard.grid @grid is still used: lower the shard ops first (convert-shard-to-mpi)}}
  shard.grid @grid(shape = 2)
  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
    // expected-note @below {{used here}}
    %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<2xf32> -> tensor<2xf32>
    return %r : tensor<2xf32>
  }
}

// MLIR 22: the MPI lowering reports an error on a module without a
// `dlti.map` entry `"MPI:Implementation"` (and lowers for MPICH all the
// same), so a module lowered for MPI must carry the entry, which
// nd's --nd-strip-shard-metadata then removes for mlir-runner
// (runner-metadata.mlir). Upstream main queries the entry silently since
// PR #178870: once it does here, this check fails and the entry can be left
// out (docs/Rationale.md, "Bridges over gaps of MLIR 22").
// RUN: %mlir_opt %s --convert-to-llvm 2>&1 | FileCheck %s

// CHECK: error: target op of failed DLTI query
// CHECK: llvm.call @MPI_Comm_rank
module {
  func.func @rank() -> i32 {
    %world = mpi.comm_world : !mpi.comm
    %r:2 = mpi.comm_rank(%world) : !mpi.retval, i32
    return %r#1 : i32
  }
}

// MLIR 22: a module lowered through convert-shard-to-mpi keeps its
// shard.grid declarations and the dlti.map entry the MPI lowering reads, and
// mlir-runner, which registers only the dialects that translate to LLVM IR,
// parses neither. nd's --nd-strip-shard-metadata removes both
// (test/Shard/strip-shard-metadata.mlir); see docs/Rationale.md, "Bridges
// over gaps of MLIR 22".
// RUN: not mlir-runner %s -e main -entry-point-result=void 2>&1 | FileCheck %s --check-prefix=DLTI
// RUN: sed 's/ attributes {dlti.map = .*} {/ {/' %s | not mlir-runner -e main -entry-point-result=void 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: nd-opt %s --nd-strip-shard-metadata | mlir-runner -e main -entry-point-result=void 2>&1 | count 0

// DLTI: error: #"dlti"<"map<"MPI:Implementation" = "MPICH">"> : 'none' attribute created with unregistered dialect
// GRID: error: Dialect `shard' not found for custom op 'shard.grid'
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  shard.grid @grid(shape = 2)
  llvm.func @main() {
    llvm.return
  }
}

// MLIR 22: convert-scf-to-openmp wraps every loop body in a single-block
// memref.alloca_scope; the canonicalizer keeps a scope whose body holds a
// call or an op of unknown memory effects such as nd's store fence (a
// possible stack allocation to it; stock mlir-opt reads the fence as an
// unregistered op, whose effects are unknown too), and convert-scf-to-cf then
// splits the body into blocks. nd's --nd-inline-alloca-scopes inlines the
// scopes whose bodies allocate nothing, nd's fence calls included
// (test/Conversion/NdToLLVM/nd-inline-alloca-scopes.mlir); once upstream
// stops wrapping such bodies, the UPSTREAM check fails and the pass can go
// (docs/Rationale.md, "Bridges over gaps of MLIR 22").
// RUN: not %mlir_opt %s --allow-unregistered-dialect --convert-scf-to-openmp --canonicalize --convert-scf-to-cf 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// RUN: nd-opt %s --convert-scf-to-openmp --nd-inline-alloca-scopes --convert-scf-to-cf | FileCheck %s --check-prefix=ND

// UPSTREAM: error: 'memref.alloca_scope' op expects region #0 to have 0 or 1 blocks
// ND-LABEL: func.func @fenced_rows
//   ND-NOT:   memref.alloca_scope
//       ND:   omp.parallel
//       ND:     cf.cond_br
//       ND:     nd_rt.store_fence
func.func @fenced_rows(%n: index, %buffer: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %v, %buffer[%j] : memref<?xf32>
    }
    "nd_rt.store_fence"() : () -> ()
    scf.reduce
  }
  return
}

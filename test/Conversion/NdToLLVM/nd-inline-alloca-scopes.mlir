// RUN: nd-opt %s --nd-inline-alloca-scopes | FileCheck %s

// convert-scf-to-openmp wraps each loop body in a memref.alloca_scope. One
// whose body allocates nothing on the stack is inlined, calls included
// (upstream's canonicalization keeps scopes with calls).

// CHECK-LABEL: func.func @fence_in_body
//   CHECK-NOT:   memref.alloca_scope
//       CHECK:   omp.loop_nest
//       CHECK:     scf.for
//       CHECK:       memref.store
//       CHECK:     nd_rt.store_fence
//  CHECK-NEXT:     omp.yield
func.func @fence_in_body(%n: index, %buffer: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.alloca_scope {
          scf.for %j = %c0 to %n step %c1 {
            memref.store %v, %buffer[%j] : memref<?xf32>
          }
          nd_rt.store_fence
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// nd's run-time ops stand for calls and allocate nothing: a report and a
// thread query in a body are inlined with it.
// CHECK-LABEL: func.func @report_in_body
//   CHECK-NOT:   memref.alloca_scope
//       CHECK:   omp.loop_nest
//       CHECK:     nd_rt.max_threads
//       CHECK:     nd_rt.report "bad %lld of %lld" (%{{.*}}, %{{.*}})
//  CHECK-NEXT:     omp.yield
func.func @report_in_body(%n: index, %a: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.alloca_scope {
          %t = nd_rt.max_threads
          nd_rt.report "bad %lld of %lld" (%a, %a)
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// A stack allocation keeps its scope.
// CHECK-LABEL: func.func @alloca_in_body
//       CHECK:   memref.alloca_scope {
//       CHECK:     memref.alloca
func.func @alloca_in_body(%n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.alloca_scope {
          %a = memref.alloca() : memref<4xf32>
          memref.store %v, %a[%c0] : memref<4xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// A call of any other function allocates in the callee's own frame, never
// in the caller's scope (the nd ops' functions called from the loops of a
// tiled program): inlined too.
// CHECK-LABEL: func.func @other_call_in_body
//   CHECK-NOT:   memref.alloca_scope
//       CHECK:   omp.loop_nest
//  CHECK-NEXT:     func.call @other()
//  CHECK-NEXT:     omp.yield
func.func private @other()
func.func @other_call_in_body(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.alloca_scope {
          func.call @other() : () -> ()
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

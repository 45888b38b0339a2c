// RUN: nd-opt %s --nd-openmp-if | FileCheck %s

// A worksharing loop forks a team only when it has more than one iteration.

// CHECK-LABEL: func.func @one_loop
//  CHECK-SAME:   (%[[N:.*]]: index)
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//       CHECK:   %[[SPAN:.*]] = arith.subi %[[N]], %[[C0]] : index
//       CHECK:   %[[POS:.*]] = arith.cmpi sgt, %[[SPAN]], %{{.*}} : index
//       CHECK:   %[[TRIPS:.*]] = arith.ceildivsi %[[SPAN]], %[[C1]] : index
//       CHECK:   %[[COUNT:.*]] = arith.select %[[POS]], %[[TRIPS]], %{{.*}} : index
//       CHECK:   %[[SEVERAL:.*]] = arith.cmpi ugt, %[[COUNT]], %{{.*}} : index
//       CHECK:   omp.parallel if(%[[SEVERAL]])
func.func @one_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// A parallel region with more than the loop in it is left alone.
// CHECK-LABEL: func.func @not_only_a_loop
//       CHECK:   omp.parallel {
func.func @not_only_a_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.barrier
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

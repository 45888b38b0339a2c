// RUN: nd-opt %s --split-input-file --nd-gpu-run-on-host --verify-diagnostics | FileCheck %s

// A kernel becomes loops over its blocks and, for each phase between
// barriers, over its threads; a value one phase passes to a later one goes
// through a per-thread buffer, workgroup memory through a host buffer (both
// on the heap, freed after the launch). The GPU operations of the host
// become host allocations, fills and copies.
// CHECK-LABEL: func.func @kernel
// CHECK: %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xi32>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[BUF]]
// CHECK: %[[CARRIED:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK: %[[SHARED:.*]] = memref.alloc() : memref<4xi32>
// Blocks: z, y, x.
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// The first phase, threads z, y, x.
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[TX:.*]] =
// CHECK: memref.store %{{.*}}, %[[SHARED]][%[[TX]]]
// CHECK: %[[MIRROR:.*]] = arith.subi %{{.*}}, %[[TX]]
// CHECK: memref.store %[[MIRROR]], %[[CARRIED]][%{{.*}}]
// The second phase.
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[BACK:.*]] = memref.load %[[CARRIED]]
// CHECK: %[[AT:.*]] = arith.subi %[[BACK]]
// CHECK: memref.load %[[SHARED]][%[[AT]]]
// CHECK: memref.store %{{.*}}, %[[BUF]]
// CHECK-DAG: memref.dealloc %[[SHARED]]
// CHECK-DAG: memref.dealloc %[[CARRIED]]
// CHECK-NOT: gpu.
// CHECK: memref.dealloc %[[BUF]]
func.func @kernel() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : i32
  %buf = gpu.alloc () : memref<8xi32>
  gpu.memset %buf, %c7 : memref<8xi32>, i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%shared : memref<4xi32, #gpu.address_space<workgroup>>) {
    %v = arith.index_cast %tx : index to i32
    memref.store %v, %shared[%tx] : memref<4xi32, #gpu.address_space<workgroup>>
    %mirror = arith.subi %c4, %tx : index
    gpu.barrier
    %back = arith.subi %mirror, %c1 : index
    %w = memref.load %shared[%back] : memref<4xi32, #gpu.address_space<workgroup>>
    %block = arith.muli %bx, %c4 : index
    %at = arith.addi %block, %tx : index
    memref.store %w, %buf[%at] : memref<8xi32>
    gpu.terminator
  }
  gpu.dealloc %buf : memref<8xi32>
  return
}

// -----

func.func @nested_barrier(%cond: i1) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{a barrier inside a nested region cannot run on the host}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.if %cond {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// The error record of convert-nd-to-gpu on the host: a buffer cleared at the
// start; each return reports the check whose code it holds through
// nd_rt.report, as the CPU lowering does, and frees it.
// CHECK-LABEL: func.func @checked
// CHECK: %[[R:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[R]]
// CHECK: memref.load %[[R]]
// CHECK: scf.index_switch
// CHECK: case 1 {
// CHECK: nd_rt.report "first" (%{{.*}}, %{{.*}})
// CHECK: case 2 {
// CHECK: nd_rt.report "second %lld %lld" (%{{.*}}, %{{.*}})
// CHECK: memref.dealloc %[[R]]
// CHECK-NEXT: return
// CHECK-NOT: nd_rt.gpu_error_record
func.func @checked() {
  %c6 = arith.constant 6 : i64
  %r = nd_rt.gpu_error_record %c6
  nd_rt.gpu_error_record_end %r ["first", "second %lld %lld"]
  return
}

// RUN: nd-opt %s --nd-check-allocations | FileCheck %s
// The same on the LLVM IR it becomes: the OpenMP region keeps its exits.
// RUN: nd-opt %s --nd-check-allocations | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// One message per site, naming its location, all in one global in the
// order of the sites, each ending in a NUL.
// CHECK-DAG: llvm.mlir.global private constant @__nd_alloc_msgs("{{[^"]*}}nd-check-allocations.mlir:[[@LINE+12]]:8: cannot allocate %lld bytes for a buffer of the compiled code\00{{[^"]*}}nd-check-allocations.mlir:[[@LINE+41]]:8: cannot allocate %lld bytes for a buffer of the compiled code\00{{[^"]*}}nd-check-allocations.mlir:[[@LINE+99]]:14: cannot allocate %lld bytes for a buffer of the compiled code\00{{[^"]*}}")
// CHECK-DAG: llvm.mlir.global internal thread_local @__nd_alloc_failed(0 : i8)
// CHECK-DAG: llvm.func @nd_report_out_of_memory(!llvm.ptr, !llvm.ptr, i64, i64)
llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
llvm.func @use(!llvm.ptr)

// A failed allocation in a function's body: on to the report block at the
// function's end with its message and size, then to the block that sets
// the flag for the caller (its address taken once, at the start) and
// returns zeros; nothing touches the buffer.
// CHECK-LABEL: llvm.func @body
llvm.func @body(%n: i64) -> !llvm.ptr {
  %p = llvm.call @_mlir_memref_to_llvm_alloc(%n) : (i64) -> !llvm.ptr
  llvm.call @use(%p) : (!llvm.ptr) -> ()
  llvm.return %p : !llvm.ptr
}
// CHECK:      %[[FLAG:.*]] = "llvm.intr.threadlocal.address"
// CHECK:      %[[TABLE:.*]] = llvm.mlir.addressof @__nd_alloc_msgs
// CHECK-NEXT: %[[TEXT:.*]] = llvm.getelementptr %[[TABLE]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK:      %[[P:.*]] = llvm.call @_mlir_memref_to_llvm_alloc(%[[N:[^)]*]])
// CHECK:      %[[NULL:.*]] = llvm.icmp "eq" %[[P]]
// CHECK:      %[[SOME:.*]] = llvm.icmp "ne" %[[N]]
// CHECK:      %[[FAILED:.*]] = llvm.and %[[NULL]], %[[SOME]]
// CHECK-NEXT: llvm.cond_br %[[FAILED]] weights([1, 1048576]), ^[[REPORT:.*]](%[[TEXT]], %[[N]] : !llvm.ptr, i64), ^[[OK:.*]]
// CHECK:    ^[[OK]]:
// CHECK-NEXT: llvm.call @use(%[[P]])
// CHECK-NEXT: llvm.return %[[P]]
// CHECK:    ^[[REPORT]](%[[RTEXT:.*]]: !llvm.ptr, %[[RN:.*]]: i64):
// CHECK:      llvm.call @nd_report_out_of_memory(%{{.*}}, %[[RTEXT]], %[[RN]], %{{.*}})
// CHECK-NEXT: llvm.br ^[[FAIL:.*]]
// CHECK:    ^[[FAIL]]:
// CHECK:      llvm.store {{.*}}, %[[FLAG]] atomic monotonic
// CHECK:      %[[ZERO:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:      llvm.return %[[ZERO]]
// CHECK-NEXT: }

// Two allocations share the report block, each with its own message, and
// the null pointer their tests compare with (made once, at the body's
// start).
// CHECK-LABEL: llvm.func @two_allocations
llvm.func @two_allocations(%n: i64) {
  %p = llvm.call @_mlir_memref_to_llvm_alloc(%n) : (i64) -> !llvm.ptr
  %q = llvm.call @_mlir_memref_to_llvm_alloc(%n) : (i64) -> !llvm.ptr
  llvm.call @use(%p) : (!llvm.ptr) -> ()
  llvm.call @use(%q) : (!llvm.ptr) -> ()
  llvm.return
}
// CHECK:      %[[TABLE:.*]] = llvm.mlir.addressof @__nd_alloc_msgs
// CHECK-NEXT: %[[T1:.*]] = llvm.getelementptr %[[TABLE]][{{[0-9]+}}]
// CHECK-NEXT: %[[T2:.*]] = llvm.getelementptr %[[TABLE]][{{[0-9]+}}]
// CHECK:      %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:      llvm.icmp "eq" %{{.*}}, %[[NULL]]
// CHECK:      llvm.cond_br %{{.*}}, ^[[R:.*]](%[[T1]], %{{.*}} : !llvm.ptr, i64), ^{{.*}}
// CHECK:      llvm.icmp "eq" %{{.*}}, %[[NULL]]
// CHECK:      llvm.cond_br %{{.*}}, ^[[R]](%[[T2]], %{{.*}} : !llvm.ptr, i64), ^{{.*}}
// CHECK-COUNT-1: llvm.call @nd_report_out_of_memory
// CHECK-NOT:  llvm.call @nd_report_out_of_memory
// CHECK:      llvm.return
// CHECK-NEXT: }

// Calls of functions that may fail: the flag cleared once, where its
// address is taken (a failed call leaves the function, so it is clear
// before each call), tested after each, and every failure to the one block
// at the end.
// CHECK-LABEL: llvm.func @caller
llvm.func @caller(%n: i64) {
  %p = llvm.call @body(%n) : (i64) -> !llvm.ptr
  llvm.call @use(%p) : (!llvm.ptr) -> ()
  %q = llvm.call @body(%n) : (i64) -> !llvm.ptr
  llvm.call @use(%q) : (!llvm.ptr) -> ()
  llvm.return
}
// CHECK:      %[[FLAG2:.*]] = "llvm.intr.threadlocal.address"
// CHECK:      llvm.store {{.*}}, %[[FLAG2]] atomic monotonic
// CHECK-NEXT: %[[R:.*]] = llvm.call @body
// CHECK:      llvm.load %[[FLAG2]] atomic monotonic
// CHECK:      llvm.cond_br %{{.*}}, ^[[FAIL2:.*]], ^[[OK2:.*]]
// CHECK:    ^[[OK2]]:
// CHECK-NEXT: llvm.call @use(%[[R]])
// CHECK-NEXT: %[[R2:.*]] = llvm.call @body
// CHECK:      llvm.load %[[FLAG2]] atomic monotonic
// CHECK:      llvm.cond_br %{{.*}}, ^[[FAIL2]], ^[[OK3:.*]]
// CHECK:    ^[[OK3]]:
// CHECK-NEXT: llvm.call @use(%[[R2]])
// CHECK-NEXT: llvm.return
// CHECK:    ^[[FAIL2]]:
// CHECK-NOT:  llvm.call @use
// CHECK:      llvm.return
// CHECK-NEXT: }

// Inside an OpenMP loop: the failed iteration leaves the loop body, and the
// function returns after the parallel region.
// CHECK-LABEL: llvm.func @in_loop
llvm.func @in_loop(%n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : i64 = (%c0) to (%n) step (%c1) {
        %p = llvm.call @_mlir_memref_to_llvm_alloc(%n) : (i64) -> !llvm.ptr
        llvm.call @use(%p) : (!llvm.ptr) -> ()
        omp.yield
      }
    }
    omp.terminator
  }
  llvm.return
}
// CHECK:      %[[FLAG:.*]] = llvm.alloca %{{.*}} x i8
// CHECK:      omp.parallel
// CHECK:        llvm.call @_mlir_memref_to_llvm_alloc
// CHECK:        llvm.cond_br %{{.*}}, ^[[FAIL3:.*]], ^[[OK3:.*]]
// CHECK:      ^[[FAIL3]]:
// CHECK:        llvm.call @nd_report_out_of_memory
// CHECK:        llvm.store %{{.*}}, %[[FLAG]] atomic monotonic
// CHECK-NEXT:   omp.yield
// CHECK:      ^[[OK3]]:
// CHECK-NEXT:   llvm.call @use
// CHECK-NEXT:   omp.yield
// CHECK:      omp.terminator
// CHECK:      llvm.load %[[FLAG]] atomic monotonic
// CHECK:      llvm.cond_br %{{.*}}, ^[[FAIL4:.*]], ^[[OK4:.*]]
// CHECK:    ^[[OK4]]:
// CHECK-NEXT: llvm.return
// CHECK:    ^[[FAIL4]]:
// CHECK:      llvm.store
// CHECK-NEXT: llvm.return

// Nothing to check.
// CHECK-LABEL: llvm.func @no_allocation
// CHECK-NEXT:    llvm.call @use
// CHECK-NEXT:    llvm.return
llvm.func @no_allocation(%p: !llvm.ptr) {
  llvm.call @use(%p) : (!llvm.ptr) -> ()
  llvm.return
}

// IR: define ptr @body(
// IR: call void @nd_report_out_of_memory(ptr null,
// IR: define void @in_loop(
// IR: call {{.*}}@__kmpc_fork_call

// The aligned allocator, which nd-to-llvm's memref.alloc calls (with the
// buffer's alignment, size second), is checked the same way.
llvm.func @_mlir_memref_to_llvm_aligned_alloc(i64, i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @aligned
llvm.func @aligned(%n: i64) -> !llvm.ptr {
  %a = llvm.mlir.constant(64 : i64) : i64
  %p = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%a, %n) : (i64, i64) -> !llvm.ptr
  llvm.return %p : !llvm.ptr
}
// CHECK:      %[[P:.*]] = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%{{.*}}, %[[N:[^)]*]])
// CHECK:      %[[NULL:.*]] = llvm.icmp "eq" %[[P]]
// CHECK:      %[[SOME:.*]] = llvm.icmp "ne" %[[N]]
// CHECK:      llvm.and %[[NULL]], %[[SOME]]
// CHECK:      llvm.call @nd_report_out_of_memory

// A static buffer's size, as upstream's memref lowering writes it
// (`ptrtoint(getelementptr null[n] : T)`), is a constant: n * sizeof(T),
// and needs no test for 0. Where T has no whole bytes (i1), it stays.
// CHECK-LABEL: llvm.func @static_size
llvm.func @static_size() -> !llvm.ptr {
  %null = llvm.mlir.zero : !llvm.ptr
  %a = llvm.mlir.constant(64 : i64) : i64
  %n = llvm.mlir.constant(128 : i64) : i64
  %end = llvm.getelementptr %null[%n] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %size = llvm.ptrtoint %end : !llvm.ptr to i64
  %p = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%a, %size) : (i64, i64) -> !llvm.ptr
  %bits = llvm.getelementptr %null[7] : (!llvm.ptr) -> !llvm.ptr, i1
  %bitsSize = llvm.ptrtoint %bits : !llvm.ptr to i64
  %q = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%a, %bitsSize) : (i64, i64) -> !llvm.ptr
  llvm.call @use(%q) : (!llvm.ptr) -> ()
  llvm.return %p : !llvm.ptr
}
// CHECK:      %[[NULL:.*]] = llvm.mlir.zero
// CHECK:      %[[SIZE:.*]] = llvm.mlir.constant(512 : i64) : i64
// CHECK-NEXT: %[[P:.*]] = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%{{.*}}, %[[SIZE]])
// CHECK-NEXT: %[[FAILED:.*]] = llvm.icmp "eq" %[[P]], %[[NULL]]
// CHECK-NEXT: llvm.cond_br %[[FAILED]]
// CHECK:      %[[BITS:.*]] = llvm.ptrtoint
// CHECK-NEXT: %[[Q:.*]] = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%{{.*}}, %[[BITS]])
// CHECK:      llvm.icmp "ne" %[[BITS]]
// CHECK:      llvm.and

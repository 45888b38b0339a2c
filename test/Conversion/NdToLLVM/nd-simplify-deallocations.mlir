// RUN: nd-opt %s --nd-simplify-deallocations=max-buffers=2 | FileCheck %s
// RUN: nd-opt %s --nd-simplify-deallocations | FileCheck %s --check-prefix=ALL

// Upstream's simplification runs on the functions whose dealloc ops list at
// most max-buffers buffers (here it finds that the buffers are distinct,
// unused allocations and removes them with their dealloc); the others keep
// their dealloc ops as they are.

// CHECK-LABEL: func.func @few
//  CHECK-NEXT:   return
// CHECK-LABEL: func.func @many
//       CHECK:   bufferization.dealloc (%{{.*}}, %{{.*}}, %{{.*}} : memref<4xf32>, memref<4xf32>, memref<4xf32>) if
//       CHECK:   return

// ALL-LABEL: func.func @few
//  ALL-NEXT:   return
// ALL-LABEL: func.func @many
//  ALL-NEXT:   return

func.func @few() {
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  bufferization.dealloc (%a, %b : memref<4xf32>, memref<4xf32>) if (%true, %true)
  return
}

func.func @many() {
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  bufferization.dealloc (%a, %b, %c : memref<4xf32>, memref<4xf32>, memref<4xf32>) if (%true, %true, %true)
  return
}

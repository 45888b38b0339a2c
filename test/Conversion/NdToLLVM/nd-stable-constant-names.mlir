// --nd-stable-constant-names renames the constant globals of bufferization
// by first use, moves them to the start of the module in that order and
// erases the unused ones; other symbols keep their names and are never
// taken.
// RUN: nd-opt %s --nd-stable-constant-names | FileCheck %s

// CHECK:      module {
// CHECK-NEXT:   memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[3.000000e+00, 4.000000e+00]>
// CHECK-NEXT:   memref.global "private" constant @__constant_2xf32_2 : memref<2xf32> = dense<[5.000000e+00, 6.000000e+00]>
// CHECK-NEXT:   memref.global "private" constant @__constant_2xi64 : memref<2xi64> = dense<[1, 0]>
// CHECK-NEXT:   memref.global "private" constant @__constant_2xf32_3 : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK-NEXT:   memref.global "private" @__constant_2xf32_1 : memref<2xf32> = dense<0.000000e+00>
// CHECK-NOT:    @__constant_2xf32_9
// CHECK-LABEL:  func.func @first()
// CHECK:          memref.get_global @__constant_2xf32 :
// CHECK:          memref.get_global @__constant_2xf32_2 :
// CHECK:          memref.get_global @__constant_2xf32 :
// CHECK-LABEL:  func.func @second()
// CHECK:          memref.get_global @__constant_2xi64 :
// CHECK:          memref.get_global @__constant_2xf32_3 :
// CHECK:          memref.get_global @__constant_2xf32_1 :
module {
  memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[1.0, 2.0]>
  memref.global "private" constant @__constant_2xi64_0 : memref<2xi64> = dense<[1, 0]>
  // Not a constant: a variable of the program, whose name stays.
  memref.global "private" @__constant_2xf32_1 : memref<2xf32> = dense<0.0>
  memref.global "private" constant @__constant_2xf32_0 : memref<2xf32> = dense<[3.0, 4.0]>
  memref.global "private" constant @__constant_2xf32_9 : memref<2xf32> = dense<[9.0, 9.0]>
  memref.global "private" constant @__constant_2xf32_2 : memref<2xf32> = dense<[5.0, 6.0]>
  func.func @first() -> (memref<2xf32>, memref<2xf32>, memref<2xf32>) {
    %0 = memref.get_global @__constant_2xf32_0 : memref<2xf32>
    %1 = memref.get_global @__constant_2xf32_2 : memref<2xf32>
    %2 = memref.get_global @__constant_2xf32_0 : memref<2xf32>
    return %0, %1, %2 : memref<2xf32>, memref<2xf32>, memref<2xf32>
  }
  func.func @second() -> (memref<2xi64>, memref<2xf32>, memref<2xf32>) {
    %0 = memref.get_global @__constant_2xi64_0 : memref<2xi64>
    %1 = memref.get_global @__constant_2xf32 : memref<2xf32>
    %2 = memref.get_global @__constant_2xf32_1 : memref<2xf32>
    return %0, %1, %2 : memref<2xi64>, memref<2xf32>, memref<2xf32>
  }
}

// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm=grain=1 | env OMP_NUM_THREADS=3 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// nd.scatter_nd with reduction<sub> (OpenVINO ScatterNDUpdate-15): each
// update is subtracted from the value in place, in row-major order of the
// indices; on i1 it is xor. The second run partitions even these small
// tensors (grain=1) and runs them on 3 threads: the results are the same.

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefC32(memref<*xcomplex<f32>>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @print_i32(%t: tensor<*xi32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xi32> to memref<*xi32>
  call @printMemrefI32(%m) : (memref<*xi32>) -> ()
  return
}

func.func @print_c32(%t: tensor<*xcomplex<f32>>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xcomplex<f32>> to memref<*xcomplex<f32>>
  call @printMemrefC32(%m) : (memref<*xcomplex<f32>>) -> ()
  return
}

func.func @main() {
  // The spec's example 3: data [1, 2, 3, 4], indices [0, 2, -3, -3, 0]
  // (-3 is 1), updates [10, 20, 30, 40, 50]: 1 - 10 - 50, 2 - 30 - 40, 3 - 20.
  %indices = arith.constant dense<[[0], [2], [-3], [-3], [0]]> : tensor<5x1xi64>
  %data = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %updates = arith.constant dense<[10, 20, 30, 40, 50]> : tensor<5xi32>
  %0 = nd.scatter_nd %data[%indices], %updates reduction<sub> : tensor<4xi32>, tensor<5x1xi64>, tensor<5xi32>
  %p0 = tensor.cast %0 : tensor<4xi32> to tensor<*xi32>
  // CHECK: [-59,  -68,  -17,  4]
  call @print_i32(%p0) : (tensor<*xi32>) -> ()

  // The same in f32, and wrapping in i32: -2147483648 - 1 = 2147483647.
  %fdata = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %fupdates = arith.constant dense<[10.0, 20.0, 30.0, 40.0, 50.0]> : tensor<5xf32>
  %1 = nd.scatter_nd %fdata[%indices], %fupdates reduction<sub> : tensor<4xf32>, tensor<5x1xi64>, tensor<5xf32>
  %p1 = tensor.cast %1 : tensor<4xf32> to tensor<*xf32>
  // CHECK: [-59,  -68,  -17,  4]
  call @print(%p1) : (tensor<*xf32>) -> ()
  %min = arith.constant dense<[-2147483648]> : tensor<1xi32>
  %one = arith.constant dense<[1]> : tensor<1xi32>
  %i0 = arith.constant dense<[[0]]> : tensor<1x1xi64>
  %2 = nd.scatter_nd %min[%i0], %one reduction<sub> : tensor<1xi32>, tensor<1x1xi64>, tensor<1xi32>
  %p2 = tensor.cast %2 : tensor<1xi32> to tensor<*xi32>
  // CHECK: [2147483647]
  call @print_i32(%p2) : (tensor<*xi32>) -> ()

  // Slices: rows 1, 1 and 0 of a 3x4 f32 data of tens; row 1 gets both of
  // its updates subtracted, row 2 keeps its values.
  %rows = arith.constant dense<10.0> : tensor<3x4xf32>
  %ri = arith.constant dense<[[1], [1], [0]]> : tensor<3x1xi64>
  %ru = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [0.5, 0.5, 0.5, 0.5], [-1.0, -2.0, -3.0, -4.0]]> : tensor<3x4xf32>
  %3 = nd.scatter_nd %rows[%ri], %ru reduction<sub> : tensor<3x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>
  %p3 = tensor.cast %3 : tensor<3x4xf32> to tensor<*xf32>
  // CHECK:      [11,   12,   13,   14],
  // CHECK-NEXT: [8.5,   7.5,   6.5,   5.5],
  // CHECK-NEXT: [10,   10,   10,   10]
  call @print(%p3) : (tensor<*xf32>) -> ()

  // i1: xor. Element 0: true ^ true; element 1: false ^ true ^ true.
  %bdata = arith.constant dense<[true, false, true, false]> : tensor<4xi1>
  %bi = arith.constant dense<[[0], [1], [1]]> : tensor<3x1xi64>
  %bu = arith.constant dense<true> : tensor<3xi1>
  %4 = nd.scatter_nd %bdata[%bi], %bu reduction<sub> : tensor<4xi1>, tensor<3x1xi64>, tensor<3xi1>
  %w4 = arith.extui %4 : tensor<4xi1> to tensor<4xi32>
  %p4 = tensor.cast %w4 : tensor<4xi32> to tensor<*xi32>
  // CHECK: [0,  0,  1,  0]
  call @print_i32(%p4) : (tensor<*xi32>) -> ()

  // complex<f32>: componentwise, (1+2i) - (1+1i) - (0+1i) = 0.
  %cdata = arith.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  %ci = arith.constant dense<[[0], [0]]> : tensor<2x1xi64>
  %cu = arith.constant dense<[(1.0, 1.0), (0.0, 1.0)]> : tensor<2xcomplex<f32>>
  %5 = nd.scatter_nd %cdata[%ci], %cu reduction<sub> : tensor<2xcomplex<f32>>, tensor<2x1xi64>, tensor<2xcomplex<f32>>
  %p5 = tensor.cast %5 : tensor<2xcomplex<f32>> to tensor<*xcomplex<f32>>
  // CHECK: [(0,0),  (3,4)]
  call @print_c32(%p5) : (tensor<*xcomplex<f32>>) -> ()
  return
}

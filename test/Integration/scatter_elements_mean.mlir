// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm=grain=1 | env OMP_NUM_THREADS=3 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm=check-bounds=false | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// nd.scatter_elements with reduction<mean> and use_init_val(false)
// (OpenVINO ScatterElementsUpdate-12), values worked by hand from the
// definition. The spec's example 2 inputs, plus an element no update
// addresses: data [2, 3, 4, 6, 9], indices [1, 0, 0, 2, 3, 2], updates
// [10, 20, 30, 40, 70, 60]; element 0 takes 20, 30, element 1 takes 10,
// element 2 takes 40, 60, element 3 takes 70, element 4 none.
//   use_init_val(true):  add [52, 13, 104, 76, 9], mul [1200, 30, 9600, 420, 9],
//                        max [30, 10, 60, 70, 9], min [2, 3, 4, 6, 9],
//                        mean [52/3, 13/2, 104/3, 76/2, 9]
//   use_init_val(false): add [50, 10, 100, 70, 9] (the spec's example 2),
//                        mul [600, 10, 2400, 70, 9], max [30, 10, 60, 70, 9],
//                        min [20, 10, 40, 70, 9], mean [25, 10, 50, 70, 9]
// Integer means are rounded towards negative infinity ("For integer types
// the calculated mean is rounded down"). The 2-D cases run through the
// partitions over rows (axis 1) and columns (axis 0); the rank-1 ones
// through row owners. The second run partitions even these small tensors
// (grain=1) on 3 threads; the third has no bounds checks.

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }

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

// The ops take their operands as arguments of @run, so that nothing
// folds them and the lowering computes every result.
func.func @main() {
  %d = arith.constant dense<[2.0, 3.0, 4.0, 6.0, 9.0]> : tensor<5xf32>
  %i = arith.constant dense<[1, 0, 0, 2, 3, 2]> : tensor<6xi64>
  %u = arith.constant dense<[10.0, 20.0, 30.0, 40.0, 70.0, 60.0]> : tensor<6xf32>
  %di = arith.constant dense<[2, 3, 4, 6, 9]> : tensor<5xi32>
  %ui = arith.constant dense<[10, 20, 30, 40, 70, 60]> : tensor<6xi32>
  %ni = arith.constant dense<[1, 0, 0, -3, -2, 2]> : tensor<6xi64>
  %nd = arith.constant dense<[-1, 5]> : tensor<2xi32>
  %nx = arith.constant dense<[0]> : tensor<1xi64>
  %nu = arith.constant dense<[-2]> : tensor<1xi32>
  %bd = arith.constant dense<[2147483647, 0]> : tensor<2xi32>
  %bx = arith.constant dense<[0, 0]> : tensor<2xi64>
  %bu = arith.constant dense<[2147483647, 2147483647]> : tensor<2xi32>
  %m = arith.constant dense<[[2.0, 3.0, 4.0, 6.0, 9.0], [1.0, 1.0, 1.0, -1.0, 7.0]]> : tensor<2x5xf32>
  %mi = arith.constant dense<[[1, 0, 0, 2, 3, 2], [3, 3, -5, 0, 0, 0]]> : tensor<2x6xi32>
  %mu = arith.constant dense<[[10.0, 20.0, 30.0, 40.0, 70.0, 60.0], [1.0, 2.0, 4.0, 5.0, 6.0, 8.0]]> : tensor<2x6xf32>
  %mdi = arith.constant dense<[[2, 3, 4, 6, 9], [1, 1, 1, -1, 7]]> : tensor<2x5xi32>
  %mui = arith.constant dense<[[10, 20, 30, 40, 70, 60], [1, 2, 4, 5, 6, 8]]> : tensor<2x6xi32>
  %td = arith.constant dense<[[2, 1], [3, 1], [4, 1], [6, -1], [9, 7]]> : tensor<5x2xi32>
  %ti = arith.constant dense<[[1, 3], [0, 3], [0, -5], [2, 0], [3, 0], [2, 0]]> : tensor<6x2xi64>
  %tu = arith.constant dense<[[10, 1], [20, 2], [30, 4], [40, 5], [70, 6], [60, 8]]> : tensor<6x2xi32>
  %si = arith.constant dense<[1, 0, 9, 2, 3, 2]> : tensor<6xi64>
  call @run(%d, %i, %u, %di, %ui, %ni, %nd, %nx, %nu, %bd, %bx, %bu, %m, %mi, %mu, %mdi, %mui, %td, %ti, %tu, %si) : (tensor<5xf32>, tensor<6xi64>, tensor<6xf32>, tensor<5xi32>, tensor<6xi32>, tensor<6xi64>, tensor<2xi32>, tensor<1xi64>, tensor<1xi32>, tensor<2xi32>, tensor<2xi64>, tensor<2xi32>, tensor<2x5xf32>, tensor<2x6xi32>, tensor<2x6xf32>, tensor<2x5xi32>, tensor<2x6xi32>, tensor<5x2xi32>, tensor<6x2xi64>, tensor<6x2xi32>, tensor<6xi64>) -> ()
  return
}

func.func @run(%d: tensor<5xf32>, %i: tensor<6xi64>, %u: tensor<6xf32>, %di: tensor<5xi32>, %ui: tensor<6xi32>, %ni: tensor<6xi64>, %nd: tensor<2xi32>, %nx: tensor<1xi64>, %nu: tensor<1xi32>, %bd: tensor<2xi32>, %bx: tensor<2xi64>, %bu: tensor<2xi32>, %m: tensor<2x5xf32>, %mi: tensor<2x6xi32>, %mu: tensor<2x6xf32>, %mdi: tensor<2x5xi32>, %mui: tensor<2x6xi32>, %td: tensor<5x2xi32>, %ti: tensor<6x2xi64>, %tu: tensor<6x2xi32>, %si: tensor<6xi64>) {

  // CHECK: [17.3333,  6.5,  34.6667,  38,  9]
  %0 = nd.scatter_elements %d[%i], %u reduction<mean> : tensor<5xf32>, tensor<6xi64>, tensor<6xf32>
  %p0 = tensor.cast %0 : tensor<5xf32> to tensor<*xf32>
  call @print(%p0) : (tensor<*xf32>) -> ()
  // CHECK: [17,  6,  34,  38,  9]
  %1 = nd.scatter_elements %di[%i], %ui reduction<mean> : tensor<5xi32>, tensor<6xi64>, tensor<6xi32>
  %p1 = tensor.cast %1 : tensor<5xi32> to tensor<*xi32>
  call @print_i32(%p1) : (tensor<*xi32>) -> ()
  // CHECK: [25,  10,  50,  70,  9]
  %2 = nd.scatter_elements %d[%i], %u reduction<mean> use_init_val(false) : tensor<5xf32>, tensor<6xi64>, tensor<6xf32>
  %p2 = tensor.cast %2 : tensor<5xf32> to tensor<*xf32>
  call @print(%p2) : (tensor<*xf32>) -> ()
  // Dynamic, negative indices (-3 is 2, -2 is 3).
  // CHECK: [25,  10,  50,  70,  9]
  %dyd = tensor.cast %di : tensor<5xi32> to tensor<?xi32>
  %dyi = tensor.cast %ni : tensor<6xi64> to tensor<?xi64>
  %dyu = tensor.cast %ui : tensor<6xi32> to tensor<?xi32>
  %3 = nd.scatter_elements %dyd[%dyi], %dyu reduction<mean> use_init_val(false) : tensor<?xi32>, tensor<?xi64>, tensor<?xi32>
  %p3 = tensor.cast %3 : tensor<?xi32> to tensor<*xi32>
  call @print_i32(%p3) : (tensor<*xi32>) -> ()

  // Every reduction without the initial value.
  // CHECK: [50,  10,  100,  70,  9]
  %4 = nd.scatter_elements %d[%i], %u reduction<add> use_init_val(false) : tensor<5xf32>, tensor<6xi64>, tensor<6xf32>
  %p4 = tensor.cast %4 : tensor<5xf32> to tensor<*xf32>
  call @print(%p4) : (tensor<*xf32>) -> ()
  // CHECK: [600,  10,  2400,  70,  9]
  %5 = nd.scatter_elements %di[%i], %ui reduction<mul> use_init_val(false) : tensor<5xi32>, tensor<6xi64>, tensor<6xi32>
  %p5 = tensor.cast %5 : tensor<5xi32> to tensor<*xi32>
  call @print_i32(%p5) : (tensor<*xi32>) -> ()
  // CHECK: [30,  10,  60,  70,  9]
  %6 = nd.scatter_elements %d[%i], %u reduction<max> use_init_val(false) : tensor<5xf32>, tensor<6xi64>, tensor<6xf32>
  %p6 = tensor.cast %6 : tensor<5xf32> to tensor<*xf32>
  call @print(%p6) : (tensor<*xf32>) -> ()
  // CHECK: [20,  10,  40,  70,  9]
  %7 = nd.scatter_elements %di[%i], %ui reduction<min> use_init_val(false) : tensor<5xi32>, tensor<6xi64>, tensor<6xi32>
  %p7 = tensor.cast %7 : tensor<5xi32> to tensor<*xi32>
  call @print_i32(%p7) : (tensor<*xi32>) -> ()
  // `none` ignores use_init_val: the last write wins.
  // CHECK: [30,  10,  60,  70,  9]
  %8 = nd.scatter_elements %d[%i], %u use_init_val(false) : tensor<5xf32>, tensor<6xi64>, tensor<6xf32>
  %p8 = tensor.cast %8 : tensor<5xf32> to tensor<*xf32>
  call @print(%p8) : (tensor<*xf32>) -> ()
  // And with it, for comparison.
  // CHECK: [52,  13,  104,  76,  9]
  %9 = nd.scatter_elements %d[%i], %u reduction<add> : tensor<5xf32>, tensor<6xi64>, tensor<6xf32>
  %p9 = tensor.cast %9 : tensor<5xf32> to tensor<*xf32>
  call @print(%p9) : (tensor<*xf32>) -> ()
  // CHECK: [1200,  30,  9600,  420,  9]
  %10 = nd.scatter_elements %di[%i], %ui reduction<mul> : tensor<5xi32>, tensor<6xi64>, tensor<6xi32>
  %p10 = tensor.cast %10 : tensor<5xi32> to tensor<*xi32>
  call @print_i32(%p10) : (tensor<*xi32>) -> ()
  // CHECK: [2,  3,  4,  6,  9]
  %11 = nd.scatter_elements %di[%i], %ui reduction<min> : tensor<5xi32>, tensor<6xi64>, tensor<6xi32>
  %p11 = tensor.cast %11 : tensor<5xi32> to tensor<*xi32>
  call @print_i32(%p11) : (tensor<*xi32>) -> ()

  // Rounding down below zero: floor((-1 + -2) / 2) = -2; and an i32 mean
  // whose sum overflows i32: (2^31 - 1) * 3 / 3.
  // CHECK: [-2,  5]
  %12 = nd.scatter_elements %nd[%nx], %nu reduction<mean> : tensor<2xi32>, tensor<1xi64>, tensor<1xi32>
  %p12 = tensor.cast %12 : tensor<2xi32> to tensor<*xi32>
  call @print_i32(%p12) : (tensor<*xi32>) -> ()
  // CHECK: [2147483647,  0]
  %13 = nd.scatter_elements %bd[%bx], %bu reduction<mean> : tensor<2xi32>, tensor<2xi64>, tensor<2xi32>
  %p13 = tensor.cast %13 : tensor<2xi32> to tensor<*xi32>
  call @print_i32(%p13) : (tensor<*xi32>) -> ()

  // 2-D, axis 1: row 0 is the example above; row 1 = [1, 1, 1, -1, 7] with
  // indices [3, 3, -5, 0, 0, 0] and updates [1, 2, 4, 5, 6, 8]: element 0
  // takes 4, 5, 6, 8 and element 3 takes 1, 2.
  //   mean:              (1+4+5+6+8)/5 = 4.8, (-1+1+2)/3 = 0.666667; i32 4, 0
  //   mean without init: 23/4 = 5.75, 3/2 = 1.5; i32 5, 1
  // CHECK: sizes = [2, 5]
  // CHECK-NEXT: {{\[\[}}17.3333, 6.5, 34.6667, 38, 9],
  // CHECK-NEXT: [4.8, 1, 1, 0.666667, 7]]
  %14 = nd.scatter_elements %m[%mi], %mu axis(1) reduction<mean> : tensor<2x5xf32>, tensor<2x6xi32>, tensor<2x6xf32>
  %p14 = tensor.cast %14 : tensor<2x5xf32> to tensor<*xf32>
  call @print(%p14) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2, 5]
  // CHECK-NEXT: {{\[\[}}17, 6, 34, 38, 9],
  // CHECK-NEXT: [4, 1, 1, 0, 7]]
  %15 = nd.scatter_elements %mdi[%mi], %mui axis(1) reduction<mean> : tensor<2x5xi32>, tensor<2x6xi32>, tensor<2x6xi32>
  %p15 = tensor.cast %15 : tensor<2x5xi32> to tensor<*xi32>
  call @print_i32(%p15) : (tensor<*xi32>) -> ()
  // Dynamic dims.
  // CHECK: sizes = [2, 5]
  // CHECK-NEXT: {{\[\[}}25, 10, 50, 70, 9],
  // CHECK-NEXT: [5.75, 1, 1, 1.5, 7]]
  %md = tensor.cast %m : tensor<2x5xf32> to tensor<?x?xf32>
  %mid = tensor.cast %mi : tensor<2x6xi32> to tensor<?x?xi32>
  %mud = tensor.cast %mu : tensor<2x6xf32> to tensor<?x?xf32>
  %16 = nd.scatter_elements %md[%mid], %mud axis(1) reduction<mean> use_init_val(false) : tensor<?x?xf32>, tensor<?x?xi32>, tensor<?x?xf32>
  %p16 = tensor.cast %16 : tensor<?x?xf32> to tensor<*xf32>
  call @print(%p16) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2, 5]
  // CHECK-NEXT: {{\[\[}}25, 10, 50, 70, 9],
  // CHECK-NEXT: [5, 1, 1, 1, 7]]
  %17 = nd.scatter_elements %mdi[%mi], %mui axis(1) reduction<mean> use_init_val(false) : tensor<2x5xi32>, tensor<2x6xi32>, tensor<2x6xi32>
  %p17 = tensor.cast %17 : tensor<2x5xi32> to tensor<*xi32>
  call @print_i32(%p17) : (tensor<*xi32>) -> ()
  // add / max / min / mul without init, row 1: [23, 1, 1, 3, 7],
  // [8, 1, 1, 2, 7], [4, 1, 1, 1, 7], [960, 1, 1, 2, 7].
  // CHECK: sizes = [2, 5]
  // CHECK-NEXT: {{\[\[}}50, 10, 100, 70, 9],
  // CHECK-NEXT: [23, 1, 1, 3, 7]]
  %18 = nd.scatter_elements %m[%mi], %mu axis(1) reduction<add> use_init_val(false) : tensor<2x5xf32>, tensor<2x6xi32>, tensor<2x6xf32>
  %p18 = tensor.cast %18 : tensor<2x5xf32> to tensor<*xf32>
  call @print(%p18) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2, 5]
  // CHECK-NEXT: {{\[\[}}30, 10, 60, 70, 9],
  // CHECK-NEXT: [8, 1, 1, 2, 7]]
  %19 = nd.scatter_elements %mdi[%mi], %mui axis(1) reduction<max> use_init_val(false) : tensor<2x5xi32>, tensor<2x6xi32>, tensor<2x6xi32>
  %p19 = tensor.cast %19 : tensor<2x5xi32> to tensor<*xi32>
  call @print_i32(%p19) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [2, 5]
  // CHECK-NEXT: {{\[\[}}20, 10, 40, 70, 9],
  // CHECK-NEXT: [4, 1, 1, 1, 7]]
  %20 = nd.scatter_elements %m[%mi], %mu axis(1) reduction<min> use_init_val(false) : tensor<2x5xf32>, tensor<2x6xi32>, tensor<2x6xf32>
  %p20 = tensor.cast %20 : tensor<2x5xf32> to tensor<*xf32>
  call @print(%p20) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2, 5]
  // CHECK-NEXT: {{\[\[}}600, 10, 2400, 70, 9],
  // CHECK-NEXT: [960, 1, 1, 2, 7]]
  %21 = nd.scatter_elements %mdi[%mi], %mui axis(1) reduction<mul> use_init_val(false) : tensor<2x5xi32>, tensor<2x6xi32>, tensor<2x6xi32>
  %p21 = tensor.cast %21 : tensor<2x5xi32> to tensor<*xi32>
  call @print_i32(%p21) : (tensor<*xi32>) -> ()

  // Axis 0: the transposes of the i32 mean above.
  // CHECK: sizes = [5, 2]
  // CHECK-NEXT: {{\[\[}}17, 4],
  // CHECK-NEXT: [6, 1],
  // CHECK-NEXT: [34, 1],
  // CHECK-NEXT: [38, 0],
  // CHECK-NEXT: [9, 7]]
  %22 = nd.scatter_elements %td[%ti], %tu axis(0) reduction<mean> : tensor<5x2xi32>, tensor<6x2xi64>, tensor<6x2xi32>
  %p22 = tensor.cast %22 : tensor<5x2xi32> to tensor<*xi32>
  call @print_i32(%p22) : (tensor<*xi32>) -> ()

  // With oob<skip>: index 9 is dropped, element 0 takes 20 only:
  // (2 + 20) / 2; element 2 (4 + 40 + 60) / 3 rounded down.
  // CHECK: [11,  6,  34,  38,  9]
  %23 = nd.scatter_elements %di[%si], %ui reduction<mean> oob<skip> : tensor<5xi32>, tensor<6xi64>, tensor<6xi32>
  %p23 = tensor.cast %23 : tensor<5xi32> to tensor<*xi32>
  call @print_i32(%p23) : (tensor<*xi32>) -> ()
  return
}

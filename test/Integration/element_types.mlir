// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// Element types other than f32, with the reduction semantics of
// docs/Rationale.md: f16 and bf16 (rounded after every combination), f64,
// signless integers wrapping around (i8, i32, i64) and comparing signed,
// unsigned integers comparing unsigned (ui8, ui32), i1 (add and max are
// logical or, mul and min logical and), complex<f32> add and mul, and
// gathers of i16, i1, bf16 and complex<f32>.
//
// Unsigned results are printed through a linalg.generic that reinterprets
// them as signless and zero-extends them, so 250 prints as 250; i1 results
// are zero-extended and i8 results sign-extended to i32.

func.func private @printMemrefF16(memref<*xf16>) attributes { llvm.emit_c_interface }
func.func private @printMemrefBF16(memref<*xbf16>) attributes { llvm.emit_c_interface }
func.func private @printMemrefF64(memref<*xf64>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI16(memref<*xi16>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI64(memref<*xi64>) attributes { llvm.emit_c_interface }
func.func private @printMemrefC32(memref<*xcomplex<f32>>) attributes { llvm.emit_c_interface }

func.func @print_f16(%t: tensor<*xf16>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf16> to memref<*xf16>
  call @printMemrefF16(%m) : (memref<*xf16>) -> ()
  return
}

func.func @print_bf16(%t: tensor<*xbf16>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xbf16> to memref<*xbf16>
  call @printMemrefBF16(%m) : (memref<*xbf16>) -> ()
  return
}

func.func @print_f64(%t: tensor<*xf64>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf64> to memref<*xf64>
  call @printMemrefF64(%m) : (memref<*xf64>) -> ()
  return
}

// printMemrefI8 prints characters: print i8 as i32.
func.func @print_i8(%t: tensor<4xi8>) {
  %w = arith.extsi %t : tensor<4xi8> to tensor<4xi32>
  %u = tensor.cast %w : tensor<4xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_i16(%t: tensor<*xi16>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xi16> to memref<*xi16>
  call @printMemrefI16(%m) : (memref<*xi16>) -> ()
  return
}

func.func @print_i32(%t: tensor<*xi32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xi32> to memref<*xi32>
  call @printMemrefI32(%m) : (memref<*xi32>) -> ()
  return
}

func.func @print_i64(%t: tensor<*xi64>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xi64> to memref<*xi64>
  call @printMemrefI64(%m) : (memref<*xi64>) -> ()
  return
}

func.func @print_c32(%t: tensor<*xcomplex<f32>>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xcomplex<f32>> to memref<*xcomplex<f32>>
  call @printMemrefC32(%m) : (memref<*xcomplex<f32>>) -> ()
  return
}

func.func @print_ui8(%t: tensor<?xui8>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %t, %c0 : tensor<?xui8>
  %e = tensor.empty(%n) : tensor<?xi32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%t : tensor<?xui8>) outs(%e : tensor<?xi32>) {
  ^bb0(%a: ui8, %out: i32):
    %s = builtin.unrealized_conversion_cast %a : ui8 to i8
    %x = arith.extui %s : i8 to i32
    linalg.yield %x : i32
  } -> tensor<?xi32>
  %u = tensor.cast %w : tensor<?xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_ui32(%t: tensor<?x?xui32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %t, %c0 : tensor<?x?xui32>
  %k = tensor.dim %t, %c1 : tensor<?x?xui32>
  %e = tensor.empty(%n, %k) : tensor<?x?xi64>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<?x?xui32>) outs(%e : tensor<?x?xi64>) {
  ^bb0(%a: ui32, %out: i64):
    %s = builtin.unrealized_conversion_cast %a : ui32 to i32
    %x = arith.extui %s : i32 to i64
    linalg.yield %x : i64
  } -> tensor<?x?xi64>
  %u = tensor.cast %w : tensor<?x?xi64> to tensor<*xi64>
  call @print_i64(%u) : (tensor<*xi64>) -> ()
  return
}

func.func @print_i1(%t: tensor<6xi1>) {
  %w = arith.extui %t : tensor<6xi1> to tensor<6xi32>
  %u = tensor.cast %w : tensor<6xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Floating point
//===----------------------------------------------------------------------===//

// f16, scatter_elements add: 1000 + 0.3 + 0.3 rounds to f16 twice (1000.5,
// then 1001), where one rounding of 1000.6 would give 1000.5.
// numpy: d = np.array([1000, 0.1, 2, -3], np.float16); np.add.at(d, [0, 1, 0, -1, 2], np.array([0.3, 0.2, 0.3, 4, -0.5], np.float16)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [1001, 0.299805, 1.5, 1]
func.func @f16_add() {
  %data = arith.constant dense<[1000.0, 0.1, 2.0, -3.0]> : tensor<4xf16>
  %indices = arith.constant dense<[0, 1, 0, -1, 2]> : tensor<5xi64>
  %updates = arith.constant dense<[0.3, 0.2, 0.3, 4.0, -0.5]> : tensor<5xf16>
  %r = nd.scatter_elements %data[%indices], %updates reduction<add> : tensor<4xf16>, tensor<5xi64>, tensor<5xf16>
  %u = tensor.cast %r : tensor<4xf16> to tensor<*xf16>
  call @print_f16(%u) : (tensor<*xf16>) -> ()
  return
}

// f16, scatter_nd max with slices.
// numpy: d = np.array([[0.5, -1], [2, 7], [-4, 3]], np.float16); np.maximum.at(d, [1, -1, 1], np.array([[8, -2], [-5, 3.5], [1, 9]], np.float16)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}0.5, -1],
// CHECK-NEXT: [8, 9],
// CHECK-NEXT: [-4, 3.5]]
func.func @f16_max_slices() {
  %data = arith.constant dense<[[0.5, -1.0], [2.0, 7.0], [-4.0, 3.0]]> : tensor<3x2xf16>
  %indices = arith.constant dense<[[1], [-1], [1]]> : tensor<3x1xi32>
  %updates = arith.constant dense<[[8.0, -2.0], [-5.0, 3.5], [1.0, 9.0]]> : tensor<3x2xf16>
  %r = nd.scatter_nd %data[%indices], %updates reduction<max> : tensor<3x2xf16>, tensor<3x1xi32>, tensor<3x2xf16>
  %u = tensor.cast %r : tensor<3x2xf16> to tensor<*xf16>
  call @print_f16(%u) : (tensor<*xf16>) -> ()
  return
}

// bf16, scatter_nd add: 256 + 1 is a tie between 256 and 258 and rounds to
// even (256), then 256 + 3 ties between 258 and 260 and gives 260; 0.1 is
// 0.100098 in bf16. numpy has no bf16: `bf` rounds f32 to bf16, nearest even.
// numpy: bf = lambda x: ((lambda b: (b + np.uint32(0x7FFF) + ((b >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000))(np.array(x, np.float32).view(np.uint32))).view(np.float32); d = bf([256, 1.5, 0.1, -2]); [d.__setitem__(i, bf(d[i] + u)) for i, u in [(0, 1), (0, 3), (1, 2), (-1, 0.5)]]; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [260, 3.5, 0.100098, -1.5]
func.func @bf16_add() {
  %data = arith.constant dense<[256.0, 1.5, 0.1, -2.0]> : tensor<4xbf16>
  %indices = arith.constant dense<[[0], [0], [1], [-1]]> : tensor<4x1xi64>
  %updates = arith.constant dense<[1.0, 3.0, 2.0, 0.5]> : tensor<4xbf16>
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<4xbf16>, tensor<4x1xi64>, tensor<4xbf16>
  %u = tensor.cast %r : tensor<4xbf16> to tensor<*xbf16>
  call @print_bf16(%u) : (tensor<*xbf16>) -> ()
  return
}

// bf16, scatter_elements mul and min along axis 1.
// numpy: d = np.array([[1.5, -2], [3, 0.25]], np.float32); np.multiply.at(d, (np.array([[0, 0], [1, 1]]), np.array([[1, -1], [0, 0]])), np.array([[4, 0.5], [-2, 8]], np.float32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1.5, -4],
// CHECK-NEXT: [-48, 0.25]]
func.func @bf16_mul() {
  %data = arith.constant dense<[[1.5, -2.0], [3.0, 0.25]]> : tensor<2x2xbf16>
  %indices = arith.constant dense<[[1, -1], [0, 0]]> : tensor<2x2xi64>
  %updates = arith.constant dense<[[4.0, 0.5], [-2.0, 8.0]]> : tensor<2x2xbf16>
  %r = nd.scatter_elements %data[%indices], %updates axis(1) reduction<mul> : tensor<2x2xbf16>, tensor<2x2xi64>, tensor<2x2xbf16>
  %u = tensor.cast %r : tensor<2x2xbf16> to tensor<*xbf16>
  call @print_bf16(%u) : (tensor<*xbf16>) -> ()
  return
}

// numpy: d = np.array([[1.5, -2], [3, 0.25]], np.float32); np.minimum.at(d, (np.array([[0, 0], [1, 1]]), np.array([[1, -1], [0, 0]])), np.array([[4, 0.5], [-2, 8]], np.float32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1.5, -2],
// CHECK-NEXT: [-2, 0.25]]
func.func @bf16_min() {
  %data = arith.constant dense<[[1.5, -2.0], [3.0, 0.25]]> : tensor<2x2xbf16>
  %indices = arith.constant dense<[[1, -1], [0, 0]]> : tensor<2x2xi64>
  %updates = arith.constant dense<[[4.0, 0.5], [-2.0, 8.0]]> : tensor<2x2xbf16>
  %r = nd.scatter_elements %data[%indices], %updates axis(1) reduction<min> : tensor<2x2xbf16>, tensor<2x2xi64>, tensor<2x2xbf16>
  %u = tensor.cast %r : tensor<2x2xbf16> to tensor<*xbf16>
  call @print_bf16(%u) : (tensor<*xbf16>) -> ()
  return
}

// bf16 gather_elements.
// numpy: d = np.array([[0.75, 1.25], [-8, 2.5]]); r = d[np.array([[0, -2], [1, 0]]), np.arange(2)]
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}0.75, 1.25],
// CHECK-NEXT: [-8, 1.25]]
func.func @bf16_gather() {
  %data = arith.constant dense<[[0.75, 1.25], [-8.0, 2.5]]> : tensor<2x2xbf16>
  %indices = arith.constant dense<[[0, -2], [1, 0]]> : tensor<2x2xi64>
  %r = nd.gather_elements %data[%indices] axis(0) : tensor<2x2xbf16>, tensor<2x2xi64> -> tensor<2x2xbf16>
  %u = tensor.cast %r : tensor<2x2xbf16> to tensor<*xbf16>
  call @print_bf16(%u) : (tensor<*xbf16>) -> ()
  return
}

// f64, scatter_nd mul: 1e300 * 1e5 overflows f32 but not f64.
// numpy: d = np.array([1e300, 2.5, -1e-300]); np.multiply.at(d, [0, 2, 2], [1e5, 1e-10, -3]); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [1e+305, 2.5, 3e-310]
func.func @f64_mul() {
  %data = arith.constant dense<[1.0e300, 2.5, -1.0e-300]> : tensor<3xf64>
  %indices = arith.constant dense<[[0], [2], [2]]> : tensor<3x1xi64>
  %updates = arith.constant dense<[1.0e5, 1.0e-10, -3.0]> : tensor<3xf64>
  %r = nd.scatter_nd %data[%indices], %updates reduction<mul> : tensor<3xf64>, tensor<3x1xi64>, tensor<3xf64>
  %u = tensor.cast %r : tensor<3xf64> to tensor<*xf64>
  call @print_f64(%u) : (tensor<*xf64>) -> ()
  return
}

// f64 gather_nd.
// numpy: d = np.array([[1e-200, 2], [3, 4e200]]); r = d[[1, 0, -1], [-1, 0, 0]]
// CHECK: Unranked Memref
// CHECK-NEXT: [4e+200, 1e-200, 3]
func.func @f64_gather() {
  %data = arith.constant dense<[[1.0e-200, 2.0], [3.0, 4.0e200]]> : tensor<2x2xf64>
  %indices = arith.constant dense<[[1, -1], [0, 0], [-1, 0]]> : tensor<3x2xi64>
  %r = nd.gather_nd %data[%indices] : tensor<2x2xf64>, tensor<3x2xi64> -> tensor<3xf64>
  %u = tensor.cast %r : tensor<3xf64> to tensor<*xf64>
  call @print_f64(%u) : (tensor<*xf64>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Signless integers: wrapping, signed order
//===----------------------------------------------------------------------===//

// i8 add wraps: 100 + 100 = -56 (then + 50 = -6), -128 - 1 = 127,
// 127 + 1 = -128.
// numpy: d = np.array([100, -128, 127, 0], np.int8); np.add.at(d, [0, 1, 2, 0], np.array([100, -1, 1, 50], np.int8)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [-6, 127, -128, 0]
func.func @i8_add() {
  %data = arith.constant dense<[100, -128, 127, 0]> : tensor<4xi8>
  %indices = arith.constant dense<[[0], [1], [2], [0]]> : tensor<4x1xi64>
  %updates = arith.constant dense<[100, -1, 1, 50]> : tensor<4xi8>
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<4xi8>, tensor<4x1xi64>, tensor<4xi8>
  call @print_i8(%r) : (tensor<4xi8>) -> ()
  return
}

// i8 mul wraps: 16 * 16 = 0, -128 * -1 = -128, 7 * 7 * 3 * 2 = 294 = 38
// (the last update addressed as -2).
// numpy: d = np.array([16, -128, 7, 5], np.int8); np.multiply.at(d, [0, 1, 2, 2, -2], np.array([16, -1, 7, 3, 2], np.int8)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [0, -128, 38, 5]
func.func @i8_mul() {
  %data = arith.constant dense<[16, -128, 7, 5]> : tensor<4xi8>
  %indices = arith.constant dense<[0, 1, 2, 2, -2]> : tensor<5xi32>
  %updates = arith.constant dense<[16, -1, 7, 3, 2]> : tensor<5xi8>
  %r = nd.scatter_elements %data[%indices], %updates reduction<mul> : tensor<4xi8>, tensor<5xi32>, tensor<5xi8>
  call @print_i8(%r) : (tensor<4xi8>) -> ()
  return
}

// i8 max and min compare signed: -6 < 100.
// numpy: d = np.array([-6, 100, -128, 0], np.int8); np.maximum.at(d, [0, 1, 2, 3], np.array([100, -6, 127, -1], np.int8)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [100, 100, 127, 0]
func.func @i8_max() {
  %data = arith.constant dense<[-6, 100, -128, 0]> : tensor<4xi8>
  %indices = arith.constant dense<[[0], [1], [2], [3]]> : tensor<4x1xi64>
  %updates = arith.constant dense<[100, -6, 127, -1]> : tensor<4xi8>
  %r = nd.scatter_nd %data[%indices], %updates reduction<max> : tensor<4xi8>, tensor<4x1xi64>, tensor<4xi8>
  call @print_i8(%r) : (tensor<4xi8>) -> ()
  return
}

// numpy: d = np.array([-6, 100, -128, 0], np.int8); np.minimum.at(d, [0, 1, 2, 3], np.array([100, -6, 127, -1], np.int8)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [-6, -6, -128, -1]
func.func @i8_min() {
  %data = arith.constant dense<[-6, 100, -128, 0]> : tensor<4xi8>
  %indices = arith.constant dense<[[0], [1], [2], [3]]> : tensor<4x1xi64>
  %updates = arith.constant dense<[100, -6, 127, -1]> : tensor<4xi8>
  %r = nd.scatter_nd %data[%indices], %updates reduction<min> : tensor<4xi8>, tensor<4x1xi64>, tensor<4xi8>
  call @print_i8(%r) : (tensor<4xi8>) -> ()
  return
}

// i16 gather_nd.
// numpy: d = np.array([[-32768, 32767], [-1, 12345]], np.int16); r = d[[1, -2, 0]]
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}-1, 12345],
// CHECK-NEXT: [-32768, 32767],
// CHECK-NEXT: [-32768, 32767]]
func.func @i16_gather() {
  %data = arith.constant dense<[[-32768, 32767], [-1, 12345]]> : tensor<2x2xi16>
  %indices = arith.constant dense<[[1], [-2], [0]]> : tensor<3x1xi64>
  %r = nd.gather_nd %data[%indices] : tensor<2x2xi16>, tensor<3x1xi64> -> tensor<3x2xi16>
  %u = tensor.cast %r : tensor<3x2xi16> to tensor<*xi16>
  call @print_i16(%u) : (tensor<*xi16>) -> ()
  return
}

// i32 add wraps: 2147483647 + 1 = -2147483648.
// numpy: d = np.array([[2147483647, -2147483648], [5, 6]], np.int32); np.add.at(d, (np.array([[0, 0]]), np.array([[0, -1]])), np.array([[1, -1]], np.int32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}-2147483648, 2147483647],
// CHECK-NEXT: [5, 6]]
func.func @i32_add() {
  %data = arith.constant dense<[[2147483647, -2147483648], [5, 6]]> : tensor<2x2xi32>
  %indices = arith.constant dense<[[0, -1]]> : tensor<1x2xi64>
  %updates = arith.constant dense<[[1, -1]]> : tensor<1x2xi32>
  %r = nd.scatter_elements %data[%indices], %updates axis(1) reduction<add> : tensor<2x2xi32>, tensor<1x2xi64>, tensor<1x2xi32>
  %u = tensor.cast %r : tensor<2x2xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

// i64 add and mul wrap: 2^63 - 1 + 1 = -2^63 and 2^62 * 2 = -2^63.
// numpy: d = np.array([9223372036854775807, 4611686018427387904, -3], np.int64); np.add.at(d, [0, 2], np.array([1, 10], np.int64)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [-9223372036854775808, 4611686018427387904, 7]
func.func @i64_add() {
  %data = arith.constant dense<[9223372036854775807, 4611686018427387904, -3]> : tensor<3xi64>
  %indices = arith.constant dense<[[0], [2]]> : tensor<2x1xi64>
  %updates = arith.constant dense<[1, 10]> : tensor<2xi64>
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<3xi64>, tensor<2x1xi64>, tensor<2xi64>
  %u = tensor.cast %r : tensor<3xi64> to tensor<*xi64>
  call @print_i64(%u) : (tensor<*xi64>) -> ()
  return
}

// numpy: d = np.array([9223372036854775807, 4611686018427387904, -3], np.int64); np.multiply.at(d, [1, 2], np.array([2, 10], np.int64)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [9223372036854775807, -9223372036854775808, -30]
func.func @i64_mul() {
  %data = arith.constant dense<[9223372036854775807, 4611686018427387904, -3]> : tensor<3xi64>
  %indices = arith.constant dense<[[1], [2]]> : tensor<2x1xi64>
  %updates = arith.constant dense<[2, 10]> : tensor<2xi64>
  %r = nd.scatter_nd %data[%indices], %updates reduction<mul> : tensor<3xi64>, tensor<2x1xi64>, tensor<2xi64>
  %u = tensor.cast %r : tensor<3xi64> to tensor<*xi64>
  call @print_i64(%u) : (tensor<*xi64>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Unsigned integers: wrapping, unsigned order
//===----------------------------------------------------------------------===//

// ui8 add wraps: 250 + 10 = 4; 255 + 255 = 254.
// numpy: d = np.array([250, 100, 255, 0], np.uint8); np.add.at(d, [0, 2, 2, 3], np.array([10, 255, 0, 7], np.uint8)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [4, 100, 254, 7]
func.func @ui8_add() {
  %data = arith.constant dense<[250, 100, 255, 0]> : tensor<4xui8>
  %indices = arith.constant dense<[[0], [2], [2], [3]]> : tensor<4x1xi64>
  %updates = arith.constant dense<[10, 255, 0, 7]> : tensor<4xui8>
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<4xui8>, tensor<4x1xi64>, tensor<4xui8>
  %c = tensor.cast %r : tensor<4xui8> to tensor<?xui8>
  call @print_ui8(%c) : (tensor<?xui8>) -> ()
  return
}

// ui8 max and min compare unsigned: 250 > 100 (signed, 250 would be -6).
// numpy: d = np.array([250, 100, 128, 1], np.uint8); np.maximum.at(d, [0, 1, 2, 3, -1], np.array([100, 250, 127, 255, 0], np.uint8)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [250, 250, 128, 255]
func.func @ui8_max() {
  %data = arith.constant dense<[250, 100, 128, 1]> : tensor<4xui8>
  %indices = arith.constant dense<[[0], [1], [2], [3], [-1]]> : tensor<5x1xi64>
  %updates = arith.constant dense<[100, 250, 127, 255, 0]> : tensor<5xui8>
  %r = nd.scatter_nd %data[%indices], %updates reduction<max> : tensor<4xui8>, tensor<5x1xi64>, tensor<5xui8>
  %c = tensor.cast %r : tensor<4xui8> to tensor<?xui8>
  call @print_ui8(%c) : (tensor<?xui8>) -> ()
  return
}

// numpy: d = np.array([250, 100, 128, 1], np.uint8); np.minimum.at(d, [0, 1, 2, 3, -1], np.array([100, 250, 127, 255, 0], np.uint8)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [100, 100, 127, 0]
func.func @ui8_min() {
  %data = arith.constant dense<[250, 100, 128, 1]> : tensor<4xui8>
  %indices = arith.constant dense<[[0], [1], [2], [3], [-1]]> : tensor<5x1xi64>
  %updates = arith.constant dense<[100, 250, 127, 255, 0]> : tensor<5xui8>
  %r = nd.scatter_nd %data[%indices], %updates reduction<min> : tensor<4xui8>, tensor<5x1xi64>, tensor<5xui8>
  %c = tensor.cast %r : tensor<4xui8> to tensor<?xui8>
  call @print_ui8(%c) : (tensor<?xui8>) -> ()
  return
}

// ui8 mul wraps: 16 * 17 = 272 = 16; 200 * 2 = 144.
// numpy: d = np.array([16, 200, 3, 9], np.uint8); np.multiply.at(d, [0, 1, 2], np.array([17, 2, 5], np.uint8)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [16, 144, 15, 9]
func.func @ui8_mul() {
  %data = arith.constant dense<[16, 200, 3, 9]> : tensor<4xui8>
  %indices = arith.constant dense<[0, 1, 2]> : tensor<3xindex>
  %updates = arith.constant dense<[17, 2, 5]> : tensor<3xui8>
  %r = nd.scatter_elements %data[%indices], %updates reduction<mul> : tensor<4xui8>, tensor<3xindex>, tensor<3xui8>
  %c = tensor.cast %r : tensor<4xui8> to tensor<?xui8>
  call @print_ui8(%c) : (tensor<?xui8>) -> ()
  return
}

// ui32 max and min along axis 1: 4000000000 is above 2^31.
// numpy: d = np.array([[4000000000, 5], [7, 3000000000]], np.uint32); np.maximum.at(d, (np.array([[0, 0], [1, 1]]), np.array([[0, 1], [-1, 0]])), np.array([[5, 4000000000], [2, 2147483648]], np.uint32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}4000000000, 4000000000],
// CHECK-NEXT: [2147483648, 3000000000]]
func.func @ui32_max() {
  %data = arith.constant dense<[[4000000000, 5], [7, 3000000000]]> : tensor<2x2xui32>
  %indices = arith.constant dense<[[0, 1], [-1, 0]]> : tensor<2x2xi64>
  %updates = arith.constant dense<[[5, 4000000000], [2, 2147483648]]> : tensor<2x2xui32>
  %r = nd.scatter_elements %data[%indices], %updates axis(1) reduction<max> : tensor<2x2xui32>, tensor<2x2xi64>, tensor<2x2xui32>
  %c = tensor.cast %r : tensor<2x2xui32> to tensor<?x?xui32>
  call @print_ui32(%c) : (tensor<?x?xui32>) -> ()
  return
}

// numpy: d = np.array([[4000000000, 5], [7, 3000000000]], np.uint32); np.minimum.at(d, (np.array([[0, 0], [1, 1]]), np.array([[0, 1], [-1, 0]])), np.array([[5, 4000000000], [2, 2147483648]], np.uint32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}5, 5],
// CHECK-NEXT: [7, 2]]
func.func @ui32_min() {
  %data = arith.constant dense<[[4000000000, 5], [7, 3000000000]]> : tensor<2x2xui32>
  %indices = arith.constant dense<[[0, 1], [-1, 0]]> : tensor<2x2xi64>
  %updates = arith.constant dense<[[5, 4000000000], [2, 2147483648]]> : tensor<2x2xui32>
  %r = nd.scatter_elements %data[%indices], %updates axis(1) reduction<min> : tensor<2x2xui32>, tensor<2x2xi64>, tensor<2x2xui32>
  %c = tensor.cast %r : tensor<2x2xui32> to tensor<?x?xui32>
  call @print_ui32(%c) : (tensor<?x?xui32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// i1: add and max are or, mul and min are and
//===----------------------------------------------------------------------===//

// Each element gets two updates; data, first and second update:
// [0] 0, 0, 0; [1] 0, 1, 1; [2] 1, 1, 1; [3] 1, 0, 1; [4] 0, 1, 0;
// [5] 1, 1, 0. Wrapping add (xor) would differ from or at [1], [3], [5]; a
// signed max (true is -1 in i1) would be and, a signed min or.
func.func @i1_data() -> (tensor<6xi1>, tensor<12x1xi64>, tensor<12xi1>) {
  %data = arith.constant dense<[false, false, true, true, false, true]> : tensor<6xi1>
  %indices = arith.constant dense<[[0], [1], [2], [3], [4], [5], [-6], [-5], [-4], [-3], [-2], [-1]]> : tensor<12x1xi64>
  %updates = arith.constant dense<[false, true, true, false, true, true, false, true, true, true, false, false]> : tensor<12xi1>
  return %data, %indices, %updates : tensor<6xi1>, tensor<12x1xi64>, tensor<12xi1>
}

// numpy: d = np.array([0, 0, 1, 1, 0, 1], bool); [d.__setitem__(i, u) for i, u in zip([0, 1, 2, 3, 4, 5, -6, -5, -4, -3, -2, -1], np.array([0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0], bool))]; r = d.astype(int)
// CHECK: Unranked Memref
// CHECK-NEXT: [0, 1, 1, 1, 0, 0]
func.func @i1_none() {
  %data, %indices, %updates = call @i1_data() : () -> (tensor<6xi1>, tensor<12x1xi64>, tensor<12xi1>)
  %r = nd.scatter_nd %data[%indices], %updates : tensor<6xi1>, tensor<12x1xi64>, tensor<12xi1>
  call @print_i1(%r) : (tensor<6xi1>) -> ()
  return
}

// numpy: d = np.array([0, 0, 1, 1, 0, 1], bool); np.add.at(d, [0, 1, 2, 3, 4, 5, -6, -5, -4, -3, -2, -1], np.array([0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0], bool)); r = d.astype(int)
// CHECK: Unranked Memref
// CHECK-NEXT: [0, 1, 1, 1, 1, 1]
func.func @i1_add() {
  %data, %indices, %updates = call @i1_data() : () -> (tensor<6xi1>, tensor<12x1xi64>, tensor<12xi1>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<6xi1>, tensor<12x1xi64>, tensor<12xi1>
  call @print_i1(%r) : (tensor<6xi1>) -> ()
  return
}

// numpy: d = np.array([0, 0, 1, 1, 0, 1], bool); np.multiply.at(d, [0, 1, 2, 3, 4, 5, -6, -5, -4, -3, -2, -1], np.array([0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0], bool)); r = d.astype(int)
// CHECK: Unranked Memref
// CHECK-NEXT: [0, 0, 1, 0, 0, 0]
func.func @i1_mul() {
  %data, %indices, %updates = call @i1_data() : () -> (tensor<6xi1>, tensor<12x1xi64>, tensor<12xi1>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<mul> : tensor<6xi1>, tensor<12x1xi64>, tensor<12xi1>
  call @print_i1(%r) : (tensor<6xi1>) -> ()
  return
}

// numpy: d = np.array([0, 0, 1, 1, 0, 1], bool); np.maximum.at(d, [0, 1, 2, 3, 4, 5, -6, -5, -4, -3, -2, -1], np.array([0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0], bool)); r = d.astype(int)
// CHECK: Unranked Memref
// CHECK-NEXT: [0, 1, 1, 1, 1, 1]
func.func @i1_max() {
  %data, %indices, %updates = call @i1_data() : () -> (tensor<6xi1>, tensor<12x1xi64>, tensor<12xi1>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<max> : tensor<6xi1>, tensor<12x1xi64>, tensor<12xi1>
  call @print_i1(%r) : (tensor<6xi1>) -> ()
  return
}

// numpy: d = np.array([0, 0, 1, 1, 0, 1], bool); np.minimum.at(d, [0, 1, 2, 3, 4, 5, -6, -5, -4, -3, -2, -1], np.array([0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0], bool)); r = d.astype(int)
// CHECK: Unranked Memref
// CHECK-NEXT: [0, 0, 1, 0, 0, 0]
func.func @i1_min() {
  %data, %indices, %updates = call @i1_data() : () -> (tensor<6xi1>, tensor<12x1xi64>, tensor<12xi1>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<min> : tensor<6xi1>, tensor<12x1xi64>, tensor<12xi1>
  call @print_i1(%r) : (tensor<6xi1>) -> ()
  return
}

// The same on scatter_elements (i32 indices), all four reductions.
// numpy: d = np.array([0, 0, 1, 1, 0, 1], bool); np.add.at(d, [0, 1, 2, 3, 4, 5, -6, -5, -4, -3, -2, -1], np.array([0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0], bool)); r = d.astype(int)
// CHECK: Unranked Memref
// CHECK-NEXT: [0, 1, 1, 1, 1, 1]
func.func @i1_elements_add() {
  %data = arith.constant dense<[false, false, true, true, false, true]> : tensor<6xi1>
  %indices = arith.constant dense<[0, 1, 2, 3, 4, 5, -6, -5, -4, -3, -2, -1]> : tensor<12xi32>
  %updates = arith.constant dense<[false, true, true, false, true, true, false, true, true, true, false, false]> : tensor<12xi1>
  %r = nd.scatter_elements %data[%indices], %updates reduction<add> : tensor<6xi1>, tensor<12xi32>, tensor<12xi1>
  call @print_i1(%r) : (tensor<6xi1>) -> ()
  return
}

// numpy: d = np.array([0, 0, 1, 1, 0, 1], bool); np.multiply.at(d, [0, 1, 2, 3, 4, 5, -6, -5, -4, -3, -2, -1], np.array([0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0], bool)); r = d.astype(int)
// CHECK: Unranked Memref
// CHECK-NEXT: [0, 0, 1, 0, 0, 0]
func.func @i1_elements_mul() {
  %data = arith.constant dense<[false, false, true, true, false, true]> : tensor<6xi1>
  %indices = arith.constant dense<[0, 1, 2, 3, 4, 5, -6, -5, -4, -3, -2, -1]> : tensor<12xi32>
  %updates = arith.constant dense<[false, true, true, false, true, true, false, true, true, true, false, false]> : tensor<12xi1>
  %r = nd.scatter_elements %data[%indices], %updates reduction<mul> : tensor<6xi1>, tensor<12xi32>, tensor<12xi1>
  call @print_i1(%r) : (tensor<6xi1>) -> ()
  return
}

// numpy: d = np.array([0, 0, 1, 1, 0, 1], bool); np.maximum.at(d, [0, 1, 2, 3, 4, 5, -6, -5, -4, -3, -2, -1], np.array([0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0], bool)); r = d.astype(int)
// CHECK: Unranked Memref
// CHECK-NEXT: [0, 1, 1, 1, 1, 1]
func.func @i1_elements_max() {
  %data = arith.constant dense<[false, false, true, true, false, true]> : tensor<6xi1>
  %indices = arith.constant dense<[0, 1, 2, 3, 4, 5, -6, -5, -4, -3, -2, -1]> : tensor<12xi32>
  %updates = arith.constant dense<[false, true, true, false, true, true, false, true, true, true, false, false]> : tensor<12xi1>
  %r = nd.scatter_elements %data[%indices], %updates reduction<max> : tensor<6xi1>, tensor<12xi32>, tensor<12xi1>
  call @print_i1(%r) : (tensor<6xi1>) -> ()
  return
}

// numpy: d = np.array([0, 0, 1, 1, 0, 1], bool); np.minimum.at(d, [0, 1, 2, 3, 4, 5, -6, -5, -4, -3, -2, -1], np.array([0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0], bool)); r = d.astype(int)
// CHECK: Unranked Memref
// CHECK-NEXT: [0, 0, 1, 0, 0, 0]
func.func @i1_elements_min() {
  %data = arith.constant dense<[false, false, true, true, false, true]> : tensor<6xi1>
  %indices = arith.constant dense<[0, 1, 2, 3, 4, 5, -6, -5, -4, -3, -2, -1]> : tensor<12xi32>
  %updates = arith.constant dense<[false, true, true, false, true, true, false, true, true, true, false, false]> : tensor<12xi1>
  %r = nd.scatter_elements %data[%indices], %updates reduction<min> : tensor<6xi1>, tensor<12xi32>, tensor<12xi1>
  call @print_i1(%r) : (tensor<6xi1>) -> ()
  return
}

// i1 gather_elements.
// numpy: d = np.array([1, 0]); r = d[[1, 0, -2, -1, 0, 1]]
// CHECK: Unranked Memref
// CHECK-NEXT: [0, 1, 1, 0, 1, 0]
func.func @i1_gather() {
  %data = arith.constant dense<[true, false]> : tensor<2xi1>
  %indices = arith.constant dense<[1, 0, -2, -1, 0, 1]> : tensor<6xi64>
  %r = nd.gather_elements %data[%indices] : tensor<2xi1>, tensor<6xi64> -> tensor<6xi1>
  call @print_i1(%r) : (tensor<6xi1>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// complex<f32>
//===----------------------------------------------------------------------===//

// add: (1+2i) + (3+4i) + (0.5-1i) = 4.5+5i.
// numpy: d = np.array([1+2j, complex(0, -1), 2], np.complex64); np.add.at(d, [0, 0, -1, 0], np.array([3+4j, 0.5-1j, 1j, 0], np.complex64)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [(4.5,5), (0,-1), (2,1)]
func.func @c32_add() {
  %data = arith.constant dense<[(1.0, 2.0), (0.0, -1.0), (2.0, 0.0)]> : tensor<3xcomplex<f32>>
  %indices = arith.constant dense<[[0], [0], [-1], [0]]> : tensor<4x1xi64>
  %updates = arith.constant dense<[(3.0, 4.0), (0.5, -1.0), (0.0, 1.0), (0.0, 0.0)]> : tensor<4xcomplex<f32>>
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<3xcomplex<f32>>, tensor<4x1xi64>, tensor<4xcomplex<f32>>
  %u = tensor.cast %r : tensor<3xcomplex<f32>> to tensor<*xcomplex<f32>>
  call @print_c32(%u) : (tensor<*xcomplex<f32>>) -> ()
  return
}

// mul: (1+2i)(3+4i) = -5+10i, then * (0.5-1i) = 7.5+10i; i * i = -1.
// numpy: d = np.array([1+2j, 1j, 2], np.complex64); np.multiply.at(d, [0, 0, 1], np.array([3+4j, 0.5-1j, 1j], np.complex64)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [(7.5,10), (-1,0), (2,0)]
func.func @c32_mul() {
  %data = arith.constant dense<[(1.0, 2.0), (0.0, 1.0), (2.0, 0.0)]> : tensor<3xcomplex<f32>>
  %indices = arith.constant dense<[0, 0, 1]> : tensor<3xi64>
  %updates = arith.constant dense<[(3.0, 4.0), (0.5, -1.0), (0.0, 1.0)]> : tensor<3xcomplex<f32>>
  %r = nd.scatter_elements %data[%indices], %updates reduction<mul> : tensor<3xcomplex<f32>>, tensor<3xi64>, tensor<3xcomplex<f32>>
  %u = tensor.cast %r : tensor<3xcomplex<f32>> to tensor<*xcomplex<f32>>
  call @print_c32(%u) : (tensor<*xcomplex<f32>>) -> ()
  return
}

// mul on slices (k < r), the ScatterND path through a linalg.generic.
// numpy: d = np.array([[1+1j, 2], [3, -1j]], np.complex64); np.multiply.at(d, [1, -1], np.array([[2j, 1+1j], [1j, 1j]], np.complex64)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}(1,1), (2,0)],
// CHECK-NEXT: [(-6,0), (1,1)]]
func.func @c32_mul_slices() {
  %data = arith.constant dense<[[(1.0, 1.0), (2.0, 0.0)], [(3.0, 0.0), (0.0, -1.0)]]> : tensor<2x2xcomplex<f32>>
  %indices = arith.constant dense<[[1], [-1]]> : tensor<2x1xi64>
  %updates = arith.constant dense<[[(0.0, 2.0), (1.0, 1.0)], [(0.0, 1.0), (0.0, 1.0)]]> : tensor<2x2xcomplex<f32>>
  %r = nd.scatter_nd %data[%indices], %updates reduction<mul> : tensor<2x2xcomplex<f32>>, tensor<2x1xi64>, tensor<2x2xcomplex<f32>>
  %u = tensor.cast %r : tensor<2x2xcomplex<f32>> to tensor<*xcomplex<f32>>
  call @print_c32(%u) : (tensor<*xcomplex<f32>>) -> ()
  return
}

// complex<f32> gather_nd.
// CHECK: Unranked Memref
// CHECK-NEXT: [(3,-1), (1,2)]
func.func @c32_gather() {
  %data = arith.constant dense<[(1.0, 2.0), (3.0, -1.0)]> : tensor<2xcomplex<f32>>
  %indices = arith.constant dense<[[-1], [0]]> : tensor<2x1xi64>
  %r = nd.gather_nd %data[%indices] : tensor<2xcomplex<f32>>, tensor<2x1xi64> -> tensor<2xcomplex<f32>>
  %u = tensor.cast %r : tensor<2xcomplex<f32>> to tensor<*xcomplex<f32>>
  call @print_c32(%u) : (tensor<*xcomplex<f32>>) -> ()
  return
}

func.func @main() {
  call @f16_add() : () -> ()
  call @f16_max_slices() : () -> ()
  call @bf16_add() : () -> ()
  call @bf16_mul() : () -> ()
  call @bf16_min() : () -> ()
  call @bf16_gather() : () -> ()
  call @f64_mul() : () -> ()
  call @f64_gather() : () -> ()
  call @i8_add() : () -> ()
  call @i8_mul() : () -> ()
  call @i8_max() : () -> ()
  call @i8_min() : () -> ()
  call @i16_gather() : () -> ()
  call @i32_add() : () -> ()
  call @i64_add() : () -> ()
  call @i64_mul() : () -> ()
  call @ui8_add() : () -> ()
  call @ui8_max() : () -> ()
  call @ui8_min() : () -> ()
  call @ui8_mul() : () -> ()
  call @ui32_max() : () -> ()
  call @ui32_min() : () -> ()
  call @i1_none() : () -> ()
  call @i1_add() : () -> ()
  call @i1_mul() : () -> ()
  call @i1_max() : () -> ()
  call @i1_min() : () -> ()
  call @i1_elements_add() : () -> ()
  call @i1_elements_mul() : () -> ()
  call @i1_elements_max() : () -> ()
  call @i1_elements_min() : () -> ()
  call @i1_gather() : () -> ()
  call @c32_add() : () -> ()
  call @c32_mul() : () -> ()
  call @c32_mul_slices() : () -> ()
  call @c32_gather() : () -> ()
  return
}

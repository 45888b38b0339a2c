// REQUIRES: mpich
// Gathers whose index dims are split across the processes: each process
// gathers its part of the result, with its own indices and no
// communication; nd-lower-shard-collectives then puts the parts together
// (an or of their bits, which keeps -0.0 and NaN payloads). f64, f16 and i8
// results, compared bit for bit with the single-process ones.
// RUN: nd-opt %s --nd-sharded-to-llvm -o %t.2.mlir
// RUN: %mpiexec -n 2 mlir-runner %t.2.mlir -e main -entry-point-result=void -shared-libs=%mpi_shared_libs | FileCheck %s
// RUN: sed 's/shape = 2/shape = 4/' %s | nd-opt --nd-sharded-to-llvm -o %t.4.mlir
// RUN: %mpiexec -n 4 mlir-runner %t.4.mlir -e main -entry-point-result=void -shared-libs=%mpi_shared_libs | FileCheck %s

// Rows 3, 0, 1 and -2 (2) of the f64 table.
// CHECK: Unranked Memref {{.*}} sizes = [4, 2]
// CHECK-NEXT: {{\[\[}}-5, 6],
// CHECK-NEXT: [1.5, -0],
// CHECK-NEXT: [nan, 2.5],
// CHECK-NEXT: [3, 4]]
// CHECK-NEXT: {{^0$}}
// The same ids into the f16 table (f64 rows / 4).
// CHECK: Unranked Memref {{.*}} sizes = [4, 2]
// CHECK-NEXT: {{\[\[}}-1.25, 1.5],
// CHECK-NEXT: [0.375, -0],
// CHECK-NEXT: [0.5, 0.625],
// CHECK-NEXT: [0.75, 1]]
// CHECK-NEXT: {{^0$}}
// gather_elements along axis 1 of [[10, 11, 12, 13], [20, 21, 22, 23],
// [30, 31, 32, 33], [40, 41, 42, 43]], split by rows.
// CHECK: Unranked Memref {{.*}} sizes = [4, 2]
// CHECK-NEXT: {{\[\[}}13, 10],
// CHECK-NEXT: [21, 21],
// CHECK-NEXT: [32, 33],
// CHECK-NEXT: [40, 43]]
// CHECK-NEXT: {{^0$}}

module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  shard.grid @grid(shape = 2)

  func.func @rows_f64_sharded(%table: tensor<4x2xf64>, %ids: tensor<4x1xi32>) -> tensor<4x2xf64> {
    %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
    %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
    %t = shard.shard %table to %all : tensor<4x2xf64>
    %i0 = shard.shard %ids to %all : tensor<4x1xi32>
    %i = shard.shard %i0 to %split annotate_for_users : tensor<4x1xi32>
    %r = nd.gather_nd %t[%i] : tensor<4x2xf64>, tensor<4x1xi32> -> tensor<4x2xf64>
    %o = shard.shard %r to %all : tensor<4x2xf64>
    return %o : tensor<4x2xf64>
  }

  func.func @rows_f64(%table: tensor<4x2xf64>, %ids: tensor<4x1xi32>) -> tensor<4x2xf64> {
    %r = nd.gather_nd %table[%ids] : tensor<4x2xf64>, tensor<4x1xi32> -> tensor<4x2xf64>
    return %r : tensor<4x2xf64>
  }

  func.func @rows_f16_sharded(%table: tensor<4x2xf16>, %ids: tensor<4x1xi32>) -> tensor<4x2xf16> {
    %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
    %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
    %t = shard.shard %table to %all : tensor<4x2xf16>
    %i0 = shard.shard %ids to %all : tensor<4x1xi32>
    %i = shard.shard %i0 to %split annotate_for_users : tensor<4x1xi32>
    %r = nd.gather_nd %t[%i] : tensor<4x2xf16>, tensor<4x1xi32> -> tensor<4x2xf16>
    %o = shard.shard %r to %all : tensor<4x2xf16>
    return %o : tensor<4x2xf16>
  }

  func.func @rows_f16(%table: tensor<4x2xf16>, %ids: tensor<4x1xi32>) -> tensor<4x2xf16> {
    %r = nd.gather_nd %table[%ids] : tensor<4x2xf16>, tensor<4x1xi32> -> tensor<4x2xf16>
    return %r : tensor<4x2xf16>
  }

  func.func @elements_i8_sharded(%data: tensor<4x4xi8>, %ids: tensor<4x2xi64>) -> tensor<4x2xi8> {
    %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
    %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
    %d0 = shard.shard %data to %all : tensor<4x4xi8>
    %d = shard.shard %d0 to %rows annotate_for_users : tensor<4x4xi8>
    %i = shard.shard %ids to %all : tensor<4x2xi64>
    %r = nd.gather_elements %d[%i] axis(1) : tensor<4x4xi8>, tensor<4x2xi64> -> tensor<4x2xi8>
    %o = shard.shard %r to %all : tensor<4x2xi8>
    return %o : tensor<4x2xi8>
  }

  func.func @elements_i8(%data: tensor<4x4xi8>, %ids: tensor<4x2xi64>) -> tensor<4x2xi8> {
    %r = nd.gather_elements %data[%ids] axis(1) : tensor<4x4xi8>, tensor<4x2xi64> -> tensor<4x2xi8>
    return %r : tensor<4x2xi8>
  }

  func.func @count_different_bits_f64(%a: tensor<4x2xf64>, %b: tensor<4x2xf64>) -> i64 {
    %zero = arith.constant 0 : i64
    %empty = tensor.empty() : tensor<i64>
    %init = linalg.fill ins(%zero : i64) outs(%empty : tensor<i64>) -> tensor<i64>
    %count = linalg.generic {
        indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
        iterator_types = ["reduction", "reduction"]}
        ins(%a, %b : tensor<4x2xf64>, tensor<4x2xf64>) outs(%init : tensor<i64>) {
    ^bb0(%x: f64, %y: f64, %n: i64):
      %xb = arith.bitcast %x : f64 to i64
      %yb = arith.bitcast %y : f64 to i64
      %differ = arith.cmpi ne, %xb, %yb : i64
      %one = arith.extui %differ : i1 to i64
      %sum = arith.addi %n, %one : i64
      linalg.yield %sum : i64
    } -> tensor<i64>
    %result = tensor.extract %count[] : tensor<i64>
    return %result : i64
  }

  func.func @count_different_bits_f16(%a: tensor<4x2xf16>, %b: tensor<4x2xf16>) -> i64 {
    %zero = arith.constant 0 : i64
    %empty = tensor.empty() : tensor<i64>
    %init = linalg.fill ins(%zero : i64) outs(%empty : tensor<i64>) -> tensor<i64>
    %count = linalg.generic {
        indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
        iterator_types = ["reduction", "reduction"]}
        ins(%a, %b : tensor<4x2xf16>, tensor<4x2xf16>) outs(%init : tensor<i64>) {
    ^bb0(%x: f16, %y: f16, %n: i64):
      %xb = arith.bitcast %x : f16 to i16
      %yb = arith.bitcast %y : f16 to i16
      %differ = arith.cmpi ne, %xb, %yb : i16
      %one = arith.extui %differ : i1 to i64
      %sum = arith.addi %n, %one : i64
      linalg.yield %sum : i64
    } -> tensor<i64>
    %result = tensor.extract %count[] : tensor<i64>
    return %result : i64
  }

  func.func @count_different_i8(%a: tensor<4x2xi8>, %b: tensor<4x2xi8>) -> i64 {
    %zero = arith.constant 0 : i64
    %empty = tensor.empty() : tensor<i64>
    %init = linalg.fill ins(%zero : i64) outs(%empty : tensor<i64>) -> tensor<i64>
    %count = linalg.generic {
        indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
        iterator_types = ["reduction", "reduction"]}
        ins(%a, %b : tensor<4x2xi8>, tensor<4x2xi8>) outs(%init : tensor<i64>) {
    ^bb0(%x: i8, %y: i8, %n: i64):
      %differ = arith.cmpi ne, %x, %y : i8
      %one = arith.extui %differ : i1 to i64
      %sum = arith.addi %n, %one : i64
      linalg.yield %sum : i64
    } -> tensor<i64>
    %result = tensor.extract %count[] : tensor<i64>
    return %result : i64
  }

  func.func @main() {
    mpi.init
    // A quiet NaN with a payload at [1, 0].
    %f64 = arith.constant dense<[[1.5, -0.0], [0x7FF8000000000123, 2.5], [3.0, 4.0], [-5.0, 6.0]]> : tensor<4x2xf64>
    %f16 = arith.constant dense<[[0.375, -0.0], [0.5, 0.625], [0.75, 1.0], [-1.25, 1.5]]> : tensor<4x2xf16>
    %ids = arith.constant dense<[[3], [0], [1], [-2]]> : tensor<4x1xi32>
    %i8 = arith.constant dense<[[10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33], [40, 41, 42, 43]]> : tensor<4x4xi8>
    %cols = arith.constant dense<[[3, 0], [1, -3], [2, -1], [0, 3]]> : tensor<4x2xi64>

    %a = call @rows_f64_sharded(%f64, %ids) : (tensor<4x2xf64>, tensor<4x1xi32>) -> tensor<4x2xf64>
    %a1 = call @rows_f64(%f64, %ids) : (tensor<4x2xf64>, tensor<4x1xi32>) -> tensor<4x2xf64>
    %da = call @count_different_bits_f64(%a, %a1) : (tensor<4x2xf64>, tensor<4x2xf64>) -> i64
    %b = call @rows_f16_sharded(%f16, %ids) : (tensor<4x2xf16>, tensor<4x1xi32>) -> tensor<4x2xf16>
    %b1 = call @rows_f16(%f16, %ids) : (tensor<4x2xf16>, tensor<4x1xi32>) -> tensor<4x2xf16>
    %db = call @count_different_bits_f16(%b, %b1) : (tensor<4x2xf16>, tensor<4x2xf16>) -> i64
    %c = call @elements_i8_sharded(%i8, %cols) : (tensor<4x4xi8>, tensor<4x2xi64>) -> tensor<4x2xi8>
    %c1 = call @elements_i8(%i8, %cols) : (tensor<4x4xi8>, tensor<4x2xi64>) -> tensor<4x2xi8>
    %dc = call @count_different_i8(%c, %c1) : (tensor<4x2xi8>, tensor<4x2xi8>) -> i64

    %world = mpi.comm_world : !mpi.comm
    %retval, %rank = mpi.comm_rank(%world) : !mpi.retval, i32
    %c0 = arith.constant 0 : i32
    %first = arith.cmpi eq, %rank, %c0 : i32
    scf.if %first {
      %pa = tensor.cast %a : tensor<4x2xf64> to tensor<*xf64>
      func.call @printMemrefF64(%pa) : (tensor<*xf64>) -> ()
      func.call @printI64(%da) : (i64) -> ()
      func.call @printNewline() : () -> ()
      %pb = tensor.cast %b : tensor<4x2xf16> to tensor<*xf16>
      func.call @printMemrefF16(%pb) : (tensor<*xf16>) -> ()
      func.call @printI64(%db) : (i64) -> ()
      func.call @printNewline() : () -> ()
      // printMemrefI8 prints characters: widen.
      %wide = arith.extsi %c : tensor<4x2xi8> to tensor<4x2xi32>
      %pc = tensor.cast %wide : tensor<4x2xi32> to tensor<*xi32>
      func.call @printMemrefI32(%pc) : (tensor<*xi32>) -> ()
      func.call @printI64(%dc) : (i64) -> ()
      func.call @printNewline() : () -> ()
    }
    mpi.finalize
    return
  }

  func.func private @printMemrefF64(tensor<*xf64>)
  func.func private @printMemrefF16(tensor<*xf16>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func private @printI64(i64)
  func.func private @printNewline()
}

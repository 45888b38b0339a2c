// RUN: nd-opt %s --nd-lower-shard-collectives -split-input-file -verify-diagnostics | FileCheck %s

shard.grid @grid(shape = 2x2)

// all_gather: each process inserts the bits of its shard into zeros at its
// offset along the gathered dim, and a bitwise-or all-reduce over the same
// grid axes puts the shards together.
// CHECK-LABEL: func.func @gather_f32(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[PROCESS:.*]] = shard.process_multi_index on @grid axes = [1] : index
// CHECK: %[[OFFSET:.*]] = arith.muli %[[PROCESS]], %[[C2]] : index
// CHECK: %[[BITS:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xi32>)
// CHECK:   arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%[[ZERO]] : i32) outs(%{{.*}} : tensor<4x3xi32>) -> tensor<4x3xi32>
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %[[BITS]] into %[[ZEROS]][%[[OFFSET]], 0] [2, 3] [1, 1] : tensor<2x3xi32> into tensor<4x3xi32>
// CHECK: %[[OR:.*]] = shard.all_reduce %[[PADDED]] on @grid grid_axes = [1] reduction = bitwise_or : tensor<4x3xi32> -> tensor<4x3xi32>
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%[[OR]] : tensor<4x3xi32>) outs(%{{.*}} : tensor<4x3xf32>)
// CHECK:   arith.bitcast %{{.*}} : i32 to f32
// CHECK: return %[[G]] : tensor<4x3xf32>
func.func @gather_f32(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %g = shard.all_gather %x on @grid grid_axes = [1] gather_axis = 0 : tensor<2x3xf32> -> tensor<4x3xf32>
  return %g : tensor<4x3xf32>
}

// Integers need no bitcast. Over two grid axes, the offset comes from the
// process's linear index over both, the first one major.
// CHECK-LABEL: func.func @gather_i8_two_axes(
// CHECK-SAME: %[[X:.*]]: tensor<3x2xi8>) -> tensor<3x8xi8>
// CHECK: %[[PROCESS:.*]]:2 = shard.process_multi_index on @grid axes = [0, 1] : index, index
// CHECK: %[[SHAPE:.*]]:2 = shard.grid_shape @grid axes = [0, 1] : index, index
// CHECK: %[[LINEAR:.*]] = affine.apply #{{.*}}()[%[[PROCESS]]#0, %[[SHAPE]]#1, %[[PROCESS]]#1]
// CHECK: %[[OFFSET:.*]] = arith.muli %[[LINEAR]], %{{.*}} : index
// CHECK-NOT: arith.bitcast
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %[[X]] into %{{.*}}[0, %[[OFFSET]]] [3, 2] [1, 1] : tensor<3x2xi8> into tensor<3x8xi8>
// CHECK: %[[OR:.*]] = shard.all_reduce %[[PADDED]] on @grid grid_axes = [0, 1] reduction = bitwise_or : tensor<3x8xi8> -> tensor<3x8xi8>
// CHECK: return %[[OR]] : tensor<3x8xi8>
func.func @gather_i8_two_axes(%x: tensor<3x2xi8>) -> tensor<3x8xi8> {
  %g = shard.all_gather %x on @grid grid_axes = [0, 1] gather_axis = 1 : tensor<3x2xi8> -> tensor<3x8xi8>
  return %g : tensor<3x8xi8>
}

// all_slice: upstream's lowering, the process's slice.
// CHECK-LABEL: func.func @slice(
// CHECK: shard.process_multi_index on @grid axes = [0] : index
// CHECK: tensor.extract_slice
// CHECK-NOT: shard.all_slice
func.func @slice(%x: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %s = shard.all_slice %x on @grid grid_axes = [0] slice_axis = 0 : tensor<4x3xf32> -> tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}

// -----

shard.grid @grid(shape = 2)

func.func @gather_complex(%x: tensor<2xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @below {{'shard.all_gather' op cannot be lowered: MPI cannot reduce the bits of element type complex<f32> (integers of 8 to 64 bits and floats of 16 to 64 bits can)}}
  %g = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<2xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %g : tensor<4xcomplex<f32>>
}

// -----

shard.grid @grid(shape = 2)

func.func @gather_i1(%x: tensor<2xi1>) -> tensor<4xi1> {
  // expected-error @below {{'shard.all_gather' op cannot be lowered: MPI cannot reduce the bits of element type i1}}
  %g = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<2xi1> -> tensor<4xi1>
  return %g : tensor<4xi1>
}

// -----

shard.grid @grid(shape = 2)

func.func @gather_dynamic(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error @below {{'shard.all_gather' op cannot be lowered: the gathered tensor must have a static shape}}
  %g = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<?x3xf32> -> tensor<?x3xf32>
  return %g : tensor<?x3xf32>
}

// -----

shard.grid @grid(shape = 2)

func.func @all_to_all(%x: tensor<2x4xf32>) -> tensor<4x2xf32> {
  // expected-error @below {{'shard.all_to_all' op has no lowering to MPI in MLIR 22 (convert-shard-to-mpi converts all_reduce, halo updates and the process index ops; nd adds all_slice and all_gather)}}
  %r = shard.all_to_all %x on @grid grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x4xf32> -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

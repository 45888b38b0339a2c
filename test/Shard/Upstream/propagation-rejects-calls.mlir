// MLIR 22: sharding-propagation runs on every function and rejects the code
// around the sharded functions that a program run under MPI needs: calls
// (and any other op without a sharding interface, such as mpi.init) and
// function declarations. nd's --nd-partition runs it on the annotated
// functions only (test/Shard/nd-partition.mlir).
// RUN: not %mlir_opt %s --pass-pipeline='builtin.module(func.func(sharding-propagation))' 2>&1 | FileCheck %s

// CHECK-DAG: error: 'func.call' op sharding interface is not implemented.
// CHECK-DAG: error: 'func.func' op only one block is supported!

shard.grid @grid(shape = 2)

func.func @double(%x: tensor<4xf32>) -> tensor<4xf32> {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %a = shard.shard %x to %split annotate_for_users : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @main(%x: tensor<4xf32>) {
  %y = call @double(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %u = tensor.cast %y : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)

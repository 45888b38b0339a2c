// index-typed arguments and results: gathers with index-typed indices and
// returns the indices with negative values made non-negative.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%data: tensor<5xf32>, %indices: tensor<?x1xindex>)
    -> (tensor<?xf32>, tensor<?x1xindex>) {
  %picked = nd.gather_nd %data[%indices]
      : tensor<5xf32>, tensor<?x1xindex> -> tensor<?xf32>
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %n = tensor.dim %indices, %c0 : tensor<?x1xindex>
  %init = tensor.empty(%n) : tensor<?x1xindex>
  %normalized = linalg.generic
      {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%indices : tensor<?x1xindex>) outs(%init : tensor<?x1xindex>) {
  ^bb0(%i: index, %unused: index):
    %negative = arith.cmpi slt, %i, %c0 : index
    %wrapped = arith.addi %i, %c5 : index
    %result = arith.select %negative, %wrapped, %i : index
    linalg.yield %result : index
  } -> tensor<?x1xindex>
  return %picked, %normalized : tensor<?xf32>, tensor<?x1xindex>
}

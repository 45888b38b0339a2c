// Gathers of a static empty `indices` under a less static result type.

// A static empty `indices` under a less static result.
func.func @gather_less_static(%data: tensor<?x4xf32>, %indices: tensor<0xi64>) -> tensor<?x?xf32> {
  %0 = "nd.gather"(%data, %indices) <{axis = 1 : i64}> : (tensor<?x4xf32>, tensor<0xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @gather_nd_less_static(%data: tensor<?x4xf32>, %indices: tensor<0x1xi64>) -> tensor<?x?xf32> {
  %0 = "nd.gather_nd"(%data, %indices) : (tensor<?x4xf32>, tensor<0x1xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @gather_elements_less_static(%data: tensor<?x4xf32>, %indices: tensor<2x0xi64>) -> tensor<?x?xf32> {
  %0 = "nd.gather_elements"(%data, %indices) <{axis = 1 : i64}> : (tensor<?x4xf32>, tensor<2x0xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

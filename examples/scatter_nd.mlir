// ONNX ScatterND, example 1: four single-element updates of a vector.
//   data    = [1, 2, 3, 4, 5, 6, 7, 8]
//   indices = [[4], [3], [1], [7]]
//   updates = [9, 10, 11, 12]
//   output  = [1, 11, 3, 10, 9, 6, 7, 12]
func.func @scatter_nd_example1(%data: tensor<8xf32>, %indices: tensor<4x1xi64>,
                               %updates: tensor<4xf32>) -> tensor<8xf32> {
  %out = nd.scatter_nd %data[%indices], %updates
      : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
  return %out : tensor<8xf32>
}

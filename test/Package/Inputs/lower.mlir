// The four nd ops, static and dynamic shapes, for the package consumer.

func.func @gather_nd(%data: tensor<2x2x2xi32>, %indices: tensor<2x1xi64>) -> tensor<2x2xi32> {
  %r = nd.gather_nd %data[%indices] batch_dims(1)
      : tensor<2x2x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32>
  return %r : tensor<2x2xi32>
}

func.func @gather_elements(%data: tensor<?x?xf32>, %indices: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = nd.gather_elements %data[%indices] axis(1)
      : tensor<?x?xf32>, tensor<?x?xi32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @scatter_nd(%data: tensor<4x4xf32>, %indices: tensor<2x1xi64>, %updates: tensor<2x4xf32>) -> tensor<4x4xf32> {
  %r = nd.scatter_nd %data[%indices], %updates reduction<add>
      : tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>
  return %r : tensor<4x4xf32>
}

func.func @scatter_elements(%data: tensor<?xf32>, %indices: tensor<?xi64>, %updates: tensor<?xf32>) -> tensor<?xf32> {
  %r = nd.scatter_elements %data[%indices], %updates axis(0) reduction<max>
      : tensor<?xf32>, tensor<?xi64>, tensor<?xf32>
  return %r : tensor<?xf32>
}

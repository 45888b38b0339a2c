// A gather_elements along axis 1 on dynamic shapes.
func.func @main(%data: tensor<?x?xf32>, %indices: tensor<?x?xi64>)
    -> tensor<?x?xf32> {
  %picked = nd.gather_elements %data[%indices] axis(1)
      : tensor<?x?xf32>, tensor<?x?xi64> -> tensor<?x?xf32>
  return %picked : tensor<?x?xf32>
}

// Stock mlir-opt with NdPlugin.so tiles and fuses nd ops with upstream's
// transform dialect: the plugin attaches the ops' TilingInterface (and
// their bufferization) when it registers the dialect. Then stock tools run
// the tiled module: the values are the untiled ones (worked by hand in
// test/Docs/readme-examples.test).

// RUN: %mlir_opt %S/../../examples/tiling.mlir \
// RUN:   --load-dialect-plugin=%nd_plugin --load-pass-plugin=%nd_plugin \
// RUN:   --transform-preload-library=transform-library-paths=%S/../../examples/tiling-schedule.mlir \
// RUN:   --transform-interpreter -o %t.mlir
// RUN: FileCheck %s --check-prefix=TILED < %t.mlir
// RUN: %mlir_opt %t.mlir --load-dialect-plugin=%nd_plugin --load-pass-plugin=%nd_plugin \
// RUN:   --pass-pipeline='builtin.module(nd-to-llvm)' \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// The gather, fused into the 2x2 tiles of its consumer, reads two ids and
// the tile's two columns of the table; the scatter applies two entries per
// iteration of a sequential loop.
// TILED-LABEL: func.func @embed
//       TILED:   scf.for
//       TILED:     scf.for
//       TILED:       nd.gather %{{.*}}[%{{.*}}] : tensor<6x2xf32>, tensor<2xi64> -> tensor<2x2xf32>
//       TILED:       linalg.add {{.*}} -> tensor<2x2xf32>
// TILED-LABEL: func.func @accumulate
//       TILED:   scf.for {{.*}} iter_args
//       TILED:     nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<add> : tensor<6x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>

// CHECK:       sizes = [4, 4]
// CHECK-NEXT:  {{\[\[}}10,   10,   10,   10],
// CHECK-NEXT:  [0,   0,   0,   0],
// CHECK-NEXT:  [10,   10,   10,   10],
// CHECK-NEXT:  [4,   4,   4,   4]]
// CHECK:       sizes = [6, 4]
// CHECK-NEXT:  {{\[\[}}9,   9,   9,   9],
// CHECK-NEXT:  [1.75,   1.75,   1.75,   1.75],
// CHECK-NEXT:  [2,   2,   2,   2],
// CHECK-NEXT:  [4,   5,   6,   7],
// CHECK-NEXT:  [4,   4,   4,   4],
// CHECK-NEXT:  [5,   5,   5,   5]]

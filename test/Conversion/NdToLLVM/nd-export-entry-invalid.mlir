// RUN: nd-opt %s -split-input-file --nd-export-entry=symbol=model -verify-diagnostics

// expected-error @below {{expected the module attribute 'nd.signature' of --nd-record-signature}}
module {
  llvm.func @main() {
    llvm.return
  }
}

// -----

// The entry has not been through --nd-return-through-pointer.
module attributes {nd.signature = {donated = array<i64>, function = "main",
    inputs = [], names = [], outputs = [tensor<2xf32>]}} {
  // expected-error @below {{expected 'nd.result_buffers': run --nd-return-through-pointer first}}
  llvm.func @main(%out: !llvm.ptr, %state: !llvm.ptr) {
    llvm.return
  }
}

// -----

// Nor through --nd-call-state.
module attributes {nd.signature = {donated = array<i64>, function = "main",
    inputs = [], names = [], outputs = [tensor<2xf32>]}} {
  // expected-error @below {{expected 2 arguments (the inputs' descriptors, the results' pointer, the call state) and no result: run --nd-return-through-pointer and --nd-call-state first}}
  llvm.func @main(%out: !llvm.ptr) attributes {nd.result_buffers = array<i64: -1>} {
    llvm.return
  }
}

// -----

// A result that is the buffer of an input that is not donated.
module attributes {nd.signature = {donated = array<i64>, function = "main",
    inputs = [tensor<f32>], names = [""], outputs = [tensor<f32>]}} {
  // expected-error @below {{result #0 is the buffer of argument #0, which is no donated input}}
  llvm.func @main(%a: !llvm.ptr, %b: !llvm.ptr, %c: i64, %out: !llvm.ptr, %state: !llvm.ptr)
      attributes {nd.result_buffers = array<i64: 0>} {
    llvm.return
  }
}

// -----

// expected-error @below {{expected the module attribute 'nd.signature' of --nd-record-signature: tensor<*xf32> is not a ranked tensor type of nd's element types}}
module attributes {nd.signature = {donated = array<i64>, function = "main",
    inputs = [tensor<*xf32>], names = [""], outputs = []}} {
}

// -----

// Dim names of another count than the dims.
// expected-error @below {{expected the module attribute 'nd.signature' of --nd-record-signature: 'input_dim_names' and 'output_dim_names' hold one array of strings per input and output, with one per dim or none}}
module attributes {nd.signature = {donated = array<i64>, function = "main",
    inputs = [tensor<2xf32>], names = [""], outputs = [],
    input_dim_names = [["N", "M"]]}} {
}

// -----

// --nd-result-destinations adds one destination per result.
module attributes {nd.signature = {donated = array<i64>, function = "main",
    inputs = [], names = [], outputs = [tensor<2xf32>]}} {
  // expected-error @below {{'nd.result_destinations' says 2 destination(s) for 1 result(s)}}
  llvm.func @main(%out: !llvm.ptr, %state: !llvm.ptr)
      attributes {nd.result_buffers = array<i64: -1>,
                  nd.result_destinations = 2 : i64} {
    llvm.return
  }
}

// -----

// The destination's descriptor (5 fields for rank 1) comes before the
// results' pointer.
module attributes {nd.signature = {donated = array<i64>, function = "main",
    inputs = [], names = [], outputs = [tensor<2xf32>]}} {
  // expected-error @below {{expected 7 arguments (the inputs' descriptors, the results' destinations, the results' pointer, the call state) and no result}}
  llvm.func @main(%out: !llvm.ptr, %state: !llvm.ptr)
      attributes {nd.result_buffers = array<i64: -1>,
                  nd.result_destinations = 1 : i64} {
    llvm.return
  }
}

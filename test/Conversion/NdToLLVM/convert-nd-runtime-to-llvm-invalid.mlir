// RUN: nd-opt %s -split-input-file --convert-nd-runtime-to-llvm -verify-diagnostics

// The preconditions of the pass that the verifiers of the nd_rt ops cannot
// check, one per chunk: the pass fails with a diagnostic on the op.

func.func @site_report_outside_argument(%a: i64) {
  %s = arith.constant 0 : i64
  // expected-error @below {{'nd_rt.report_at' op expected its site to be an argument of its function}}
  nd_rt.report_at %s "nd.gather: %lld %lld" (%a, %a)
  return
}

// -----

func.func private @shared(%a: i64, %site: i64) {
  nd_rt.report_at %site "nd.gather: %lld %lld" (%a, %a)
  return
}

func.func private @other(%a: i64, %site: i64) {
  nd_rt.report_at %site "nd.scatter: %lld %lld" (%a, %a)
  return
}

func.func @site_passed_to_two_functions(%a: i64) {
  // expected-error @below {{'nd_rt.site' op expected to be passed to the functions of nd ops only, each site to one}}
  %s = nd_rt.site "a.mlir:1:2"
  func.call @shared(%a, %s) : (i64, i64) -> ()
  func.call @other(%a, %s) : (i64, i64) -> ()
  return
}

// -----

func.func private @external(i64)

func.func @site_passed_to_external_function() {
  // expected-error @below {{'nd_rt.site' op expected to be passed to the functions of nd ops only, each site to one}}
  %s = nd_rt.site "a.mlir:1:2"
  func.call @external(%s) : (i64) -> ()
  return
}

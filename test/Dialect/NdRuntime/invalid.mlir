// RUN: nd-opt %s -split-input-file -verify-diagnostics

// One broken rule per chunk, each function named after it: the operand and
// result types (generic form, which can spell a wrong type), then the
// messages and the site's location.

func.func @report_operand_not_i64(%a: i32, %b: i64) {
  // expected-error @below {{'nd_rt.report' op operand #0 must be 64-bit signless integer, but got 'i32'}}
  "nd_rt.report"(%a, %b) {message = "m %lld %lld"} : (i32, i64) -> ()
  return
}

// -----

func.func @report_without_message(%a: i64) {
  // expected-error @below {{'nd_rt.report' op requires attribute 'message'}}
  "nd_rt.report"(%a, %a) : (i64, i64) -> ()
  return
}

// -----

func.func @report_message_not_string(%a: i64) {
  // expected-error @below {{'nd_rt.report' op attribute 'message' failed to satisfy constraint: string attribute}}
  "nd_rt.report"(%a, %a) {message = 3 : i64} : (i64, i64) -> ()
  return
}

// -----

func.func @report_empty_message(%a: i64) {
  // expected-error @below {{'nd_rt.report' op expects a non-empty message}}
  nd_rt.report "" (%a, %a)
  return
}

// -----

func.func @report_other_conversion(%a: i64) {
  // expected-error @below {{'nd_rt.report' op expects only '%lld' and '%%' conversions in its message, got '%d i' at offset 6}}
  nd_rt.report "index %d is bad" (%a, %a)
  return
}

// -----

func.func @report_three_values(%a: i64) {
  // expected-error @below {{'nd_rt.report' op expects at most two '%lld' conversions in its message}}
  nd_rt.report "%lld %lld %lld" (%a, %a)
  return
}

// -----

func.func @report_trailing_percent(%a: i64) {
  // expected-error @below {{'nd_rt.report' op expects only '%lld' and '%%' conversions in its message, got '%' at offset 4}}
  nd_rt.report "100 %" (%a, %a)
  return
}

// -----

func.func @report_at_site_not_i64(%a: i64, %site: index) {
  // expected-error @below {{'nd_rt.report_at' op operand #0 must be 64-bit signless integer, but got 'index'}}
  "nd_rt.report_at"(%site, %a, %a) {message = "m %lld %lld"} : (index, i64, i64) -> ()
  return
}

// -----

func.func @report_at_other_conversion(%a: i64, %site: i64) {
  // expected-error @below {{'nd_rt.report_at' op expects only '%lld' and '%%' conversions in its message, got '%s' at offset 10}}
  nd_rt.report_at %site "nd.gather %s" (%a, %a)
  return
}

// -----

func.func @site_empty_location() {
  // expected-error @below {{'nd_rt.site' op expects a non-empty location in 'where'}}
  %s = nd_rt.site ""
  return
}

// -----

func.func @site_result_not_i64() {
  // expected-error @below {{'nd_rt.site' op result #0 must be 64-bit signless integer, but got 'index'}}
  %s = "nd_rt.site"() {where = "a.mlir:1:2"} : () -> index
  return
}

// -----

func.func @max_threads_result_not_index() {
  // expected-error @below {{'nd_rt.max_threads' op result #0 must be index, but got 'i32'}}
  %t = "nd_rt.max_threads"() : () -> i32
  return
}

// -----

func.func @store_fence_with_operand(%a: i64) {
  // expected-error @below {{'nd_rt.store_fence' op requires zero operands}}
  "nd_rt.store_fence"(%a) : (i64) -> ()
  return
}

// -----

func.func @buffer_address_dynamic(%b: memref<?xf32>) {
  // expected-error @below {{'nd_rt.buffer_address' op operand #0 must be memref of static shape and identity layout, but got 'memref<?xf32>'}}
  %p = "nd_rt.buffer_address"(%b) : (memref<?xf32>) -> !llvm.ptr
  return
}

// -----

func.func @buffer_address_strided(%b: memref<4xf32, strided<[2]>>) {
  // expected-error @below {{'nd_rt.buffer_address' op operand #0 must be memref of static shape and identity layout, but got 'memref<4xf32, strided<[2]>>'}}
  %p = "nd_rt.buffer_address"(%b) : (memref<4xf32, strided<[2]>>) -> !llvm.ptr
  return
}

// -----

func.func @buffer_at_memory_space(%p: !llvm.ptr) {
  // expected-error @below {{'nd_rt.buffer_at' op result #0 must be memref of static shape and identity layout, but got 'memref<4xf32, 1>'}}
  %b = nd_rt.buffer_at %p : memref<4xf32, 1>
  return
}

// -----

func.func @buffer_at_not_a_pointer(%p: i64) {
  // expected-error @below {{'nd_rt.buffer_at' op operand #0 must be LLVM pointer in address space 0, but got 'i64'}}
  %b = "nd_rt.buffer_at"(%p) : (i64) -> memref<4xf32>
  return
}

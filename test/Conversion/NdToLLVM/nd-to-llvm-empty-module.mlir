// RUN: nd-opt %s --nd-to-llvm | FileCheck %s
// RUN: nd-opt %s --nd-sharded-to-llvm | FileCheck %s
// RUN: printf '' | nd-opt --nd-to-llvm | FileCheck %s
// RUN: printf '' | nd-opt --nd-sharded-to-llvm | FileCheck %s
// RUN: echo 'module {}' | nd-opt --nd-to-llvm | FileCheck %s
// RUN: echo 'module {}' | nd-opt --nd-sharded-to-llvm | FileCheck %s
// RUN: printf 'func.func @f() {\n  return\n}\n// -----\n' | nd-opt --split-input-file --nd-to-llvm | FileCheck %s --check-prefix=SPLIT

// A module without operations (this file holds comments only, an empty
// input, `module {}`, the empty last chunk of --split-input-file) lowers to
// an empty module. nd-to-llvm's passes load their dialects into a context
// that has loaded none yet: nd-opt once crashed there, loading the nd
// dialect from within the construction of a dialect that nd depends on.

// CHECK: module {
// CHECK-NEXT: }
// CHECK-NOT: {{.}}

// SPLIT: llvm.func @f()
// SPLIT: // -----
// SPLIT-NEXT: module {
// SPLIT-NEXT: }

// Which comments -verify-diagnostics reads, as mlir-opt 15 reads them: a
// directive runs to the `}}` that ends its line. So none of the look-alikes
// below is one (if any were, it would be "expected ... was not produced"
// and the run would fail), while the real ones still apply.
// RUN: mlir-opt %s -allow-unregistered-dialect -verify-diagnostics
// Missing diagnostics: reported at the `expected-` text, underlined for
// the message's length.
// RUN: not mlir-opt %S/Inputs/verify-missing.mlir -allow-unregistered-dialect -verify-diagnostics 2>&1 | FileCheck %s --check-prefix=MISS --strict-whitespace
// A near miss of the split marker is a warning and no split.
// RUN: mlir-opt %S/Inputs/near-miss.mlir -split-input-file 2> %t.err | FileCheck %s --check-prefix=ONE
// RUN: FileCheck %s --input-file %t.err --check-prefix=NEAR --strict-whitespace

func @look_alikes() {
  "test.op"() {s = "expected-error {{inside a string}}"} : () -> ()
  "test.op"() {s = "expected-error {{string, then a comment}}"} : () -> () // trailing
  // expected-error {{unclosed
  // expected-error @somewhere {{unknown designator}}
  // expected-error @+1 {{text after the braces}} is not a directive
  return
}

func @designators() {
  // expected-error@below{{custom op 'frobnicate' is unknown}}
  frobnicate
  return
}

// MISS: verify-missing.mlir:3:6: error: expected error "first" was not produced
// MISS-NEXT: {{^}}  // {{expected}}-error @+1 {{[{][{]}}first}}{{$}}
// MISS-NEXT: {{^}}     ^~~~~{{$}}
// MISS: verify-missing.mlir:4:29: error: expected warning "second one" was not produced
// MISS-NEXT: {{^}}  "test.op"() : () -> () // {{expected}}-warning {{[{][{]}}second one}}{{$}}
// MISS-NEXT: {{^}}                            ^~~~~~~~~~{{$}}

// NEAR: near-miss.mlir:4:7: warning: near miss with file split marker
// NEAR-NEXT: {{^}}// ----{{$}}
// NEAR-NEXT: {{^}}      ^{{$}}
// ONE: func @one
// ONE-NOT: // -----
// ONE: func @two

// The command line: pass flags, options, pipelines, errors, output files.
// RUN: mlir-opt %s -async-to-async-runtime | FileCheck %s --check-prefix=FLAG
// RUN: mlir-opt %s --pass-pipeline="async-to-async-runtime{eliminate-blocking-await-ops=true}" | FileCheck %s --check-prefix=PIPE
// RUN: mlir-opt %s -async-to-async-runtime="eliminate-blocking-await-ops=true" | FileCheck %s --check-prefix=PIPE
// RUN: not mlir-opt %s -async-to-async-runtime="no-such-option=1" 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not mlir-opt %s -async-to-async-runtime="eliminate-blocking-await-ops=maybe" 2>&1 | FileCheck %s --check-prefix=BADVAL
// RUN: not mlir-opt %s -no-such-pass 2>&1 | FileCheck %s --check-prefix=BADPASS
// RUN: mlir-opt %s -async-to-async-runtime -print-ir-after-all -o %t 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: FileCheck %s --check-prefix=FLAG --input-file=%t
// RUN: mlir-opt --help | FileCheck %s --check-prefix=HELP
// RUN: mlir-opt %s -async-to-async-runtime --mlir-disable-threading | FileCheck %s --check-prefix=FLAG

// FLAG-LABEL: func @waits
// FLAG: async.runtime.await %arg0 : !async.token
// FLAG: assert %{{.*}}, "Awaited async operand is in error state"

// PIPE-LABEL: func @waits
// PIPE-SAME: (%arg0: !async.token) -> !async.token
// PIPE: async.runtime.await_and_resume %arg0

// BADOPT: <Pass-Options-Parser>: no such option no-such-option
// BADVAL: for the --eliminate-blocking-await-ops option: 'maybe' is invalid value for boolean argument! Try 0 or 1
// BADPASS: Unknown command line argument '-no-such-pass'
// DUMP: // -----// IR Dump After AsyncToAsyncRuntime //----- //
// DUMP-NEXT: module {
// HELP: --mlir-disable-threading
// HELP: --async-to-async-runtime
// HELP-NEXT: --eliminate-blocking-await-ops {{ *}}- Rewrite functions
func @waits(%t: !async.token) {
  async.await %t : !async.token
  return
}

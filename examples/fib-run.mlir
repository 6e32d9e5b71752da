// fib(20) with async tasks, run from source to printed result with our
// tools only (README, first command). Every call of @fib waits for two
// async.execute children; with eliminate-blocking-await-ops @fib becomes a
// coroutine, so a waiting call frees its worker thread. @main may block (it
// is what the runner calls), so it stays a plain function. Prints 6765.
// (mlir-opt-15 rejects this input: its pass cannot lower the awaits.)
func.func private @printI64(i64)
func.func private @printNewline()

func.func @fib(%n: i64) -> i64 {
  %c2 = arith.constant 2 : i64
  %small = arith.cmpi slt, %n, %c2 : i64
  %r = scf.if %small -> (i64) {
    scf.yield %n : i64
  } else {
    %c1 = arith.constant 1 : i64
    %n1 = arith.subi %n, %c1 : i64
    %n2 = arith.subi %n, %c2 : i64
    %t1, %v1 = async.execute -> !async.value<i64> {
      %f1 = func.call @fib(%n1) : (i64) -> i64
      async.yield %f1 : i64
    }
    %t2, %v2 = async.execute -> !async.value<i64> {
      %f2 = func.call @fib(%n2) : (i64) -> i64
      async.yield %f2 : i64
    }
    %a = async.await %v1 : !async.value<i64>
    %b = async.await %v2 : !async.value<i64>
    %s = arith.addi %a, %b : i64
    scf.yield %s : i64
  }
  return %r : i64
}

func.func @main() attributes {async.allowed_to_block} {
  %n = arith.constant 20 : i64
  %f = func.call @fib(%n) : (i64) -> i64
  func.call @printI64(%f) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

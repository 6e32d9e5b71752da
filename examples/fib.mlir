// A recursive Fibonacci that blocks on its sub-tasks: every call waits for
// two async.execute children. With eliminate-blocking-await-ops, @fib
// becomes a coroutine returning !async.token and !async.value<i64>, and the
// waits free the worker thread instead of blocking it.
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

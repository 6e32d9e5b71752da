// `main` starts a long task, spins long enough for a worker to pick it up,
// and returns without awaiting it: the task is still running when the entry
// function returns. Both lines are printed when the runtime waits for it.
func private @printI64(i64)
func private @printNewline()

func @work(%w: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %seed = arith.constant 88172645463325252 : i64
  %s13 = arith.constant 13 : i64
  %s7 = arith.constant 7 : i64
  %s = scf.for %k = %c0 to %w step %c1 iter_args(%x = %seed) -> (i64) {
    %a = arith.shli %x, %s13 : i64
    %y = arith.xori %x, %a : i64
    %b = arith.shrui %y, %s7 : i64
    %z = arith.xori %y, %b : i64
    scf.yield %z : i64
  }
  return %s : i64
}

func @main() {
  %long = arith.constant 30000000 : index
  %short = arith.constant 3000000 : index
  %t = async.execute {
    %r = call @work(%long) : (index) -> i64
    call @printI64(%r) : (i64) -> ()
    call @printNewline() : () -> ()
    async.yield
  }
  %m = call @work(%short) : (index) -> i64
  call @printI64(%m) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

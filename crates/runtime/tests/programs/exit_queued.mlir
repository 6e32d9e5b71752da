// `main` queues 200 tasks it never awaits and returns at once: most of them
// are still queued when the entry function returns.
func @work(%w: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %seed = arith.constant 88172645463325252 : i64
  %s13 = arith.constant 13 : i64
  %s = scf.for %k = %c0 to %w step %c1 iter_args(%x = %seed) -> (i64) {
    %a = arith.shli %x, %s13 : i64
    %y = arith.xori %x, %a : i64
    scf.yield %y : i64
  }
  return %s : i64
}

func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 200 : index
  %w = arith.constant 20000 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = async.execute {
      %r = call @work(%w) : (index) -> i64
      async.yield
    }
  }
  return
}

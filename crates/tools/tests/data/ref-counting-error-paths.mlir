// Tasks that fail at each suspension point of a coroutine: with
// eliminate-blocking-await-ops, @work is a coroutine whose error edges
// drop every token and value live there.
func.func private @printI64(i64)
func.func private @printNewline()

func.func @work(%k: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %t0 = async.execute {
    %ok = arith.cmpi ne, %k, %c0 : index
    cf.assert %ok, "task 0 fails"
    async.yield
  }
  %t1, %v1 = async.execute -> !async.value<i64> {
    %x = arith.constant 10 : i64
    async.yield %x : i64
  }
  %t2 = async.execute {
    %ok = arith.cmpi ne, %k, %c1 : index
    cf.assert %ok, "task 2 fails"
    async.yield
  }
  %t3, %v3 = async.execute -> !async.value<i64> {
    %ok = arith.cmpi ne, %k, %c3 : index
    cf.assert %ok, "task 3 fails"
    %x = arith.constant 30 : i64
    async.yield %x : i64
  }
  async.await %t0 : !async.token
  %t4 = async.execute [%t1] {
    %ok = arith.cmpi ne, %k, %c2 : index
    cf.assert %ok, "task 4 fails"
    async.yield
  }
  async.await %t2 : !async.token
  %x1 = async.await %v1 : !async.value<i64>
  async.await %t4 : !async.token
  %x3 = async.await %v3 : !async.value<i64>
  %s = arith.addi %x1, %x3 : i64
  return %s : i64
}

func.func @main() attributes {async.allowed_to_block} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  scf.for %k = %c0 to %c5 step %c1 {
    %t, %v = async.execute -> !async.value<i64> {
      %r = func.call @work(%k) : (index) -> i64
      async.yield %r : i64
    }
    async.runtime.await %v : !async.value<i64>
    %e = async.runtime.is_error %v : !async.value<i64>
    %ei = arith.extui %e : i1 to i64
    func.call @printI64(%ei) : (i64) -> ()
    func.call @printNewline() : () -> ()
  }
  return
}

// Tokens, values and a group, awaited from `main` and inside tasks: with
// -async-runtime-ref-counting every object is freed exactly once, so the
// checked mode passes. Prints 3 then 1 (sum of the values, then 1 when the
// group completed without error).
func private @printI64(i64)
func private @printNewline()

func @main() attributes {async.allowed_to_block} {
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %t1, %v1 = async.execute -> !async.value<i64> {
    async.yield %c1 : i64
  }
  %t2, %v2 = async.execute [%t1] (%v1 as %x : !async.value<i64>) -> !async.value<i64> {
    %y = arith.addi %x, %c2 : i64
    async.yield %y : i64
  }
  %c2i = arith.constant 2 : index
  %g = async.create_group %c2i : !async.group
  %a = async.execute {
    async.yield
  }
  %b = async.execute [%a] {
    async.yield
  }
  %ra = async.add_to_group %a, %g : !async.token
  %rb = async.add_to_group %b, %g : !async.token
  %s = async.await %v2 : !async.value<i64>
  call @printI64(%s) : (i64) -> ()
  call @printNewline() : () -> ()
  async.await_all %g
  async.await %t2 : !async.token
  call @printI64(%c1) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

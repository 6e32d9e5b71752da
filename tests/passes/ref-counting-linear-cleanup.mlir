// RUN: mlir-opt %s -async-to-async-runtime=eliminate-blocking-await-ops=true -async-runtime-ref-counting=linear-cleanup=true | FileCheck %s
// RUN: mlir-opt %s -async-to-async-runtime=eliminate-blocking-await-ops=true -async-runtime-ref-counting | FileCheck %s --check-prefix=EDGES

// A coroutine with four suspension points. Without the option each error
// edge gets a block dropping every token live there (%4 and %5 at the
// first, %5 and %8 at the second, %8 at the last two). With it, the edges
// pass their number (0 to 3) to a ladder: one step per block defining
// such tokens, each dropping a token when the number falls in the range
// of edges that dropped it, then the step of the dominating block, then
// the error block.

// EDGES-LABEL: func @f
// EDGES:       ^bb10:
// EDGES-NEXT:    async.runtime.drop_ref %5
// EDGES-NEXT:    async.runtime.drop_ref %4
// EDGES-NEXT:    cf.br ^bb14
// EDGES:       ^bb11:
// EDGES-NEXT:    async.runtime.drop_ref %8
// EDGES-NEXT:    async.runtime.drop_ref %5
// EDGES-NEXT:    cf.br ^bb14

// CHECK-LABEL: func @f
// CHECK:         %4 = call @async_execute_fn()
// CHECK:         %5 = call @async_execute_fn_0()
// CHECK:         %8 = call @async_execute_fn_1()
// The four error edges, each entering the ladder with its number: the
// first at the step of %4 and %5, the others at the step of %8.
// CHECK:       ^bb10:
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    cf.br ^[[OUTER:bb[0-9]+]](%[[C0]] : index)
// CHECK:       ^bb11:
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    cf.br ^[[INNER:bb[0-9]+]](%[[C1]] : index)
// CHECK:       ^bb12:
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    cf.br ^[[INNER]](%[[C2]] : index)
// CHECK:       ^bb13:
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    cf.br ^[[INNER]](%[[C3]] : index)
// Step of %4 and %5: %5 dropped by edges 0 and 1, %4 by edge 0.
// CHECK:       ^[[OUTER]](%[[J:.*]]: index):
// CHECK-NEXT:    %[[LO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[GE:.*]] = arith.cmpi uge, %[[J]], %[[LO]] : index
// CHECK-NEXT:    %[[LE:.*]] = arith.cmpi ule, %[[J]], %[[HI]] : index
// CHECK-NEXT:    %[[IN:.*]] = arith.andi %[[GE]], %[[LE]] : i1
// CHECK-NEXT:    cf.cond_br %[[IN]], ^[[DROP5:bb[0-9]+]], ^[[NEXT5:bb[0-9]+]]
// Step of %8: dropped by edges 1 to 3; then on to the outer step.
// CHECK:       ^[[INNER]](%[[K:.*]]: index):
// CHECK-NEXT:    %[[LO8:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[HI8:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[GE8:.*]] = arith.cmpi uge, %[[K]], %[[LO8]] : index
// CHECK-NEXT:    %[[LE8:.*]] = arith.cmpi ule, %[[K]], %[[HI8]] : index
// CHECK-NEXT:    %[[IN8:.*]] = arith.andi %[[GE8]], %[[LE8]] : i1
// CHECK-NEXT:    cf.cond_br %[[IN8]], ^[[DROP8:bb[0-9]+]], ^[[NEXT8:bb[0-9]+]]
// CHECK:       ^[[DROP5]]:
// CHECK-NEXT:    async.runtime.drop_ref %5 {count = 1 : i64} : !async.token
// CHECK-NEXT:    cf.br ^[[NEXT5]]
// CHECK:       ^[[NEXT5]]:
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[EQ:.*]] = arith.cmpi eq, %[[J]], %[[Z]] : index
// CHECK-NEXT:    cf.cond_br %[[EQ]], ^[[DROP4:bb[0-9]+]], ^[[NEXT4:bb[0-9]+]]
// CHECK:       ^[[DROP4]]:
// CHECK-NEXT:    async.runtime.drop_ref %4 {count = 1 : i64} : !async.token
// CHECK-NEXT:    cf.br ^[[NEXT4]]
// CHECK:       ^[[NEXT4]]:
// CHECK-NEXT:    cf.br ^[[ERROR:bb[0-9]+]]
// CHECK:       ^[[DROP8]]:
// CHECK-NEXT:    async.runtime.drop_ref %8 {count = 1 : i64} : !async.token
// CHECK-NEXT:    cf.br ^[[NEXT8]]
// CHECK:       ^[[NEXT8]]:
// CHECK-NEXT:    cf.br ^[[OUTER]](%[[K]] : index)
// CHECK:       ^[[ERROR]]:
// CHECK-NEXT:    async.runtime.set_error %0 : !async.token
func.func @f(%a: !async.token) -> !async.token {
  %t1 = async.execute { async.yield }
  %t2 = async.execute { async.yield }
  async.await %a : !async.token
  %t3 = async.execute { async.yield }
  async.await %t1 : !async.token
  async.await %t2 : !async.token
  async.await %t3 : !async.token
  return %t3 : !async.token
}

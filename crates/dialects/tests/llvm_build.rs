//! The LLVM dialect's builders make ops that verify and print as
//! mlir-opt-14 prints the same text (checked by running it on the
//! expected text: it prints it unchanged).

use mlir_async_dialects::llvm::build::{self, GepIndex};
use mlir_async_dialects::llvm::{self};
use mlir_async_dialects::{verify::verify, Registry};
use mlir_async_ir::{Context, InsertPoint};
use mlir_async_syntax::{parse_source, print_op, Edition, PrintOptions};

const EXPECTED: &str = r#"module {
  llvm.mlir.global internal constant @name("ok")
  llvm.func @malloc(i64) -> !llvm.ptr<i8>
  llvm.func @f(%arg0: i64, %arg1: !llvm.ptr<struct<(i32, ptr<i8>)>>) -> i32 {
    %0 = llvm.mlir.constant(1 : i32) : i32
    %1 = llvm.call @malloc(%arg0) : (i64) -> !llvm.ptr<i8>
    %2 = llvm.mlir.undef : !llvm.struct<(i32, ptr<i8>)>
    %3 = llvm.insertvalue %0, %2[0] : !llvm.struct<(i32, ptr<i8>)>
    %4 = llvm.insertvalue %1, %3[1] : !llvm.struct<(i32, ptr<i8>)>
    %5 = llvm.getelementptr %arg1[%arg0, 1] : (!llvm.ptr<struct<(i32, ptr<i8>)>>, i64) -> !llvm.ptr<ptr<i8>>
    llvm.store %1, %5 : !llvm.ptr<ptr<i8>>
    %6 = llvm.extractvalue %4[0] : !llvm.struct<(i32, ptr<i8>)>
    %7 = llvm.icmp "slt" %6, %0 : i32
    %8 = llvm.add %6, %0  : i32
    %9 = llvm.mlir.null : !llvm.ptr<i8>
    %10 = llvm.intr.coro.id %0, %9, %9, %9 : !llvm.token
    llvm.cond_br %7, ^bb1(%8 : i32), ^bb2
  ^bb1(%11: i32):  // pred: ^bb0
    llvm.return %11 : i32
  ^bb2:  // pred: ^bb0
    llvm.unreachable
  }
}
"#;

#[test]
fn built_ops_print_as_mlir_opt() {
    let mut ctx = Context::new();
    let reg = Registry::new(&mut ctx);
    // A module in 14's spelling to build into.
    let parsed = parse_source(&mut ctx, &reg, "t.mlir", "module {\n}\n", 0, false).expect("parses");
    let module = parsed.module;
    let top = ctx.entry_block(ctx.regions_of(module)[0]).unwrap();
    let at_top = InsertPoint::AtEnd(top);
    let loc = ctx.unknown_loc();
    let (i8t, i32t, i64t) = (ctx.int_type(8), ctx.int_type(32), ctx.int_type(64));
    let ptr = llvm::i8_pointer(&mut ctx);

    let arr = llvm::array_of(&mut ctx, i8t, 2);
    let value = ctx.string_attr("ok");
    let st = build::global(&mut ctx, loc, "name", arr, "internal", true, Some(value));
    ctx.build(at_top, st);
    let malloc_t = llvm::function(&mut ctx, ptr, &[i64t], false);
    let st = build::func(&mut ctx, loc, "malloc", malloc_t, "external", false);
    ctx.build(at_top, st);

    let s = llvm::literal_struct(&mut ctx, &[i32t, ptr], false);
    let ps = llvm::pointer_to(&mut ctx, s);
    let ft = llvm::function(&mut ctx, i32t, &[i64t, ps], false);
    let st = build::func(&mut ctx, loc, "f", ft, "external", true);
    let f = ctx.build(at_top, st);
    let body = ctx.regions_of(f)[0];
    let entry = ctx.entry_block(body).unwrap();
    let (n, p) = (ctx.block_args(entry)[0], ctx.block_args(entry)[1]);
    let ip = InsertPoint::AtEnd(entry);
    let emit = |ctx: &mut Context, st| {
        let op = ctx.build(ip, st);
        ctx.results(op).first().copied()
    };
    let st = build::int_constant(&mut ctx, loc, 1, i32t);
    let one = emit(&mut ctx, st).expect("result");
    let st = build::call(&mut ctx, loc, "malloc", &[n], Some(ptr));
    let mem = emit(&mut ctx, st).expect("result");
    let st = build::undef(&mut ctx, loc, s);
    let u = emit(&mut ctx, st).expect("result");
    let st = build::insertvalue(&mut ctx, loc, u, one, &[0]);
    let u = emit(&mut ctx, st).expect("result");
    let st = build::insertvalue(&mut ctx, loc, u, mem, &[1]);
    let u = emit(&mut ctx, st).expect("result");
    let pp = llvm::pointer_to(&mut ctx, ptr);
    let st = build::gep(
        &mut ctx,
        loc,
        pp,
        p,
        &[GepIndex::Value(n), GepIndex::Const(1)],
    );
    let field = emit(&mut ctx, st).expect("result");
    let st = build::store(&mut ctx, loc, mem, field);
    emit(&mut ctx, st);
    let st = build::extractvalue(&mut ctx, loc, u, &[0]).expect("in the struct");
    let x = emit(&mut ctx, st).expect("result");
    let st = build::icmp(&mut ctx, loc, "slt", x, one).expect("a predicate");
    let c = emit(&mut ctx, st).expect("result");
    let st = build::binary(&mut ctx, loc, "llvm.add", x, one);
    let sum = emit(&mut ctx, st).expect("result");
    let st = build::null(&mut ctx, loc, ptr);
    let null = emit(&mut ctx, st).expect("result");
    let tok = llvm::token(&mut ctx);
    let st = build::intrinsic(
        &mut ctx,
        loc,
        "coro.id",
        &[one, null, null, null],
        Some(tok),
    );
    emit(&mut ctx, st);
    let b1 = ctx.create_block(&[i32t]);
    let b2 = ctx.create_block(&[]);
    ctx.append_block(body, b1);
    ctx.append_block(body, b2);
    let st = build::cond_br(&mut ctx, loc, c, (b1, &[sum]), (b2, &[]));
    emit(&mut ctx, st);
    let r = ctx.block_args(b1)[0];
    let st = build::ret(&mut ctx, loc, Some(r));
    ctx.build(InsertPoint::AtEnd(b1), st);
    let st = build::unreachable(&mut ctx, loc);
    ctx.build(InsertPoint::AtEnd(b2), st);

    verify(&ctx, &reg, module, Edition::V14).expect("verifies");
    let opts = PrintOptions {
        edition: Edition::V14,
        generic: false,
        debug_info: false,
    };
    assert_eq!(print_op(&ctx, &reg, module, opts), EXPECTED);
}

//! The LLVM dialect's types through their typed API: what the
//! conversions build must print as mlir-opt prints it, and what the
//! parser reads must be the same interned type the constructors build.

use mlir_async_dialects::llvm::{self, LlvmType};
use mlir_async_dialects::Registry;
use mlir_async_ir::{Context, Type};
use mlir_async_syntax::{parse_source, print_type};

fn ctx() -> (Context, Registry) {
    let mut ctx = Context::new();
    let reg = Registry::new(&mut ctx);
    (ctx, reg)
}

/// The types of the arguments of `@f` in `text`.
fn arg_types(ctx: &mut Context, reg: &Registry, sig: &str) -> Vec<Type> {
    let text = format!("func.func @f({sig}) {{ return }}");
    let parsed = parse_source(ctx, reg, "t.mlir", &text, 0, false).expect("parses");
    let module = parsed.module;
    let top = ctx.entry_block(ctx.regions_of(module)[0]).unwrap();
    let func = ctx.first_op(top).expect("func");
    let body = ctx.regions_of(func)[0];
    let entry = ctx.entry_block(body).unwrap();
    ctx.block_args(entry)
        .iter()
        .map(|&v| ctx.value_type(v))
        .collect()
}

#[test]
fn constructors_print_as_mlir_opt() {
    let (mut ctx, _reg) = ctx();
    let i8t = ctx.int_type(8);
    let i64t = ctx.int_type(64);
    let p = llvm::pointer_to(&mut ctx, i8t);
    assert_eq!(print_type(&ctx, p), "!llvm.ptr<i8>");
    let desc = llvm::literal_struct(&mut ctx, &[p, p, i64t], false);
    let pdesc = llvm::pointer_to(&mut ctx, desc);
    assert_eq!(
        print_type(&ctx, pdesc),
        "!llvm.ptr<struct<(ptr<i8>, ptr<i8>, i64)>>"
    );
    let arr = llvm::array_of(&mut ctx, i64t, 2);
    assert_eq!(print_type(&ctx, arr), "!llvm.array<2 x i64>");
    let void = llvm::void(&mut ctx);
    let f = llvm::function(&mut ctx, void, &[p], true);
    assert_eq!(print_type(&ctx, f), "!llvm.func<void (ptr<i8>, ...)>");
    let tok = llvm::token(&mut ctx);
    assert_eq!(print_type(&ctx, tok), "!llvm.token");
    let packed = llvm::literal_struct(&mut ctx, &[i8t], true);
    assert_eq!(print_type(&ctx, packed), "!llvm.struct<packed (i8)>");
    let opaque = llvm::opaque_pointer(&mut ctx, 0);
    assert_eq!(print_type(&ctx, opaque), "!llvm.ptr");
    let opaque1 = llvm::opaque_pointer(&mut ctx, 1);
    assert_eq!(print_type(&ctx, opaque1), "!llvm.ptr<1>");
    let far = llvm::pointer_in(&mut ctx, i8t, 3);
    assert_eq!(print_type(&ctx, far), "!llvm.ptr<i8, 3>");
}

#[test]
fn parsed_types_are_the_constructed_ones() {
    let (mut ctx, reg) = ctx();
    let args = arg_types(
        &mut ctx,
        &reg,
        "%a: !llvm.ptr<i8>, %b: !llvm.struct<(ptr<i8>, i64)>, %c: !llvm.func<i1 (i32)>",
    );
    let i8t = ctx.int_type(8);
    let i64t = ctx.int_type(64);
    let i32t = ctx.int_type(32);
    let i1 = ctx.int_type(1);
    let p = llvm::i8_pointer(&mut ctx);
    assert_eq!(args[0], p);
    assert_eq!(llvm::pointee(&ctx, p), Some(i8t));
    assert_eq!(args[1], llvm::literal_struct(&mut ctx, &[p, i64t], false));
    let s = llvm::as_struct(&ctx, args[1]).expect("struct");
    assert_eq!(
        (s.name, s.elements(), s.packed),
        (None, &[p, i64t][..], false)
    );
    let f = llvm::as_function(&ctx, args[2]).expect("function");
    assert_eq!((f.result, f.params, f.vararg), (i1, &[i32t][..], false));
    assert!(llvm::is_llvm_type(&ctx, p) && !llvm::is_llvm_type(&ctx, i8t));
    assert!(llvm::as_pointer(&ctx, i8t).is_none());
}

#[test]
fn identified_structs_are_one_type_by_name() {
    let (mut ctx, reg) = ctx();
    let args = arg_types(
        &mut ctx,
        &reg,
        r#"%a: !llvm.struct<"node", (i32, ptr<struct<"node">>)>, %b: !llvm.struct<"opq", opaque>"#,
    );
    let node = llvm::identified_struct(&mut ctx, "node");
    assert_eq!(args[0], node);
    let s = llvm::as_struct(&ctx, node).expect("struct");
    assert_eq!(s.name, Some("node"));
    let body = s.elements().to_vec();
    assert_eq!(llvm::pointee(&ctx, body[1]), Some(node));
    assert_eq!(
        print_type(&ctx, node),
        r#"!llvm.struct<"node", (i32, ptr<struct<"node">>)>"#
    );
    // A body, once set, stays: the same again is fine, another is not.
    let i32t = ctx.int_type(32);
    assert!(llvm::set_struct_body(&mut ctx, node, &body, false).is_ok());
    assert!(llvm::set_struct_body(&mut ctx, node, &[i32t], false).is_err());
    assert!(llvm::opaque_struct(&mut ctx, "node").is_err());
    let opq = llvm::opaque_struct(&mut ctx, "opq").expect("opaque");
    assert_eq!(opq, args[1]);
    assert_eq!(llvm::as_struct(&ctx, opq).and_then(|s| s.body), None);
    // A name never given a body prints as opaque.
    let fresh = llvm::identified_struct(&mut ctx, "fresh");
    assert_eq!(print_type(&ctx, fresh), r#"!llvm.struct<"fresh", opaque>"#);
}

#[test]
fn classify_sees_every_kind() {
    let (mut ctx, _reg) = ctx();
    let i8t = ctx.int_type(8);
    let p = llvm::pointer_to(&mut ctx, i8t);
    let v = llvm::vector_of(&mut ctx, p, 4, false);
    assert_eq!(
        llvm::classify(&ctx, v),
        Some(LlvmType::Vector {
            element: p,
            count: 4,
            scalable: false
        })
    );
    assert_eq!(print_type(&ctx, v), "!llvm.vec<4 x ptr<i8>>");
    let a = llvm::array_of(&mut ctx, i8t, 7);
    assert_eq!(llvm::as_array(&ctx, a), Some((i8t, 7)));
    let m = llvm::metadata(&mut ctx);
    let l = llvm::label(&mut ctx);
    assert_eq!(llvm::classify(&ctx, m), Some(LlvmType::Metadata));
    assert_eq!(llvm::classify(&ctx, l), Some(LlvmType::Label));
    let void = llvm::void(&mut ctx);
    assert!(llvm::is_void(&ctx, void));
    assert!(llvm::is_compatible(&ctx, p));
    let idx = ctx.index_type();
    let bad = llvm::literal_struct(&mut ctx, &[idx], false);
    assert!(!llvm::is_compatible(&ctx, bad));
}

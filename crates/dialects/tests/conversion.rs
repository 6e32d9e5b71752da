//! The dialect-conversion driver with a type converter (`i32` becomes
//! `i64`): where an op that stays legal still needs the old type, a cast
//! back is materialized; where a converted op needs the new type of a
//! value nobody converted, a cast forward; block arguments and the
//! signature follow. The expected texts are what MLIR's driver produces
//! for the same conversion (its rules: a source materialization where the
//! replaced op stood, a target materialization right after the value it
//! casts).

use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_dialects::type_conversion::{
    is_branch_legal, is_func_legal, populate_func_and_branch_patterns,
};
use mlir_async_dialects::Registry;
use mlir_async_ir::{Context, Op, OperationState, TypeKind, Value};
use mlir_async_rewrite::conversion::apply_conversion;
use mlir_async_rewrite::conversion::ConversionMode;
use mlir_async_rewrite::{
    ConversionPatternSet, ConversionRewriter, ConversionTarget, RewriteError, TypeConversion,
    TypeConverter,
};
use mlir_async_syntax::{parse_source, print_op, Edition, PrintOptions};
use std::rc::Rc;

/// `test.produce` (i32 -> i32) becomes `test.produce64` (i64 -> i64).
fn widen(op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> Result<bool, RewriteError> {
    let ctx = rw.ctx();
    let i64t = ctx.int_type(64);
    let mut st = OperationState::new(ctx.sym("test.produce64"), ctx.op_loc(op));
    st.operands = operands.to_vec();
    st.result_types = vec![i64t];
    rw.replace_op_with_new(op, st)?;
    Ok(true)
}

fn i32_to_i64() -> TypeConverter {
    let mut conv = TypeConverter::new();
    conv.add_conversion(|_, _, t| TypeConversion::To(vec![t]));
    conv.add_conversion(|_, ctx, t| match ctx.kind(t) {
        TypeKind::Integer(32, _) => TypeConversion::To(vec![ctx.int_type(64)]),
        _ => TypeConversion::Next,
    });
    conv.add_cast_materializations();
    conv
}

fn convert(text: &str, mode: ConversionMode) -> Result<String, String> {
    let mut ctx = Context::new();
    let reg = Registry::new(&mut ctx);
    let parsed = parse_source(&mut ctx, &reg, "m.mlir", text, 0, true).map_err(|d| d.message)?;
    let conv = Rc::new(i32_to_i64());
    let mut target = ConversionTarget::new();
    target
        .add_legal_op("test.keep")
        .add_legal_op("test.produce64");
    target
        .add_legal_op("builtin.module")
        .add_legal_op("arith.constant");
    target.add_illegal_op("test.produce");
    // The legality callbacks need the converter too; it is read-only.
    let c = conv.clone();
    target.add_dynamically_legal_op("func.func", move |ctx, op| is_func_legal(&c, ctx, op));
    let c = conv.clone();
    target.add_dynamically_legal_op("func.return", move |ctx, op| c.is_legal_op(ctx, op));
    let c = conv.clone();
    target.add_dynamically_legal_op("cf.br", move |ctx, op| is_branch_legal(&c, ctx, op));
    let mut patterns = ConversionPatternSet::new();
    patterns.add_fn("test.produce", "widen", widen);
    populate_func_and_branch_patterns(&mut patterns);
    let ifaces = Interfaces::new(&reg, Edition::V15);
    apply_conversion(
        &mut ctx,
        parsed.module,
        &target,
        &patterns,
        Some(conv.clone()),
        &ifaces,
        mode,
    )
    .map_err(|e| e.into_ir_error(&ctx).message)?;
    let opts = PrintOptions {
        edition: Edition::V15,
        generic: false,
        debug_info: false,
    };
    Ok(print_op(&ctx, &reg, parsed.module, opts))
}

#[test]
fn materializes_casts_where_types_meet() {
    let out = convert(
        r#"func.func @f(%a: i32) -> i32 {
  %0 = "test.produce"(%a) : (i32) -> i32
  %1 = "test.keep"(%0) : (i32) -> i32
  %2 = "test.produce"(%1) : (i32) -> i32
  return %2 : i32
}
"#,
        ConversionMode::Partial,
    )
    .unwrap();
    assert_eq!(
        out,
        r#"module {
  func.func @f(%arg0: i64) -> i64 {
    %0 = "test.produce64"(%arg0) : (i64) -> i64
    %1 = builtin.unrealized_conversion_cast %0 : i64 to i32
    %2 = "test.keep"(%1) : (i32) -> i32
    %3 = builtin.unrealized_conversion_cast %2 : i32 to i64
    %4 = "test.produce64"(%3) : (i64) -> i64
    return %4 : i64
  }
}
"#
    );
}

#[test]
fn block_arguments_follow_the_branches() {
    let out = convert(
        r#"func.func @f(%a: i32) -> i32 {
  cf.br ^bb1(%a : i32)
^bb1(%x: i32):
  %0 = "test.produce"(%x) : (i32) -> i32
  %1 = "test.keep"(%x) : (i32) -> i32
  return %0 : i32
}
"#,
        ConversionMode::Partial,
    )
    .unwrap();
    assert_eq!(
        out,
        r#"module {
  func.func @f(%arg0: i64) -> i64 {
    cf.br ^bb1(%arg0 : i64)
  ^bb1(%0: i64):  // pred: ^bb0
    %1 = builtin.unrealized_conversion_cast %0 : i64 to i32
    %2 = "test.produce64"(%0) : (i64) -> i64
    %3 = "test.keep"(%1) : (i32) -> i32
    return %2 : i64
  }
}
"#
    );
}

#[test]
fn full_conversion_names_the_op_left_illegal() {
    let err = convert(
        r#"func.func @f(%a: i32) {
  "test.other"(%a) : (i32) -> ()
  return
}
"#,
        ConversionMode::Full,
    )
    .unwrap_err();
    assert_eq!(err, "failed to legalize operation 'test.other'");
}

#[test]
fn unreachable_blocks_are_an_error() {
    let err = convert(
        r#"func.func @f(%a: i32) -> i32 {
  return %a : i32
^bb1:
  %0 = "test.produce"(%a) : (i32) -> i32
  return %0 : i32
}
"#,
        ConversionMode::Partial,
    )
    .unwrap_err();
    assert_eq!(err, "unreachable blocks were not converted");
}

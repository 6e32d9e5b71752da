//! The verifier checks the rules and dominance in one walk: it tells most
//! operands dominate from where the walk is (a block it is inside of, an
//! op it is done with, the same isolation scope) and checks the others
//! once the rules found nothing. These pin what that must still catch,
//! and that a rule's error still comes before any dominance error.

use mlir_async_dialects::{verify::verify, Registry};
use mlir_async_ir::{Context, Op};
use mlir_async_syntax::{parse_source, Diagnostic, Edition};

struct Parsed {
    ctx: Context,
    reg: Registry,
    module: Op,
    edition: Edition,
}

fn parse(text: &str) -> Parsed {
    let mut ctx = Context::new();
    let reg = Registry::new(&mut ctx);
    let parsed = parse_source(&mut ctx, &reg, "m.mlir", text, 0, false)
        .unwrap_or_else(|d| panic!("{}", d.render(Some(text))));
    Parsed {
        ctx,
        reg,
        module: parsed.module,
        edition: parsed.edition,
    }
}

/// The first diagnostic, rendered.
fn error(p: &Parsed, text: &str) -> String {
    let e = verify(&p.ctx, &p.reg, p.module, p.edition).expect_err("invalid");
    Diagnostic::from_ir(&p.ctx, &e).render(Some(text))
}

/// The ops named `name` in `module`, in pre-order.
fn ops_named(ctx: &Context, module: Op, name: &str) -> Vec<Op> {
    let mut found = vec![];
    ctx.walk_nested(module, &mut |o| {
        if ctx.name(o) == name {
            found.push(o);
        }
    });
    found
}

const NESTED_MODULE: &str = r#"func.func @f(%a: i32) {
  %c = arith.constant 1 : i32
  builtin.module {
    func.func @g() {
      %d = arith.constant 2 : i32
      %b = arith.addi %d, %d : i32
      return
    }
  }
  return
}
"#;

/// A value of a block the walk is inside of, defined before the op
/// holding the use, dominates: but not across an isolated op (the text
/// cannot say this: names do not reach into an isolated region).
#[test]
fn values_from_outside_an_isolated_op_are_an_error() {
    let mut p = parse(NESTED_MODULE);
    assert!(verify(&p.ctx, &p.reg, p.module, p.edition).is_ok());
    let user = ops_named(&p.ctx, p.module, "arith.addi")[0];
    let outer_result = p
        .ctx
        .result(ops_named(&p.ctx, p.module, "arith.constant")[0], 0);
    p.ctx.set_operand(user, 1, outer_result);
    let err = error(&p, NESTED_MODULE);
    assert!(
        err.starts_with(
            "m.mlir:6:12: error: 'arith.addi' op using value defined outside the region"
        ),
        "{err}"
    );
    assert!(
        err.contains("m.mlir:4:5: note: required by region isolation constraints"),
        "{err}"
    );

    // The outer function's argument, a block argument of a block the walk
    // is inside of.
    let mut p = parse(NESTED_MODULE);
    let user = ops_named(&p.ctx, p.module, "arith.addi")[0];
    let f = ops_named(&p.ctx, p.module, "func.func")[0];
    let arg = p
        .ctx
        .block_args(p.ctx.entry_block(p.ctx.regions_of(f)[0]).unwrap())[0];
    p.ctx.set_operand(user, 0, arg);
    let err = error(&p, NESTED_MODULE);
    assert!(
        err.starts_with(
            "m.mlir:6:12: error: 'arith.addi' op using value defined outside the region"
        ),
        "{err}"
    );
}

/// An op's own result, used inside its region: the op is not done when
/// the walk is inside it.
#[test]
fn an_ops_own_result_inside_its_region_does_not_dominate() {
    let text = r#"func.func @f(%b: i1) -> i32 {
  %r = scf.if %b -> (i32) {
    %one = arith.constant 1 : i32
    scf.yield %one : i32
  } else {
    %two = arith.constant 2 : i32
    scf.yield %two : i32
  }
  return %r : i32
}
"#;
    let mut p = parse(text);
    let yield_op = ops_named(&p.ctx, p.module, "scf.yield")[0];
    let r = p.ctx.result(ops_named(&p.ctx, p.module, "scf.if")[0], 0);
    p.ctx.set_operand(yield_op, 0, r);
    let err = error(&p, text);
    assert!(
        err.starts_with("m.mlir:4:5: error: operand #0 does not dominate this use"),
        "{err}"
    );
    assert!(
        err.contains("note: operand defined here (op in a parent region)"),
        "{err}"
    );
}

/// Within a function, a rule's error is reported even when a dominance
/// error comes earlier in the walk; a module of one function (checked on
/// the calling thread) and of several (one function at a time, as
/// mlir-opt does) alike.
#[test]
fn rules_come_before_dominance_in_a_function() {
    let function = r#"func.func @f(%n: index) -> f32 {
  %y = arith.addi %x, %n : index
  %x = arith.addi %n, %n : index
  %a = arith.constant 1.0 : f32
  %b = arith.constant 2.0 : f64
  %0 = "arith.mulf"(%a, %b) : (f32, f64) -> f32
  return %0 : f32
}
"#;
    let want =
        "m.mlir:6:8: error: 'arith.mulf' op requires the same type for all operands and results";
    let p = parse(function);
    let err = error(&p, function);
    assert!(err.starts_with(want), "{err}");

    let several = format!("{function}func.func @g() {{\n  return\n}}\n");
    let p = parse(&several);
    let err = error(&p, &several);
    assert!(err.starts_with(want), "{err}");

    // Without the rule's error, the dominance error.
    let valid_mulf = several.replace(
        r#""arith.mulf"(%a, %b) : (f32, f64) -> f32"#,
        "arith.mulf %a, %a : f32",
    );
    let p = parse(&valid_mulf);
    let err = error(&p, &valid_mulf);
    assert!(
        err.starts_with("m.mlir:2:8: error: operand #0 does not dominate this use"),
        "{err}"
    );
}

/// Two errors of ops the quick check takes, which mlir-opt words its own
/// way (its parser rejects successors on an op that is no terminator; its
/// memref constraint names the type): the quick check leaves them to the
/// rules, which report them as before.
#[test]
fn the_quick_check_leaves_successors_and_operand_kinds_to_the_rules() {
    let successor = r#"func.func @f(%a: f32) {
  "arith.mulf"(%a, %a)[^bb1] : (f32, f32) -> f32
^bb1:
  return
}
"#;
    let p = parse(successor);
    let err = error(&p, successor);
    assert!(
        err.starts_with("m.mlir:2:3: error: 'arith.mulf' op requires 0 successors but found 1"),
        "{err}"
    );

    let load = r#"func.func @f(%a: f32, %i: index) -> f32 {
  %0 = "memref.load"(%a, %i) : (f32, index) -> f32
  return %0 : f32
}
"#;
    let p = parse(load);
    let err = error(&p, load);
    assert!(
        err.starts_with(
            "m.mlir:2:8: error: 'memref.load' op operand #0 must be of a different type"
        ),
        "{err}"
    );
}

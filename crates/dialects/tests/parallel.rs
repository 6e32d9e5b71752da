//! Verification and printing split a module's functions over threads;
//! the text and the first diagnostic must be what one thread gives.

use mlir_async_dialects::{verify::verify, Registry};
use mlir_async_ir::{parallel, Context};
use mlir_async_syntax::{parse_source, print_op, write_op, PrintOptions};
use std::fmt::Write;

/// A module of `funcs` functions large enough for the parallel paths
/// (they start at 20k ops), with what makes naming hard: name hints that
/// collide (`%c1`, `%c1_0`), nested regions continuing the counters,
/// several blocks with predecessor comments, functions of unequal size.
fn module(funcs: usize) -> String {
    let mut s = String::from("module {\n");
    for f in 0..funcs {
        let n = 5 + f % 17;
        let _ = writeln!(s, "  func.func @f{f}(%a: index, %p: i1) -> index {{");
        s.push_str("    %c1 = arith.constant 1 : index\n");
        for i in 0..n {
            let _ = writeln!(s, "    %x{i} = arith.addi %a, %c1 : index");
            let _ = writeln!(s, "    %k{i} = arith.constant 1 : index");
            let _ = writeln!(
                s,
                "    %t{i} = async.execute {{\n      %in = arith.constant 1 : index\n      async.yield\n    }}"
            );
            let _ = writeln!(s, "    async.await %t{i} : !async.token");
            let _ = writeln!(
                s,
                "    %r{i} = scf.for %i = %c1 to %a step %c1 iter_args(%acc = %x{i}) -> (index) {{\n      %y = arith.addi %acc, %k{i} : index\n      scf.yield %y : index\n    }}"
            );
        }
        s.push_str("    cf.cond_br %p, ^bb1(%a : index), ^bb2\n");
        s.push_str("  ^bb1(%v: index):\n    return %v : index\n");
        s.push_str("  ^bb2:\n    cf.br ^bb1(%c1 : index)\n  }\n");
    }
    s.push_str("}\n");
    s
}

fn check(text: &str) -> Result<String, String> {
    let mut ctx = Context::new();
    let reg = Registry::new(&mut ctx);
    let parsed =
        parse_source(&mut ctx, &reg, "m.mlir", text, 0, false).map_err(|d| d.render(Some(text)))?;
    verify(&ctx, &reg, parsed.module, parsed.edition)
        .map_err(|e| mlir_async_syntax::Diagnostic::from_ir(&ctx, &e).render(Some(text)))?;
    let opts = PrintOptions {
        edition: parsed.edition,
        generic: false,
        debug_info: false,
    };
    let whole = print_op(&ctx, &reg, parsed.module, opts);
    // The text written while it is printed (parts in the order the
    // threads finish them) is the same.
    let mut written = vec![];
    write_op(&ctx, &reg, parsed.module, opts, &mut written).map_err(|e| e.to_string())?;
    assert!(written == whole.as_bytes(), "written output differs");
    Ok(whole)
}

/// Both ways, threading first; the switch is global, so this is the only
/// test of the binary.
fn both(text: &str) -> (Result<String, String>, Result<String, String>) {
    parallel::disable_threading(false);
    let threaded = check(text);
    parallel::disable_threading(true);
    let single = check(text);
    parallel::disable_threading(false);
    (threaded, single)
}

/// The diagnostic for an invalid module, checked to be the same with and
/// without threads.
fn same_error(text: &str) -> String {
    let (threaded, single) = both(text);
    let err = single.expect_err("invalid");
    assert_eq!(threaded, Err(err.clone()));
    err
}

#[test]
fn threads_do_not_change_output_or_diagnostics() {
    let text = module(600);
    let (threaded, single) = both(&text);
    let printed = single.expect("the module is valid");
    assert!(printed.lines().count() > 20_000, "too small to go parallel");
    // Spot checks that the text really is the full module, named as
    // mlir-opt names it.
    assert!(printed.contains("func.func @f599(%arg0: index, %arg1: i1) -> index {"));
    assert!(printed.contains("%c1_0 = arith.constant 1 : index"));
    assert!(printed.contains(": index):  // 2 preds: ^bb0, ^bb2"));
    assert_eq!(threaded.as_deref(), Ok(printed.as_str()));

    // Errors in two functions: the first function's is reported, whatever
    // its kind, as mlir-opt does (it verifies function by function).
    let late_use = (
        "    %x0 = arith.addi %a, %c1 : index",
        "    %x0 = arith.addi %a, %late : index\n    %late = arith.constant 2 : index",
    );
    let bad_op = (
        "func.func @f500(%a: index, %p: i1) -> index {",
        "func.func @f500(%a: index, %p: i1) -> index {\n    %bad = \"arith.addi\"(%a, %a) : (index, index) -> i32",
    );
    let both_broken = text
        .replacen(late_use.0, late_use.1, 1)
        .replacen(bad_op.0, bad_op.1, 1);
    let err = same_error(&both_broken);
    assert!(
        err.contains("operand #1 does not dominate this use"),
        "{err}"
    );
    assert!(err.starts_with("m.mlir:4:"), "{err}");

    // Only the late function's op error.
    let err = same_error(&text.replacen(bad_op.0, bad_op.1, 1));
    assert!(
        err.contains("requires the same type for all operands and results"),
        "{err}"
    );
    assert!(err.contains("%bad = "), "{err}");
}

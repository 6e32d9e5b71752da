//! Arbitrary bytes through parse, verify and print: any panic (including
//! a stack overflow) is a bug; errors must come back as diagnostics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mlir_async_dialects::{verify::verify, Registry};
use mlir_async_ir::Context;
use mlir_async_syntax::{parse_source, print_op, PrintOptions};

fuzz_target!(|data: &[u8]| {
    // The first byte picks the options; the rest is the source. The tools
    // reject invalid UTF-8 before parsing, so only valid text gets further.
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let mut ctx = Context::new();
    let reg = Registry::new(&mut ctx);
    let parsed = match parse_source(&mut ctx, &reg, "fuzz.mlir", text, 0, flags & 1 == 1) {
        Ok(p) => p,
        Err(d) => {
            assert!(d.line > 0, "parse error without a line: {}", d.message);
            return;
        }
    };
    if verify(&ctx, &reg, parsed.module, parsed.edition).is_err() {
        return;
    }
    let opts = PrintOptions {
        edition: parsed.edition,
        generic: flags & 2 == 2,
        debug_info: flags & 4 == 4,
    };
    let out = print_op(&ctx, &reg, parsed.module, opts);
    assert!(!out.is_empty());
});

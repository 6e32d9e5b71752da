//! `f80` and `f128` constants against `mlir-opt-14` and `mlir-opt-15`:
//! decimal literals (read as doubles: typical, tiny, subnormal, huge, past
//! a double's range), hex literals (a type's low 64 bits: its subnormals,
//! `f80`'s pseudo-denormals), and the raw bytes of `dense<"0x...">` with
//! any bit pattern (normal numbers with more precision than a double,
//! infinities, NaNs, zeros of both signs), and hex elements of dense
//! lists. Each literal is a chunk of a split input, so upstream's errors
//! are compared too; the whole output must be byte for byte upstream's.
//! Skips (and says why) when the upstream tools are not installed.

mod support;

use std::process::Command;
use support::{have, Rng};

fn rand_u64(rng: &mut Rng) -> u64 {
    (0..4).fold(0u64, |acc, _| (acc << 16) | rng.below(1 << 16) as u64)
}

fn rand_bits(rng: &mut Rng, bits: u32) -> u128 {
    let v = (u128::from(rand_u64(rng)) << 64) | u128::from(rand_u64(rng));
    if bits >= 128 {
        v
    } else {
        v & ((1u128 << bits) - 1)
    }
}

/// A literal (attribute text without the type) for `ty`, one of several
/// kinds.
fn literal(rng: &mut Rng, ty: &str) -> String {
    let width = if ty == "f80" { 80 } else { 128 };
    match rng.below(6) {
        // A decimal literal.
        0 => {
            let digits: String = (0..1 + rng.below(20))
                .map(|_| char::from(b'0' + rng.below(10) as u8))
                .collect();
            let exp = rng.below(700) as i64 - 350;
            let sign = if rng.below(3) == 0 { "-" } else { "" };
            format!("{sign}{}.{}e{exp}", &digits[..1], &digits[1..])
        }
        // A decimal at the ends of a double's range.
        1 => {
            let fixed = [
                "4.9406564584124654e-324",
                "2.2250738585072014e-308",
                "1.0e-310",
                "1.7976931348623157e308",
                "1.0e309",
                "-0.0",
                "0.0",
                "1.1",
                "3.14159265358979323846264338327950288",
                "1.0e-5000",
            ];
            fixed[rng.below(fixed.len())].to_string()
        }
        // A hex literal: at most 64 bits, upstream reads no more.
        2 => {
            let n = 1 + rng.below(64) as u32;
            format!("0x{:X}", rand_bits(rng, n))
        }
        // Raw dense bytes of one element, any pattern: the exponent drawn
        // from its ends as often as from the middle.
        3 | 4 => {
            let mut v = rand_bits(rng, width);
            let exp_at = if width == 80 { 64 } else { 112 };
            match rng.below(4) {
                0 => v &= !(0x7fffu128 << exp_at),
                1 => v |= 0x7fffu128 << exp_at,
                _ => {}
            }
            if width == 80 && rng.below(2) == 0 {
                // The explicit integer bit, set as in a normal number.
                v |= 1u128 << 63;
            }
            if rng.below(8) == 0 {
                // Zero, infinity, or with only the sign.
                v &= (1u128 << (width - 1)) | (0x7fffu128 << exp_at);
            }
            let bytes = width / 8;
            let hex: String = (0..bytes)
                .map(|i| format!("{:02X}", (v >> (8 * i)) as u8))
                .collect();
            format!("dense<\"0x{hex}\">")
        }
        // A dense list mixing a hex element with a decimal one.
        _ => {
            let n = 1 + rng.below(64) as u32;
            format!("dense<[0x{:X}, 2.5]>", rand_bits(rng, n))
        }
    }
}

#[test]
fn wide_float_constants_print_as_upstream() {
    if !have("mlir-opt-14") || !have("mlir-opt-15") {
        eprintln!("skipped: needs mlir-opt-14 and mlir-opt-15");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("mlir-async-widefloat-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut rng = Rng(0x00f8_0f12_8bad_cafe);
    // WIDE_FLOAT_LITERALS=N for a longer run.
    let n: usize = std::env::var("WIDE_FLOAT_LITERALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let lits: Vec<(String, &str)> = (0..n)
        .map(|i| {
            let ty = if i % 2 == 0 { "f80" } else { "f128" };
            (literal(&mut rng, ty), ty)
        })
        .collect();
    let mut problems = vec![];
    for edition in [14, 15] {
        let func = if edition == 15 { "func.func" } else { "func" };
        let chunks: Vec<String> = lits
            .iter()
            .map(|(lit, ty)| {
                let ty = if lit.starts_with("dense") {
                    format!("tensor<1x{ty}>")
                } else {
                    ty.to_string()
                };
                let ty = if lit.starts_with("dense<[") {
                    ty.replace("tensor<1x", "tensor<2x")
                } else {
                    ty
                };
                format!("{func} @c() -> {ty} {{\n  %c = arith.constant {lit} : {ty}\n  return %c : {ty}\n}}\n")
            })
            .collect();
        let file = tmp.join(format!("wide-{edition}.mlir"));
        std::fs::write(&file, chunks.join("// -----\n")).expect("write");
        let run = |tool: &str| {
            Command::new(tool)
                .arg(&file)
                .arg("-split-input-file")
                .output()
                .expect("run")
        };
        let up = run(&format!("mlir-opt-{edition}"));
        let ours = run(env!("CARGO_BIN_EXE_mlir-async-opt"));
        let (us, os) = (
            String::from_utf8_lossy(&up.stdout),
            String::from_utf8_lossy(&ours.stdout),
        );
        // Compare chunk by chunk to name the literal that differs.
        let ups: Vec<&str> = us.split("// -----\n").collect();
        let ous: Vec<&str> = os.split("// -----\n").collect();
        for (i, (lit, ty)) in lits.iter().enumerate() {
            let (u, o) = (ups.get(i), ous.get(i));
            if u != o {
                problems.push(format!(
                    "{edition}: {lit} : {ty}\n  upstream: {:?}\n  ours:     {:?}",
                    u.map(|s| s.trim()),
                    o.map(|s| s.trim())
                ));
            }
        }
        if up.stderr != ours.stderr || up.status.code() != ours.status.code() {
            problems.push(format!(
                "{edition}: diagnostics differ\n--- upstream ({:?})\n{}\n--- ours ({:?})\n{}",
                up.status.code(),
                String::from_utf8_lossy(&up.stderr),
                ours.status.code(),
                String::from_utf8_lossy(&ours.stderr)
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        problems.is_empty(),
        "{} of {} literals x 2 generations differ:\n{}",
        problems.len(),
        lits.len(),
        problems.join("\n")
    );
}

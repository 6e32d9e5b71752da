//! Folding during `async-to-async-runtime` against `mlir-opt-14` and
//! `mlir-opt-15`: random integer and `f32` `arith` code over constants and
//! arguments, which upstream's conversion driver folds on the way, must
//! print byte for byte as upstream prints it. Skips (and says why) when the
//! upstream tools are not installed.

mod support;

use std::process::Command;
use support::{have, Rng};

/// One function of random integer code, in the syntax of `edition`.
fn function(rng: &mut Rng, k: usize, edition: u32) -> String {
    let func = if edition == 15 { "func.func" } else { "func" };
    let select = if edition == 15 {
        "arith.select"
    } else {
        "select"
    };
    let mut body = String::new();
    let mut i32s: Vec<String> = vec!["%x".into(), "%y".into()];
    let mut i1s: Vec<String> = vec!["%b".into()];
    let mut idx: Vec<String> = vec!["%i".into()];
    let mut f32s: Vec<String> = vec!["%f".into()];
    let mut n = 0;
    let mut fresh = |body: &mut String, def: String| {
        n += 1;
        body.push_str(&format!("  %v{n} = {def}\n"));
        format!("%v{n}")
    };
    for c in [
        "0",
        "1",
        "-1",
        "2",
        "7",
        "31",
        "32",
        "-2147483648",
        "2147483647",
    ] {
        let v = fresh(&mut body, format!("arith.constant {c} : i32"));
        i32s.push(v);
    }
    for c in ["true", "false"] {
        let v = fresh(&mut body, format!("arith.constant {c}"));
        i1s.push(v);
    }
    for c in ["0", "300"] {
        let v = fresh(&mut body, format!("arith.constant {c} : index"));
        idx.push(v);
    }
    for c in [
        "0.0", "-0.0", "1.0", "3.0", "0.1", "-2.5", "1.0e+30", "7.0e-03",
    ] {
        let v = fresh(&mut body, format!("arith.constant {c} : f32"));
        f32s.push(v);
    }
    const BIN: &[&str] = &[
        "addi", "subi", "muli", "andi", "ori", "xori", "divsi", "divui", "remsi", "remui", "shli",
        "shrsi", "shrui",
    ];
    const PRED: &[&str] = &[
        "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
    ];
    const FLOAT: &[&str] = &["addf", "subf", "mulf", "divf"];
    for _ in 0..16 {
        match rng.below(10) {
            8 | 9 => {
                let op = FLOAT[rng.below(FLOAT.len())];
                let (a, b) = (rng.pick(&f32s).to_string(), rng.pick(&f32s).to_string());
                let v = fresh(&mut body, format!("arith.{op} {a}, {b} : f32"));
                f32s.push(v);
            }
            0..=3 => {
                let op = BIN[rng.below(BIN.len())];
                let (a, b) = (rng.pick(&i32s).to_string(), rng.pick(&i32s).to_string());
                let v = fresh(&mut body, format!("arith.{op} {a}, {b} : i32"));
                i32s.push(v);
            }
            4 => {
                let p = PRED[rng.below(PRED.len())];
                let (a, b) = (rng.pick(&i32s).to_string(), rng.pick(&i32s).to_string());
                let v = fresh(&mut body, format!("arith.cmpi {p}, {a}, {b} : i32"));
                i1s.push(v);
            }
            5 => {
                let c = rng.pick(&i1s).to_string();
                let (a, b) = (rng.pick(&i32s).to_string(), rng.pick(&i32s).to_string());
                let v = fresh(&mut body, format!("{select} {c}, {a}, {b} : i32"));
                i32s.push(v);
            }
            6 => {
                let c = rng.pick(&i1s).to_string();
                let ext = if rng.below(2) == 0 { "extsi" } else { "extui" };
                let v = fresh(&mut body, format!("arith.{ext} {c} : i1 to i32"));
                i32s.push(v);
            }
            _ => {
                if rng.below(2) == 0 {
                    let a = rng.pick(&idx).to_string();
                    let v = fresh(&mut body, format!("arith.index_cast {a} : index to i32"));
                    i32s.push(v);
                } else {
                    let a = rng.pick(&i32s).to_string();
                    let v = fresh(&mut body, format!("arith.trunci {a} : i32 to i8"));
                    let w = fresh(&mut body, format!("arith.extsi {v} : i8 to i32"));
                    i32s.push(w);
                }
            }
        }
    }
    let (r, c, f) = (i32s.last(), i1s.last(), f32s.last());
    let (r, c, f) = (r.cloned(), c.cloned(), f.cloned());
    format!(
        "{func} @f{k}(%x: i32, %y: i32, %b: i1, %i: index, %f: f32) -> (i32, i1, f32) {{\n{body}  return {}, {}, {} : i32, i1, f32\n}}\n",
        r.unwrap_or_default(),
        c.unwrap_or_default(),
        f.unwrap_or_default()
    )
}

#[test]
fn folds_as_upstream_does() {
    if !have("mlir-opt-14") || !have("mlir-opt-15") {
        eprintln!("skipped: needs mlir-opt-14 and mlir-opt-15");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("mlir-async-fold-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut rng = Rng(0x5eed_f01d_cafe_f00d);
    let (mut same, mut different) = (0, vec![]);
    // FOLD_MODULES=N for a longer run (40 functions each).
    let modules: usize = std::env::var("FOLD_MODULES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    for m in 0..modules {
        for edition in [14, 15] {
            let text: String = (0..40).map(|k| function(&mut rng, k, edition)).collect();
            let file = tmp.join(format!("m{m}-{edition}.mlir"));
            std::fs::write(&file, text).expect("write");
            let up = Command::new(format!("mlir-opt-{edition}"))
                .arg(&file)
                .arg("-async-to-async-runtime")
                .output()
                .expect("run upstream");
            let ours = Command::new(env!("CARGO_BIN_EXE_mlir-async-opt"))
                .arg(&file)
                .arg("-async-to-async-runtime")
                .output()
                .expect("run ours");
            assert!(up.status.success(), "upstream rejected {}", file.display());
            if ours.status.success() && ours.stdout == up.stdout {
                same += 1;
            } else {
                different.push(file.display().to_string());
            }
        }
    }
    eprintln!("{same} modules identical, {} different", different.len());
    if different.is_empty() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    assert!(
        different.is_empty(),
        "differ from upstream (kept):\n{}",
        different.join("\n")
    );
}

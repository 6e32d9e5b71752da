//! Folding during `async-to-async-runtime` against `mlir-opt-14` and
//! `mlir-opt-15`: random `arith` code (i32, i128, index, i1, f16, bf16,
//! f32, vectors and tensors; arithmetic, min/max, ceil/floor division,
//! comparisons, casts, NaN and infinities where the folds see them) over constants and
//! arguments, which upstream's conversion driver folds on the way, must
//! print byte for byte as upstream prints it. Skips (and says why) when the
//! upstream tools are not installed.

mod support;

use std::process::Command;
use support::{have, Rng};

/// A pool of values of one type, drawn from by the generator.
struct Pools {
    i32s: Vec<String>,
    i1s: Vec<String>,
    idx: Vec<String>,
    f32s: Vec<String>,
    /// f32 constants that are NaN or infinite: fed only to the ops whose
    /// folds of them are modelled (`cmpf`, `maxf`/`minf`, `negf`,
    /// `truncf`, `bitcast`, `fptosi`/`fptoui`).
    f32_special: Vec<String>,
    f16s: Vec<String>,
    bf16s: Vec<String>,
    i128s: Vec<String>,
    /// vector<4xi32> and tensor<2xf32> values: splats and other dense
    /// constants, folded whole or element by element.
    vi32s: Vec<String>,
    tf32s: Vec<String>,
}

/// One function of random integer and float code, in the syntax of
/// `edition`.
fn function(rng: &mut Rng, k: usize, edition: u32) -> String {
    let func = if edition == 15 { "func.func" } else { "func" };
    let select = if edition == 15 {
        "arith.select"
    } else {
        "select"
    };
    let mut body = String::new();
    let mut p = Pools {
        i32s: vec!["%x".into(), "%y".into()],
        i1s: vec!["%b".into()],
        idx: vec!["%i".into()],
        f32s: vec!["%f".into()],
        f32_special: vec![],
        f16s: vec!["%h".into()],
        bf16s: vec!["%g".into()],
        i128s: vec!["%w".into()],
        vi32s: vec!["%vx".into()],
        tf32s: vec!["%tx".into()],
    };
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
        "-7",
        "31",
        "32",
        "-2147483648",
        "2147483647",
    ] {
        let v = fresh(&mut body, format!("arith.constant {c} : i32"));
        p.i32s.push(v);
    }
    for c in ["true", "false"] {
        let v = fresh(&mut body, format!("arith.constant {c}"));
        p.i1s.push(v);
    }
    for c in ["0", "300"] {
        let v = fresh(&mut body, format!("arith.constant {c} : index"));
        p.idx.push(v);
    }
    for c in [
        "0.0", "-0.0", "1.0", "3.0", "0.1", "-2.5", "1.0e+30", "7.0e-03", "2.5", "-7.0", "4.0e+09",
        "3.0e+09",
    ] {
        let v = fresh(&mut body, format!("arith.constant {c} : f32"));
        p.f32s.push(v);
    }
    for c in ["0x7FC00000", "0x7F800000", "0xFF800000", "0xFFC00001"] {
        let v = fresh(&mut body, format!("arith.constant {c} : f32"));
        p.f32_special.push(v);
    }
    for c in ["0.0", "1.0", "0.1", "-2.5", "6.5e+04", "1.0e-05", "3.0"] {
        let v = fresh(&mut body, format!("arith.constant {c} : f16"));
        p.f16s.push(v);
        let v = fresh(&mut body, format!("arith.constant {c} : bf16"));
        p.bf16s.push(v);
    }
    for c in [
        "0",
        "1",
        "-1",
        "3",
        "18446744073709551616",
        "-170141183460469231731687303715884105728",
        "170141183460469231731687303715884105727",
    ] {
        let v = fresh(&mut body, format!("arith.constant {c} : i128"));
        p.i128s.push(v);
    }
    for c in [
        "dense<[1, 2, 3, 4]>",
        "dense<5>",
        "dense<0>",
        "dense<1>",
        "dense<-1>",
        "dense<[-1, 0, 7, -2147483648]>",
        "dense<[40, 1, 2, 3]>",
        "dense<[2147483647, -7, 31, 0]>",
    ] {
        let v = fresh(&mut body, format!("arith.constant {c} : vector<4xi32>"));
        p.vi32s.push(v);
    }
    for c in [
        "dense<[1.500000e+00, -2.500000e+00]>",
        "dense<2.000000e+00>",
        "dense<1.000000e+00>",
        "dense<-0.000000e+00>",
        "dense<[0.000000e+00, 1.000000e+30]>",
    ] {
        let v = fresh(&mut body, format!("arith.constant {c} : tensor<2xf32>"));
        p.tf32s.push(v);
    }
    const BIN: &[&str] = &[
        "addi",
        "subi",
        "muli",
        "andi",
        "ori",
        "xori",
        "divsi",
        "divui",
        "remsi",
        "remui",
        "shli",
        "shrsi",
        "shrui",
        "maxsi",
        "maxui",
        "minsi",
        "minui",
        "ceildivsi",
        "ceildivui",
        "floordivsi",
    ];
    const PRED: &[&str] = &[
        "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
    ];
    const FPRED: &[&str] = &[
        "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
        "ule", "une", "uno", "true",
    ];
    const FLOAT: &[&str] = &["addf", "subf", "mulf", "divf"];
    // Any f32, special values included, for the ops that fold them.
    let any_f32 = |rng: &mut Rng, p: &Pools| -> String {
        if rng.below(4) == 0 && !p.f32_special.is_empty() {
            rng.pick(&p.f32_special).to_string()
        } else {
            rng.pick(&p.f32s).to_string()
        }
    };
    for _ in 0..28 {
        match rng.below(24) {
            20 | 21 => {
                let op = BIN[rng.below(BIN.len())];
                let (a, b) = (
                    rng.pick(&p.vi32s).to_string(),
                    rng.pick(&p.vi32s).to_string(),
                );
                let v = fresh(&mut body, format!("arith.{op} {a}, {b} : vector<4xi32>"));
                p.vi32s.push(v);
            }
            22 => {
                let op = ["addf", "subf", "mulf", "divf", "maxf", "minf"][rng.below(6)];
                let (a, b) = (
                    rng.pick(&p.tf32s).to_string(),
                    rng.pick(&p.tf32s).to_string(),
                );
                let v = fresh(&mut body, format!("arith.{op} {a}, {b} : tensor<2xf32>"));
                p.tf32s.push(v);
            }
            23 => {
                let a = rng.pick(&p.vi32s).to_string();
                let b = rng.pick(&p.vi32s).to_string();
                match rng.below(4) {
                    0 => {
                        let pr = PRED[rng.below(PRED.len())];
                        fresh(
                            &mut body,
                            format!("arith.cmpi {pr}, {a}, {b} : vector<4xi32>"),
                        );
                    }
                    1 => {
                        let op = if rng.below(2) == 0 {
                            "sitofp"
                        } else {
                            "uitofp"
                        };
                        fresh(
                            &mut body,
                            format!("arith.{op} {a} : vector<4xi32> to vector<4xf32>"),
                        );
                    }
                    2 => {
                        let v = fresh(
                            &mut body,
                            format!("arith.bitcast {a} : vector<4xi32> to vector<4xf32>"),
                        );
                        let w = fresh(
                            &mut body,
                            format!("arith.bitcast {v} : vector<4xf32> to vector<4xi32>"),
                        );
                        p.vi32s.push(w);
                    }
                    _ => {
                        let c = rng.pick(&p.i1s).to_string();
                        let v = fresh(&mut body, format!("{select} {c}, {a}, {b} : vector<4xi32>"));
                        p.vi32s.push(v);
                    }
                }
            }
            0..=5 => {
                let op = BIN[rng.below(BIN.len())];
                let (a, b) = (rng.pick(&p.i32s).to_string(), rng.pick(&p.i32s).to_string());
                let v = fresh(&mut body, format!("arith.{op} {a}, {b} : i32"));
                p.i32s.push(v);
            }
            6 => {
                let pr = PRED[rng.below(PRED.len())];
                let (a, b) = (rng.pick(&p.i32s).to_string(), rng.pick(&p.i32s).to_string());
                let v = fresh(&mut body, format!("arith.cmpi {pr}, {a}, {b} : i32"));
                p.i1s.push(v);
            }
            7 => {
                let c = rng.pick(&p.i1s).to_string();
                let (a, b) = (rng.pick(&p.i32s).to_string(), rng.pick(&p.i32s).to_string());
                let v = fresh(&mut body, format!("{select} {c}, {a}, {b} : i32"));
                p.i32s.push(v);
            }
            8 => {
                let c = rng.pick(&p.i1s).to_string();
                let ext = if rng.below(2) == 0 { "extsi" } else { "extui" };
                let v = fresh(&mut body, format!("arith.{ext} {c} : i1 to i32"));
                p.i32s.push(v);
            }
            9 => match rng.below(4) {
                0 => {
                    let a = rng.pick(&p.idx).to_string();
                    let v = fresh(&mut body, format!("arith.index_cast {a} : index to i32"));
                    p.i32s.push(v);
                }
                1 => {
                    let a = rng.pick(&p.i32s).to_string();
                    let v = fresh(&mut body, format!("arith.trunci {a} : i32 to i8"));
                    let w = fresh(&mut body, format!("arith.extsi {v} : i8 to i32"));
                    p.i32s.push(w);
                }
                _ => {
                    // Chains of one cast, which fold in place (each link
                    // then reads the chain's start), and back.
                    let a = rng.pick(&p.i32s).to_string();
                    let t1 = fresh(&mut body, format!("arith.trunci {a} : i32 to i16"));
                    let t2 = fresh(&mut body, format!("arith.trunci {t1} : i16 to i8"));
                    let ext = if rng.below(2) == 0 { "extsi" } else { "extui" };
                    let e1 = fresh(&mut body, format!("arith.{ext} {t2} : i8 to i16"));
                    let e2 = fresh(&mut body, format!("arith.{ext} {e1} : i16 to i32"));
                    let e3 = fresh(&mut body, format!("arith.{ext} {e2} : i32 to i64"));
                    let back = fresh(&mut body, format!("arith.trunci {e3} : i64 to i32"));
                    p.i32s.push(if rng.below(2) == 0 { e2 } else { back });
                }
            },
            10 | 11 => {
                let op = FLOAT[rng.below(FLOAT.len())];
                let (a, b) = (rng.pick(&p.f32s).to_string(), rng.pick(&p.f32s).to_string());
                let v = fresh(&mut body, format!("arith.{op} {a}, {b} : f32"));
                p.f32s.push(v);
            }
            12 => {
                // Folds that see special values; their results may be NaN.
                let (a, b) = (any_f32(rng, &p), any_f32(rng, &p));
                let def = match rng.below(5) {
                    0 => format!("arith.maxf {a}, {b} : f32"),
                    1 => format!("arith.minf {a}, {b} : f32"),
                    2 => format!("arith.negf {a} : f32"),
                    3 => {
                        let (a, b) = (rng.pick(&p.f32s).to_string(), rng.pick(&p.f32s).to_string());
                        format!("arith.remf {a}, {b} : f32")
                    }
                    _ => {
                        let w = fresh(&mut body, format!("arith.truncf {a} : f32 to f16"));
                        format!("arith.extf {w} : f16 to f32")
                    }
                };
                let v = fresh(&mut body, def);
                p.f32_special.push(v);
            }
            13 => {
                let pr = FPRED[rng.below(FPRED.len())];
                let (a, b) = (any_f32(rng, &p), any_f32(rng, &p));
                let v = fresh(&mut body, format!("arith.cmpf {pr}, {a}, {b} : f32"));
                p.i1s.push(v);
            }
            14 => {
                // Integer <-> float conversions and bit casts.
                match rng.below(5) {
                    0 | 1 => {
                        let op = if rng.below(2) == 0 {
                            "sitofp"
                        } else {
                            "uitofp"
                        };
                        let a = rng.pick(&p.i32s).to_string();
                        let (t, pool) = match rng.below(3) {
                            0 => ("f16", &mut p.f16s),
                            1 => ("bf16", &mut p.bf16s),
                            _ => ("f32", &mut p.f32s),
                        };
                        let v = fresh(&mut body, format!("arith.{op} {a} : i32 to {t}"));
                        pool.push(v);
                    }
                    2 | 3 => {
                        let op = if rng.below(2) == 0 {
                            "fptosi"
                        } else {
                            "fptoui"
                        };
                        let a = any_f32(rng, &p);
                        let v = fresh(&mut body, format!("arith.{op} {a} : f32 to i32"));
                        p.i32s.push(v);
                    }
                    _ => {
                        if rng.below(2) == 0 {
                            let a = any_f32(rng, &p);
                            let v = fresh(&mut body, format!("arith.bitcast {a} : f32 to i32"));
                            p.i32s.push(v);
                        } else {
                            let a = rng.pick(&p.i32s).to_string();
                            let v = fresh(&mut body, format!("arith.bitcast {a} : i32 to f32"));
                            p.f32_special.push(v);
                        }
                    }
                }
            }
            15 | 16 => {
                let op = FLOAT[rng.below(FLOAT.len())];
                let (t, pool) = if rng.below(2) == 0 {
                    ("f16", &mut p.f16s)
                } else {
                    ("bf16", &mut p.bf16s)
                };
                let (a, b) = (rng.pick(pool).to_string(), rng.pick(pool).to_string());
                let v = fresh(&mut body, format!("arith.{op} {a}, {b} : {t}"));
                pool.push(v);
            }
            _ => {
                let op = BIN[rng.below(BIN.len())];
                let (a, b) = (
                    rng.pick(&p.i128s).to_string(),
                    rng.pick(&p.i128s).to_string(),
                );
                let v = fresh(&mut body, format!("arith.{op} {a}, {b} : i128"));
                p.i128s.push(v);
            }
        }
    }
    let last = |v: &Vec<String>| v.last().cloned().unwrap_or_default();
    let specials = p.f32_special.last().cloned().unwrap_or_else(|| "%f".into());
    format!(
        "{func} @f{k}(%x: i32, %y: i32, %b: i1, %i: index, %f: f32, %h: f16, %g: bf16, %w: i128, %vx: vector<4xi32>, %tx: tensor<2xf32>) -> (i32, i1, f32, f32, f16, bf16, i128, vector<4xi32>, tensor<2xf32>) {{\n{body}  return {}, {}, {}, {specials}, {}, {}, {}, {}, {} : i32, i1, f32, f32, f16, bf16, i128, vector<4xi32>, tensor<2xf32>\n}}\n",
        last(&p.i32s),
        last(&p.i1s),
        last(&p.f32s),
        last(&p.f16s),
        last(&p.bf16s),
        last(&p.i128s),
        last(&p.vi32s),
        last(&p.tf32s),
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

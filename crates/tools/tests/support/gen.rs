//! A seeded generator of random functions for the differential tests of
//! the generic passes: integer `arith` code over constants and arguments,
//! `select`, `cmpi`, casts, `memref` loads and stores, calls between the
//! generated functions, several blocks with arguments, branches that loop
//! back, unreachable blocks and dead values. Every function is valid IR
//! (the tests check that upstream accepts it).

use super::Rng;

/// What to generate.
#[derive(Clone, Copy)]
pub struct Shape {
    /// Syntax generation: 14 or 15.
    pub edition: u32,
    /// At most this many blocks per function.
    pub max_blocks: usize,
    /// At most this many ops per block (before the terminator).
    pub max_ops: usize,
    /// Private functions never called (for `-symbol-dce`).
    pub private_funcs: bool,
}

impl Shape {
    pub fn new(edition: u32) -> Self {
        Shape {
            edition,
            max_blocks: 5,
            max_ops: 7,
            private_funcs: false,
        }
    }
}

/// A value in scope and its type (`i32`, `index` or `i1`).
#[derive(Clone)]
struct V {
    name: String,
    ty: &'static str,
}

struct Fn<'a> {
    rng: &'a mut Rng,
    shape: Shape,
    out: String,
    n: usize,
}

const INT_CONSTS: &[&str] = &["0", "1", "-1", "2", "3", "7", "8", "-8", "31", "255"];
const BINARY: &[&str] = &[
    "addi", "subi", "muli", "andi", "ori", "divsi", "divui", "remsi", "remui", "shli", "shrsi",
    "shrui",
];
const PREDICATES: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];

impl Fn<'_> {
    fn fresh(&mut self, def: String, ty: &'static str) -> V {
        self.n += 1;
        let name = format!("%v{}", self.n);
        self.out.push_str(&format!("  {name} = {def}\n"));
        V { name, ty }
    }

    fn pick<'v>(&mut self, scope: &'v [V], ty: &str) -> Option<&'v V> {
        let of: Vec<&V> = scope.iter().filter(|v| v.ty == ty).collect();
        if of.is_empty() {
            return None;
        }
        Some(of[self.rng.below(of.len())])
    }

    /// One random op using `scope`; its result (if any) joins `scope`.
    fn op(&mut self, scope: &mut Vec<V>, callees: &[String]) {
        let select = if self.shape.edition == 15 {
            "arith.select"
        } else {
            "select"
        };
        let r = self.rng.below(14);
        let v = match r {
            0 | 1 => {
                let c = INT_CONSTS[self.rng.below(INT_CONSTS.len())];
                Some(self.fresh(format!("arith.constant {c} : i32"), "i32"))
            }
            2 => {
                let c = ["0", "1", "4", "8"][self.rng.below(4)];
                Some(self.fresh(format!("arith.constant {c} : index"), "index"))
            }
            3 => {
                let c = ["true", "false"][self.rng.below(2)];
                Some(self.fresh(format!("arith.constant {c}"), "i1"))
            }
            4..=7 => {
                let ty = if self.rng.below(4) == 0 {
                    "index"
                } else {
                    "i32"
                };
                let (Some(a), Some(b)) =
                    (self.pick(scope, ty).cloned(), self.pick(scope, ty).cloned())
                else {
                    return;
                };
                let op = BINARY[self.rng.below(BINARY.len())];
                Some(self.fresh(format!("arith.{op} {}, {} : {ty}", a.name, b.name), ty))
            }
            8 => {
                let ty = if self.rng.below(3) == 0 {
                    "index"
                } else {
                    "i32"
                };
                let (Some(a), Some(b)) =
                    (self.pick(scope, ty).cloned(), self.pick(scope, ty).cloned())
                else {
                    return;
                };
                let p = PREDICATES[self.rng.below(PREDICATES.len())];
                Some(self.fresh(
                    format!("arith.cmpi {p}, {}, {} : {ty}", a.name, b.name),
                    "i1",
                ))
            }
            9 => {
                let ty = ["i32", "index", "i1"][self.rng.below(3)];
                let (Some(c), Some(a), Some(b)) = (
                    self.pick(scope, "i1").cloned(),
                    self.pick(scope, ty).cloned(),
                    self.pick(scope, ty).cloned(),
                ) else {
                    return;
                };
                Some(self.fresh(
                    format!("{select} {}, {}, {} : {ty}", c.name, a.name, b.name),
                    ty,
                ))
            }
            10 => {
                if self.rng.below(2) == 0 {
                    let Some(a) = self.pick(scope, "i32").cloned() else {
                        return;
                    };
                    Some(self.fresh(
                        format!("arith.index_cast {} : i32 to index", a.name),
                        "index",
                    ))
                } else {
                    let Some(a) = self.pick(scope, "index").cloned() else {
                        return;
                    };
                    Some(self.fresh(format!("arith.index_cast {} : index to i32", a.name), "i32"))
                }
            }
            11 => {
                let Some(i) = self.pick(scope, "index").cloned() else {
                    return;
                };
                Some(self.fresh(format!("memref.load %m[{}] : memref<8xi32>", i.name), "i32"))
            }
            12 => {
                let (Some(v), Some(i)) = (
                    self.pick(scope, "i32").cloned(),
                    self.pick(scope, "index").cloned(),
                ) else {
                    return;
                };
                self.out.push_str(&format!(
                    "  memref.store {}, %m[{}] : memref<8xi32>\n",
                    v.name, i.name
                ));
                None
            }
            _ => {
                if callees.is_empty() {
                    return;
                }
                let callee = callees[self.rng.below(callees.len())].clone();
                let (Some(a), Some(b)) = (
                    self.pick(scope, "i32").cloned(),
                    self.pick(scope, "i1").cloned(),
                ) else {
                    return;
                };
                let i = self
                    .pick(scope, "index")
                    .cloned()
                    .map(|v| v.name)
                    .unwrap_or("%i".into());
                Some(self.fresh(
                    format!("call @{callee}({}, %b, {}, {i}, %m) : (i32, i32, i1, index, memref<8xi32>) -> i32", a.name, b.name),
                    "i32",
                ))
            }
        };
        if let Some(v) = v {
            scope.push(v);
        }
    }

    /// Operands for a branch to a block with arguments `args`.
    fn forward(&mut self, scope: &[V], args: &[&'static str]) -> Option<String> {
        if args.is_empty() {
            return Some(String::new());
        }
        let mut names = vec![];
        for &t in args {
            names.push(self.pick(scope, t)?.name.clone());
        }
        Some(format!("({} : {})", names.join(", "), args.join(", ")))
    }
}

/// One function `@name` (callable as `(i32, i32, i1, index, memref<8xi32>)
/// -> i32`) that may call the functions in `callees`.
pub fn function(
    rng: &mut Rng,
    shape: Shape,
    name: &str,
    private: bool,
    callees: &[String],
) -> String {
    let func = if shape.edition == 15 {
        "func.func"
    } else {
        "func"
    };
    let (br, cond_br) = if shape.edition == 15 {
        ("cf.br", "cf.cond_br")
    } else {
        ("br", "cond_br")
    };
    let nblocks = 1 + rng.below(shape.max_blocks);
    let block_args: Vec<Vec<&'static str>> = (0..nblocks)
        .map(|k| {
            if k == 0 {
                return vec![];
            }
            (0..rng.below(3))
                .map(|_| ["i32", "index"][rng.below(2)])
                .collect()
        })
        .collect();
    let mut f = Fn {
        rng,
        shape,
        out: String::new(),
        n: 0,
    };
    let args = vec![
        V {
            name: "%a".into(),
            ty: "i32",
        },
        V {
            name: "%b".into(),
            ty: "i32",
        },
        V {
            name: "%c".into(),
            ty: "i1",
        },
        V {
            name: "%i".into(),
            ty: "index",
        },
    ];
    let mut entry_scope = args.clone();
    for k in 0..nblocks {
        let mut scope = if k == 0 {
            args.clone()
        } else {
            entry_scope.clone()
        };
        if k > 0 {
            let names: Vec<String> = block_args[k]
                .iter()
                .enumerate()
                .map(|(j, t)| {
                    let n = format!("%bb{k}a{j}");
                    scope.push(V {
                        name: n.clone(),
                        ty: t,
                    });
                    format!("{n}: {t}")
                })
                .collect();
            if names.is_empty() {
                f.out.push_str(&format!("^bb{k}:\n"));
            } else {
                f.out.push_str(&format!("^bb{k}({}):\n", names.join(", ")));
            }
        }
        for _ in 0..f.rng.below(shape.max_ops + 1) {
            f.op(&mut scope, callees);
        }
        if k == 0 {
            entry_scope = scope.clone();
        }
        // The terminator: return, or a branch to a block other than the
        // entry (loops allowed).
        let choice = if nblocks == 1 { 0 } else { f.rng.below(5) };
        let target = |f: &mut Fn| 1 + f.rng.below(nblocks - 1);
        let mut done = false;
        if choice == 1 || choice == 2 {
            let t = target(&mut f);
            if let Some(ops) = f.forward(&scope, &block_args[t]) {
                f.out.push_str(&format!("  {br} ^bb{t}{ops}\n"));
                done = true;
            }
        } else if choice >= 3 {
            let (t, e) = (target(&mut f), target(&mut f));
            let c = f.pick(&scope, "i1").map(|v| v.name.clone());
            let to = f.forward(&scope, &block_args[t]);
            let eo = f.forward(&scope, &block_args[e]);
            if let (Some(c), Some(to), Some(eo)) = (c, to, eo) {
                f.out
                    .push_str(&format!("  {cond_br} {c}, ^bb{t}{to}, ^bb{e}{eo}\n"));
                done = true;
            }
        }
        if !done {
            let r = f
                .pick(&scope, "i32")
                .map(|v| v.name.clone())
                .unwrap_or("%a".into());
            f.out.push_str(&format!("  return {r} : i32\n"));
        }
    }
    let vis = if private { "private " } else { "" };
    format!(
        "{func} {vis}@{name}(%a: i32, %b: i32, %c: i1, %i: index, %m: memref<8xi32>) -> i32 {{\n{}}}\n",
        f.out
    )
}

/// A module of `n` functions; each may call the ones before it.
pub fn module(rng: &mut Rng, shape: Shape, n: usize) -> String {
    let mut out = String::new();
    let mut names: Vec<String> = vec![];
    for k in 0..n {
        let name = format!("f{k}");
        let private = shape.private_funcs && rng.below(3) == 0;
        let callees = if names.is_empty() || rng.below(2) == 0 {
            vec![]
        } else {
            names.clone()
        };
        out.push_str(&function(rng, shape, &name, private, &callees));
        names.push(name);
    }
    out
}

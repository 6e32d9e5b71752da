//! A seeded generator of random functions for the differential tests of
//! the generic passes: integer `arith` code over constants and arguments,
//! `select`, `cmpi`, casts, `memref` loads and stores, calls between the
//! generated functions, several blocks with arguments, branches that loop
//! back, unreachable blocks and dead values; with [`Shape::scf`] and
//! [`Shape::memref`], also `scf.if`/`scf.for` regions and buffers of their
//! own. Every function is valid IR (the tests check that upstream accepts
//! it).

use super::Rng;

/// What to generate.
#[derive(Clone, Copy)]
pub struct Shape {
    /// Syntax generation: 13, 14 or 15 (13 spells the `arith` ops as the
    /// `std` ops they were).
    pub edition: u32,
    /// At most this many blocks per function.
    pub max_blocks: usize,
    /// At most this many ops per block (before the terminator).
    pub max_ops: usize,
    /// Private functions never called (for `-symbol-dce`).
    pub private_funcs: bool,
    /// Also `scf.if` and `scf.for` (nested up to [`MAX_DEPTH`]): with and
    /// without results and `else`, constant and variable conditions and
    /// bounds, zero- and single-trip loops, `iter_args`, yields of outer
    /// values, of constants and of the loop's own arguments. Off, the
    /// other shapes draw exactly the functions they always drew.
    pub scf: bool,
    /// Also `memref.alloc` (static, or sized by `%i` or a constant),
    /// `memref.cast` to `memref<?xi32>`, `memref.dim`, loads, stores and
    /// `memref.dealloc` on them. Off, the other shapes are unchanged.
    pub memref: bool,
    /// Also the `arith` ops `-arith-expand` rewrites (`ceildivsi`,
    /// `floordivsi`, `ceildivui`, `maxsi`, `minui`, ...) among the binary
    /// ops. Off, the other shapes are unchanged.
    pub expandable: bool,
    /// Drop the blocks no branch reaches (dialect conversions reject a
    /// function with one). Off, the other shapes are unchanged.
    pub reachable_only: bool,
    /// Also small functions `@h0`.. of one block and a few ops (private
    /// half the time) that the others call, in `scf` regions too: what the
    /// inliner copies, moves into its last caller and erases. Calls in
    /// `scf` regions then go only to them (a body of several blocks cannot
    /// go into such a region). Off, the other shapes are unchanged.
    pub helpers: bool,
}

/// How deep `scf` regions nest.
const MAX_DEPTH: usize = 2;

impl Shape {
    pub fn new(edition: u32) -> Self {
        Shape {
            edition,
            max_blocks: 5,
            max_ops: 7,
            private_funcs: false,
            scf: false,
            memref: false,
            expandable: false,
            reachable_only: false,
            helpers: false,
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
    /// How many `scf` regions enclose the ops being drawn.
    depth: usize,
    /// What calls in `scf` regions may call, when not all `callees`.
    region_callees: Option<&'a [String]>,
}

const INT_CONSTS: &[&str] = &["0", "1", "-1", "2", "3", "7", "8", "-8", "31", "255"];
const BINARY: &[&str] = &[
    "addi", "subi", "muli", "andi", "ori", "divsi", "divui", "remsi", "remui", "shli", "shrsi",
    "shrui",
];
const EXPANDABLE: &[&str] = &[
    "ceildivsi",
    "floordivsi",
    "ceildivui",
    "maxsi",
    "maxui",
    "minsi",
    "minui",
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
        let scf_kinds = if self.shape.scf { 4 } else { 0 };
        let memref_kinds = if self.shape.memref { 5 } else { 0 };
        let r = self.rng.below(14 + scf_kinds + memref_kinds);
        if r >= 14 + scf_kinds {
            self.memref_op(scope, r - 14 - scf_kinds);
            return;
        }
        if r >= 14 {
            if self.depth < MAX_DEPTH {
                if r < 16 {
                    self.scf_if(scope, callees);
                } else {
                    self.scf_for(scope, callees);
                }
            }
            return;
        }
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
                let op = if self.shape.expandable && self.rng.below(2) == 0 {
                    // 13 had only the signed ceiling and floor divisions.
                    let n = if self.shape.edition == 13 {
                        2
                    } else {
                        EXPANDABLE.len()
                    };
                    EXPANDABLE[self.rng.below(n)]
                } else {
                    BINARY[self.rng.below(BINARY.len())]
                };
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
                let callees = match self.region_callees {
                    Some(only) if self.depth > 0 => only,
                    _ => callees,
                };
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
                // 15 resolves an unprefixed `call` only directly in a
                // `func.func` body.
                let call = if self.shape.edition == 15 && self.depth > 0 {
                    "func.call"
                } else {
                    "call"
                };
                Some(self.fresh(
                    format!("{call} @{callee}({}, %b, {}, {i}, %m) : (i32, i32, i1, index, memref<8xi32>) -> i32", a.name, b.name),
                    "i32",
                ))
            }
        };
        if let Some(v) = v {
            scope.push(v);
        }
    }

    /// One of the `memref` ops on buffers of their own (`kind` < 5).
    fn memref_op(&mut self, scope: &mut Vec<V>, kind: usize) {
        const DYN: &str = "memref<?xi32>";
        let buffers: Vec<V> = scope
            .iter()
            .filter(|v| v.ty.starts_with("memref"))
            .cloned()
            .collect();
        let any_buffer = |f: &mut Self| {
            if buffers.is_empty() || f.rng.below(4) == 0 {
                V {
                    name: "%m".into(),
                    ty: "memref<8xi32>",
                }
            } else {
                buffers[f.rng.below(buffers.len())].clone()
            }
        };
        let v = match kind {
            0 => match self.rng.below(3) {
                0 => self.fresh("memref.alloc() : memref<4xi32>".into(), "memref<4xi32>"),
                1 => self.fresh(format!("memref.alloc(%i) : {DYN}"), DYN),
                _ => {
                    // Only fresh positive constants size a buffer: a folded
                    // size could be negative.
                    let c = ["1", "4", "8"][self.rng.below(3)];
                    let n = self.fresh(format!("arith.constant {c} : index"), "index");
                    scope.push(n.clone());
                    self.fresh(format!("memref.alloc({}) : {DYN}", n.name), DYN)
                }
            },
            1 => {
                let b = any_buffer(self);
                if b.ty == DYN {
                    return;
                }
                self.fresh(format!("memref.cast {} : {} to {DYN}", b.name, b.ty), DYN)
            }
            2 => {
                // A fresh 0: a folded index could be past the rank.
                let b = any_buffer(self);
                let z = self.fresh("arith.constant 0 : index".into(), "index");
                scope.push(z.clone());
                self.fresh(
                    format!("memref.dim {}, {} : {}", b.name, z.name, b.ty),
                    "index",
                )
            }
            3 => {
                let b = any_buffer(self);
                let Some(i) = self.pick(scope, "index").cloned() else {
                    return;
                };
                if self.rng.below(2) == 0 {
                    self.fresh(
                        format!("memref.load {}[{}] : {}", b.name, i.name, b.ty),
                        "i32",
                    )
                } else {
                    let Some(x) = self.pick(scope, "i32").cloned() else {
                        return;
                    };
                    self.out.push_str(&format!(
                        "  memref.store {}, {}[{}] : {}\n",
                        x.name, b.name, i.name, b.ty
                    ));
                    return;
                }
            }
            _ => {
                if buffers.is_empty() {
                    return;
                }
                let b = buffers[self.rng.below(buffers.len())].clone();
                self.out
                    .push_str(&format!("  memref.dealloc {} : {}\n", b.name, b.ty));
                return;
            }
        };
        scope.push(v);
    }

    /// A fresh SSA name, for an op whose text is written in parts.
    fn reserve(&mut self) -> String {
        self.n += 1;
        format!("%v{}", self.n)
    }

    /// The values `name` defines as `types` (`%v`, or `%v#0`, `%v#1`).
    fn results(name: &str, types: &[&'static str]) -> Vec<V> {
        match types {
            [t] => vec![V {
                name: name.to_string(),
                ty: t,
            }],
            _ => (0..types.len())
                .map(|i| V {
                    name: format!("{name}#{i}"),
                    ty: types[i],
                })
                .collect(),
        }
    }

    /// A value of type `ty` for a yield: mostly one in scope, sometimes a
    /// new constant (an `i1` one often, which the `scf.if` patterns look
    /// for).
    fn yield_value(&mut self, scope: &mut Vec<V>, ty: &'static str) -> String {
        if self.rng.below(3) == 0 || self.pick(scope, ty).is_none() {
            let c = match ty {
                "i1" => ["true", "false"][self.rng.below(2)].to_string(),
                "index" => format!("{} : index", ["0", "1", "4"][self.rng.below(3)]),
                _ => format!("{} : i32", ["0", "1", "7"][self.rng.below(3)]),
            };
            let v = self.fresh(format!("arith.constant {c}"), ty);
            scope.push(v.clone());
            return v.name;
        }
        self.pick(scope, ty)
            .map(|v| v.name.clone())
            .unwrap_or_default()
    }

    /// A region body: a few ops over `scope`, then `scf.yield` of values of
    /// `types` (or nothing, left implicit when `implicit`).
    fn body(&mut self, scope: &[V], callees: &[String], types: &[&'static str], implicit: bool) {
        let mut inner = scope.to_vec();
        self.depth += 1;
        // Empty bodies are common: they are what the patterns simplify.
        let n = match self.rng.below(3) {
            0 => 0,
            _ => self.rng.below(self.shape.max_ops / 2 + 2),
        };
        for _ in 0..n {
            self.op(&mut inner, callees);
        }
        self.depth -= 1;
        let vals: Vec<String> = types
            .iter()
            .map(|&t| self.yield_value(&mut inner, t))
            .collect();
        if vals.is_empty() {
            if !implicit {
                self.out.push_str("  scf.yield\n");
            }
        } else {
            self.out.push_str(&format!(
                "  scf.yield {} : {}\n",
                vals.join(", "),
                types.join(", ")
            ));
        }
    }

    /// Up to two result types from `i32`, `index` and `i1`.
    fn result_types(&mut self) -> Vec<&'static str> {
        (0..self.rng.below(3))
            .map(|_| ["i32", "index", "i1"][self.rng.below(3)])
            .collect()
    }

    /// `scf.if` on a value in scope or a new constant, with or without
    /// results and `else`.
    fn scf_if(&mut self, scope: &mut Vec<V>, callees: &[String]) {
        let cond = if self.rng.below(4) == 0 {
            let c = ["true", "false"][self.rng.below(2)];
            let v = self.fresh(format!("arith.constant {c}"), "i1");
            scope.push(v.clone());
            v.name
        } else {
            match self.pick(scope, "i1") {
                Some(v) => v.name.clone(),
                None => return,
            }
        };
        let types = self.result_types();
        let name = self.reserve();
        let with_else = !types.is_empty() || self.rng.below(2) == 0;
        let implicit = self.rng.below(2) == 0;
        match types.len() {
            0 => self.out.push_str(&format!("  scf.if {cond} {{\n")),
            1 => self
                .out
                .push_str(&format!("  {name} = scf.if {cond} -> ({}) {{\n", types[0])),
            k => self.out.push_str(&format!(
                "  {name}:{k} = scf.if {cond} -> ({}) {{\n",
                types.join(", ")
            )),
        }
        self.body(scope, callees, &types, implicit);
        if with_else {
            self.out.push_str("  } else {\n");
            self.body(scope, callees, &types, implicit);
        }
        self.out.push_str("  }\n");
        scope.extend(Self::results(&name, &types));
    }

    /// A bound: a value in scope or a new constant (`0`, `1`, `4`, `8`).
    fn bound(&mut self, scope: &mut Vec<V>) -> String {
        if self.rng.below(3) > 0 {
            let c = ["0", "1", "4", "8"][self.rng.below(4)];
            let v = self.fresh(format!("arith.constant {c} : index"), "index");
            scope.push(v.clone());
            return v.name;
        }
        self.pick(scope, "index")
            .map(|v| v.name.clone())
            .unwrap_or("%i".into())
    }

    /// `scf.for` with constant or variable bounds (so zero-, single- and
    /// many-trip loops), a positive constant step, and `iter_args`.
    fn scf_for(&mut self, scope: &mut Vec<V>, callees: &[String]) {
        let lb = self.bound(scope);
        let ub = self.bound(scope);
        let step = ["1", "2", "4"][self.rng.below(3)];
        let step = self.fresh(format!("arith.constant {step} : index"), "index");
        scope.push(step.clone());
        let types = self.result_types();
        let mut inits = vec![];
        for &t in &types {
            match self.pick(scope, t) {
                Some(v) => inits.push(v.name.clone()),
                None => inits.push(self.yield_value(scope, t)),
            }
        }
        let name = self.reserve();
        let iv = format!("{name}iv");
        let mut inner = scope.clone();
        inner.push(V {
            name: iv.clone(),
            ty: "index",
        });
        let head = format!("scf.for {iv} = {lb} to {ub} step {}", step.name);
        if types.is_empty() {
            self.out.push_str(&format!("  {head} {{\n"));
        } else {
            let args: Vec<String> = types
                .iter()
                .enumerate()
                .map(|(k, &t)| {
                    let a = format!("{name}a{k}");
                    inner.push(V {
                        name: a.clone(),
                        ty: t,
                    });
                    format!("{a} = {}", inits[k])
                })
                .collect();
            let lhs = match types.len() {
                1 => name.clone(),
                k => format!("{name}:{k}"),
            };
            self.out.push_str(&format!(
                "  {lhs} = {head} iter_args({}) -> ({}) {{\n",
                args.join(", "),
                types.join(", ")
            ));
        }
        // Half the loops only yield their arguments (in order or not).
        if !types.is_empty() && self.rng.below(2) == 0 {
            let args: Vec<String> = (0..types.len())
                .map(|k| {
                    let same: Vec<usize> =
                        (0..types.len()).filter(|&j| types[j] == types[k]).collect();
                    format!("{name}a{}", same[self.rng.below(same.len())])
                })
                .collect();
            self.out.push_str(&format!(
                "  scf.yield {} : {}\n",
                args.join(", "),
                types.join(", ")
            ));
        } else {
            let implicit = self.rng.below(2) == 0;
            self.body(&inner, callees, &types, implicit);
        }
        self.out.push_str("  }\n");
        scope.extend(Self::results(&name, &types));
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
    function_calling(rng, shape, name, private, callees, None)
}

/// [`function`], whose calls in `scf` regions go only to `region_callees`
/// when given.
fn function_calling(
    rng: &mut Rng,
    shape: Shape,
    name: &str,
    private: bool,
    callees: &[String],
    region_callees: Option<&[String]>,
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
        depth: 0,
        region_callees,
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
    // Where each block's text starts, and the blocks it branches to.
    let mut starts = vec![];
    let mut succs: Vec<Vec<usize>> = vec![];
    for k in 0..nblocks {
        starts.push(f.out.len());
        succs.push(vec![]);
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
                succs[k].push(t);
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
                succs[k].extend([t, e]);
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
    if shape.reachable_only {
        let mut seen = vec![false; nblocks];
        let mut work = vec![0];
        while let Some(b) = work.pop() {
            if !std::mem::replace(&mut seen[b], true) {
                work.extend(&succs[b]);
            }
        }
        starts.push(f.out.len());
        f.out = (0..nblocks)
            .filter(|&b| seen[b])
            .map(|b| &f.out[starts[b]..starts[b + 1]])
            .collect();
    }
    let vis = if private { "private " } else { "" };
    let body = if shape.edition == 13 {
        spell_13(&f.out)
    } else {
        f.out
    };
    format!(
        "{func} {vis}@{name}(%a: i32, %b: i32, %c: i1, %i: index, %m: memref<8xi32>) -> i32 {{\n{body}}}\n"
    )
}

/// The `arith` ops of `text` as LLVM 13 spelled them: `std` ops without a
/// prefix, some under older names.
fn spell_13(text: &str) -> String {
    const NAMES: &[(&str, &str)] = &[
        ("andi", "and"),
        ("ori", "or"),
        ("divsi", "divi_signed"),
        ("divui", "divi_unsigned"),
        ("remsi", "remi_signed"),
        ("remui", "remi_unsigned"),
        ("shli", "shift_left"),
        ("shrsi", "shift_right_signed"),
        ("shrui", "shift_right_unsigned"),
        ("ceildivsi", "ceildivi_signed"),
        ("floordivsi", "floordivi_signed"),
    ];
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("arith.") {
        out.push_str(&rest[..at]);
        rest = &rest[at + "arith.".len()..];
        let end = rest
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(rest.len());
        let op = &rest[..end];
        out.push_str(NAMES.iter().find(|n| n.0 == op).map_or(op, |n| n.1));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// How many helper functions [`Shape::helpers`] adds.
const HELPERS: usize = 3;

/// A module of `n` functions; each may call the ones before it (and the
/// helpers, with [`Shape::helpers`]).
pub fn module(rng: &mut Rng, shape: Shape, n: usize) -> String {
    let mut out = String::new();
    let mut helpers: Vec<String> = vec![];
    if shape.helpers {
        let small = Shape {
            max_blocks: 1,
            max_ops: 3,
            private_funcs: false,
            ..shape
        };
        for k in 0..HELPERS {
            let name = format!("h{k}");
            let private = rng.below(2) == 0;
            out.push_str(&function_calling(
                rng,
                small,
                &name,
                private,
                &helpers,
                Some(&helpers),
            ));
            helpers.push(name);
        }
    }
    let mut names: Vec<String> = vec![];
    for k in 0..n {
        let name = format!("f{k}");
        let private = shape.private_funcs && rng.below(3) == 0;
        let mut callees = if names.is_empty() || rng.below(2) == 0 {
            vec![]
        } else {
            names.clone()
        };
        if shape.helpers {
            callees.extend(helpers.iter().cloned());
        }
        let region_callees = shape.helpers.then_some(&helpers[..]);
        out.push_str(&function_calling(
            rng,
            shape,
            &name,
            private,
            &callees,
            region_callees,
        ));
        names.push(name);
    }
    out
}

//! A seeded generator of modules of parallel loops for the differential
//! test of `-async-parallel-for`: `scf.parallel` loops of 1 to 4
//! dimensions with constant and dynamic lower bounds, upper bounds and
//! steps (constant steps are positive, as the verifier wants), bodies with
//! loads and stores, index and float arithmetic, `scf.for` and `scf.if`
//! regions, nested parallel loops, constants defined inside and outside
//! the loop, and values captured from the function. Every module is valid
//! IR in the syntax of LLVM 14 or 15.

use super::Rng;

struct Gen<'a> {
    rng: &'a mut Rng,
    out: String,
    n: usize,
    /// Index values in scope.
    idx: Vec<String>,
    /// `f32` values in scope.
    flt: Vec<String>,
    indent: usize,
}

const CONSTS: &[i64] = &[0, 1, 2, 3, 4, 7, 10, 16, 100, 513, 1000];

impl Gen<'_> {
    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }
    fn fresh(&mut self) -> String {
        self.n += 1;
        format!("%v{}", self.n)
    }
    fn const_index(&mut self, v: i64) -> String {
        let name = self.fresh();
        self.line(&format!("{name} = arith.constant {v} : index"));
        name
    }
    fn pick_idx(&mut self) -> String {
        let i = self.rng.below(self.idx.len());
        self.idx[i].clone()
    }
    fn pick_flt(&mut self) -> String {
        let i = self.rng.below(self.flt.len());
        self.flt[i].clone()
    }

    /// A bound: a constant made here, or an index value in scope.
    fn bound(&mut self, lo: i64, hi: i64) -> String {
        if self.rng.below(2) == 0 {
            let v = lo + self.rng.below((hi - lo + 1) as usize) as i64;
            self.const_index(v)
        } else {
            self.pick_idx()
        }
    }

    /// A few ops of a loop body.
    fn body(&mut self, depth: usize) {
        let ops = 1 + self.rng.below(4);
        for _ in 0..ops {
            match self.rng.below(if depth < 2 { 9 } else { 6 }) {
                0 | 1 => {
                    // Load, compute, store.
                    let i = self.pick_idx();
                    let v = self.fresh();
                    self.line(&format!("{v} = memref.load %buf[{i}] : memref<?xf32>"));
                    let f = self.pick_flt();
                    let w = self.fresh();
                    let op = ["addf", "mulf", "subf"][self.rng.below(3)];
                    self.line(&format!("{w} = arith.{op} {v}, {f} : f32"));
                    let j = self.pick_idx();
                    self.line(&format!("memref.store {w}, %buf[{j}] : memref<?xf32>"));
                    self.flt.push(w);
                }
                2 => {
                    let a = self.pick_idx();
                    let b = self.pick_idx();
                    let r = self.fresh();
                    let op = ["addi", "muli", "subi"][self.rng.below(3)];
                    self.line(&format!("{r} = arith.{op} {a}, {b} : index"));
                    self.idx.push(r);
                }
                3 => {
                    let c = CONSTS[self.rng.below(CONSTS.len())];
                    let r = self.const_index(c);
                    self.idx.push(r);
                }
                4 => {
                    let r = self.fresh();
                    self.line(&format!("{r} = arith.constant 3.5 : f32"));
                    self.flt.push(r);
                }
                5 => {
                    let f = self.pick_flt();
                    let i = self.pick_idx();
                    self.line(&format!("memref.store {f}, %buf[{i}] : memref<?xf32>"));
                }
                6 => self.scf_for(depth),
                7 => self.scf_if(depth),
                _ => self.parallel(depth + 1),
            }
        }
    }

    fn scope<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let (ni, nf) = (self.idx.len(), self.flt.len());
        self.indent += 1;
        let r = f(self);
        self.indent -= 1;
        self.idx.truncate(ni);
        self.flt.truncate(nf);
        r
    }

    fn scf_for(&mut self, depth: usize) {
        let lb = self.bound(0, 2);
        let ub = self.bound(0, 20);
        let st = if self.rng.below(2) == 0 {
            let v = 1 + self.rng.below(3) as i64;
            self.const_index(v)
        } else {
            "%s".to_string()
        };
        let iv = self.fresh();
        self.line(&format!("scf.for {iv} = {lb} to {ub} step {st} {{"));
        self.scope(|g| {
            g.idx.push(iv.clone());
            g.body(depth + 1);
        });
        self.line("}");
    }

    fn scf_if(&mut self, depth: usize) {
        let a = self.pick_idx();
        let b = self.pick_idx();
        let c = self.fresh();
        let pred = ["slt", "eq", "sge", "ne"][self.rng.below(4)];
        self.line(&format!("{c} = arith.cmpi {pred}, {a}, {b} : index"));
        self.line(&format!("scf.if {c} {{"));
        self.scope(|g| g.body(depth + 1));
        if self.rng.below(2) == 0 {
            self.line("} else {");
            self.scope(|g| g.body(depth + 1));
        }
        self.line("}");
    }

    /// An `scf.parallel` of 1 to 4 dimensions.
    fn parallel(&mut self, depth: usize) {
        let dims = 1 + self.rng.below(if depth > 1 { 2 } else { 4 });
        let mut lbs = vec![];
        let mut ubs = vec![];
        let mut steps = vec![];
        for _ in 0..dims {
            lbs.push(self.bound(0, 3));
            ubs.push(self.bound(0, 40));
            // A dynamic step is an argument (a constant one must be positive).
            steps.push(if self.rng.below(3) == 0 {
                ["%s", "%n", "%k"][self.rng.below(3)].to_string()
            } else {
                let v = 1 + self.rng.below(4) as i64;
                self.const_index(v)
            });
        }
        let ivs: Vec<String> = (0..dims).map(|_| self.fresh()).collect();
        self.line(&format!(
            "scf.parallel ({}) = ({}) to ({}) step ({}) {{",
            ivs.join(", "),
            lbs.join(", "),
            ubs.join(", "),
            steps.join(", ")
        ));
        self.scope(|g| {
            g.idx.extend(ivs.iter().cloned());
            g.body(depth);
        });
        self.line("}");
    }
}

/// A module of `funcs` functions, each with one to three parallel loops,
/// in the syntax of LLVM `edition` (14 or 15).
pub fn parallel_module(rng: &mut Rng, edition: u32, funcs: usize) -> String {
    let kw = if edition >= 15 { "func.func" } else { "func" };
    let mut out = String::new();
    for f in 0..funcs {
        let mut g = Gen {
            rng,
            out: String::new(),
            n: 0,
            idx: vec!["%n".into(), "%k".into(), "%s".into()],
            flt: vec!["%f".into()],
            indent: 1,
        };
        g.out.push_str(&format!(
            "{kw} @f{f}(%buf: memref<?xf32>, %n: index, %k: index, %s: index, %f: f32) {{\n"
        ));
        // Values defined before the loops: captured by them.
        let c = CONSTS[g.rng.below(CONSTS.len())];
        let r = g.const_index(c);
        g.idx.push(r);
        if g.rng.below(2) == 0 {
            let r = g.fresh();
            g.line(&format!("{r} = arith.constant 2.0 : f32"));
            g.flt.push(r);
        }
        if g.rng.below(2) == 0 {
            let r = g.fresh();
            g.line(&format!("{r} = arith.addi %n, %k : index"));
            g.idx.push(r);
        }
        let loops = 1 + g.rng.below(3);
        for _ in 0..loops {
            g.parallel(0);
        }
        g.line("return");
        g.out.push_str("}\n");
        out.push_str(&g.out);
    }
    out
}

//! A loop vectorizer for the innermost loops lowered memref code is made
//! of: `for j in j0..n { dst[..+j] = f(a[..+j], b[..+j], invariants) }`.
//!
//! Cranelift does no vectorization, and these loops are the compute
//! microbenchmarks' kernels, where LLVM `-O3` runs 8 lanes at a time. The
//! vectorizer handles the shape `-convert-scf-to-std` produces: a header
//! block with the induction variable as its only argument and
//! `icmp slt j, n` (`n` invariant) as its only instruction, and a single
//! body block that branches back with `j + 1`. The body may compute
//! addresses affine in `j` (any invariant terms, `j` scaled by the element
//! size: consecutive elements), load and store 32- or 64-bit elements at
//! them, and combine the loaded values with `+ - * /` (floats) or
//! `+ - * & | ^` (integers) and invariants. Anything else (calls,
//! comparisons, non-consecutive accesses) leaves the loop as it is.
//!
//! The vectorized loop runs 128-bit vectors (4 or 2 lanes), two per
//! iteration, while at least that many iterations remain; the original
//! loop runs the rest. Before entering it, a check computes the distance
//! between every store and every other access in the first iteration: the
//! vector loop is taken only if each is 0 (the same element: elementwise
//! in place) or at least one vector iteration's span apart, so reordering
//! the accesses within an iteration cannot change what is read; otherwise
//! the original loop runs (what LLVM's runtime alias checks do).

use crate::lir::{
    BinOp, Block, BlockData, CastOp, Function, Inst, InstKind, IntCC, Loc, Target, Terminator, Ty,
    Value,
};
use std::collections::HashMap;

/// Vectors per vector-loop iteration.
const UNROLL: i64 = 2;

/// What a body value is, for the vector loop.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// An integer (or address) affine in `j`: invariant + coef * j.
    Affine(i64),
    /// Any other scalar computed from invariants only.
    Uniform,
    /// One value per lane.
    Vector,
}

/// A loop found vectorizable.
struct Candidate {
    header: Block,
    body: Block,
    preheader: Block,
    j: Value,
    n: Value,
    kinds: HashMap<Value, Kind>,
    lanes: i64,
    /// (address value, byte offset, element size, is store) per access.
    accesses: Vec<(Value, i32, i64, bool)>,
}

/// Vectorizes the innermost loops of `f` it can; returns how many.
pub fn vectorize(f: &mut Function) -> usize {
    let mut count = 0;
    let nblocks = f.blocks.len();
    // Computed once: a transform only adds blocks and values of its own,
    // and redirects its preheader (kept up to date below).
    let defs = def_sites(f);
    let mut preds: Vec<Vec<Block>> = vec![Vec::new(); nblocks];
    for (bi, b) in f.blocks.iter().enumerate() {
        for s in b.term.successors() {
            if let Some(p) = preds.get_mut(s.0 as usize) {
                p.push(Block(bi as u32));
            }
        }
    }
    for h in 0..nblocks {
        if let Some(c) = candidate(f, Block(h as u32), &defs, &preds) {
            transform(f, &c);
            // The preheader now enters the check block instead of `h`.
            let ph = &mut preds[h];
            ph.retain(|b| *b != c.preheader);
            count += 1;
        }
    }
    count
}

fn def_sites(f: &Function) -> HashMap<Value, (Block, Option<usize>)> {
    let mut d = HashMap::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        for p in &b.params {
            d.insert(*p, (Block(bi as u32), None));
        }
        for (ii, inst) in b.insts.iter().enumerate() {
            for r in &inst.results {
                d.insert(*r, (Block(bi as u32), Some(ii)));
            }
        }
    }
    d
}

fn iconst_value(
    f: &Function,
    defs: &HashMap<Value, (Block, Option<usize>)>,
    v: Value,
) -> Option<i64> {
    let (b, Some(i)) = defs.get(&v)? else {
        return None;
    };
    match f.block(*b).insts[*i].kind {
        InstKind::Iconst(c) => Some(c),
        _ => None,
    }
}

fn candidate(
    f: &Function,
    h: Block,
    defs: &HashMap<Value, (Block, Option<usize>)>,
    preds: &[Vec<Block>],
) -> Option<Candidate> {
    let hd = f.block(h);
    let [j] = hd.params[..] else { return None };
    let [ref cmp] = hd.insts[..] else { return None };
    let InstKind::Icmp(IntCC::Slt, cj, n) = cmp.kind else {
        return None;
    };
    if cj != j || cmp.results.len() != 1 {
        return None;
    }
    let Terminator::CondBr(c, ref t, ref e) = hd.term else {
        return None;
    };
    if c != cmp.results[0] || !t.args.is_empty() || t.block == h || e.block == h {
        return None;
    }
    let body = t.block;
    let bd = f.block(body);
    if !bd.params.is_empty() {
        return None;
    }
    let Terminator::Br(ref back) = bd.term else {
        return None;
    };
    if back.block != h || back.args.len() != 1 {
        return None;
    }
    let jn = back.args[0];
    // Predecessors of the header: the body and exactly one other block;
    // the body's only predecessor is the header.
    let mut preds_h = preds.get(h.0 as usize)?.clone();
    preds_h.dedup();
    let body_preds = preds.get(body.0 as usize)?.len();
    if body_preds != 1 || preds_h.len() != 2 || !preds_h.contains(&body) {
        return None;
    }
    let preheader = *preds_h.iter().find(|b| **b != body)?;
    if matches!(f.block(preheader).term, Terminator::CoroSuspend { .. }) {
        return None;
    }
    let in_loop = |v: Value| defs.get(&v).is_some_and(|(b, _)| *b == h || *b == body);
    if in_loop(n) {
        return None;
    }
    let mut kinds: HashMap<Value, Kind> = HashMap::new();
    kinds.insert(j, Kind::Affine(1));
    let kind_of = |kinds: &HashMap<Value, Kind>, v: Value| -> Option<Kind> {
        if in_loop(v) {
            kinds.get(&v).copied()
        } else if f.ty(v).is_int() {
            Some(Kind::Affine(0))
        } else {
            Some(Kind::Uniform)
        }
    };
    let mut lane_bits = None;
    let mut accesses = Vec::new();
    let mut has_store = false;
    let mut lane = |t: Ty| -> bool {
        if !matches!(t, Ty::F32 | Ty::F64 | Ty::I32 | Ty::I64) {
            return false;
        }
        match lane_bits {
            None => {
                lane_bits = Some(t.bits());
                true
            }
            Some(b) => b == t.bits(),
        }
    };
    for inst in &bd.insts {
        let r = inst.results.first().copied();
        let k = match &inst.kind {
            InstKind::Iconst(_) => Kind::Affine(0),
            InstKind::F32const(_) | InstKind::F64const(_) => Kind::Uniform,
            InstKind::Binary(op, a, b) => {
                let (ka, kb) = (kind_of(&kinds, *a)?, kind_of(&kinds, *b)?);
                let t = f.ty(*a);
                match (ka, kb) {
                    (Kind::Affine(ca), Kind::Affine(cb)) => match op {
                        BinOp::Add => Kind::Affine(ca.checked_add(cb)?),
                        BinOp::Sub => Kind::Affine(ca.checked_sub(cb)?),
                        BinOp::Mul => {
                            if ca == 0 && cb == 0 {
                                Kind::Affine(0)
                            } else if let Some(k) = iconst_value(f, defs, *b) {
                                Kind::Affine(ca.checked_mul(k)?)
                            } else if let Some(k) = iconst_value(f, defs, *a) {
                                Kind::Affine(cb.checked_mul(k)?)
                            } else {
                                return None;
                            }
                        }
                        BinOp::Shl => {
                            let k = iconst_value(f, defs, *b)?;
                            if !(0..32).contains(&k) {
                                return None;
                            }
                            Kind::Affine(ca.checked_mul(1 << k)?)
                        }
                        // Never a division: the check block evaluates the
                        // scalars before knowing the loop runs at all.
                        BinOp::And | BinOp::Or | BinOp::Xor if ca == 0 && cb == 0 => {
                            Kind::Affine(0)
                        }
                        // Integer data ops on affine values would need the
                        // lane indices as a vector.
                        _ => return None,
                    },
                    (Kind::Vector, _) | (_, Kind::Vector) => {
                        let ok = matches!(
                            (ka, kb),
                            (
                                Kind::Vector | Kind::Uniform | Kind::Affine(0),
                                Kind::Vector | Kind::Uniform | Kind::Affine(0)
                            )
                        );
                        let vop = matches!(
                            op,
                            BinOp::FAdd
                                | BinOp::FSub
                                | BinOp::FMul
                                | BinOp::FDiv
                                | BinOp::Add
                                | BinOp::Sub
                                | BinOp::Mul
                                | BinOp::And
                                | BinOp::Or
                                | BinOp::Xor
                        );
                        if !ok || !vop || !lane(t) {
                            return None;
                        }
                        Kind::Vector
                    }
                    _ if matches!(op, BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv) => {
                        Kind::Uniform
                    }
                    _ => return None,
                }
            }
            InstKind::Cast(op, a) => {
                let ka = kind_of(&kinds, *a)?;
                let (ft, tt) = (f.ty(*a), f.ty(r?));
                match ka {
                    Kind::Affine(c) => match op {
                        CastOp::SExt | CastOp::ZExt | CastOp::PtrToInt | CastOp::IntToPtr
                            if tt.bits() >= ft.bits() =>
                        {
                            Kind::Affine(c)
                        }
                        _ if c == 0 && tt.is_float() => Kind::Uniform,
                        _ if c == 0 => Kind::Affine(0),
                        _ => return None,
                    },
                    Kind::Uniform => Kind::Uniform,
                    Kind::Vector => {
                        let same_width = ft.bits() == tt.bits();
                        // Only 32-bit lanes: x86-64 converts i64x2 only
                        // with AVX-512.
                        let ok = *op == CastOp::SIToFP && same_width && ft.bits() == 32;
                        if !ok || !lane(ft) || !lane(tt) {
                            return None;
                        }
                        Kind::Vector
                    }
                }
            }
            InstKind::Load { addr, .. } => {
                let t = f.ty(r?);
                if !lane(t) || kind_of(&kinds, *addr)? != Kind::Affine(i64::from(t.size())) {
                    return None;
                }
                if let InstKind::Load { offset, .. } = inst.kind {
                    accesses.push((*addr, offset, i64::from(t.size()), false));
                }
                Kind::Vector
            }
            InstKind::Store {
                value,
                addr,
                offset,
            } => {
                let t = f.ty(*value);
                let kv = kind_of(&kinds, *value)?;
                if !lane(t)
                    || kind_of(&kinds, *addr)? != Kind::Affine(i64::from(t.size()))
                    || matches!(kv, Kind::Affine(c) if c != 0)
                {
                    return None;
                }
                accesses.push((*addr, *offset, i64::from(t.size()), true));
                has_store = true;
                continue;
            }
            _ => return None,
        };
        let r = r?;
        if inst.results.len() != 1 {
            return None;
        }
        kinds.insert(r, k);
    }
    // The back edge passes j + 1.
    if kinds.get(&jn) != Some(&Kind::Affine(1)) {
        return None;
    }
    let (b, Some(i)) = defs.get(&jn)? else {
        return None;
    };
    match f.block(*b).insts[*i].kind {
        InstKind::Binary(BinOp::Add, x, y) if (x == j && iconst_value(f, defs, y) == Some(1)) => {}
        _ => return None,
    }
    if !has_store {
        return None;
    }
    let lanes = match lane_bits? {
        32 => 4,
        _ => 2,
    };
    Some(Candidate {
        header: h,
        body,
        preheader,
        j,
        n,
        kinds,
        lanes,
        accesses,
    })
}

/// Emits instructions into a new block.
struct Emit<'a> {
    f: &'a mut Function,
    block: Block,
}

impl Emit<'_> {
    fn value(&mut self, t: Ty) -> Value {
        self.f.values.push(t);
        Value(self.f.values.len() as u32 - 1)
    }
    fn inst(&mut self, kind: InstKind, t: Option<Ty>) -> Option<Value> {
        let r = t.map(|t| self.value(t));
        self.f.blocks[self.block.0 as usize].insts.push(Inst {
            kind,
            results: r.into_iter().collect(),
            loc: Loc(0),
        });
        r
    }
    fn iconst(&mut self, t: Ty, c: i64) -> Value {
        self.inst(InstKind::Iconst(c), Some(t)).unwrap_or(Value(0))
    }
    fn bin(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let t = self.f.ty(a);
        self.inst(InstKind::Binary(op, a, b), Some(t))
            .unwrap_or(Value(0))
    }
    fn icmp(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        self.inst(InstKind::Icmp(cc, a, b), Some(Ty::I1))
            .unwrap_or(Value(0))
    }
}

fn new_block(f: &mut Function, params: &[Ty]) -> (Block, Vec<Value>) {
    let ps: Vec<Value> = params
        .iter()
        .map(|t| {
            f.values.push(*t);
            Value(f.values.len() as u32 - 1)
        })
        .collect();
    f.blocks.push(BlockData {
        params: ps.clone(),
        insts: Vec::new(),
        term: Terminator::Unreachable,
        term_loc: Loc(0),
    });
    (Block(f.blocks.len() as u32 - 1), ps)
}

/// Clones the scalar (affine and uniform) instructions of the body with
/// `j` replaced by `jv`; returns the value map.
fn clone_scalars(
    e: &mut Emit,
    body: &[Inst],
    kinds: &HashMap<Value, Kind>,
    j: Value,
    jv: Value,
) -> HashMap<Value, Value> {
    let mut map = HashMap::new();
    map.insert(j, jv);
    for inst in body {
        let Some(&r) = inst.results.first() else {
            continue;
        };
        if kinds.get(&r) == Some(&Kind::Vector) {
            continue;
        }
        let mut kind = inst.kind.clone();
        remap(&mut kind, &map);
        let t = e.f.ty(r);
        if let Some(nr) = e.inst(kind, Some(t)) {
            map.insert(r, nr);
        }
    }
    map
}

fn remap(kind: &mut InstKind, map: &HashMap<Value, Value>) {
    let m = |v: &mut Value| {
        if let Some(n) = map.get(v) {
            *v = *n;
        }
    };
    match kind {
        InstKind::Binary(_, a, b) | InstKind::Icmp(_, a, b) | InstKind::Fcmp(_, a, b) => {
            m(a);
            m(b)
        }
        InstKind::Unary(_, a) | InstKind::Cast(_, a) | InstKind::Splat(a) => m(a),
        InstKind::Load { addr, .. } => m(addr),
        InstKind::Store { value, addr, .. } => {
            m(value);
            m(addr)
        }
        _ => {}
    }
}

fn transform(f: &mut Function, c: &Candidate) {
    let jt = f.ty(c.j);
    let body: Vec<Inst> = f.block(c.body).insts.clone();
    let step = c.lanes * UNROLL;

    // Check block: enough iterations, and no store overlapping another
    // access within one vector iteration's span.
    let (pre, pre_params) = new_block(f, &[jt]);
    let j0 = pre_params[0];
    let (vh, vh_params) = new_block(f, &[jt]);
    let jv = vh_params[0];
    let (vb, _) = new_block(f, &[]);
    // The scalars that do not depend on j, computed once in the check
    // block (it dominates the vector loop), for the vector body to reuse.
    let invariant: HashMap<Value, Value>;
    {
        let mut e = Emit { f, block: pre };
        let map = clone_scalars(&mut e, &body, &c.kinds, c.j, j0);
        invariant = map
            .iter()
            .filter(|(v, _)| matches!(c.kinds.get(v), Some(Kind::Affine(0) | Kind::Uniform)))
            .map(|(v, n)| (*v, *n))
            .collect();
        let k = e.iconst(jt, step);
        let lim = e.bin(BinOp::Add, j0, k);
        let mut ok = e.icmp(IntCC::Sle, lim, c.n);
        let addr_of = |e: &mut Emit, a: Value, off: i32| {
            let base = *map.get(&a).unwrap_or(&a);
            if off == 0 {
                base
            } else {
                let o = e.iconst(Ty::Ptr, i64::from(off));
                e.bin(BinOp::Add, base, o)
            }
        };
        for (si, s) in c.accesses.iter().enumerate() {
            if !s.3 {
                continue;
            }
            for (oi, o) in c.accesses.iter().enumerate() {
                if oi == si || (o.3 && oi < si) || (o.0 == s.0 && o.1 == s.1) {
                    continue;
                }
                let sa = addr_of(&mut e, s.0, s.1);
                let oa = addr_of(&mut e, o.0, o.1);
                let d = e.bin(BinOp::Sub, oa, sa);
                let span = step * s.2.max(o.2);
                let zero = e.iconst(Ty::Ptr, 0);
                let hi = e.iconst(Ty::Ptr, span);
                let lo = e.iconst(Ty::Ptr, -span);
                let same = e.icmp(IntCC::Eq, d, zero);
                let after = e.icmp(IntCC::Sge, d, hi);
                let before = e.icmp(IntCC::Sle, d, lo);
                let x = e.bin(BinOp::Or, same, after);
                let y = e.bin(BinOp::Or, x, before);
                ok = e.bin(BinOp::And, ok, y);
            }
        }
        e.f.blocks[pre.0 as usize].term = Terminator::CondBr(
            ok,
            Target {
                block: vh,
                args: vec![j0],
            },
            Target {
                block: c.header,
                args: vec![j0],
            },
        );
    }
    // Vector header: another full vector iteration?
    {
        let mut e = Emit { f, block: vh };
        let k = e.iconst(jt, step);
        let lim = e.bin(BinOp::Add, jv, k);
        let more = e.icmp(IntCC::Sle, lim, c.n);
        e.f.blocks[vh.0 as usize].term = Terminator::CondBr(
            more,
            Target {
                block: vb,
                args: vec![],
            },
            Target {
                block: c.header,
                args: vec![jv],
            },
        );
    }
    // Vector body: UNROLL copies, at jv, jv + lanes, ...
    {
        let mut e = Emit { f, block: vb };
        for u in 0..UNROLL {
            let ju = if u == 0 {
                jv
            } else {
                let k = e.iconst(jt, u * c.lanes);
                e.bin(BinOp::Add, jv, k)
            };
            let mut map = invariant.clone();
            map.insert(c.j, ju);
            let mut splats: HashMap<Value, Value> = HashMap::new();
            for inst in &body {
                let r = inst.results.first().copied();
                let is_vec = r.is_some_and(|r| c.kinds.get(&r) == Some(&Kind::Vector));
                let is_store = matches!(inst.kind, InstKind::Store { .. });
                if !is_vec && !is_store {
                    if r.is_some_and(|r| invariant.contains_key(&r)) {
                        continue;
                    }
                    let mut kind = inst.kind.clone();
                    remap(&mut kind, &map);
                    if let Some(r) = r {
                        let t = e.f.ty(r);
                        if let Some(nr) = e.inst(kind, Some(t)) {
                            map.insert(r, nr);
                        }
                    }
                    continue;
                }
                // A vector operand: the vector itself, or a splat of a
                // uniform scalar.
                let mut vec_operand = |e: &mut Emit, v: Value, lane_ty: Ty| -> Value {
                    let mapped = *map.get(&v).unwrap_or(&v);
                    if e.f.ty(mapped).lanes().is_some() {
                        return mapped;
                    }
                    *splats.entry(mapped).or_insert_with(|| {
                        let vt = lane_ty.vector().unwrap_or(Ty::F32X4);
                        e.inst(InstKind::Splat(mapped), Some(vt))
                            .unwrap_or(Value(0))
                    })
                };
                match &inst.kind {
                    InstKind::Load { addr, offset } => {
                        let t = e.f.ty(r.unwrap_or(Value(0)));
                        let a = *map.get(addr).unwrap_or(addr);
                        let nr = e.inst(
                            InstKind::Load {
                                addr: a,
                                offset: *offset,
                            },
                            t.vector(),
                        );
                        if let (Some(r), Some(nr)) = (r, nr) {
                            map.insert(r, nr);
                        }
                    }
                    InstKind::Store {
                        value,
                        addr,
                        offset,
                    } => {
                        let t = e.f.ty(*value);
                        let v = vec_operand(&mut e, *value, t);
                        let a = *map.get(addr).unwrap_or(addr);
                        e.inst(
                            InstKind::Store {
                                value: v,
                                addr: a,
                                offset: *offset,
                            },
                            None,
                        );
                    }
                    InstKind::Binary(op, a, b) => {
                        let t = e.f.ty(*a);
                        let (x, y) = (vec_operand(&mut e, *a, t), vec_operand(&mut e, *b, t));
                        let nr = e.inst(InstKind::Binary(*op, x, y), t.vector());
                        if let (Some(r), Some(nr)) = (r, nr) {
                            map.insert(r, nr);
                        }
                    }
                    InstKind::Cast(op, a) => {
                        let ft = e.f.ty(*a);
                        let tt = e.f.ty(r.unwrap_or(Value(0)));
                        let x = vec_operand(&mut e, *a, ft);
                        let nr = e.inst(InstKind::Cast(*op, x), tt.vector());
                        if let (Some(r), Some(nr)) = (r, nr) {
                            map.insert(r, nr);
                        }
                    }
                    _ => {}
                }
            }
        }
        let k = e.iconst(jt, step);
        let next = e.bin(BinOp::Add, jv, k);
        e.f.blocks[vb.0 as usize].term = Terminator::Br(Target {
            block: vh,
            args: vec![next],
        });
    }
    // The preheader enters through the check.
    let redirect = |t: &mut Target| {
        if t.block == c.header {
            t.block = pre;
        }
    };
    match &mut f.blocks[c.preheader.0 as usize].term {
        Terminator::Br(t) => redirect(t),
        Terminator::CondBr(_, a, b) => {
            redirect(a);
            redirect(b)
        }
        Terminator::Switch { default, cases, .. } => {
            redirect(default);
            cases.iter_mut().for_each(|(_, t)| redirect(t));
        }
        _ => {}
    }
}

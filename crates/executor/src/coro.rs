//! The coroutine split, as LLVM's CoroSplit does it for the switched-resume
//! ABI (`llvm.intr.coro.id` with no promise and no outlined parts).
//!
//! A function that calls `coro.begin` becomes three functions:
//!
//! * the **ramp** (the original name and signature): runs from the entry to
//!   the first suspend point; at `coro.begin` it writes the resume and
//!   destroy function pointers into the frame (LLVM's ABI: the handle is
//!   the frame pointer and its first word the resume function, which is
//!   how `llvm.intr.coro.resume` and our runtime call it back);
//! * **resume** (`fn(frame)`): dispatches on the suspend index stored in the
//!   frame to the code after that suspend point with the suspend result 0;
//! * **destroy** (`fn(frame)`): the same with the result 1.
//!
//! The frame holds `[resume fn, destroy fn, index: i32, slots...]`: a slot
//! for each value live after some suspend point and for each `alloca` of
//! the coroutine. Constants and addresses are recomputed after a resume
//! instead of being kept ([`InstKind::is_rematerializable`]), so a frame is
//! typically a few dozen bytes and a million suspended coroutines take tens
//! of megabytes.
//!
//! The index and the live values are written at the suspend point's
//! `coro.save`, not at the suspend: right after the save the lowered code
//! hands the handle to the runtime, which may resume the coroutine on
//! another thread (or inline) before this thread reaches the suspend.
//!
//! Each part is planned as a graph of block *copies* ([`Plan`]): the block
//! that continues after a suspend is copied once per suspend result it can
//! see in that part (-1 when arriving from the suspend itself, 0 or 1 from
//! the dispatch), and folded for it (`sext` of the constant, the `switch`
//! on it), so each part contains only the code it can run. Liveness over
//! the resume and destroy parts gives the values to keep in the frame.

use crate::error::ExecError;
use crate::lir::{Block, CastOp, Function, Inst, InstKind, IntCC, Loc, Terminator, Ty, Value};
use std::collections::{HashMap, HashSet};

/// Frame offsets of the ABI words.
pub const RESUME_FN_OFFSET: i32 = 0;
pub const DESTROY_FN_OFFSET: i32 = 8;
pub const INDEX_OFFSET: i32 = 16;
const FIRST_SLOT: u32 = 20;

/// Which function is being emitted from a LIR function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// Not a coroutine: the function as written.
    Plain,
    Ramp,
    Resume,
    Destroy,
    /// For the frame layout: every resumption (results 0 and 1) as an
    /// entry, and each suspend point followed by all three continuations,
    /// so that what is live after a later resumption is live back to its
    /// `coro.save` and to the resumptions before it.
    Analysis,
}

/// Index of a node in [`Plan::nodes`].
pub type NodeId = usize;

/// How a node ends.
#[derive(Clone, Debug, PartialEq)]
pub enum Exit {
    /// The block's terminator, with `succs[i]` for its i-th target.
    Term,
    /// The terminator folded to its `i`-th target (`succs[0]`).
    Jump(usize),
    /// `coro.end` in a resume or destroy part: return.
    ReturnVoid,
    /// The suspend point: continue at `succs[0]`, the continuation copy
    /// with result -1.
    Suspend,
}

/// One copy of a block in a part.
#[derive(Clone, Debug)]
pub struct Node {
    pub block: Block,
    /// The suspend result this copy of a continuation block sees.
    pub konst: Option<i64>,
    /// Integer values computed in this copy whose value is known (folded:
    /// their operands are not read).
    pub folded: HashMap<Value, i64>,
    /// Instructions of the block emitted in this copy (a prefix; `coro.end`
    /// cuts a resume part's block).
    pub ninsts: usize,
    pub exit: Exit,
    pub succs: Vec<NodeId>,
}

/// The nodes of one part; node 0 is the entry (for resume and destroy, see
/// [`Plan::dispatch`]).
#[derive(Clone, Debug)]
pub struct Plan {
    pub part: Part,
    pub nodes: Vec<Node>,
    /// Resume and destroy: the node each suspend index resumes at.
    pub dispatch: Vec<(usize, NodeId)>,
}

/// A suspend point.
#[derive(Clone, Debug)]
pub struct Suspend {
    pub block: Block,
    pub cont: Block,
    pub save: Value,
    pub result: Value,
    /// Kept in the frame: stored at the save, loaded at the dispatch.
    pub spills: Vec<Value>,
    /// Recomputed at the dispatch.
    pub remats: Vec<Value>,
}

/// Where a value is defined.
#[derive(Clone, Copy, Debug)]
pub enum Def {
    Param(Block),
    Inst(Block, usize),
    SuspendResult(Block),
}

/// The split of one coroutine.
#[derive(Clone, Debug)]
pub struct CoroLayout {
    pub suspends: Vec<Suspend>,
    /// `coro.save` result -> suspend index.
    pub save_index: HashMap<Value, usize>,
    /// The `coro.begin` result (the handle).
    pub handle: Value,
    /// Frame offset of each spilled value and each `alloca`.
    pub slots: HashMap<Value, u32>,
    pub frame_size: u32,
    pub frame_align: u32,
    pub defs: Vec<Option<Def>>,
}

/// Where every value of `f` is defined.
pub fn definitions(f: &Function) -> Vec<Option<Def>> {
    let mut defs = vec![None; f.values.len()];
    for (bi, b) in f.blocks.iter().enumerate() {
        let blk = Block(bi as u32);
        for p in &b.params {
            defs[p.0 as usize] = Some(Def::Param(blk));
        }
        for (ii, inst) in b.insts.iter().enumerate() {
            for r in &inst.results {
                defs[r.0 as usize] = Some(Def::Inst(blk, ii));
            }
        }
        if let Terminator::CoroSuspend { result, .. } = b.term {
            defs[result.0 as usize] = Some(Def::SuspendResult(blk));
        }
    }
    defs
}

fn unsupported(loc: Loc, what: impl Into<String>) -> ExecError {
    ExecError::Unsupported {
        loc,
        what: what.into(),
    }
}

/// Splits coroutine `f`: finds its suspend points and lays out its frame.
pub fn layout(f: &Function) -> Result<CoroLayout, ExecError> {
    let defs = definitions(f);
    let mut handle = None;
    let mut allocas = Vec::new();
    for b in &f.blocks {
        for inst in &b.insts {
            match inst.kind {
                InstKind::CoroBegin(_) => {
                    if handle.is_some() {
                        return Err(unsupported(
                            inst.loc,
                            format!("a second 'llvm.intr.coro.begin' in coroutine '{}'", f.name),
                        ));
                    }
                    handle = Some(inst.results[0]);
                }
                InstKind::StackAlloc { size, align } => {
                    allocas.push((inst.results[0], size, align))
                }
                _ => {}
            }
        }
    }
    let Some(handle) = handle else {
        return Err(unsupported(
            f.loc,
            "a coroutine without 'llvm.intr.coro.begin'",
        ));
    };

    let mut suspends = Vec::new();
    let mut save_index = HashMap::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        if let Terminator::CoroSuspend {
            save, result, cont, ..
        } = b.term
        {
            let blk = Block(bi as u32);
            let save_in_block = matches!(defs[save.0 as usize], Some(Def::Inst(sb, ii))
                if sb == blk && matches!(b.insts[ii].kind, InstKind::CoroSave(_)));
            if !save_in_block {
                return Err(unsupported(
                    b.term_loc,
                    "'llvm.intr.coro.suspend' whose 'llvm.intr.coro.save' is not in its block",
                ));
            }
            if save_index.insert(save, suspends.len()).is_some() {
                return Err(unsupported(
                    b.term_loc,
                    "two 'llvm.intr.coro.suspend' of one 'llvm.intr.coro.save'",
                ));
            }
            suspends.push(Suspend {
                block: blk,
                cont,
                save,
                result,
                spills: Vec::new(),
                remats: Vec::new(),
            });
        }
    }

    let mut layout = CoroLayout {
        suspends,
        save_index,
        handle,
        slots: HashMap::new(),
        frame_size: 0,
        frame_align: 8,
        defs,
    };

    // Values live at each resumption.
    let mut live_at = vec![HashSet::new(); layout.suspends.len()];
    let plan = plan(f, Part::Analysis, Some(&layout));
    let live = live_in(f, &plan);
    for &(si, node) in &plan.dispatch {
        live_at[si].extend(live[node].iter().copied());
    }

    let alloca_set: HashSet<Value> = allocas.iter().map(|a| a.0).collect();
    let mut spilled: Vec<Value> = Vec::new();
    let mut spilled_set = HashSet::new();
    for (si, live) in live_at.into_iter().enumerate() {
        let s = &layout.suspends[si];
        let mut live: Vec<Value> = live.into_iter().filter(|v| *v != s.result).collect();
        live.sort();
        let save_pos = match layout.defs[s.save.0 as usize] {
            Some(Def::Inst(_, ii)) => ii,
            _ => 0,
        };
        let (mut spills, mut remats) = (Vec::new(), Vec::new());
        for v in live {
            let def = layout.defs[v.0 as usize];
            let remat = v == handle
                || alloca_set.contains(&v)
                || matches!(def, Some(Def::Inst(b, ii))
                    if f.block(b).insts[ii].kind.is_rematerializable());
            if remat {
                remats.push(v);
                continue;
            }
            if let Some(Def::Inst(b, ii)) = def {
                if b == s.block && ii > save_pos {
                    return Err(unsupported(
                        f.block(b).insts[ii].loc,
                        "a value defined between 'llvm.intr.coro.save' and \
                         'llvm.intr.coro.suspend' and used after the suspend point",
                    ));
                }
            }
            if spilled_set.insert(v) {
                spilled.push(v);
            }
            spills.push(v);
        }
        let s = &mut layout.suspends[si];
        s.spills = spills;
        s.remats = remats;
    }

    // Slots: largest first, so that each is naturally aligned with no
    // padding but at the start.
    let mut items: Vec<(Value, u32, u32)> = spilled
        .iter()
        .map(|v| {
            let t = f.ty(*v);
            (*v, t.size(), t.align())
        })
        .chain(allocas.iter().copied())
        .collect();
    items.sort_by_key(|&(v, size, align)| (std::cmp::Reverse(align), std::cmp::Reverse(size), v));
    let mut off = FIRST_SLOT;
    let mut align_max = 8;
    for (v, size, align) in items {
        let align = align.max(1);
        off = off.div_ceil(align) * align;
        layout.slots.insert(v, off);
        off += size;
        align_max = align_max.max(align);
    }
    layout.frame_align = align_max;
    layout.frame_size = off.div_ceil(align_max) * align_max;
    Ok(layout)
}

/// Builds the graph of block copies of one part of `f` (a plain function:
/// one node per reachable block).
pub fn plan(f: &Function, part: Part, layout: Option<&CoroLayout>) -> Plan {
    let mut p = Planner {
        f,
        part,
        nodes: Vec::new(),
        index: HashMap::new(),
        work: Vec::new(),
        cont_result: cont_results(f),
    };
    let mut dispatch = Vec::new();
    match part {
        Part::Plain | Part::Ramp => {
            p.node(Block(0), None);
        }
        Part::Resume | Part::Destroy | Part::Analysis => {
            let ks: &[i64] = match part {
                Part::Resume => &[0],
                Part::Destroy => &[1],
                _ => &[0, 1],
            };
            if let Some(l) = layout {
                for (si, s) in l.suspends.iter().enumerate() {
                    for &k in ks {
                        let n = p.node(s.cont, Some(k));
                        dispatch.push((si, n));
                    }
                }
            }
        }
    }
    while let Some(n) = p.work.pop() {
        p.fill(n);
    }
    Plan {
        part,
        nodes: p.nodes,
        dispatch,
    }
}

struct Planner<'a> {
    f: &'a Function,
    part: Part,
    nodes: Vec<Node>,
    index: HashMap<(Block, Option<i64>), NodeId>,
    work: Vec<NodeId>,
    cont_result: HashMap<Block, Value>,
}

/// The suspend result defined at the top of each continuation block.
pub fn cont_results(f: &Function) -> HashMap<Block, Value> {
    f.blocks
        .iter()
        .filter_map(|b| match b.term {
            Terminator::CoroSuspend { result, cont, .. } => Some((cont, result)),
            _ => None,
        })
        .collect()
}

impl Planner<'_> {
    fn node(&mut self, block: Block, konst: Option<i64>) -> NodeId {
        if let Some(&n) = self.index.get(&(block, konst)) {
            return n;
        }
        let id = self.nodes.len();
        self.nodes.push(Node {
            block,
            konst,
            folded: HashMap::new(),
            ninsts: 0,
            exit: Exit::Term,
            succs: Vec::new(),
        });
        self.index.insert((block, konst), id);
        self.work.push(id);
        id
    }

    fn fill(&mut self, n: NodeId) {
        let f = self.f;
        let (block, konst) = (self.nodes[n].block, self.nodes[n].konst);
        let data = f.block(block);
        let mut folded: HashMap<Value, i64> = HashMap::new();
        if let (Some(k), Some(&r)) = (konst, self.cont_result.get(&block)) {
            folded.insert(r, norm(Ty::I8, k));
        }
        let in_resume_part = matches!(self.part, Part::Resume | Part::Destroy | Part::Analysis);
        let mut ninsts = data.insts.len();
        let mut cut = false;
        for (ii, inst) in data.insts.iter().enumerate() {
            if in_resume_part && matches!(inst.kind, InstKind::CoroEnd(_)) {
                ninsts = ii;
                cut = true;
                break;
            }
            if konst.is_some() {
                fold_inst(f, inst, &mut folded);
            }
        }
        let (exit, succ_blocks): (Exit, Vec<(Block, Option<i64>)>) = if cut {
            (Exit::ReturnVoid, vec![])
        } else {
            match &data.term {
                Terminator::CoroSuspend { cont, .. } => {
                    let mut v = vec![(*cont, Some(-1))];
                    if self.part == Part::Analysis {
                        v.extend([(*cont, Some(0)), (*cont, Some(1))]);
                    }
                    (Exit::Suspend, v)
                }
                Terminator::CondBr(c, _, _) if folded.contains_key(c) => {
                    let i = if folded[c] & 1 != 0 { 0 } else { 1 };
                    let t = data.term.targets()[i].block;
                    (Exit::Jump(i), vec![(t, None)])
                }
                Terminator::Switch { value, cases, .. } if folded.contains_key(value) => {
                    let v = folded[value];
                    let ty = f.ty(*value);
                    let i = cases
                        .iter()
                        .position(|(c, _)| norm(ty, *c) == v)
                        .map_or(0, |p| p + 1);
                    let t = data.term.targets()[i].block;
                    (Exit::Jump(i), vec![(t, None)])
                }
                t => (
                    Exit::Term,
                    t.targets().iter().map(|t| (t.block, None)).collect(),
                ),
            }
        };
        let succs = succ_blocks
            .into_iter()
            .map(|(b, k)| self.node(b, k))
            .collect();
        let node = &mut self.nodes[n];
        node.folded = folded;
        node.ninsts = ninsts;
        node.exit = exit;
        node.succs = succs;
    }
}

/// The canonical form of integer constant `v` of type `ty`: its low bits,
/// zero-extended.
pub fn norm(ty: Ty, v: i64) -> i64 {
    match ty.bits() {
        64 => v,
        b => ((v as u64) & ((1u64 << b) - 1)) as i64,
    }
}

fn sext(ty: Ty, v: i64) -> i64 {
    match ty.bits() {
        64 => v,
        b => (v << (64 - b)) >> (64 - b),
    }
}

/// Folds `inst` if its integer operands are known.
fn fold_inst(f: &Function, inst: &Inst, folded: &mut HashMap<Value, i64>) {
    let Some(&r) = inst.results.first() else {
        return;
    };
    let rt = f.ty(r);
    if rt.is_float() {
        return;
    }
    let get = |v: &Value| folded.get(v).copied();
    let value = match &inst.kind {
        InstKind::Iconst(c) => Some(norm(rt, *c)),
        InstKind::Cast(op, a) => {
            let at = f.ty(*a);
            get(a).and_then(|x| match op {
                CastOp::SExt => Some(norm(rt, sext(at, x))),
                CastOp::ZExt | CastOp::Trunc => Some(norm(rt, x)),
                _ => None,
            })
        }
        InstKind::Icmp(cc, a, b) => match (get(a), get(b)) {
            (Some(x), Some(y)) => {
                let t = f.ty(*a);
                let (sx, sy) = (sext(t, x), sext(t, y));
                let (ux, uy) = (x as u64, y as u64);
                Some(i64::from(match cc {
                    IntCC::Eq => x == y,
                    IntCC::Ne => x != y,
                    IntCC::Slt => sx < sy,
                    IntCC::Sle => sx <= sy,
                    IntCC::Sgt => sx > sy,
                    IntCC::Sge => sx >= sy,
                    IntCC::Ult => ux < uy,
                    IntCC::Ule => ux <= uy,
                    IntCC::Ugt => ux > uy,
                    IntCC::Uge => ux >= uy,
                }))
            }
            _ => None,
        },
        InstKind::Binary(op, a, b) => match (get(a), get(b)) {
            (Some(x), Some(y)) => {
                use crate::lir::BinOp::*;
                match op {
                    Add => Some(norm(rt, x.wrapping_add(y))),
                    Sub => Some(norm(rt, x.wrapping_sub(y))),
                    Mul => Some(norm(rt, x.wrapping_mul(y))),
                    And => Some(x & y),
                    Or => Some(x | y),
                    Xor => Some(norm(rt, x ^ y)),
                    _ => None,
                }
            }
            _ => None,
        },
        _ => None,
    };
    if let Some(v) = value {
        folded.insert(r, v);
    }
}

/// Values live on entry to each node of `plan` (block parameters of the
/// node's block are defined at its entry, so they are not live-in).
pub fn live_in(f: &Function, plan: &Plan) -> Vec<HashSet<Value>> {
    let n = plan.nodes.len();
    let cont_result = cont_results(f);
    // Per node: upward-exposed uses and definitions.
    let mut uses: Vec<HashSet<Value>> = vec![HashSet::new(); n];
    let mut defs: Vec<HashSet<Value>> = vec![HashSet::new(); n];
    for (i, node) in plan.nodes.iter().enumerate() {
        let data = f.block(node.block);
        let (u, d) = (&mut uses[i], &mut defs[i]);
        for p in &data.params {
            d.insert(*p);
        }
        if let Some(&r) = cont_result.get(&node.block) {
            d.insert(r);
        }
        for inst in &data.insts[..node.ninsts] {
            let is_folded = inst
                .results
                .first()
                .is_some_and(|r| node.folded.contains_key(r));
            if !is_folded {
                inst.kind.for_each_operand(|v| {
                    if !d.contains(&v) {
                        u.insert(v);
                    }
                });
            }
            for r in &inst.results {
                d.insert(*r);
            }
        }
        let mut use_v = |v: Value| {
            if !d.contains(&v) {
                u.insert(v);
            }
        };
        match (&node.exit, &data.term) {
            (Exit::ReturnVoid, _) => {}
            (Exit::Suspend, Terminator::CoroSuspend { save, .. }) => use_v(*save),
            (Exit::Jump(t), term) => {
                for a in &term.targets()[*t].args {
                    use_v(*a);
                }
            }
            (_, term) => {
                match term {
                    Terminator::CondBr(c, _, _) => use_v(*c),
                    Terminator::Switch { value, .. } => use_v(*value),
                    Terminator::Return(vs) => vs.iter().copied().for_each(&mut use_v),
                    _ => {}
                }
                for t in term.targets() {
                    for a in &t.args {
                        use_v(*a);
                    }
                }
            }
        }
    }
    // Backward fixpoint.
    let mut live: Vec<HashSet<Value>> = uses.clone();
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..n).rev() {
            let mut out: HashSet<Value> = HashSet::new();
            for &s in &plan.nodes[i].succs {
                out.extend(live[s].iter().copied());
            }
            for v in out {
                if !defs[i].contains(&v) && live[i].insert(v) {
                    changed = true;
                }
            }
        }
    }
    live
}

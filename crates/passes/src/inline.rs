//! `-inline`: MLIR's inliner. Calls to functions with a body are replaced
//! by a copy of the body (or the body itself, when it is the function's
//! last use and the function is private), working bottom-up over the
//! strongly connected components of the call graph; each function is
//! simplified by the default pipeline (`canonicalize`) before and after
//! calls are inlined into it, and private functions left without uses are
//! erased.
//!
//! The order of everything visible follows upstream: the call graph's
//! nodes and edges in discovery order, LLVM's `scc_iterator` (Tarjan's
//! algorithm from the external node, which has an edge to every
//! top-level function), calls collected per block in upstream's worklist
//! order, cloned blocks placed after the call's block, locations of
//! inlined ops wrapped in call-site locations.
//!
//! What may be inlined is the dialects' `DialectInlinerInterface` of each
//! release: `func`/`std`, `arith`, `cf`, `scf`, `memref` and `linalg` ops
//! may be inlined; nothing may be inlined into, or out of, `async` or
//! `builtin` ops or unregistered ones. See `docs/inline.md`.

use crate::canonicalize::Canonicalize;
use crate::{
    parse_pipeline_for, OptionKind, Pass, PassContext, PassInfo, PassOption, PipelineEntry,
};
use mlir_async_ir::fxhash::{FxHashMap, FxHashSet};
use mlir_async_ir::*;
use mlir_async_rewrite::GreedyConfig;
use mlir_async_syntax::Edition;
use std::collections::HashMap;

const OPTIONS: &[PassOption] = &[
    PassOption::new(
        "default-pipeline",
        OptionKind::String,
        "canonicalize",
        "The default optimizer pipeline used for callables",
    ),
    PassOption::new(
        "max-iterations",
        OptionKind::UInt,
        "4",
        "Maximum number of iterations when inlining within an SCC",
    ),
    PassOption::new(
        "op-pipelines",
        OptionKind::StringList,
        "",
        "Callable operation specific optimizer pipelines (in the form of `dialect.op(pipeline)`)",
    ),
];

pub fn info() -> PassInfo {
    PassInfo {
        arg: "inline",
        summary: "Inline function calls",
        options: OPTIONS,
        anchor: "",
        make: |opts| {
            let default_pipeline = opts.string("default-pipeline");
            // The pipelines are checked now, built per run (their passes
            // are owned by the pipeline entries).
            if let Err(e) = parse_pipeline_for(&default_pipeline, None) {
                return Err(e.message().to_string());
            }
            let op_pipelines = opts.list_raw("op-pipelines");
            for p in &op_pipelines {
                if let Err(e) = parse_pipeline_for(p, None) {
                    return Err(e.message().to_string());
                }
            }
            Ok(Box::new(Inline {
                default_pipeline,
                op_pipelines,
                max_iterations: opts.int("max-iterations").clamp(0, u32::MAX.into()) as u32,
            }))
        },
    }
}

pub struct Inline {
    /// Run on each function before and after inlining into it.
    pub default_pipeline: String,
    /// `op.name(pipeline)`: for callables of that op instead.
    pub op_pipelines: Vec<String>,
    pub max_iterations: u32,
}

impl Pass for Inline {
    fn name(&self) -> &'static str {
        "inline"
    }
    fn display_name(&self) -> &'static str {
        "Inliner"
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        if !pc.ctx.traits_of(op).symbol_table {
            return Err(IrError::on_op(
                pc.ctx, op,
                format!(
                    "'{}' op  was scheduled to run under the inliner, but does not define a symbol table",
                    pc.ctx.name(op)
                ),
            ));
        }
        let unknown = pc.ctx.unknown_loc();
        let pipelines = Pipelines::new(self, pc.edition, unknown)?;
        let mut inliner = Inliner::new(pc.ctx, op, pc.edition);
        let mut uses = UseList::new(pc.ctx, op, &mut inliner);
        let sccs = inliner.graph.sccs();
        for scc in sccs {
            let mut scc: Vec<NodeId> = scc.into_iter().filter(|&n| n != EXTERNAL).collect();
            let mut iteration = 0;
            loop {
                optimize_scc(pc, &pipelines, &mut inliner, &mut uses, &scc)?;
                if !inline_calls_in_scc(pc.ctx, &mut inliner, &mut uses, &mut scc) {
                    break;
                }
                iteration += 1;
                if iteration >= self.max_iterations {
                    break;
                }
            }
        }
        // Erase the callables proven dead, as upstream, once the walk is
        // over.
        for n in std::mem::take(&mut inliner.dead) {
            let f = inliner.graph.nodes[n].op;
            if !pc.ctx.is_erased(f) {
                pc.ctx.drop_all_references(f);
                pc.ctx
                    .erase_op(f)
                    .map_err(|m| IrError::new(pc.ctx.op_loc(f), m))?;
            }
        }
        Ok(())
    }
}

/// The simplification pipelines, built once per run.
struct Pipelines {
    default: Vec<PipelineEntry>,
    /// By callable op name (as the pipeline spells it).
    by_op: Vec<(String, Vec<PipelineEntry>)>,
}

impl Pipelines {
    fn new(p: &Inline, edition: Edition, loc: Location) -> Result<Self, IrError> {
        let bad = |m: &str| IrError::new(loc, m.to_string());
        let default = if p.default_pipeline == "canonicalize" {
            // The common case, without a parse.
            vec![PipelineEntry {
                pass: Box::new(Canonicalize {
                    config: GreedyConfig::default(),
                    disabled: vec![],
                    enabled: vec![],
                }),
                nesting: vec![],
            }]
        } else {
            parse_pipeline_for(&p.default_pipeline, Some(edition)).map_err(|e| bad(e.message()))?
        };
        let mut by_op = vec![];
        for text in &p.op_pipelines {
            let entries = parse_pipeline_for(text, Some(edition)).map_err(|e| bad(e.message()))?;
            // `func.func(canonicalize)`: entries nested under the op name.
            let mut groups: Vec<(String, Vec<PipelineEntry>)> = vec![];
            for mut e in entries {
                if e.nesting.is_empty() {
                    continue;
                }
                let name = e.nesting.remove(0);
                match groups.iter_mut().find(|g| g.0 == name) {
                    Some(g) => g.1.push(e),
                    None => groups.push((name, vec![e])),
                }
            }
            by_op.extend(groups);
        }
        Ok(Pipelines { default, by_op })
    }

    fn for_op(&self, ctx: &Context, op: Op, edition: Edition) -> &[PipelineEntry] {
        let generic = mlir_async_syntax::edition::generic_name(ctx.name(op), edition);
        self.by_op
            .iter()
            .find(|(n, _)| *n == generic || n == ctx.name(op))
            .map_or(&self.default[..], |(_, es)| &es[..])
    }
}

type NodeId = usize;
/// The node standing for every callable outside the graph.
const EXTERNAL: NodeId = 0;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum EdgeKind {
    /// From the external node to a top-level callable.
    Abstract,
    Call,
    /// To a callable nested in this one.
    Child,
}

struct Node {
    /// The callable op (none for the external node).
    op: Op,
    region: Option<Region>,
    /// In insertion order, each (target, kind) once (a `SetVector`).
    edges: Vec<(NodeId, EdgeKind)>,
    edge_set: FxHashSet<(NodeId, EdgeKind)>,
}

impl Node {
    fn add_edge(&mut self, to: NodeId, kind: EdgeKind) {
        if self.edge_set.insert((to, kind)) {
            self.edges.push((to, kind));
        }
    }
    fn has_children(&self) -> bool {
        self.edges.iter().any(|e| e.1 == EdgeKind::Child)
    }
}

/// MLIR's `CallGraph`: a node per callable region, edges for calls and
/// nesting, computed once (inlining does not update it, as upstream).
struct CallGraph {
    nodes: Vec<Node>,
    by_region: FxHashMap<Region, NodeId>,
}

impl CallGraph {
    fn sccs(&self) -> Vec<Vec<NodeId>> {
        tarjan(self)
    }
}

/// LLVM's `scc_iterator` over the call graph from the external node:
/// SCCs in post-order, each SCC's nodes in the order they leave the
/// stack.
fn tarjan(g: &CallGraph) -> Vec<Vec<NodeId>> {
    const DONE: u32 = u32::MAX;
    let n = g.nodes.len();
    let mut visit_num = vec![0u32; n];
    let mut visited = vec![false; n];
    let mut counter = 0u32;
    let mut node_stack: Vec<NodeId> = vec![];
    // (node, next child index, min visited)
    let mut visit_stack: Vec<(NodeId, usize, u32)> = vec![];
    let mut out = vec![];
    let mut visit_one = |node: NodeId,
                         visit_num: &mut Vec<u32>,
                         visited: &mut Vec<bool>,
                         node_stack: &mut Vec<NodeId>,
                         visit_stack: &mut Vec<(NodeId, usize, u32)>| {
        counter += 1;
        visit_num[node] = counter;
        visited[node] = true;
        node_stack.push(node);
        visit_stack.push((node, 0, counter));
    };
    visit_one(
        EXTERNAL,
        &mut visit_num,
        &mut visited,
        &mut node_stack,
        &mut visit_stack,
    );
    while !visit_stack.is_empty() {
        // Visit the children not yet visited.
        loop {
            let top = visit_stack.len() - 1;
            let (cur, next, _) = visit_stack[top];
            let Some(&(child, _)) = g.nodes[cur].edges.get(next) else {
                break;
            };
            visit_stack[top].1 += 1;
            if !visited[child] {
                visit_one(
                    child,
                    &mut visit_num,
                    &mut visited,
                    &mut node_stack,
                    &mut visit_stack,
                );
                continue;
            }
            let child_num = visit_num[child];
            if visit_stack[top].2 > child_num {
                visit_stack[top].2 = child_num;
            }
        }
        let (visiting, _, min) = visit_stack.pop().expect("a node is being visited");
        if let Some(parent) = visit_stack.last_mut() {
            if parent.2 > min {
                parent.2 = min;
            }
        }
        if min != visit_num[visiting] {
            continue;
        }
        let mut scc = vec![];
        loop {
            let x = node_stack.pop().expect("the SCC's nodes are on the stack");
            visit_num[x] = DONE;
            scc.push(x);
            if x == visiting {
                break;
            }
        }
        out.push(scc);
    }
    out
}

/// A call to inline: the call op, the node it sits in, the node it calls.
#[derive(Clone, Copy)]
struct ResolvedCall {
    call: Op,
    source: NodeId,
    target: NodeId,
    /// LLVM 15: the inlining that brought this call in (an index into
    /// `Inliner::history`).
    history: Option<usize>,
}

struct Inliner {
    graph: CallGraph,
    edition: Edition,
    /// Symbol table op -> name -> symbol, built on first lookup. Symbols
    /// are neither added nor renamed while inlining (dead ones are erased
    /// at the end), so the maps stay valid.
    tables: FxHashMap<Op, FxHashMap<Symbol, Op>>,
    calls: Vec<ResolvedCall>,
    /// Callables to erase once the walk is over (in the order found).
    dead: Vec<NodeId>,
    dead_set: FxHashSet<NodeId>,
    /// LLVM 15's inline history: (inlined callee, the history of the call
    /// that was inlined).
    history: Vec<(NodeId, Option<usize>)>,
    names: Names,
}

mlir_async_ir::names! {
    struct Names {
        func_func = "func.func",
        func_call = "func.call",
        func_return = "func.return",
        callee = "callee",
    }
}

fn is_callable(ctx: &Context, n: &Names, op: Op) -> bool {
    ctx.is(op, n.func_func)
}

/// The body of a callable, if it has one (a declaration has none).
fn callable_region(ctx: &Context, op: Op) -> Option<Region> {
    let r = *ctx.regions_of(op).first()?;
    (!ctx.region_is_empty(r)).then_some(r)
}

impl Inliner {
    fn new(ctx: &mut Context, top: Op, edition: Edition) -> Self {
        let names = Names::new(ctx);
        let mut me = Inliner {
            graph: CallGraph {
                nodes: vec![Node {
                    op: top,
                    region: None,
                    edges: vec![],
                    edge_set: FxHashSet::default(),
                }],
                by_region: FxHashMap::default(),
            },
            edition,
            tables: FxHashMap::default(),
            calls: vec![],
            dead: vec![],
            dead_set: FxHashSet::default(),
            history: vec![],
            names,
        };
        // Two walks, as upstream: the callables first, so that calls to
        // nested ones resolve.
        me.compute(ctx, top, None, false);
        me.compute(ctx, top, None, true);
        me
    }

    fn compute(&mut self, ctx: &Context, op: Op, mut parent: Option<NodeId>, resolve: bool) {
        if ctx.is(op, self.names.func_call) || ctx.name(op) == "func.call_indirect" {
            if let (true, Some(p)) = (resolve, parent) {
                let t = self.resolve_call(ctx, op);
                self.graph.nodes[p].add_edge(t, EdgeKind::Call);
            }
            return;
        }
        if is_callable(ctx, &self.names, op) {
            match callable_region(ctx, op) {
                Some(r) => parent = Some(self.get_or_add_node(ctx, op, r, parent)),
                None => return,
            }
        }
        for &r in ctx.regions_of(op) {
            for b in ctx.region_blocks(r) {
                for o in ctx.block_ops_iter(b) {
                    self.compute(ctx, o, parent, resolve);
                }
            }
        }
    }

    fn get_or_add_node(
        &mut self,
        _ctx: &Context,
        op: Op,
        r: Region,
        parent: Option<NodeId>,
    ) -> NodeId {
        if let Some(&n) = self.graph.by_region.get(&r) {
            return n;
        }
        let id = self.graph.nodes.len();
        self.graph.nodes.push(Node {
            op,
            region: Some(r),
            edges: vec![],
            edge_set: FxHashSet::default(),
        });
        self.graph.by_region.insert(r, id);
        match parent {
            Some(p) => self.graph.nodes[p].add_edge(id, EdgeKind::Child),
            None => self.graph.nodes[EXTERNAL].add_edge(id, EdgeKind::Abstract),
        }
        id
    }

    /// The symbol `name` in the nearest symbol table around (or at)
    /// `from`, as `lookupNearestSymbolFrom`.
    fn lookup(&mut self, ctx: &Context, from: Op, name: Symbol) -> Option<Op> {
        let table = ctx.ancestor(from, |c, o| c.traits_of(o).symbol_table)?;
        let map = self.tables.entry(table).or_insert_with(|| {
            let mut m = FxHashMap::default();
            if let Some(&r) = ctx.regions_of(table).first() {
                if let Some(b) = ctx.entry_block(r) {
                    for o in ctx.block_ops_iter(b) {
                        if let Some(s) = ctx.symbol_name(o).and_then(|n| ctx.lookup_sym(n)) {
                            m.entry(s).or_insert(o);
                        }
                    }
                }
            }
            m
        });
        map.get(&name).copied()
    }

    /// The callee of a direct call, as a symbol reference (root, nested).
    fn callee(&self, ctx: &Context, call: Op) -> Option<(Symbol, bool)> {
        let a = ctx.get_attr_sym(call, self.names.callee)?;
        match ctx.attr_kind(a) {
            AttrKind::SymbolRef(root, nested) => Some((*root, nested.is_empty())),
            _ => None,
        }
    }

    /// The node a call calls, or the external node.
    fn resolve_call(&mut self, ctx: &Context, call: Op) -> NodeId {
        let Some((root, flat)) = self.callee(ctx, call) else {
            return EXTERNAL;
        };
        if !flat {
            return EXTERNAL;
        }
        let Some(parent) = ctx.parent_op(call) else {
            return EXTERNAL;
        };
        let Some(f) = self.lookup(ctx, parent, root) else {
            return EXTERNAL;
        };
        if !is_callable(ctx, &self.names, f) {
            return EXTERNAL;
        }
        match callable_region(ctx, f).and_then(|r| self.graph.by_region.get(&r)) {
            Some(&n) => n,
            None => EXTERNAL,
        }
    }

    /// Upstream's `collectCallOps`: the calls in `blocks` (a worklist of
    /// blocks, last pushed first), not looking into nested callables unless
    /// `nested`.
    fn collect_calls(
        &mut self,
        ctx: &Context,
        blocks: &[Block],
        source: NodeId,
        nested: bool,
        history: Option<usize>,
    ) {
        let mut worklist: Vec<(Block, NodeId)> = blocks.iter().map(|&b| (b, source)).collect();
        while let Some((b, src)) = worklist.pop() {
            for o in ctx.block_ops_iter(b) {
                if ctx.is(o, self.names.func_call) {
                    if let Some((_, false)) = self.callee(ctx, o) {
                        continue;
                    }
                    let target = self.resolve_call(ctx, o);
                    if target != EXTERNAL {
                        self.calls.push(ResolvedCall {
                            call: o,
                            source: src,
                            target,
                            history,
                        });
                    }
                    continue;
                }
                if ctx.name(o) == "func.call_indirect" {
                    continue;
                }
                for &r in ctx.regions_of(o) {
                    let nested_node = self.graph.by_region.get(&r).copied();
                    if nested || nested_node.is_none() {
                        let s = nested_node.unwrap_or(src);
                        worklist.extend(ctx.region_blocks(r).map(|b| (b, s)));
                    }
                }
            }
        }
    }

    fn mark_dead(&mut self, n: NodeId) {
        if self.dead_set.insert(n) {
            self.dead.push(n);
        }
    }
}

/// What a node refers to: MLIR's `CGUseList::CGUser`.
#[derive(Default, Clone)]
struct NodeUses {
    /// Referenced from the callable op's own attributes (counted once).
    top_level: FxHashSet<NodeId>,
    /// Referenced from ops nested in it, with counts.
    inner: FxHashMap<NodeId, i64>,
}

/// MLIR's `CGUseList`: for each callable that may be erased once unused
/// (a private function in a visible table), how many references remain.
struct UseList {
    discardable: FxHashMap<NodeId, i64>,
    uses: FxHashMap<NodeId, NodeUses>,
}

/// Every symbol reference in `op`'s attributes and in the ops nested in
/// it (not looking into nested symbol tables), with the op holding it.
fn symbol_refs(ctx: &Context, op: Op, f: &mut dyn FnMut(Op, Symbol, bool)) {
    let mut visit = |o: Op| {
        for &(_, a) in ctx.attrs(o) {
            ctx.for_each_symbol_ref(a, &mut |root, nested| f(o, root, nested.is_empty()));
        }
    };
    visit(op);
    let mut stack: Vec<Op> = vec![];
    let push = |ctx: &Context, o: Op, stack: &mut Vec<Op>| {
        for &r in ctx.regions_of(o).iter().rev() {
            for b in ctx.region_blocks(r).rev() {
                let ops: Vec<Op> = ctx.block_ops_iter(b).collect();
                stack.extend(ops.into_iter().rev());
            }
        }
    };
    push(ctx, op, &mut stack);
    while let Some(o) = stack.pop() {
        visit(o);
        if !ctx.traits_of(o).symbol_table {
            push(ctx, o, &mut stack);
        }
    }
}

impl UseList {
    fn new(ctx: &Context, top: Op, inl: &mut Inliner) -> Self {
        let mut me = UseList {
            discardable: FxHashMap::default(),
            uses: FxHashMap::default(),
        };
        let mut always_live: Vec<NodeId> = vec![];
        let all_visible = ctx.parent_block(top).is_none();
        let mut tables = vec![];
        walk_symbol_tables(ctx, top, all_visible, &mut tables);
        for (table, _visible) in tables {
            let Some(&r) = ctx.regions_of(table).first() else {
                continue;
            };
            for b in ctx.region_blocks(r) {
                for o in ctx.block_ops_iter(b) {
                    if is_callable(ctx, &inl.names, o) {
                        if let Some(&n) =
                            callable_region(ctx, o).and_then(|r| inl.graph.by_region.get(&r))
                        {
                            // Upstream asks for visible uses or a private
                            // symbol, and a function may be discarded
                            // when private: private it is.
                            let private = ctx.symbol_visibility(o) == "private";
                            if private {
                                me.discardable.entry(n).or_insert(0);
                            }
                            continue;
                        }
                    }
                    // References from anything else keep their targets.
                    symbol_refs(ctx, o, &mut |_, root, flat| {
                        if !flat {
                            return;
                        }
                        if let Some(n) = resolve_ref(ctx, inl, table, root) {
                            always_live.push(n);
                        }
                    });
                }
            }
        }
        for n in always_live {
            me.discardable.remove(&n);
        }
        for n in 1..inl.graph.nodes.len() {
            me.recompute(ctx, inl, n);
        }
        me
    }

    fn is_dead(&self, n: NodeId) -> bool {
        self.discardable.get(&n) == Some(&0)
    }
    fn has_one_use_and_discardable(&self, n: NodeId) -> bool {
        self.discardable.get(&n) == Some(&1)
    }

    fn decrement(&mut self, u: &NodeUses) {
        for n in &u.top_level {
            *self.discardable.entry(*n).or_insert(0) -= 1;
        }
        for (n, c) in &u.inner {
            *self.discardable.entry(*n).or_insert(0) -= c;
        }
    }

    fn recompute(&mut self, ctx: &Context, inl: &mut Inliner, n: NodeId) {
        let op = inl.graph.nodes[n].op;
        let old = self.uses.remove(&n).unwrap_or_default();
        self.decrement(&old);
        let mut new = NodeUses::default();
        let Some(table) = ctx.parent_op(op) else {
            self.uses.insert(n, new);
            return;
        };
        let mut refs = vec![];
        symbol_refs(ctx, op, &mut |user, root, flat| {
            if flat {
                refs.push((user, root));
            }
        });
        for (user, root) in refs {
            let Some(t) = resolve_ref(ctx, inl, table, root) else {
                continue;
            };
            let Some(count) = self.discardable.get_mut(&t) else {
                continue;
            };
            if user != op {
                *new.inner.entry(t).or_insert(0) += 1;
            } else if !new.top_level.insert(t) {
                continue;
            }
            *count += 1;
        }
        self.uses.insert(n, new);
    }

    /// The references of the inlined `call` (in `source`) go away.
    fn drop_call_uses(&mut self, ctx: &Context, inl: &mut Inliner, source: NodeId, call: Op) {
        let Some(table) = ctx.parent_op(call) else {
            return;
        };
        let mut refs = vec![];
        symbol_refs(ctx, call, &mut |_, root, flat| {
            if flat {
                refs.push(root);
            }
        });
        let mut resolved: FxHashMap<Symbol, Option<NodeId>> = FxHashMap::default();
        for root in refs {
            let t = *resolved
                .entry(root)
                .or_insert_with(|| resolve_ref(ctx, inl, table, root));
            let Some(t) = t else { continue };
            let user = self.uses.entry(source).or_default();
            if let Some(c) = user.inner.get_mut(&t) {
                *c -= 1;
                *self.discardable.entry(t).or_insert(0) -= 1;
            }
        }
    }

    /// After a copy of `callee` went into `caller`, the caller holds the
    /// callee's references too.
    fn merge_after_inlining(&mut self, callee: NodeId, caller: NodeId) {
        let inner: Vec<(NodeId, i64)> = self
            .uses
            .get(&callee)
            .map(|u| u.inner.iter().map(|(&k, &v)| (k, v)).collect())
            .unwrap_or_default();
        let user = self.uses.entry(caller).or_default();
        for &(k, v) in &inner {
            *user.inner.entry(k).or_insert(0) += v;
        }
        for (k, v) in inner {
            *self.discardable.entry(k).or_insert(0) += v;
        }
    }

    fn erase_node(&mut self, inl: &Inliner, n: NodeId) {
        let children: Vec<NodeId> = inl.graph.nodes[n]
            .edges
            .iter()
            .filter(|e| e.1 == EdgeKind::Child)
            .map(|e| e.0)
            .collect();
        for c in children {
            self.erase_node(inl, c);
        }
        if let Some(u) = self.uses.remove(&n) {
            self.decrement(&u);
        }
        self.discardable.remove(&n);
    }
}

/// The node a flat symbol reference from inside `table` names.
fn resolve_ref(ctx: &Context, inl: &mut Inliner, table: Op, root: Symbol) -> Option<NodeId> {
    let f = inl.lookup(ctx, table, root)?;
    if !is_callable(ctx, &inl.names, f) {
        return None;
    }
    callable_region(ctx, f).and_then(|r| inl.graph.by_region.get(&r).copied())
}

/// MLIR's `SymbolTable::walkSymbolTables`: every symbol table at or under
/// `op`, nested ones first, with whether all uses of its symbols are
/// visible.
fn walk_symbol_tables(ctx: &Context, op: Op, mut visible: bool, out: &mut Vec<(Op, bool)>) {
    let is_table = ctx.traits_of(op).symbol_table;
    if is_table {
        let private = ctx.traits_of(op).is_symbol && ctx.symbol_visibility(op) == "private";
        visible |= !ctx.traits_of(op).is_symbol || private;
    } else {
        visible = true;
    }
    for &r in ctx.regions_of(op) {
        for b in ctx.region_blocks(r) {
            for o in ctx.block_ops_iter(b) {
                walk_symbol_tables(ctx, o, visible, out);
            }
        }
    }
    if is_table {
        out.push((op, visible));
    }
}

/// Simplifies the SCC's callables with their pipeline (upstream's
/// `optimizeSCC`), then recounts what they refer to.
fn optimize_scc(
    pc: &mut PassContext,
    pipelines: &Pipelines,
    inl: &mut Inliner,
    uses: &mut UseList,
    scc: &[NodeId],
) -> Result<(), IrError> {
    let mut visited = vec![];
    for &n in scc {
        let node = &inl.graph.nodes[n];
        if node.has_children() {
            continue;
        }
        let op = node.op;
        if !pc.ctx.traits_of(op).isolated_from_above {
            continue;
        }
        for e in pipelines.for_op(pc.ctx, op, pc.edition) {
            crate::run_entry(pc, e, op)?;
        }
        visited.push(n);
    }
    for n in visited {
        uses.recompute(pc.ctx, inl, n);
    }
    Ok(())
}

/// Upstream's `shouldInline`: never a terminator call, never a call inside
/// the callee itself.
fn should_inline(ctx: &Context, inl: &Inliner, c: &ResolvedCall) -> bool {
    if ctx.traits_of(c.call).is_terminator {
        return false;
    }
    let Some(region) = inl.graph.nodes[c.target].region else {
        return false;
    };
    let mut r = ctx.parent_block(c.call).and_then(|b| ctx.parent_region(b));
    while let Some(x) = r {
        if x == region {
            return false;
        }
        r = ctx
            .region_parent(x)
            .and_then(|o| ctx.parent_block(o))
            .and_then(|b| ctx.parent_region(b));
    }
    true
}

/// Upstream's `inlineCallsInSCC`; returns whether any call was inlined.
fn inline_calls_in_scc(
    ctx: &mut Context,
    inl: &mut Inliner,
    uses: &mut UseList,
    scc: &mut Vec<NodeId>,
) -> bool {
    let mut dead: Vec<NodeId> = vec![];
    for &n in scc.iter() {
        if uses.is_dead(n) {
            if !dead.contains(&n) {
                dead.push(n);
            }
        } else if let Some(r) = inl.graph.nodes[n].region {
            let blocks = ctx.region_blocks(r).to_vec();
            inl.collect_calls(ctx, &blocks, n, false, None);
        }
    }
    let v15 = inl.edition == Edition::V15;
    let mut inlined_any = false;
    let mut i = 0;
    while i < inl.calls.len() {
        let c = inl.calls[i];
        i += 1;
        if dead.contains(&c.source) || ctx.is_erased(c.call) {
            continue;
        }
        let in_history = v15 && history_includes(inl, c.target, c.history);
        if in_history || !should_inline(ctx, inl, &c) {
            continue;
        }
        let in_place = uses.has_one_use_and_discardable(c.target);
        let new_history = if v15 {
            inl.history.push((c.target, c.history));
            Some(inl.history.len() - 1)
        } else {
            None
        };
        let first_new = inl.calls.len();
        if !inline_call(ctx, inl, &c, !in_place, new_history) {
            if v15 {
                inl.history.pop();
            }
            inl.calls.truncate(first_new);
            continue;
        }
        inlined_any = true;
        uses.drop_call_uses(ctx, inl, c.source, c.call);
        uses.merge_after_inlining(c.target, c.source);
        // The call's results were replaced: erasing cannot fail.
        let _ = ctx.erase_op(c.call);
        if in_place {
            uses.erase_node(inl, c.target);
            if !dead.contains(&c.target) {
                dead.push(c.target);
            }
        }
    }
    for n in dead {
        scc.retain(|&x| x != n);
        inl.mark_dead(n);
    }
    inl.calls.clear();
    inlined_any
}

fn history_includes(inl: &Inliner, node: NodeId, mut h: Option<usize>) -> bool {
    while let Some(i) = h {
        if inl.history[i].0 == node {
            return true;
        }
        h = inl.history[i].1;
    }
    false
}

/// What the dialects allow (their `DialectInlinerInterface`): whether
/// ops of `dialect` may be inlined.
fn dialect_inlinable(dialect: &str) -> bool {
    matches!(
        dialect,
        "func"
            | "std"
            | "arith"
            | "cf"
            | "scf"
            | "memref"
            | "linalg"
            | "math"
            | "tensor"
            | "affine"
            | "bufferization"
    )
}

/// Whether inlined code may go into the regions of ops of `dialect`.
fn dialect_accepts_regions(dialect: &str) -> bool {
    matches!(
        dialect,
        "func" | "std" | "scf" | "memref" | "linalg" | "affine" | "tensor" | "bufferization"
    )
}

fn dialect(ctx: &Context, op: Op) -> &str {
    if !ctx.is_registered(ctx.op_name(op)) {
        return "";
    }
    let n = ctx.name(op);
    n.split_once('.').map_or(n, |(d, _)| d)
}

/// Whether every op of `src` (nested ones too) may be inlined.
fn ops_legal(ctx: &Context, src: Region) -> bool {
    for b in ctx.region_blocks(src) {
        for o in ctx.block_ops_iter(b) {
            if !dialect_inlinable(dialect(ctx, o)) {
                return false;
            }
            if ctx.regions_of(o).iter().any(|&r| !ops_legal(ctx, r)) {
                return false;
            }
        }
    }
    true
}

/// Upstream's `inlineCall`: the callee's body in place of the call (a
/// copy when `clone`). Returns false (changing nothing) when it may not
/// be inlined.
fn inline_call(
    ctx: &mut Context,
    inl: &mut Inliner,
    c: &ResolvedCall,
    clone: bool,
    history: Option<usize>,
) -> bool {
    let call = c.call;
    let Some(src) = inl.graph.nodes[c.target].region else {
        return false;
    };
    let callee = inl.graph.nodes[c.target].op;
    let Some(entry) = ctx.entry_block(src) else {
        return false;
    };
    let operands = ctx.operands(call).to_vec();
    let results = ctx.results(call).to_vec();
    let (_, result_types) = mlir_async_dialects::builtin::func_type(ctx, callee);
    let args = ctx.block_args(entry).to_vec();
    if operands.len() != args.len() || results.len() != result_types.len() {
        return false;
    }
    // No dialect here materializes conversions: the types must match.
    if operands
        .iter()
        .zip(&args)
        .any(|(&o, &a)| ctx.value_type(o) != ctx.value_type(a))
        || results
            .iter()
            .zip(&result_types)
            .any(|(&r, &t)| ctx.value_type(r) != t)
    {
        return false;
    }
    let Some(call_block) = ctx.parent_block(call) else {
        return false;
    };
    let Some(insert_region) = ctx.parent_region(call_block) else {
        return false;
    };
    // Into a function always (14); otherwise the region's op must accept it.
    let dest_op = ctx.region_parent(insert_region);
    let dest_ok = match dest_op {
        Some(d) if inl.edition != Edition::V15 && is_callable(ctx, &inl.names, d) => true,
        Some(d) => dialect_accepts_regions(dialect(ctx, d)),
        None => false,
    };
    if !dest_ok || !ops_legal(ctx, src) {
        return false;
    }
    // Beyond upstream: a body of several blocks goes only where a region
    // may hold several (upstream splices them into `scf` regions, and the
    // IR no longer verifies).
    if ctx.region_blocks(src).len() > 1 {
        let multi_block_ok = dest_op.is_some_and(|d| {
            is_callable(ctx, &inl.names, d) || ctx.name(d) == "scf.execute_region"
        });
        if !multi_block_ok {
            return false;
        }
    }

    // The rest of the call's block goes to a block after it.
    let post = match ctx.next_op(call) {
        Some(n) => ctx.split_block(call_block, n),
        None => {
            let nb = ctx.create_block(&[]);
            ctx.insert_block_after(call_block, nb);
            nb
        }
    };
    let mut map: HashMap<Value, Value> = HashMap::new();
    for (&a, &o) in args.iter().zip(&operands) {
        map.insert(a, o);
    }
    let new_blocks: Vec<Block> = if clone {
        let tmp = ctx.create_region();
        ctx.clone_region_into(src, tmp, &mut map);
        let blocks = ctx.region_blocks(tmp).to_vec();
        ctx.inline_region_before(tmp, post);
        blocks
    } else {
        let blocks = ctx.region_blocks(src).to_vec();
        let tmp = ctx.create_region();
        ctx.take_body(tmp, src);
        ctx.inline_region_before(tmp, post);
        blocks
    };
    // Locations become call sites of the call's location.
    let call_loc = ctx.op_loc(call);
    if !matches!(ctx.loc_kind(call_loc), LocKind::Unknown) {
        let mut mapped: FxHashMap<Location, Location> = FxHashMap::default();
        let mut ops = vec![];
        for &b in &new_blocks {
            for o in ctx.block_ops_iter(b) {
                ops.push(o);
                ctx.walk_nested(o, &mut |n| ops.push(n));
            }
        }
        for o in ops {
            let l = ctx.op_loc(o);
            let nl = *mapped
                .entry(l)
                .or_insert_with(|| ctx.loc(LocKind::CallSite(l, call_loc)));
            ctx.op_mut(o).loc = nl;
        }
    }
    if !clone {
        // Moved blocks still use the entry arguments: remap them op by
        // op, in upstream's walk order.
        for &b in &new_blocks {
            for o in ctx.block_ops(b) {
                let mut nested = vec![];
                ctx.walk_post(o, &mut |n| nested.push(n));
                nested.push(o);
                for n in nested {
                    for i in 0..ctx.operands(n).len() {
                        if let Some(&m) = map.get(&ctx.operand(n, i)) {
                            ctx.set_operand(n, i, m);
                        }
                    }
                }
            }
        }
    }
    // New calls in the inlined code are candidates too.
    let node = {
        let mut r = Some(insert_region);
        let mut found = EXTERNAL;
        while let Some(reg) = r {
            if let Some(&n) = inl.graph.by_region.get(&reg) {
                found = n;
                break;
            }
            r = ctx
                .region_parent(reg)
                .and_then(|o| ctx.parent_block(o))
                .and_then(|b| ctx.parent_region(b));
        }
        found
    };
    inl.collect_calls(ctx, &new_blocks, node, true, history);

    let first = new_blocks[0];
    let names_return = inl.names.func_return;
    if new_blocks.len() == 1 {
        if let Some(t) = ctx.last_op(first) {
            if ctx.is(t, names_return) {
                let vals = ctx.operands(t).to_vec();
                for (&r, &v) in results.iter().zip(&vals) {
                    ctx.replace_all_uses_with(r, v);
                }
            }
            let _ = ctx.erase_op(t);
        }
        // The rest of the caller's block follows the inlined ops.
        ctx.inline_block(post, InsertPoint::AtEnd(first), &[]);
    } else {
        for (&r, &t) in results.iter().zip(&result_types) {
            let a = ctx.add_block_arg(post, t);
            let l = ctx.value_loc(r);
            ctx.set_value_loc(a, l);
            ctx.replace_all_uses_with(r, a);
        }
        for &b in &new_blocks {
            let Some(t) = ctx.last_op(b) else { continue };
            if !ctx.is(t, names_return) {
                continue;
            }
            let vals = ctx.operands(t).to_vec();
            let loc = ctx.op_loc(t);
            let br = mlir_async_dialects::cf::br_state(ctx, loc, post, vals);
            ctx.build(InsertPoint::Before(t), br);
            let _ = ctx.erase_op(t);
        }
    }
    // The inlined entry block's ops join the call's block (a moved entry
    // block's arguments are unused by now).
    let entry_args = if clone { vec![] } else { operands };
    ctx.inline_block(first, InsertPoint::AtEnd(call_block), &entry_args);
    true
}

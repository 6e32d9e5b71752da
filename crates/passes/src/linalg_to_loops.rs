//! `-convert-linalg-to-loops` and `-convert-linalg-to-parallel-loops`
//! (LLVM 13-15), as upstream's `Linalg/Transforms/Loops.cpp`: each
//! structured op on buffers (`linalg.generic`, `linalg.fill`) becomes a
//! nest of `scf.for` (or an `scf.parallel` over the outer parallel
//! dimensions) whose body loads the operands, runs the op's region and
//! stores what it yields. A greedy rewrite per function, as upstream's,
//! so constants fold and hoist and dead ops go on the way; the loop
//! bounds are the operands' sizes (`memref.dim`, folded to constants for
//! static sizes). Indexing maps must be projected permutations (the
//! affine applies of other maps are not modelled); an op with others is
//! left as it is. Also `-convert-linalg-to-llvm`: `linalg.yield` to
//! `llvm.return` with the memref lowerings, as upstream.

use crate::llvm_common::{llvm_target, LowerToLlvmOptions, Lowering};
use crate::{Pass, PassContext, PassInfo};
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_ir::affine::{parse_map, AffineExpr, AffineMap};
use mlir_async_ir::{
    AttrKind, Attribute, Block, Context, IrError, Location, Op, OperationState, Type, TypeKind,
    Value,
};
use mlir_async_rewrite::{
    apply_partial_conversion, apply_patterns_and_fold_greedily, ConversionPatternSet, FnPattern,
    GreedyConfig, PatternSet, RewriteError, Rewriter,
};
use mlir_async_syntax::Edition;
use std::collections::HashMap;

pub fn info_loops() -> PassInfo {
    PassInfo {
        arg: "convert-linalg-to-loops",
        summary: "Lower the operations from the linalg dialect into loops",
        options: &[],
        anchor: "",
        make: |_| Ok(Box::new(LinalgToLoops { parallel: false })),
    }
}

pub fn info_parallel() -> PassInfo {
    PassInfo {
        arg: "convert-linalg-to-parallel-loops",
        summary: "Lower the operations from the linalg dialect into parallel loops",
        options: &[],
        anchor: "",
        make: |_| Ok(Box::new(LinalgToLoops { parallel: true })),
    }
}

pub fn info_llvm() -> PassInfo {
    PassInfo {
        arg: "convert-linalg-to-llvm",
        summary: "Convert the operations from the linalg dialect into the LLVM dialect",
        options: &[],
        anchor: "builtin.module",
        make: |_| Ok(Box::new(LinalgToLlvm)),
    }
}

pub struct LinalgToLoops {
    parallel: bool,
}

impl Pass for LinalgToLoops {
    fn name(&self) -> &'static str {
        if self.parallel {
            "convert-linalg-to-parallel-loops"
        } else {
            "convert-linalg-to-loops"
        }
    }
    fn display_name(&self) -> &'static str {
        if self.parallel {
            "LinalgLowerToParallelLoops"
        } else {
            "LinalgLowerToLoops"
        }
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        // A function pass: on the module, each function in turn.
        let funcs = if pc.ctx.name(op) == "func.func" {
            vec![op]
        } else {
            pc.ctx
                .regions_of(op)
                .iter()
                .flat_map(|&r| pc.ctx.region_blocks(r).to_vec())
                .flat_map(|b| pc.ctx.block_ops(b))
                .filter(|&o| pc.ctx.name(o) == "func.func")
                .collect()
        };
        let mut patterns = PatternSet::new();
        patterns.add(FnPattern {
            root: None,
            name: "LinalgRewritePattern",
            benefit: 1,
            f: if self.parallel {
                lower_parallel
            } else {
                lower_sequential
            },
        });
        let frozen = patterns.freeze(pc.ctx);
        let ifaces = Interfaces::new(pc.registry, pc.edition);
        let config = GreedyConfig {
            llvm15: pc.edition == Edition::V15,
            llvm13: pc.edition == Edition::V13,
            // MLIR's `GreedyRewriteConfig` default (the canonicalizer
            // alone asks for top-down): ops visited bottom-up.
            top_down: false,
            ..GreedyConfig::default()
        };
        for f in funcs {
            let regions = pc.ctx.regions_of(f).to_vec();
            apply_patterns_and_fold_greedily(pc.ctx, &regions, &frozen, &ifaces, config)
                .map_err(|e| e.into_ir_error(pc.ctx))?;
        }
        Ok(())
    }
}

fn lower_sequential(op: Op, rw: &mut Rewriter) -> Result<bool, RewriteError> {
    lower(op, rw, false)
}

fn lower_parallel(op: Op, rw: &mut Rewriter) -> Result<bool, RewriteError> {
    lower(op, rw, true)
}

/// What a structured op is made of.
struct Structured {
    inputs: Vec<Value>,
    outputs: Vec<Value>,
    /// Per operand, the loop dimension each of its indices is.
    indexing: Vec<Vec<usize>>,
    parallel_dims: Vec<bool>,
    num_loops: usize,
}

fn maps_of(ctx: &Context, a: Attribute) -> Option<Vec<AffineMap>> {
    let AttrKind::Array(xs) = ctx.attr_kind(a) else {
        return None;
    };
    xs.iter()
        .map(|&x| match ctx.attr_kind(x) {
            AttrKind::Affine(t) => t
                .strip_prefix("affine_map<")
                .and_then(|s| s.strip_suffix('>'))
                .and_then(|s| parse_map(s).ok()),
            _ => None,
        })
        .collect()
}

fn rank_of(ctx: &Context, v: Value) -> Option<usize> {
    match ctx.kind(ctx.value_type(v)) {
        TypeKind::MemRef { shape, .. } => Some(shape.len()),
        _ => None,
    }
}

/// The op as loops see it; `None` for what this lowering does not model
/// (tensors, maps that are not projected permutations).
fn analyze(ctx: &Context, op: Op) -> Option<Structured> {
    let operands = ctx.operands(op).to_vec();
    match ctx.name(op) {
        "linalg.fill" => {
            let [value, output] = operands[..] else {
                return None;
            };
            let rank = rank_of(ctx, output)?;
            if rank_of(ctx, value).is_some() {
                return None;
            }
            Some(Structured {
                inputs: vec![value],
                outputs: vec![output],
                indexing: vec![vec![], (0..rank).collect()],
                parallel_dims: vec![true; rank],
                num_loops: rank,
            })
        }
        "linalg.generic" => {
            if !ctx.results(op).is_empty() {
                return None;
            }
            let segs = mlir_async_dialects::util::get_segments(ctx, op, 2)?;
            let (ins, outs) = operands.split_at(segs[0]);
            let maps = maps_of(ctx, ctx.get_attr(op, "indexing_maps")?)?;
            let AttrKind::Array(iters) = ctx.attr_kind(ctx.get_attr(op, "iterator_types")?) else {
                return None;
            };
            let parallel_dims: Vec<bool> = iters
                .iter()
                .map(|&i| matches!(ctx.attr_kind(i), AttrKind::String(s, _) if s == b"parallel"))
                .collect();
            let num_loops = parallel_dims.len();
            if maps.len() != operands.len() {
                return None;
            }
            let mut indexing = vec![];
            for (m, &v) in maps.iter().zip(&operands) {
                if m.num_dims as usize != num_loops || m.num_syms != 0 {
                    return None;
                }
                let dims: Option<Vec<usize>> = m
                    .results
                    .iter()
                    .map(|e| match e {
                        AffineExpr::Dim(d) => Some(*d as usize),
                        _ => None,
                    })
                    .collect();
                let dims = dims?;
                if rank_of(ctx, v).unwrap_or(0) != dims.len() {
                    return None;
                }
                indexing.push(dims);
            }
            // Every loop needs a bound: some operand dimension is it.
            if !(0..num_loops).all(|d| indexing.iter().any(|ix| ix.contains(&d))) {
                return None;
            }
            Some(Structured {
                inputs: ins.to_vec(),
                outputs: outs.to_vec(),
                indexing,
                parallel_dims,
                num_loops,
            })
        }
        _ => None,
    }
}

fn constant_index(rw: &mut Rewriter, loc: Location, v: i64) -> Result<Value, RewriteError> {
    let index = rw.ctx.index_type();
    mlir_async_dialects::build::constant_int(rw, loc, index, i128::from(v))
}

fn create_block_in_new_region(
    ctx: &mut Context,
    args: &[Type],
    loc: Location,
) -> (mlir_async_ir::Region, Block) {
    let region = ctx.create_region();
    let b = ctx.create_block(args);
    for a in ctx.block_args(b).to_vec() {
        ctx.set_value_loc(a, loc);
    }
    ctx.append_block(region, b);
    (region, b)
}

fn lower(op: Op, rw: &mut Rewriter, parallel: bool) -> Result<bool, RewriteError> {
    let Some(s) = analyze(rw.ctx, op) else {
        return Ok(false);
    };
    let loc = rw.ctx.op_loc(op);
    rw.set_insertion_point(op);
    // The operands' sizes (MLIR's `createFlatListOfOperandDims`): a
    // constant index for each dimension, then its size, folded to a
    // constant when static.
    let mut sizes = vec![];
    let all: Vec<Value> = s.inputs.iter().chain(&s.outputs).copied().collect();
    for &v in &all {
        let TypeKind::MemRef { shape, .. } = rw.ctx.kind(rw.ctx.value_type(v)).clone() else {
            continue;
        };
        for (i, d) in shape.iter().enumerate() {
            let c = constant_index(rw, loc, i as i64)?;
            sizes.push(match d {
                Some(n) => constant_index(rw, loc, *n)?,
                None => {
                    let index = rw.ctx.index_type();
                    let name = rw.ctx.sym("memref.dim");
                    let dim = rw.create_op(name, loc, &[v, c], &[index], &[])?;
                    rw.ctx.result(dim, 0)
                }
            });
        }
    }
    let zero = constant_index(rw, loc, 0)?;
    let one = constant_index(rw, loc, 1)?;
    // The loop ranges: each loop's size from the first operand dimension
    // indexed by it.
    let mut ubs: Vec<Option<Value>> = vec![None; s.num_loops];
    let mut k = 0;
    for ix in &s.indexing {
        for &d in ix {
            if ubs[d].is_none() {
                ubs[d] = Some(sizes[k]);
            }
            k += 1;
        }
    }
    let ubs: Vec<Value> = ubs
        .into_iter()
        .map(|u| u.expect("every loop has a bound"))
        .collect();
    let mut ivs = vec![];
    if parallel {
        parallel_nest(rw, loc, &s, 0, zero, &ubs, one, &mut ivs, op)?;
    } else {
        // `scf::buildLoopNest`: the loops from the outside in, the yields
        // of the outer ones, then the body and the innermost yield.
        let mut bodies = vec![];
        for &ub in &ubs {
            let index = rw.ctx.index_type();
            let (region, body) = create_block_in_new_region(rw.ctx, &[index], loc);
            let mut st = OperationState::new(rw.ctx.sym("scf.for"), loc);
            st.operands = vec![zero, ub, one];
            st.regions = vec![region];
            rw.create(st)?;
            ivs.push(rw.ctx.block_args(body)[0]);
            rw.set_insertion_point_to_start(body);
            bodies.push(body);
        }
        if let Some((&inner, outer)) = bodies.split_last() {
            for &b in outer {
                rw.set_insertion_point_to_end(b);
                yield_op(rw, loc)?;
            }
            rw.set_insertion_point_to_start(inner);
            body(rw, loc, &s, &ivs, op)?;
            rw.set_insertion_point_to_end(inner);
            yield_op(rw, loc)?;
        } else {
            body(rw, loc, &s, &ivs, op)?;
        }
    }
    rw.erase_op(op)?;
    Ok(true)
}

fn yield_op(rw: &mut Rewriter, loc: Location) -> Result<Op, RewriteError> {
    let name = rw.ctx.sym("scf.yield");
    rw.create_op(name, loc, &[], &[], &[])
}

/// MLIR's `generateParallelLoopNest`: the outer parallel dimensions in
/// one `scf.parallel` (its body built before the loop is inserted, as the
/// op's builder does), a sequential dimension as an `scf.for`, then the
/// rest.
#[allow(clippy::too_many_arguments)]
fn parallel_nest(
    rw: &mut Rewriter,
    loc: Location,
    s: &Structured,
    from: usize,
    zero: Value,
    ubs: &[Value],
    one: Value,
    ivs: &mut Vec<Value>,
    op: Op,
) -> Result<(), RewriteError> {
    if from == s.num_loops {
        return body(rw, loc, s, ivs, op);
    }
    let n_par = s.parallel_dims[from..].iter().take_while(|&&p| p).count();
    let index = rw.ctx.index_type();
    if n_par == 0 {
        let (region, b) = create_block_in_new_region(rw.ctx, &[index], loc);
        let mut st = OperationState::new(rw.ctx.sym("scf.for"), loc);
        st.operands = vec![zero, ubs[from], one];
        st.regions = vec![region];
        rw.create(st)?;
        ivs.push(rw.ctx.block_args(b)[0]);
        rw.set_insertion_point_to_start(b);
        parallel_nest(rw, loc, s, from + 1, zero, ubs, one, ivs, op)?;
        rw.set_insertion_point_to_end(b);
        yield_op(rw, loc)?;
        return Ok(());
    }
    let ip = rw.insertion_point();
    let (region, b) = create_block_in_new_region(rw.ctx, &vec![index; n_par], loc);
    ivs.extend(rw.ctx.block_args(b).to_vec());
    rw.set_insertion_point_to_start(b);
    parallel_nest(rw, loc, s, from + n_par, zero, ubs, one, ivs, op)?;
    rw.set_insertion_point_to_end(b);
    yield_op(rw, loc)?;
    rw.restore_insertion_point(ip);
    let mut st = OperationState::new(rw.ctx.sym("scf.parallel"), loc);
    st.operands = [
        vec![zero; n_par],
        ubs[from..from + n_par].to_vec(),
        vec![one; n_par],
    ]
    .concat();
    st.regions = vec![region];
    let seg = mlir_async_dialects::util::segment_sizes(rw.ctx, &[n_par, n_par, n_par, 0]);
    st.attrs = vec![(rw.ctx.sym("operand_segment_sizes"), seg)];
    rw.create(st)?;
    Ok(())
}

/// The loop body: loads of the inputs (scalars used as they are) and of
/// the outputs, the op's region inlined, and a store of each yielded
/// value.
fn body(
    rw: &mut Rewriter,
    loc: Location,
    s: &Structured,
    ivs: &[Value],
    op: Op,
) -> Result<(), RewriteError> {
    let mut indexed = vec![];
    let all: Vec<Value> = s.inputs.iter().chain(&s.outputs).copied().collect();
    for (k, &v) in all.iter().enumerate() {
        if k < s.inputs.len() && rank_of(rw.ctx, v).is_none() {
            indexed.push(v);
            continue;
        }
        let idx: Vec<Value> = s.indexing[k].iter().map(|&d| ivs[d]).collect();
        indexed.push(load(rw, loc, v, &idx)?);
    }
    let yields = if rw.ctx.name(op) == "linalg.fill" {
        // The region of `fill` yields its value.
        vec![indexed[0]]
    } else {
        let region = rw.ctx.regions_of(op)[0];
        let block = rw
            .ctx
            .entry_block(region)
            .ok_or_else(|| RewriteError::at(loc, "a linalg.generic without a body"))?;
        let mut map: HashMap<Value, Value> = HashMap::new();
        for (&a, &v) in rw.ctx.block_args(block).to_vec().iter().zip(&indexed) {
            map.insert(a, v);
        }
        let ops = rw.ctx.block_ops(block);
        let Some((&term, body_ops)) = ops.split_last() else {
            return Err(RewriteError::at(
                loc,
                "a linalg.generic body without a yield",
            ));
        };
        for &o in body_ops {
            rw.clone_op(o, &mut map)?;
        }
        rw.ctx
            .operands(term)
            .iter()
            .map(|v| map.get(v).copied().unwrap_or(*v))
            .collect::<Vec<_>>()
    };
    for (k, &y) in yields.iter().enumerate() {
        let out = s.outputs[k];
        let idx: Vec<Value> = s.indexing[s.inputs.len() + k]
            .iter()
            .map(|&d| ivs[d])
            .collect();
        let name = rw.ctx.sym("memref.store");
        let operands = [&[y, out][..], &idx].concat();
        rw.create_op(name, loc, &operands, &[], &[])?;
    }
    Ok(())
}

fn load(rw: &mut Rewriter, loc: Location, m: Value, idx: &[Value]) -> Result<Value, RewriteError> {
    let TypeKind::MemRef { elem, .. } = rw.ctx.kind(rw.ctx.value_type(m)).clone() else {
        return Err(RewriteError::at(loc, "not a memref"));
    };
    let name = rw.ctx.sym("memref.load");
    let operands = [&[m][..], idx].concat();
    let o = rw.create_op(name, loc, &operands, &[elem], &[])?;
    Ok(rw.ctx.result(o, 0))
}

pub struct LinalgToLlvm;

impl Pass for LinalgToLlvm {
    fn name(&self) -> &'static str {
        "convert-linalg-to-llvm"
    }
    fn display_name(&self) -> &'static str {
        "ConvertLinalgToLLVM"
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let l = Lowering::new(LowerToLlvmOptions::default(), pc.edition);
        let mut patterns = ConversionPatternSet::new();
        l.add(
            &mut patterns,
            "linalg.yield",
            "YieldOpConversion",
            |_, op, operands, rw| {
                let ctx = rw.ctx();
                let loc = ctx.op_loc(op);
                let name = ctx.sym("llvm.return");
                rw.set_insertion_point(op);
                rw.create_op(name, loc, operands, &[], &[])?;
                rw.erase_op(op)?;
                Ok(true)
            },
        );
        crate::memref_to_llvm::populate(&l, &mut patterns);
        let mut target = llvm_target();
        target.add_legal_op("builtin.module");
        let ifaces = Interfaces::new(pc.registry, pc.edition);
        apply_partial_conversion(
            pc.ctx,
            op,
            &target,
            &patterns,
            Some(l.conv.clone()),
            &ifaces,
        )
        .map_err(|e| e.into_ir_error(pc.ctx))
    }
}

//! The `scf` dialect: structured control flow.

use crate::ods::{RegionSpec, Shape, N};
use crate::util::*;
use crate::OpDef;
use mlir_async_ir::*;
use mlir_async_syntax::{PResult, Parser, Printer, RegionArg};

crate::op! {
    /// `scf.yield`: the values a region of its parent hands back.
    pub struct YieldOp = "scf.yield" {
        operands: [results: Variadic],
        results: [],
        format: "attr-dict ($results^ `:` type($results))?",
        infer: Spelled,
    }
}

fn i1(ctx: &mut Context) -> Type {
    ctx.int_type(1)
}

crate::op! {
    /// `scf.condition`: whether `scf.while` goes on, and with what.
    pub struct ConditionOp = "scf.condition" {
        operands: [condition: One = Fixed(i1), args: Variadic],
        results: [],
        format: "`(` $condition `)` attr-dict ($args^ `:` type($args))?",
        infer: Spelled,
    }
}

crate::op! {
    /// `scf.reduce.return`: the result of a reduction step.
    pub struct ReduceReturnOp = "scf.reduce.return" {
        operands: [result: One],
        results: [],
        format: "$result attr-dict `:` type($result)",
        infer: Spelled,
    }
}

pub fn ops() -> Vec<OpDef> {
    vec![
        OpDef::new("scf.for")
            .shape(Shape::new(N::AtLeast(3), N::AtLeast(0)).regions(1, &[(0, 1)]))
            .region_specs(const { &[RegionSpec::single(0, "region")] })
            .implicit_terminator("scf.yield")
            .recursive_effects()
            .syntax(parse_for, print_for)
            .verify(verify_for),
        OpDef::new("scf.if")
            .shape(Shape::new(N::Exactly(1), N::AtLeast(0)).regions(2, &[(0, 0)]))
            .region_specs(
                const {
                    &[
                        RegionSpec::single(0, "thenRegion"),
                        RegionSpec::single_unsized(1),
                    ]
                },
            )
            .implicit_terminator("scf.yield")
            .recursive_effects()
            .syntax(parse_if, print_if)
            .verify(verify_if)
            // `IfOp::fold` came with LLVM 14; it reads the regions.
            .fold_hook(
                crate::FoldHook::new(crate::fold::fold_if)
                    .since(mlir_async_syntax::Edition::V14)
                    .not_local(),
            ),
        YieldOp::def()
            .parents(&[
                "scf.execute_region",
                "scf.for",
                "scf.if",
                "scf.parallel",
                "scf.while",
            ])
            .parent_checked_last_before_15()
            .pure()
            .return_like()
            .terminator(),
        OpDef::new("scf.while")
            .shape(Shape::new(N::AtLeast(0), N::AtLeast(0)).regions(2, &[(0, 0)]))
            .region_specs(
                const {
                    &[
                        RegionSpec::sized(0, "before"),
                        RegionSpec::sized(1, "after"),
                    ]
                },
            )
            .recursive_effects()
            .syntax(parse_while, print_while)
            .verify(verify_while),
        ConditionOp::def()
            .shape(Shape::new(N::AtLeast(1), N::Exactly(0)))
            .parents(&["scf.while"])
            .pure()
            .terminator(),
        OpDef::new("scf.parallel")
            .shape(Shape::new(N::AtLeast(0), N::AtLeast(0)).regions(1, &[(0, 0)]))
            .region_specs(const { &[RegionSpec::single(0, "region")] })
            .implicit_terminator("scf.yield")
            .recursive_effects()
            .syntax(parse_parallel, print_parallel)
            .verify(verify_parallel),
        OpDef::new("scf.reduce")
            .shape(Shape::new(N::Exactly(1), N::Exactly(0)).regions(1, &[]))
            .region_specs(const { &[RegionSpec::sized(0, "reductionOperator")] })
            .parents(&["scf.parallel"])
            .syntax(parse_reduce, print_reduce),
        ReduceReturnOp::def().parents(&["scf.reduce"]).terminator(),
        OpDef::new("scf.foreach_thread")
            .region_specs(const { &[RegionSpec::single(0, "region")] })
            .implicit_terminator("scf.foreach_thread.perform_concurrently")
            .recursive_effects()
            .syntax(parse_foreach_thread, print_foreach_thread)
            .verify(verify_foreach_thread),
        OpDef::new("scf.foreach_thread.perform_concurrently")
            .region_specs(const { &[RegionSpec::single(0, "region")] })
            .parents(&["scf.foreach_thread"])
            .terminator()
            .no_terminator()
            .syntax(parse_perform_concurrently, print_perform_concurrently)
            .verify(verify_perform_concurrently),
        OpDef::new("scf.execute_region")
            .shape(Shape::new(N::Exactly(0), N::AtLeast(0)).regions(1, &[]))
            .syntax(parse_execute_region, print_execute_region)
            .verify(verify_execute_region),
    ]
}

/// Results come from the branch taken: with no `else` there is nothing to
/// yield them when the condition is false.
fn verify_if(ctx: &Context, op: Op) -> Result<(), String> {
    let has_else = ctx
        .regions_of(op)
        .get(1)
        .is_some_and(|&r| !ctx.region_is_empty(r));
    if !ctx.results(op).is_empty() && !has_else {
        return Err("must have an else block if defining values".into());
    }
    let results: Vec<Type> = ctx.results(op).iter().map(|&v| ctx.value_type(v)).collect();
    for (i, &r) in ctx.regions_of(op).iter().enumerate() {
        check_edge(ctx, r, i, "parent results", &results)?;
    }
    Ok(())
}

/// MLIR's `ParallelOp` verifier: bounds and steps, one index induction
/// variable per dimension, one reduction and one initial value per
/// result; a constant step must be positive (`async-parallel-for` and
/// the lowerings divide by it).
fn verify_parallel(ctx: &Context, op: Op) -> Result<(), String> {
    let segs = segments(ctx, op, 4);
    let steps = &segs[2];
    if steps.is_empty() {
        return Err("needs at least one tuple element for lowerBound, upperBound and step".into());
    }
    for &s in steps {
        let Some(d) = ctx.defining_op(s) else {
            continue;
        };
        if ctx.name(d) != "arith.constant" {
            continue;
        }
        if let Some(AttrKind::Integer(v, _)) = ctx.get_attr(d, "value").map(|a| ctx.attr_kind(a)) {
            if *v <= 0 {
                return Err("constant step operand must be positive".into());
            }
        }
    }
    let Some(&body) = ctx.regions_of(op).first() else {
        return Ok(());
    };
    let Some(entry) = ctx.entry_block(body) else {
        return Ok(());
    };
    let args = ctx.block_args(entry);
    if args.len() != steps.len() {
        return Err(format!(
            "expects the same number of induction variables: {} as bound and step values: {}",
            args.len(),
            steps.len()
        ));
    }
    if args
        .iter()
        .any(|&a| !matches!(ctx.kind(ctx.value_type(a)), TypeKind::Index))
    {
        return Err("expects arguments for the induction variable to be of index type".into());
    }
    let results = ctx.results(op).len();
    let reductions = ctx
        .block_ops_iter(entry)
        .filter(|&o| ctx.name(o) == "scf.reduce")
        .count();
    if results != reductions {
        return Err(format!(
            "expects number of results: {results} to be the same as number of reductions: {reductions}"
        ));
    }
    if results != segs[3].len() {
        return Err(format!(
            "expects number of results: {results} to be the same as number of initial values: {}",
            segs[3].len()
        ));
    }
    Ok(())
}

fn verify_for(ctx: &Context, op: Op) -> Result<(), String> {
    let Some(&body) = ctx.regions_of(op).first() else {
        return Ok(());
    };
    let Some(entry) = ctx.entry_block(body) else {
        return Ok(());
    };
    let carried: Vec<Type> = ctx
        .block_args(entry)
        .iter()
        .skip(1)
        .map(|&v| ctx.value_type(v))
        .collect();
    check_edge(ctx, body, 0, "Region #0", &carried)?;
    let results: Vec<Type> = ctx.results(op).iter().map(|&v| ctx.value_type(v)).collect();
    check_edge(ctx, body, 0, "parent results", &results)
}

/// What MLIR's `RegionBranchOpInterface` verifier checks on the edge
/// from region `index` (through its `scf.yield`) to `target`: as many
/// values as the target takes, of its types, in its words (with the
/// double space `emitOpError() << " region ..."` leaves).
fn check_edge(
    ctx: &Context,
    r: Region,
    index: usize,
    target: &str,
    want: &[Type],
) -> Result<(), String> {
    check_region_edge(ctx, r, "scf.yield", index, target, want)
}

/// [`check_edge`] for a region ending in `terminator` (the interface is
/// the same for `memref.alloca_scope` and its return).
pub(crate) fn check_region_edge(
    ctx: &Context,
    r: Region,
    terminator: &str,
    index: usize,
    target: &str,
    want: &[Type],
) -> Result<(), String> {
    let Some(last) = ctx.last_block(r) else {
        return Ok(());
    };
    let Some(t) = ctx.last_op(last) else {
        return Ok(());
    };
    if ctx.name(t) != terminator {
        return Ok(());
    }
    let got = ctx.operands(t);
    if got.len() != want.len() {
        return Err(format!(
            " region control flow edge from Region #{index} to {target}: source has {} operands, but target successor needs {}",
            got.len(),
            want.len()
        ));
    }
    for (i, (&v, &w)) in got.iter().zip(want).enumerate() {
        let g = ctx.value_type(v);
        if g != w {
            return Err(format!(
                " along control flow edge from Region #{index} to {target}: source type #{i} {} should match input type #{i} {}",
                quoted(ctx, g),
                quoted(ctx, w)
            ));
        }
    }
    Ok(())
}

fn quoted(ctx: &Context, t: Type) -> String {
    format!("'{}'", tyname(ctx, t))
}

/// `(%a = %x, %b = %y)`: region argument names and initial operands.
/// Region argument names with their positions, and the initial operands.
type InitList<'a> = (Vec<(&'a str, usize)>, Vec<UnresolvedOperandAlias<'a>>);

fn parse_init_list<'a>(p: &mut Parser<'a, '_>) -> PResult<InitList<'a>> {
    p.expect("(")?;
    let mut names = vec![];
    let mut inits = vec![];
    if !p.eat(")") {
        loop {
            p.skip_ws();
            let pos = p.pos;
            let a = p.parse_operand_ref()?;
            p.expect("=")?;
            let i = p.parse_operand_ref()?;
            names.push((a.name, pos));
            inits.push(i);
            if !p.eat(",") {
                break;
            }
        }
        p.expect(")")?;
    }
    Ok((names, inits))
}
type UnresolvedOperandAlias<'a> = mlir_async_syntax::UnresolvedOperand<'a>;

fn print_init_list(p: &mut Printer, args: &[Value], inits: &[Value]) {
    p.w("(");
    for (i, (&a, &v)) in args.iter().zip(inits).enumerate() {
        if i > 0 {
            p.w(", ");
        }
        p.operand(a);
        p.w(" = ");
        p.operand(v);
    }
    p.w(")");
}

fn parse_for(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    p.skip_ws();
    let ivpos = p.pos;
    let iv = p.parse_operand_ref()?;
    p.expect("=")?;
    let lb = p.parse_operand_ref()?;
    p.expect_keyword("to")?;
    let ub = p.parse_operand_ref()?;
    p.expect_keyword("step")?;
    let step = p.parse_operand_ref()?;
    let index = p.index_type();
    // Operands and result types go straight into the state.
    for u in [lb, ub, step] {
        let v = p.resolve_operand(&u, index)?;
        st.operands.push(v);
    }
    let mut args = vec![RegionArg {
        name: iv.name,
        ty: index,
        pos: ivpos,
    }];
    if p.eat_keyword("iter_args") {
        let (names, inits) = parse_init_list(p)?;
        p.expect("->")?;
        p.parse_function_result_types_into(&mut st.result_types)?;
        if inits.len() != st.result_types.len() {
            let pos = inits.first().map(|o| o.pos).unwrap_or(p.pos);
            return p.err(
                pos,
                format!(
                    "{} operands present, but expected {}",
                    inits.len(),
                    st.result_types.len()
                ),
            );
        }
        for (o, &t) in inits.iter().zip(&st.result_types) {
            let v = p.resolve_operand(o, t)?;
            st.operands.push(v);
        }
        for ((n, pos), &t) in names.into_iter().zip(&st.result_types) {
            args.push(RegionArg {
                name: n,
                ty: t,
                pos,
            });
        }
    }
    let r = if st.result_types.is_empty() {
        region_with_implicit_terminator(p, &args, "scf.yield")?
    } else {
        p.parse_region(&args, false)?
    };
    attr_dict(p, st)?;
    st.regions.push(r);
    Ok(())
}

fn print_for(p: &mut Printer, op: Op) {
    let ops = p.ctx.operands(op);
    let r = p.ctx.regions_of(op)[0];
    let entry = p.ctx.entry_block(r).expect("scf.for has a body");
    let args = p.ctx.block_args(entry);
    p.w(" ");
    p.operand(args[0]);
    p.w(" = ");
    p.operand(ops[0]);
    p.w(" to ");
    p.operand(ops[1]);
    p.w(" step ");
    p.operand(ops[2]);
    let has_iter = ops.len() > 3;
    if has_iter {
        p.w(" iter_args");
        print_init_list(p, &args[1..], &ops[3..]);
        p.w(" -> (");
        let tys = types_of(p.ctx, &ops[3..]);
        p.types(&tys);
        p.w(")");
    }
    p.w(" ");
    p.region(r, false, has_iter);
    p.attr_dict(op, &[]);
}

/// LLVM 15's `scf.foreach_thread (%i, ...) in (%n, ...) -> (T...) {...}`:
/// one index block argument per thread count; the terminator
/// `scf.foreach_thread.perform_concurrently` is implied when its region is
/// empty, and then not printed.
fn parse_foreach_thread(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let index = p.index_type();
    p.expect("(")?;
    let mut args = vec![];
    if !p.eat(")") {
        loop {
            p.skip_ws();
            let pos = p.pos;
            let a = p.parse_operand_ref()?;
            args.push(mlir_async_syntax::RegionArg {
                name: a.name,
                ty: index,
                pos,
            });
            if p.eat(")") {
                break;
            }
            p.expect(",")?;
        }
    }
    p.expect_keyword("in")?;
    p.expect("(")?;
    let counts = p.parse_operand_list()?;
    p.expect(")")?;
    if counts.len() != args.len() {
        return p.err_here("expected as many thread counts as thread indices");
    }
    for c in &counts {
        let v = p.resolve_operand(c, index)?;
        st.operands.push(v);
    }
    if p.eat("->") {
        p.parse_function_result_types_into(&mut st.result_types)?;
    }
    let r = p.parse_region(&args, false)?;
    let b = match p.ctx.entry_block(r) {
        Some(b) => b,
        None => {
            let b = p.ctx.create_block(&[]);
            p.ctx.append_block(r, b);
            b
        }
    };
    let has = p
        .ctx
        .last_op(b)
        .is_some_and(|o| p.ctx.traits_of(o).is_terminator);
    if !has {
        let inner = p.ctx.create_region();
        let ib = p.ctx.create_block(&[]);
        p.ctx.append_block(inner, ib);
        let name = p.ctx.sym("scf.foreach_thread.perform_concurrently");
        let loc = p.ctx.unknown_loc();
        let mut t = OperationState::new(name, loc);
        t.regions.push(inner);
        p.ctx.build(InsertPoint::AtEnd(b), t);
    }
    st.regions.push(r);
    attr_dict(p, st)
}

/// Whether `op`'s terminator is an empty `perform_concurrently`, which
/// the custom form leaves out.
fn implicit_perform(ctx: &Context, op: Op) -> bool {
    let Some(b) = ctx.regions_of(op).first().and_then(|&r| ctx.entry_block(r)) else {
        return true;
    };
    let Some(t) = ctx.last_op(b) else { return true };
    ctx.name(t) == "scf.foreach_thread.perform_concurrently"
        && ctx
            .regions_of(t)
            .first()
            .and_then(|&r| ctx.entry_block(r))
            .is_none_or(|ib| ctx.first_op(ib).is_none())
}

fn print_foreach_thread(p: &mut Printer, op: Op) {
    let r = p.ctx.regions_of(op)[0];
    let entry = p.ctx.entry_block(r).expect("foreach_thread has a body");
    let args = p.ctx.block_args(entry).to_vec();
    let counts = p.ctx.operands(op).to_vec();
    p.w(" (");
    p.operands(&args);
    p.w(") in (");
    p.operands(&counts);
    p.w(") -> (");
    let tys: Vec<Type> = p
        .ctx
        .results(op)
        .iter()
        .map(|&v| p.ctx.value_type(v))
        .collect();
    p.types(&tys);
    p.w(") ");
    let terminators = !implicit_perform(p.ctx, op);
    p.region(r, false, terminators);
    p.attr_dict(op, &[]);
}

fn parse_perform_concurrently(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let r = p.parse_region(&[], false)?;
    if p.ctx.entry_block(r).is_none() {
        let b = p.ctx.create_block(&[]);
        p.ctx.append_block(r, b);
    }
    st.regions.push(r);
    attr_dict(p, st)
}

fn verify_foreach_thread(ctx: &Context, op: Op) -> Result<(), String> {
    let [r] = ctx.regions_of(op) else {
        return Err("requires one region".into());
    };
    let Some(b) = ctx.entry_block(*r) else {
        return Err("expects a non-empty block".into());
    };
    let Some(t) = ctx.last_op(b) else {
        return Err("expects a non-empty block".into());
    };
    if ctx.name(t) != "scf.foreach_thread.perform_concurrently" {
        return Err(format!(
            "expects regions to end with 'scf.foreach_thread.perform_concurrently', found '{}'",
            ctx.name(t)
        ));
    }
    let rank = ctx.operands(op).len();
    if ctx.block_args(b).len() != rank {
        return Err(format!("region expects {rank} arguments"));
    }
    // Without the tensor dialect the terminator yields nothing.
    let n = ctx.results(op).len();
    if n != 0 {
        return Err(format!(
            "produces {n} results, but its terminator yields 0 value(s)"
        ));
    }
    Ok(())
}

fn verify_perform_concurrently(ctx: &Context, op: Op) -> Result<(), String> {
    let [r] = ctx.regions_of(op) else {
        return Err("requires one region".into());
    };
    if ctx.region_blocks(*r).len() != 1 {
        return Err("expects a single block in its region".into());
    }
    for &r in ctx.regions_of(op) {
        for b in ctx.region_blocks(r) {
            if ctx
                .block_ops_iter(b)
                .any(|o| ctx.name(o) != "tensor.parallel_insert_slice")
            {
                return Err("expected only tensor.parallel_insert_slice ops".into());
            }
        }
    }
    Ok(())
}

fn print_perform_concurrently(p: &mut Printer, op: Op) {
    let r = p.ctx.regions_of(op)[0];
    p.w(" ");
    p.region(r, false, true);
    p.attr_dict(op, &[]);
}

fn parse_if(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let c = p.parse_operand_ref()?;
    let i1 = p.i1_type();
    st.operands.push(p.resolve_operand(&c, i1)?);
    st.result_types = optional_arrow_types(p)?;
    let then = region_with_implicit_terminator(p, &[], "scf.yield")?;
    let els = if p.eat_keyword("else") {
        region_with_implicit_terminator(p, &[], "scf.yield")?
    } else {
        p.ctx.create_region()
    };
    st.regions.extend([then, els]);
    attr_dict(p, st)
}

fn print_if(p: &mut Printer, op: Op) {
    p.w(" ");
    let c = p.ctx.operand(op, 0);
    p.operand(c);
    let results = types_of(p.ctx, p.ctx.results(op));
    let terms = !results.is_empty();
    if terms {
        p.w(" -> (");
        p.types(&results);
        p.w(")");
    }
    p.w(" ");
    let rs = p.ctx.regions_of(op);
    p.region(rs[0], false, terms);
    if !p.ctx.region_is_empty(rs[1]) {
        p.w(" else ");
        p.region(rs[1], false, terms);
    }
    p.attr_dict(op, &[]);
}

fn parse_while(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    // A loop without values carries no list (`scf.while : () -> ()`).
    let (names, inits) = if p.peek() == b'(' {
        parse_init_list(p)?
    } else {
        (vec![], vec![])
    };
    p.expect(":")?;
    let tpos = p.pos;
    let ft = p.parse_type()?;
    let TypeKind::Function(ins, outs) = p.ctx.kind(ft).clone() else {
        return p.err(tpos, "expected function type");
    };
    st.operands = resolve(p, &inits, &ins)?;
    st.result_types = outs;
    let args: Vec<RegionArg> = names
        .into_iter()
        .zip(&ins)
        .map(|((n, pos), &t)| RegionArg {
            name: n,
            ty: t,
            pos,
        })
        .collect();
    let before = p.parse_region(&args, false)?;
    p.expect_keyword("do")?;
    let after = p.parse_region(&[], false)?;
    st.regions.extend([before, after]);
    attr_dict_kw(p, st)
}

fn print_while(p: &mut Printer, op: Op) {
    let rs = p.ctx.regions_of(op);
    let entry = p
        .ctx
        .entry_block(rs[0])
        .expect("scf.while has a before region");
    let args = p.ctx.block_args(entry);
    let ops = p.ctx.operands(op);
    if !ops.is_empty() {
        p.w(" ");
        print_init_list(p, args, ops);
    }
    p.w(" : ");
    let ins = types_of(p.ctx, ops);
    let outs = types_of(p.ctx, p.ctx.results(op));
    p.functional_type(&ins, &outs);
    p.w(" ");
    p.region(rs[0], false, true);
    p.w(" do ");
    p.region(rs[1], true, true);
    p.attr_dict_kw(op, &[]);
}

fn paren_operands<'a>(
    p: &mut Parser<'a, '_>,
) -> PResult<Vec<mlir_async_syntax::UnresolvedOperand<'a>>> {
    p.expect("(")?;
    let v = p.parse_operand_list()?;
    p.expect(")")?;
    Ok(v)
}

fn parse_parallel(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    p.skip_ws();
    let pos = p.pos;
    let ivs = paren_operands(p)?;
    p.expect("=")?;
    let lbs = paren_operands(p)?;
    p.expect_keyword("to")?;
    let ubs = paren_operands(p)?;
    p.expect_keyword("step")?;
    let steps = paren_operands(p)?;
    let index = p.index_type();
    let mut operands = resolve_same(p, &lbs, index)?;
    operands.extend(resolve_same(p, &ubs, index)?);
    operands.extend(resolve_same(p, &steps, index)?);
    let mut inits = vec![];
    if p.eat_keyword("init") {
        inits = paren_operands(p)?;
    }
    let results = optional_arrow_types(p)?;
    let init_vals = resolve(p, &inits, &results)?;
    let seg = segment_sizes(p.ctx, &[lbs.len(), ubs.len(), steps.len(), init_vals.len()]);
    operands.extend(init_vals);
    let args: Vec<RegionArg> = ivs
        .into_iter()
        .map(|u| RegionArg {
            name: u.name,
            ty: index,
            pos: u.pos.max(pos),
        })
        .collect();
    let r = region_with_implicit_terminator(p, &args, "scf.yield")?;
    st.operands = operands;
    st.result_types = results;
    st.regions.push(r);
    let s = p.ctx.sym("operand_segment_sizes");
    st.attrs.push((s, seg));
    attr_dict(p, st)
}

fn print_parallel(p: &mut Printer, op: Op) {
    let segs = segments(p.ctx, op, 4);
    let r = p.ctx.regions_of(op)[0];
    let entry = p.ctx.entry_block(r).expect("scf.parallel has a body");
    let args = p.ctx.block_args(entry);
    p.w(" (");
    p.operands(args);
    p.w(") = (");
    p.operands(&segs[0]);
    p.w(") to (");
    p.operands(&segs[1]);
    p.w(") step (");
    p.operands(&segs[2]);
    p.w(")");
    if !segs[3].is_empty() {
        p.w(" init (");
        p.operands(&segs[3]);
        p.w(")");
    }
    let results = types_of(p.ctx, p.ctx.results(op));
    if !results.is_empty() {
        p.w(" -> ");
        p.result_types(&results);
    }
    p.w(" ");
    p.region(r, false, true);
    p.attr_dict(op, &["operand_segment_sizes"]);
}

fn parse_reduce(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let ops = paren_operands(p)?;
    let t = colon_type(p)?;
    st.operands = resolve_same(p, &ops, t)?;
    let r = p.parse_region(&[], false)?;
    st.regions.push(r);
    attr_dict(p, st)
}

fn print_reduce(p: &mut Printer, op: Op) {
    let ops = p.ctx.operands(op);
    p.w("(");
    p.operands(ops);
    // Two spaces before the colon, as MLIR 13-15 print it.
    p.w(")  : ");
    let t = p.ctx.value_type(ops[0]);
    p.ty(t);
    p.w(" ");
    let r = p.ctx.regions_of(op)[0];
    p.region(r, true, true);
    p.attr_dict(op, &[]);
}

fn parse_execute_region(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    st.result_types = optional_arrow_types(p)?;
    let r = p.parse_region(&[], false)?;
    st.regions.push(r);
    attr_dict(p, st)
}

fn print_execute_region(p: &mut Printer, op: Op) {
    let results = types_of(p.ctx, p.ctx.results(op));
    if !results.is_empty() {
        p.w(" -> ");
        p.result_types(&results);
    }
    p.w(" ");
    let r = p.ctx.regions_of(op)[0];
    p.region(r, false, true);
    p.attr_dict(op, &[]);
}

/// `WhileOp::verify`: each region ends with its own terminator.
fn verify_while(ctx: &Context, op: Op) -> Result<(), String> {
    let regions = ctx.regions_of(op);
    for (i, want, what) in [(0, "scf.condition", "before"), (1, "scf.yield", "after")] {
        let Some(b) = regions.get(i).and_then(|&r| ctx.entry_block(r)) else {
            continue;
        };
        let last = ctx.last_op(b).filter(|&l| ctx.traits_of(l).is_terminator);
        if last.is_some_and(|l| ctx.name(l) == want) {
            continue;
        }
        let m = format!("expects the '{what}' region to terminate with '{want}'");
        return Err(match last {
            Some(l) => crate::with_note_at(&m, l, "terminator here"),
            None => m,
        });
    }
    Ok(())
}

/// `ExecuteRegionOp::verify`.
fn verify_execute_region(ctx: &Context, op: Op) -> Result<(), String> {
    let Some(entry) = ctx.regions_of(op).first().and_then(|&r| ctx.entry_block(r)) else {
        return Err("region needs to have at least one block".into());
    };
    if !ctx.block_args(entry).is_empty() {
        return Err("region cannot have any arguments".into());
    }
    Ok(())
}

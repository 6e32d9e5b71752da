//! The subset of `memref`, `linalg` and `vector` used by the async tests.

use crate::format::{op_err, CArg, Custom, Frame, TypeClass, Var, View};
use crate::ods::{OperandKind, RegionSpec, Shape, BINARY, N, SINK, UNARY};
use crate::util::*;
use crate::{fold, Arity, Invariants, OpDef};
use mlir_async_ir::*;
use mlir_async_syntax::printer::print_dict_entries;
use mlir_async_syntax::{Edition, PResult, Parser, Printer};

crate::op! {
    /// `memref.cast`: a memref seen with another (compatible) type.
    pub struct CastOp = "memref.cast" {
        operands: [source: One],
        results: [dest],
        format: "$source attr-dict `:` type($source) `to` type($dest)",
        infer: Spelled,
    }
}

fn index(ctx: &mut Context) -> Type {
    ctx.index_type()
}

fn i32t(ctx: &mut Context) -> Type {
    ctx.int_type(32)
}

/// The element type of a memref (`TypesMatchWith`).
fn element(ctx: &mut Context, t: Type) -> Option<Type> {
    elem_of(ctx, t)
}

/// The tensor of a memref's shape and element type; `none` for another
/// type, as upstream's `getTensorTypeFromMemRefType` (the operand then
/// fails to resolve against it).
fn tensor_like(ctx: &mut Context, t: Type) -> Option<Type> {
    Some(tensor_of_memref(ctx, t).unwrap_or_else(|| ctx.none_type()))
}

/// `AnyMemRef` (ODS's class `MemRefType`): ranked memrefs.
static MEMREF: TypeClass = TypeClass {
    is: |ctx, t| matches!(ctx.kind(t), TypeKind::MemRef { .. }),
    short: None,
    summary: "memref of any type values",
    cpp: Some(Edition::V14),
};

/// `AnyRankedOrUnrankedMemRef`: no one class.
static ANY_MEMREF: TypeClass = TypeClass {
    is: is_any_memref,
    short: None,
    summary: MEMREF_KIND,
    cpp: None,
};

/// `MemRefOf<[AnySignlessInteger, AnyFloat]>`.
static MEMREF_OF_INT_OR_FLOAT: TypeClass = TypeClass {
    is: |ctx, t| matches!(ctx.kind(t), TypeKind::MemRef { .. }),
    short: None,
    summary: "memref of signless integer or floating-point values",
    cpp: Some(Edition::V14),
};

/// `AnyStaticShapeMemRef`.
static STATIC_MEMREF: TypeClass = TypeClass {
    is: |ctx, t| matches!(ctx.kind(t), TypeKind::MemRef { .. }),
    short: None,
    summary: "statically shaped memref of any type values",
    cpp: Some(Edition::V14),
};

crate::op! {
    /// `memref.alloc`: a buffer on the heap.
    pub struct AllocOp = "memref.alloc" {
        operands: [dynamicSizes: Variadic = Fixed(index), symbolOperands: Variadic = Fixed(index)],
        results: [memref = Class(&MEMREF)],
        format: "`(`$dynamicSizes`)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.alloca`: a buffer on the stack.
    pub struct AllocaOp = "memref.alloca" {
        operands: [dynamicSizes: Variadic = Fixed(index), symbolOperands: Variadic = Fixed(index)],
        results: [memref = Class(&MEMREF)],
        format: "`(`$dynamicSizes`)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.dealloc`
    pub struct DeallocOp = "memref.dealloc" {
        operands: [memref: One],
        results: [],
        format: "$memref attr-dict `:` type($memref)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.load`
    pub struct LoadOp = "memref.load" {
        operands: [memref: One = Class(&MEMREF), indices: Variadic = Fixed(index)],
        results: [result = Like("memref", element)],
        format: "$memref `[` $indices `]` attr-dict `:` type($memref)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.store`
    pub struct StoreOp = "memref.store" {
        operands: [
            value: One = Like("memref", element),
            memref: One = Class(&MEMREF),
            indices: Variadic = Fixed(index),
        ],
        results: [],
        format: "$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.dim`: the size of one dimension.
    pub struct DimOp = "memref.dim" {
        operands: [source: One, index: One = Fixed(index)],
        results: [result = Fixed(index)],
        format: "attr-dict $source `,` $index `:` type($source)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.atomic_rmw` (13: `atomic_rmw`, without `ori` and `andi`).
    pub struct AtomicRMWOp = "memref.atomic_rmw" {
        operands: [
            value: One,
            memref: One = Class(&MEMREF_OF_INT_OR_FLOAT),
            indices: Variadic = Fixed(index),
        ],
        results: [result],
        attrs: [kind: EnumUpTo(&RMW_KINDS, rmw_kinds_in)],
        format: "$kind $value `,` $memref `[` $indices `]` attr-dict `:` `(` type($value) `,` type($memref) `)` `->` type($result)",
        infer: Spelled,
    }
}

/// How many of [`RMW_KINDS`] a generation has: 13 no `ori`, `andi`.
fn rmw_kinds_in(ed: Edition) -> usize {
    if ed == Edition::V13 {
        11
    } else {
        RMW_KINDS.len()
    }
}

crate::op! {
    /// `memref.atomic_yield` (13: `atomic_yield`).
    pub struct AtomicYieldOp = "memref.atomic_yield" {
        operands: [result: One],
        results: [],
        format: "$result attr-dict `:` type($result)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.copy`
    pub struct CopyOp = "memref.copy" {
        operands: [source: One, target: One],
        results: [],
        format: "$source `,` $target attr-dict `:` type($source) `to` type($target)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.rank` (13: `rank`, see `std.rank`).
    pub struct RankOp = "memref.rank" {
        operands: [memref: One],
        results: [result = Fixed(index)],
        format: "$memref attr-dict `:` type($memref)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.assume_alignment`
    pub struct AssumeAlignmentOp = "memref.assume_alignment" {
        operands: [memref: One],
        results: [],
        attrs: [alignment: Typed(i32t)],
        format: "$memref `,` $alignment attr-dict `:` type($memref)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.alloca_scope.return`
    pub struct AllocaScopeReturnOp = "memref.alloca_scope.return" {
        operands: [results: Variadic],
        results: [],
        format: "attr-dict ($results^ `:` type($results))?",
        infer: Spelled,
    }
}

/// `custom<GlobalMemrefOpTypeAndInitialValue>($type, $initial_value)`:
/// `memref-type [= dense<...> | = uninitialized]`.
const GLOBAL_TYPE_AND_INITIAL_VALUE: Custom = Custom {
    name: "GlobalMemrefOpTypeAndInitialValue",
    parse: parse_global_type_and_initial_value,
    print: print_global_type_and_initial_value,
};

crate::op! {
    /// `memref.global`: a named buffer of static shape.
    pub struct GlobalOp = "memref.global" {
        operands: [],
        results: [],
        attrs: [
            sym_visibility: Optional(&Str),
            constant: Unit,
            sym_name: SymbolName,
            type: Any,
            initial_value: Any,
        ],
        customs: [GLOBAL_TYPE_AND_INITIAL_VALUE],
        format: "($sym_visibility^)? (`constant` $constant^)? $sym_name `:` custom<GlobalMemrefOpTypeAndInitialValue>($type, $initial_value) attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.get_global`
    pub struct GetGlobalOp = "memref.get_global" {
        operands: [],
        results: [result = Class(&STATIC_MEMREF)],
        attrs: [name: FlatSymbolRef],
        format: "$name `:` type($result) attr-dict",
        infer: Spelled,
    }
}

/// `custom<OperandsOrIntegersOffsetsOrStridesList>` and
/// `custom<OperandsOrIntegersSizesList>($values, $static_values)`:
/// `[%a, 4, %b]`, the SSA values into the operand group and each entry
/// into the static list (a value's entry the generation's dynamic marker).
const OFFSETS_OR_STRIDES_LIST: Custom = Custom {
    name: "OperandsOrIntegersOffsetsOrStridesList",
    parse: |p, fr, args| parse_index_list_into(p, fr, args, DYN_STRIDE_OR_OFFSET),
    print: |p, v, args| print_index_list_of(p, v, args, DYN_STRIDE_OR_OFFSET),
};
const SIZES_LIST: Custom = Custom {
    name: "OperandsOrIntegersSizesList",
    parse: |p, fr, args| parse_index_list_into(p, fr, args, DYN_SIZE),
    print: |p, v, args| print_index_list_of(p, v, args, DYN_SIZE),
};

crate::op! {
    /// `memref.subview`
    pub struct SubViewOp = "memref.subview" {
        operands: [
            source: One = Class(&MEMREF),
            offsets: Variadic = Fixed(index),
            sizes: Variadic = Fixed(index),
            strides: Variadic = Fixed(index),
        ],
        results: [result = Class(&MEMREF)],
        attrs: [static_offsets: Any, static_sizes: Any, static_strides: Any],
        customs: [OFFSETS_OR_STRIDES_LIST, SIZES_LIST],
        format: "$source `` custom<OperandsOrIntegersOffsetsOrStridesList>($offsets, $static_offsets) custom<OperandsOrIntegersSizesList>($sizes, $static_sizes) custom<OperandsOrIntegersOffsetsOrStridesList>($strides, $static_strides) attr-dict `:` type($source) `to` type($result)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.reinterpret_cast`
    pub struct ReinterpretCastOp = "memref.reinterpret_cast" {
        operands: [
            source: One,
            offsets: Variadic = Fixed(index),
            sizes: Variadic = Fixed(index),
            strides: Variadic = Fixed(index),
        ],
        results: [result = Class(&MEMREF)],
        attrs: [static_offsets: Any, static_sizes: Any, static_strides: Any],
        customs: [OFFSETS_OR_STRIDES_LIST, SIZES_LIST],
        format: "$source `to` `offset` `` `:` custom<OperandsOrIntegersOffsetsOrStridesList>($offsets, $static_offsets) `` `,` `sizes` `` `:` custom<OperandsOrIntegersSizesList>($sizes, $static_sizes) `` `,` `strides` `` `:` custom<OperandsOrIntegersOffsetsOrStridesList>($strides, $static_strides) attr-dict `:` type($source) `to` type($result)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.reshape`: a memref of the shape another holds.
    pub struct ReshapeOp = "memref.reshape" {
        operands: [source: One, shape: One],
        results: [result],
        format: "$source `(` $shape `)` attr-dict `:` functional-type(operands, results)",
        infer: Spelled,
    }
}

/// `custom<FillOpRegion>`: upstream builds the op's region here (a
/// block yielding the value), which the IR does not keep; nothing is
/// written or read.
const FILL_OP_REGION: Custom = Custom {
    name: "FillOpRegion",
    parse: |_, _, _| Ok(()),
    print: |_, _, _| {},
};

crate::op! {
    /// `linalg.fill`: a format in 13 and 14, C++ from 15 (a named
    /// structured op).
    pub struct FillOp = "linalg.fill" {
        operands: [value: One, output: One],
        results: [result: Optional],
        regions: [region],
        customs: [FILL_OP_REGION],
        syntax: {
            V13: Format("`(` $value `,` $output `)` attr-dict `:` type($value) `,` type($output) (`->` type($result)^)? custom<FillOpRegion>($region, ref(type($value)), ref(type($output)))"),
            V14: Format("`(` $value `,` $output `)` attr-dict `:` type($value) `,` type($output) (`->` type($result)^)? custom<FillOpRegion>($region, ref(type($value)), ref(type($output)))"),
            V15: Hand(parse_fill, print_fill),
        },
        infer: Spelled,
    }
}

/// `AnyStridedMemRef`: a `MemRefType` (its layout checked by the
/// verifier).
static STRIDED_MEMREF: TypeClass = TypeClass {
    is: |ctx, t| matches!(ctx.kind(t), TypeKind::MemRef { .. }),
    short: None,
    summary: "strided memref of any type values",
    cpp: Some(Edition::V14),
};

macro_rules! reassociative_reshape {
    ($($ty:ident = $name:literal;)*) => {
        $(crate::op! {
            #[doc = concat!("`", $name, "`: C++ in 13 and 14, a format from 15.")]
            pub struct $ty = $name {
                operands: [src: One = Class(&STRIDED_MEMREF)],
                results: [result = Class(&STRIDED_MEMREF)],
                attrs: [reassociation: Array],
                syntax: {
                    V13: Hand(parse_reshape_like, print_reshape_like),
                    V14: Hand(parse_reshape_like, print_reshape_like),
                    V15: Format("$src $reassociation attr-dict `:` type($src) `into` type($result)"),
                },
                infer: Spelled,
            }
        })*
    };
}

reassociative_reshape! {
    ExpandShapeOp = "memref.expand_shape";
    CollapseShapeOp = "memref.collapse_shape";
}

crate::op! {
    /// `memref.view`: C++ in 13 and 14, a format from 15.
    pub struct ViewOp = "memref.view" {
        operands: [
            source: One = Class(&MEMREF),
            byte_shift: One = Fixed(index),
            sizes: Variadic = Fixed(index),
        ],
        results: [result],
        syntax: {
            V13: Hand(parse_view, print_view),
            V14: Hand(parse_view, print_view),
            V15: Format("$source `[` $byte_shift `]` `` `[` $sizes `]` attr-dict `:` type($source) `to` type(results)"),
        },
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.dma_wait`
    pub struct DmaWaitOp = "memref.dma_wait" {
        operands: [
            tagMemRef: One = Class(&MEMREF),
            tagIndices: Variadic = Fixed(index),
            numElements: One = Fixed(index),
        ],
        results: [],
        format: "$tagMemRef `[` $tagIndices `]` `,` $numElements attr-dict `:` type($tagMemRef)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.tensor_store`
    pub struct TensorStoreOp = "memref.tensor_store" {
        operands: [tensor: One = Like("memref", tensor_like), memref: One = Class(&ANY_MEMREF)],
        results: [],
        format: "$tensor `,` $memref attr-dict `:` type($memref)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.buffer_cast` (13; 14's `bufferization.to_memref`).
    pub struct BufferCastOp = "memref.buffer_cast" {
        operands: [tensor: One = Like("memref", tensor_like)],
        results: [memref = Class(&ANY_MEMREF)],
        format: "$tensor attr-dict `:` type($memref)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.tensor_load` (13; 14's `bufferization.to_tensor`).
    pub struct TensorLoadOp = "memref.tensor_load" {
        operands: [memref: One = Class(&ANY_MEMREF)],
        results: [result = Like("memref", tensor_like)],
        format: "$memref attr-dict `:` type($memref)",
        infer: Spelled,
    }
}

crate::op! {
    /// `memref.clone` (13; 14's `bufferization.clone`).
    pub struct CloneOp = "memref.clone" {
        operands: [input: One],
        results: [output],
        format: "$input attr-dict `:` type($input) `to` type($output)",
        infer: Spelled,
    }
}

crate::op! {
    /// `vector.print`
    pub struct PrintOp = "vector.print" {
        operands: [source: One],
        results: [],
        format: "$source attr-dict `:` type($source)",
        infer: Spelled,
    }
}

pub fn ops() -> Vec<OpDef> {
    vec![
        AllocOp::def()
            .shape(Shape::new(N::AtLeast(0), N::Exactly(1)))
            .dead_if_unused(),
        AllocaOp::def()
            .shape(Shape::new(N::AtLeast(0), N::Exactly(1)))
            .dead_if_unused(),
        DeallocOp::def()
            .shape(SINK.kinds(&[(0, OperandKind::MemRef)]))
            .folder(fold::fold_cast_operands),
        LoadOp::def()
            .shape(Shape::new(N::AtLeast(1), N::Exactly(1)).kinds(&[(0, OperandKind::MemRef)]))
            .read_only()
            .folder(fold::fold_cast_operands),
        StoreOp::def()
            .shape(Shape::new(N::AtLeast(2), N::Exactly(0)).kinds(&[(1, OperandKind::MemRef)]))
            .folder(fold::fold_store),
        CastOp::def()
            .shape(UNARY.kinds(&[(0, OperandKind::MemRef)]))
            .pure()
            .folder(fold::fold_cast_operands),
        DimOp::def()
            .shape(BINARY.kinds(&[(0, OperandKind::MemRef)]))
            .pure()
            .folder(fold::fold_dim),
        AtomicRMWOp::def().verify_in_edition(verify_atomic_rmw),
        OpDef::new("memref.generic_atomic_rmw")
            .region_specs(const { &[RegionSpec::single_unsized(0)] })
            .implicit_terminator("memref.atomic_yield")
            .syntax(parse_generic_atomic_rmw, print_generic_atomic_rmw)
            .verify(verify_generic_atomic_rmw),
        AtomicYieldOp::def()
            .parents(&["memref.generic_atomic_rmw"])
            .verify(verify_atomic_yield)
            .terminator(),
        CopyOp::def().verify(verify_copy),
        RankOp::def().verify(verify_rank).pure(),
        AssumeAlignmentOp::def().verify(verify_assume_alignment),
        OpDef::new("memref.alloca_scope")
            .region_specs(const { &[RegionSpec::single(0, "bodyRegion")] })
            .implicit_terminator("memref.alloca_scope.return")
            .no_region_arguments()
            .syntax(parse_alloca_scope, print_alloca_scope)
            .verify(verify_alloca_scope),
        AllocaScopeReturnOp::def()
            .parents(&["memref.alloca_scope"])
            .terminator(),
        GlobalOp::def().verify(verify_global).symbol(),
        GetGlobalOp::def().verify(verify_get_global).pure(),
        SubViewOp::def().verify(verify_subview).pure(),
        ExpandShapeOp::def().verify(verify_reshape_like).pure(),
        CollapseShapeOp::def().verify(verify_reshape_like).pure(),
        ReinterpretCastOp::def()
            .verify(verify_reinterpret_cast)
            .pure(),
        ReshapeOp::def().verify(verify_reshape).pure(),
        ViewOp::def().verify(verify_view).pure(),
        OpDef::new("memref.transpose")
            .syntax(parse_transpose, print_transpose)
            .verify(verify_transpose)
            .pure(),
        OpDef::new("memref.prefetch")
            .syntax(parse_prefetch, print_prefetch)
            .verify(verify_prefetch),
        OpDef::new("memref.dma_start")
            .syntax(parse_dma_start, print_dma_start)
            .verify(verify_dma_start),
        DmaWaitOp::def().verify(verify_dma_wait),
        TensorStoreOp::def()
            .invariants(Invariants::new(Arity::Exactly(2), Arity::Exactly(0)))
            .verify(verify_tensor_store),
        // 13's bufferization ops, in `memref` until 14 moved them to
        // `bufferization` (`to_memref`, `to_tensor`, `clone`).
        BufferCastOp::def()
            .invariants(Invariants::new(Arity::Exactly(1), Arity::Exactly(1)))
            .verify(verify_buffer_cast)
            .pure(),
        TensorLoadOp::def()
            .invariants(Invariants::new(Arity::Exactly(1), Arity::Exactly(1)))
            .verify(verify_tensor_load),
        CloneOp::def()
            .invariants(Invariants::new(Arity::Exactly(1), Arity::Exactly(1)))
            .verify(verify_clone),
        FillOp::def()
            .shape(Shape::new(N::Exactly(2), N::AtMost(1)))
            .folder(fold::fold_cast_operands),
        OpDef::new("linalg.yield")
            .syntax(parse_plain_yield, print_plain_yield)
            .terminator(),
        OpDef::new("linalg.generic")
            .shape(Shape::new(N::AtLeast(0), N::AtLeast(0)).regions(1, &[]))
            .implicit_terminator("linalg.yield")
            .syntax(parse_generic, print_generic)
            .verify(verify_generic)
            .folder(fold::fold_cast_operands),
        PrintOp::def().shape(SINK),
    ]
}

/// Its body ends with `linalg.yield` (after `-convert-linalg-to-llvm`
/// lowered the yield of a generic left in place, upstream's verifier
/// stops the pipeline here).
fn verify_generic(ctx: &Context, op: Op) -> Result<(), String> {
    for &r in ctx.regions_of(op) {
        for b in ctx.region_blocks(r) {
            if let Some(t) = ctx.block_ops_iter(b).last() {
                if ctx.name(t) != "linalg.yield" {
                    return Err(format!(
                        "expects regions to end with 'linalg.yield', found '{}'",
                        ctx.name(t)
                    ));
                }
            }
        }
    }
    Ok(())
}

fn elem_of(ctx: &Context, t: Type) -> Option<Type> {
    ctx.kind(t).element_type()
}

/// `%m[%i, ...] attrs : memref-type`: the memref and its indices as
/// operands (in that order), and the element type.
fn parse_indexed(p: &mut Parser, st: &mut OperationState) -> PResult<(Vec<Value>, Type)> {
    let m = p.parse_operand_ref()?;
    p.expect("[")?;
    let ids = p.parse_operand_list()?;
    p.expect("]")?;
    attr_dict(p, st)?;
    let tpos = p.pos;
    let t = colon_type(p)?;
    let Some(e) = elem_of(p.ctx, t) else {
        return p.err(tpos, "expected memref type");
    };
    let index = p.index_type();
    let mut ops = vec![p.resolve_operand(&m, t)?];
    ops.extend(resolve_same(p, &ids, index)?);
    Ok((ops, e))
}

/// 15's `linalg.fill ins(%v : f32) outs(%m : memref<...>)`.
fn parse_fill(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    p.expect_keyword("ins")?;
    p.expect("(")?;
    parse_operands_and_types(p, &mut st.operands)?;
    p.expect(")")?;
    p.expect_keyword("outs")?;
    p.expect("(")?;
    parse_operands_and_types(p, &mut st.operands)?;
    p.expect(")")?;
    attr_dict(p, st)?;
    Ok(())
}

fn print_fill(p: &mut Printer, op: Op) {
    let ops = p.ctx.operands(op);
    p.w(" ins(");
    p.operand(ops[0]);
    p.w(" : ");
    let t = p.ctx.value_type(ops[0]);
    p.ty(t);
    p.w(") outs(");
    p.operand(ops[1]);
    p.w(" : ");
    let t = p.ctx.value_type(ops[1]);
    p.ty(t);
    p.w(")");
    p.attr_dict(op, &[]);
}

fn parse_plain_yield(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    attr_dict(p, st)?;
    parse_operands_and_types(p, &mut st.operands)
}

fn print_plain_yield(p: &mut Printer, op: Op) {
    p.attr_dict(op, &[]);
    let ops = p.ctx.operands(op);
    print_operands_and_types(p, ops);
}

/// The attributes `linalg.generic` prints in its leading dictionary.
const GENERIC_TRAITS: [&str; 4] = ["doc", "indexing_maps", "iterator_types", "library_call"];

/// `ins(%a, %b : T, U)` or `outs(...)` if the keyword is next.
fn parse_ins_outs(p: &mut Parser, kw: &str) -> PResult<Vec<Value>> {
    if !p.eat_keyword(kw) {
        return Ok(vec![]);
    }
    p.expect("(")?;
    let ops = p.parse_operand_list()?;
    p.expect(":")?;
    let tys = p.parse_type_list_no_parens()?;
    p.expect(")")?;
    resolve(p, &ops, &tys)
}

/// `linalg.generic {traits} ins(...) outs(...) attrs = {...} {region} -> T`,
/// the same in 14 and 15.
fn parse_generic(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let traits = p.parse_attr_dict()?;
    st.attrs.extend(traits);
    attr_dict(p, st)?;
    let ins = parse_ins_outs(p, "ins")?;
    let outs = parse_ins_outs(p, "outs")?;
    let seg = segment_sizes(p.ctx, &[ins.len(), outs.len()]);
    let s = p.ctx.sym("operand_segment_sizes");
    st.attrs.push((s, seg));
    st.operands = ins;
    st.operands.extend(outs);
    if p.eat_keyword("attrs") {
        p.expect("=")?;
        attr_dict(p, st)?;
    }
    let r = p.parse_region(&[], false)?;
    st.regions.push(r);
    st.result_types = optional_arrow_types(p)?;
    Ok(())
}

fn print_generic(p: &mut Printer, op: Op) {
    p.w(" ");
    let traits: Vec<(Symbol, Attribute)> = p
        .ctx
        .attrs(op)
        .iter()
        .filter(|(k, _)| GENERIC_TRAITS.contains(&p.ctx.str(*k)))
        .copied()
        .collect();
    if !traits.is_empty() {
        let mut text = String::from("{");
        print_dict_entries(p.ctx, &traits, &mut text);
        text.push('}');
        p.w(&text);
    }
    let segs = segments(p.ctx, op, 2);
    for (kw, vs) in [(" ins(", &segs[0]), (" outs(", &segs[1])] {
        if !vs.is_empty() {
            p.w(kw);
            p.operands(vs);
            p.w(" : ");
            let tys = types_of(p.ctx, vs);
            p.types(&tys);
            p.w(")");
        }
    }
    let mut elided = GENERIC_TRAITS.to_vec();
    elided.push("operand_segment_sizes");
    let extra = p
        .ctx
        .attrs(op)
        .iter()
        .any(|(k, _)| !elided.contains(&p.ctx.str(*k)));
    if extra {
        // MLIR prints " attrs = " and then the dictionary with its own
        // leading space.
        p.w(" attrs = ");
        p.attr_dict(op, &elided);
    }
    if let Some(&r) = p.ctx.regions_of(op).first() {
        if !p.ctx.region_is_empty(r) {
            p.w(" ");
            p.region(r, true, true);
        }
    }
    let results = types_of(p.ctx, p.ctx.results(op));
    if !results.is_empty() {
        p.w(" -> ");
        p.result_types(&results);
    }
}

/// `arith::AtomicRMWKind` (14 and 15), by value.
const RMW_KINDS: [&str; 13] = [
    "addf", "addi", "assign", "maxf", "maxs", "maxu", "minf", "mins", "minu", "mulf", "muli",
    "ori", "andi",
];

/// The kind of a `memref.atomic_rmw`, if its `kind` is one.
pub fn rmw_kind(ctx: &Context, op: Op) -> Option<&'static str> {
    match ctx.attr_kind(ctx.get_attr(op, "kind")?) {
        AttrKind::Integer(i, _) => usize::try_from(*i)
            .ok()
            .and_then(|i| RMW_KINDS.get(i).copied()),
        _ => None,
    }
}

/// ODS's checks and `AtomicRMWOp::verify`, in upstream's order and words.
fn verify_atomic_rmw(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    let ops = ctx.operands(op);
    if ops.len() < 2 {
        return Err(format!(
            "expected 2 or more operands, but found {}",
            ops.len()
        ));
    }
    if ctx.results(op).len() != 1 {
        return Err(format!(
            "requires one result, but found {}",
            ctx.results(op).len()
        ));
    }
    if ctx.get_attr(op, "kind").is_none() {
        return Err("requires attribute 'kind'".into());
    }
    let cases = rmw_kinds_in(ed);
    let in_range = match ctx.attr_kind(ctx.get_attr(op, "kind").expect("checked above")) {
        AttrKind::Integer(i, t) => {
            *ctx.kind(*t) == TypeKind::Integer(64, Signedness::Signless)
                && usize::try_from(*i).is_ok_and(|i| i < cases)
        }
        _ => false,
    };
    if !in_range {
        return Err(crate::ods::enum_constraint_message("kind", cases));
    }
    let scalar = |t: Type| {
        let k = ctx.kind(t);
        k.is_float() || matches!(k, TypeKind::Integer(_, Signedness::Signless))
    };
    let (vt, mt) = (ctx.value_type(ops[0]), ctx.value_type(ops[1]));
    if !scalar(vt) {
        return Err(format!(
            "operand #0 must be signless integer or floating-point, but got '{}'",
            tyname(ctx, vt)
        ));
    }
    let (rank, elem) = match ctx.kind(mt) {
        TypeKind::MemRef { shape, elem, .. } if scalar(*elem) => (shape.len(), *elem),
        _ => {
            return Err(format!(
            "operand #1 must be memref of signless integer or floating-point values, but got '{}'",
            tyname(ctx, mt)
        ))
        }
    };
    for (i, &x) in ops.iter().enumerate().skip(2) {
        if ctx.kind(ctx.value_type(x)) != &TypeKind::Index {
            return Err(format!(
                "operand #{i} must be index, but got '{}'",
                tyname(ctx, ctx.value_type(x))
            ));
        }
    }
    let rt = ctx.value_type(ctx.result(op, 0));
    if !scalar(rt) {
        return Err(format!(
            "result #0 must be signless integer or floating-point, but got '{}'",
            tyname(ctx, rt)
        ));
    }
    if vt != elem {
        return Err("failed to verify that value type matches element type of memref".into());
    }
    if vt != rt {
        return Err("failed to verify that all of {value, result} have same type".into());
    }
    if rank != ops.len() - 2 {
        return Err("expects the number of subscripts to be equal to memref rank".into());
    }
    let kind = rmw_kind(ctx, op).unwrap_or("assign");
    let float = ctx.kind(vt).is_float();
    match kind {
        "addf" | "maxf" | "minf" | "mulf" if !float => {
            Err(format!("with kind '{kind}' expects a floating-point type"))
        }
        "addi" | "maxs" | "maxu" | "mins" | "minu" | "muli" | "ori" | "andi" if float => {
            Err(format!("with kind '{kind}' expects an integer type"))
        }
        _ => Ok(()),
    }
}

/// `%m[%i, ...] : memref-type { ^bb0(%cur: T): ... }`: the region holds
/// the update of the current value.
fn parse_generic_atomic_rmw(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let (ops, e) = parse_indexed(p, st)?;
    st.operands = ops;
    st.result_types.push(e);
    let r = p.parse_region(&[], false)?;
    st.regions.push(r);
    attr_dict_kw(p, st)
}

fn print_generic_atomic_rmw(p: &mut Printer, op: Op) {
    let ops = p.ctx.operands(op);
    p.w(" ");
    p.operand(ops[0]);
    p.w("[");
    p.operands(&ops[1..]);
    p.w("] : ");
    let t = p.ctx.value_type(ops[0]);
    p.ty(t);
    p.w(" ");
    let r = p.ctx.regions_of(op)[0];
    p.region(r, true, true);
    p.attr_dict_kw(op, &[]);
}

fn verify_generic_atomic_rmw(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    let rs = ctx.regions_of(op);
    if ops.is_empty() || ctx.results(op).len() != 1 || rs.len() != 1 {
        return Err("expects a memref operand, one result and one region".into());
    }
    let mt = ctx.value_type(ops[0]);
    let (rank, elem) = match ctx.kind(mt) {
        TypeKind::MemRef { shape, elem, .. } => (shape.len(), *elem),
        _ => {
            return Err(format!(
            "operand #0 must be memref of signless integer or floating-point values, but got '{}'",
            tyname(ctx, mt)
        ))
        }
    };
    if rank != ops.len() - 1 {
        return Err("expects the number of subscripts to be equal to memref rank".into());
    }
    let Some(b) = ctx.entry_block(rs[0]) else {
        return Err("expected single number of entry block arguments".into());
    };
    let args = ctx.block_args(b);
    if args.len() != 1 {
        return Err("expected single number of entry block arguments".into());
    }
    let rt = ctx.value_type(ctx.result(op, 0));
    if ctx.value_type(args[0]) != rt || rt != elem {
        return Err("expected block argument of the same type result type".into());
    }
    Ok(())
}

fn verify_atomic_yield(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    if ops.len() != 1 {
        return Err(format!("expected 1 operand, but found {}", ops.len()));
    }
    let parent = ctx.parent_op(op);
    let want = parent
        .filter(|&o| ctx.name(o) == "memref.generic_atomic_rmw" && ctx.results(o).len() == 1)
        .map(|o| ctx.value_type(ctx.result(o, 0)));
    let Some(want) = want else {
        return Err("expects parent op 'memref.generic_atomic_rmw'".into());
    };
    let got = ctx.value_type(ops[0]);
    if got != want {
        return Err(format!(
            "types mismatch between yield op: '{}' and its parent: '{}'",
            tyname(ctx, got),
            tyname(ctx, want)
        ));
    }
    Ok(())
}

fn verify_rank(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    if ops.len() != 1 || ctx.results(op).len() != 1 {
        return Err("expects one operand and one result".into());
    }
    let t = ctx.value_type(ops[0]);
    if !matches!(
        ctx.kind(t),
        TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }
    ) {
        return Err(format!(
            "operand #0 must be unranked.memref of any type values or memref of any type values, but got '{}'",
            tyname(ctx, t)
        ));
    }
    Ok(())
}

fn verify_assume_alignment(ctx: &Context, op: Op) -> Result<(), String> {
    if ctx.operands(op).len() != 1 {
        return Err(format!(
            "expected 1 operand, but found {}",
            ctx.operands(op).len()
        ));
    }
    match ctx.get_attr(op, "alignment").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer(n, _)) if *n > 0 && (*n & (*n - 1)) == 0 => Ok(()),
        Some(AttrKind::Integer(..)) => Err("alignment must be power of 2".into()),
        _ => Err("requires attribute 'alignment'".into()),
    }
}

/// `[-> (T, ...)] { ... }`; a body without results may end without its
/// `memref.alloca_scope.return`.
fn parse_alloca_scope(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    st.result_types = optional_arrow_types(p)?;
    let r = region_with_implicit_terminator(p, &[], "memref.alloca_scope.return")?;
    st.regions.push(r);
    attr_dict(p, st)
}

fn print_alloca_scope(p: &mut Printer, op: Op) {
    // mlir-opt prints two spaces after the name here.
    p.w(" ");
    let results = types_of(p.ctx, p.ctx.results(op));
    if !results.is_empty() {
        p.w(" -> (");
        p.types(&results);
        p.w(")");
    }
    p.w(" ");
    let r = p.ctx.regions_of(op)[0];
    p.region(
        r,
        false,
        !results.is_empty() || !can_elide_terminator(p.ctx, r),
    );
    p.attr_dict(op, &[]);
}

fn verify_global(ctx: &Context, op: Op) -> Result<(), String> {
    if !ctx.operands(op).is_empty() || !ctx.results(op).is_empty() {
        return Err("expects no operands and no results".into());
    }
    if !matches!(
        ctx.get_attr(op, "sym_name").map(|a| ctx.attr_kind(a)),
        Some(AttrKind::String(..))
    ) {
        return Err("requires attribute 'sym_name'".into());
    }
    let t = match ctx.get_attr(op, "type").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Type(t)) => *t,
        _ => return Err("requires attribute 'type'".into()),
    };
    let TypeKind::MemRef { shape, elem, .. } = ctx.kind(t) else {
        return Err(format!(
            "type should be static shaped memref, but got '{}'",
            tyname(ctx, t)
        ));
    };
    if shape.iter().any(|d| d.is_none()) {
        return Err(format!(
            "type should be static shaped memref, but got '{}'",
            tyname(ctx, t)
        ));
    }
    if let Some(init) = ctx.get_attr(op, "initial_value") {
        match ctx.attr_kind(init) {
            AttrKind::Unit => {}
            AttrKind::Dense(_, dt, _) => {
                let want = match ctx.kind(*dt) {
                    TypeKind::Tensor {
                        shape: s, elem: e, ..
                    } => {
                        s.iter().map(|d| d.unwrap_or(-1)).collect::<Vec<_>>()
                            == shape.iter().map(|d| d.unwrap_or(-1)).collect::<Vec<_>>()
                            && e == elem
                    }
                    _ => false,
                };
                if !want {
                    return Err(format!(
                        "initial value expected to be of type {}, but was of type {}",
                        tyname(ctx, *dt),
                        tyname(ctx, *dt)
                    ));
                }
            }
            _ => return Err("initial value should be a unit or elements attribute".into()),
        }
    }
    Ok(())
}

fn verify_get_global(ctx: &Context, op: Op) -> Result<(), String> {
    if !ctx.operands(op).is_empty() || ctx.results(op).len() != 1 {
        return Err("expects no operands and one result".into());
    }
    let Some(AttrKind::SymbolRef(root, nested)) =
        ctx.get_attr(op, "name").map(|a| ctx.attr_kind(a))
    else {
        return Err("requires attribute 'name'".into());
    };
    let name = ctx.str(*root);
    // The nearest symbol table above holds the global.
    let mut table = ctx.parent_op(op);
    while let Some(t) = table {
        if ctx.traits_of(t).symbol_table {
            break;
        }
        table = ctx.parent_op(t);
    }
    let global = table
        .filter(|_| nested.is_empty())
        .and_then(|t| ctx.lookup_symbol(t, name))
        .filter(|&g| ctx.name(g) == "memref.global");
    let Some(g) = global else {
        return Err(format!("'{name}' does not reference a valid global memref"));
    };
    let rt = ctx.value_type(ctx.result(op, 0));
    if let Some(AttrKind::Type(gt)) = ctx.get_attr(g, "type").map(|a| ctx.attr_kind(a)) {
        if *gt != rt {
            return Err(format!(
                "result type '{}' does not match type '{}' of the global memref @{name}",
                tyname(ctx, rt),
                tyname(ctx, *gt)
            ));
        }
    }
    Ok(())
}

fn verify_copy(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    if ops.len() != 2 {
        return Err(format!("expected 2 operands, but found {}", ops.len()));
    }
    if !ctx.results(op).is_empty() {
        return Err(format!(
            "requires zero results, but found {}",
            ctx.results(op).len()
        ));
    }
    for (i, &v) in ops.iter().enumerate() {
        let t = ctx.value_type(v);
        if !matches!(
            ctx.kind(t),
            TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }
        ) {
            return Err(format!(
                "operand #{i} must be unranked.memref of any type values or memref of any type values, but got '{}'",
                tyname(ctx, t)
            ));
        }
    }
    Ok(())
}

fn verify_alloca_scope(ctx: &Context, op: Op) -> Result<(), String> {
    if !ctx.operands(op).is_empty() {
        return Err(format!(
            "expected 0 operands, but found {}",
            ctx.operands(op).len()
        ));
    }
    let rs = ctx.regions_of(op);
    if rs.len() != 1 {
        return Err(format!("requires 1 region, but found {}", rs.len()));
    }
    // RegionBranchOpInterface: the return hands the scope its results (an
    // implicit return has none, however many the scope declares).
    let results: Vec<Type> = ctx.results(op).iter().map(|&r| ctx.value_type(r)).collect();
    crate::scf::check_region_edge(
        ctx,
        rs[0],
        "memref.alloca_scope.return",
        0,
        "parent results",
        &results,
    )
}

/// `ShapedType::kDynamicStrideOrOffset` (14 and 15).
const DYN_STRIDE_OR_OFFSET: i128 = i64::MIN as i128;
/// `ShapedType::kDynamicSize` (14 and 15).
const DYN_SIZE: i128 = -1;

fn parse_global_type_and_initial_value(p: &mut Parser, fr: &mut Frame, _: &[CArg]) -> PResult<()> {
    let t = p.parse_type()?;
    let static_shape = match p.ctx.kind(t) {
        TypeKind::MemRef { shape, .. } => shape.iter().all(|d| d.is_some()),
        _ => false,
    };
    let d = <GlobalOp as crate::format::Declared>::decl();
    if !static_shape {
        let msg = format!(
            "type should be static shaped memref, but got '{}'",
            tyname(p.ctx, t)
        );
        return op_err(p, d, fr.name_pos, msg);
    }
    let ta = p.ctx.type_attr(t);
    let s = p.static_sym("type");
    fr.st.attrs.push((s, ta));
    if !p.eat("=") {
        return Ok(());
    }
    let init = if p.eat_keyword("uninitialized") {
        p.ctx.unit_attr()
    } else {
        // The initializer is typed as the tensor of the memref's shape.
        let tt = tensor_of_memref(p.ctx, t).expect("a memref");
        let a = p.parse_attribute(Some(tt))?;
        if !matches!(p.ctx.attr_kind(a), AttrKind::Dense(..)) {
            return op_err(
                p,
                d,
                fr.name_pos,
                "initial value should be a unit or elements attribute",
            );
        }
        a
    };
    let s = p.static_sym("initial_value");
    fr.st.attrs.push((s, init));
    Ok(())
}

fn print_global_type_and_initial_value(p: &mut Printer, v: &View, _: &[CArg]) {
    let ctx = p.ctx;
    if let Some(AttrKind::Type(t)) = ctx.get_attr(v.op, "type").map(|a| ctx.attr_kind(a)) {
        p.ty(*t);
    }
    if let Some(init) = ctx.get_attr(v.op, "initial_value") {
        if matches!(ctx.attr_kind(init), AttrKind::Unit) {
            p.w(" = uninitialized");
        } else {
            p.w(" = ");
            p.attr_no_type(init);
        }
    }
}

/// `[%a, 4, %b]` (MLIR's `parseDynamicIndexList`): the SSA values into
/// operand group `args[0]`, every entry into the `I64ArrayAttr` `args[1]`
/// (`dynamic` for a value).
fn parse_index_list_into(
    p: &mut Parser,
    fr: &mut Frame,
    args: &[CArg],
    dynamic: i128,
) -> PResult<()> {
    let (CArg::Var(Var::Operand(g)), CArg::Var(Var::Attr(a))) = (args[0], args[1]) else {
        unreachable!("declared with a group and its static list")
    };
    p.skip_ws();
    let at = p.pos;
    fr.begin_group(p, g, at);
    p.expect("[")?;
    let mut statics = vec![];
    if !p.eat("]") {
        loop {
            p.skip_ws();
            if p.peek_operand() {
                fr.parse_operand(p, g)?;
                statics.push(dynamic);
            } else {
                let pos = p.pos;
                let Some(n) = p.int_lit().filter(|n| i64::try_from(*n).is_ok()) else {
                    return p.err(pos, "expected SSA value or integer");
                };
                statics.push(n);
            }
            if !p.eat(",") {
                break;
            }
        }
        p.expect("]")?;
    }
    let list = i64_array(p.ctx, &statics);
    let name = fr.attr_name(a);
    let s = p.static_sym(name);
    fr.st.attrs.push((s, list));
    Ok(())
}

/// `[%a, 4, %b]` from the static list and the group's values (MLIR's
/// `printDynamicIndexList`).
fn print_index_list_of(p: &mut Printer, v: &View, args: &[CArg], dynamic: i128) {
    let (CArg::Var(Var::Operand(g)), CArg::Var(Var::Attr(a))) = (args[0], args[1]) else {
        return;
    };
    let mut values = v.operands(p.ctx, g);
    p.w("[");
    let statics = get_i64_array(p.ctx, v.op, v.decl.attrs[a].name).unwrap_or_default();
    for (i, &s) in statics.iter().enumerate() {
        if i > 0 {
            p.w(", ");
        }
        match values.split_first() {
            Some((&x, rest)) if s == dynamic => {
                p.operand(x);
                values = rest;
            }
            _ => p.w(&s.to_string()),
        }
    }
    p.w("]");
}

const OFFSETS_SIZES_STRIDES: [&str; 3] = ["static_offsets", "static_sizes", "static_strides"];
const OSS_SENTINELS: [i128; 3] = [DYN_STRIDE_OR_OFFSET, DYN_SIZE, DYN_STRIDE_OR_OFFSET];

/// An `I64ArrayAttr`.
fn i64_array(ctx: &mut Context, vs: &[i128]) -> Attribute {
    let i64t = ctx.int_type(64);
    let elems = vs.iter().map(|&v| ctx.int_attr(v, i64t)).collect();
    ctx.attr(AttrKind::Array(elems))
}

/// The integers of an `I64ArrayAttr`, if the op has it.
fn get_i64_array(ctx: &Context, op: Op, name: &str) -> Option<Vec<i128>> {
    match ctx.attr_kind(ctx.get_attr(op, name)?) {
        AttrKind::Array(es) => es
            .iter()
            .map(|&e| match ctx.attr_kind(e) {
                AttrKind::Integer(v, _) => Some(*v),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// `%src [[0, 1], [2]] attrs : T into U` (`expand_shape`, `collapse_shape`).
fn parse_reshape_like(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let src = p.parse_operand_ref()?;
    let a = p.parse_attribute(None)?;
    let s = p.ctx.sym("reassociation");
    st.attrs.push((s, a));
    attr_dict(p, st)?;
    let t = colon_type(p)?;
    p.expect_keyword("into")?;
    let u = p.parse_type()?;
    st.operands.push(p.resolve_operand(&src, t)?);
    st.result_types.push(u);
    Ok(())
}

fn print_reshape_like(p: &mut Printer, op: Op) {
    let src = p.ctx.operand(op, 0);
    p.w(" ");
    p.operand(src);
    p.w(" ");
    if let Some(a) = p.ctx.get_attr(op, "reassociation") {
        p.attr(a);
    }
    // 13's and 14's printer: `] `, the dictionary with its own leading
    // space, then `: `.
    p.w(" ");
    p.attr_dict(op, &["reassociation"]);
    p.w(": ");
    let t = p.ctx.value_type(src);
    p.ty(t);
    p.w(" into ");
    let u = p.ctx.value_type(p.ctx.result(op, 0));
    p.ty(u);
}

/// `%src[%shift][%sizes...] attrs : T to U`.
fn parse_view(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let src = p.parse_operand_ref()?;
    p.expect("[")?;
    let shift = p.parse_operand_ref()?;
    p.expect("]")?;
    p.expect("[")?;
    let sizes = p.parse_operand_list()?;
    p.expect("]")?;
    attr_dict(p, st)?;
    let t = colon_type(p)?;
    p.expect_keyword("to")?;
    let u = p.parse_type()?;
    let index = p.index_type();
    st.operands.push(p.resolve_operand(&src, t)?);
    st.operands.push(p.resolve_operand(&shift, index)?);
    st.operands.extend(resolve_same(p, &sizes, index)?);
    st.result_types.push(u);
    Ok(())
}

fn print_view(p: &mut Printer, op: Op) {
    let ops = p.ctx.operands(op);
    p.w(" ");
    p.operand(ops[0]);
    p.w("[");
    p.operands(&ops[1..2]);
    p.w("][");
    p.operands(&ops[2..]);
    p.w("]");
    p.attr_dict(op, &[]);
    p.w(" : ");
    let t = p.ctx.value_type(ops[0]);
    p.ty(t);
    p.w(" to ");
    let u = p.ctx.value_type(p.ctx.result(op, 0));
    p.ty(u);
}

/// The length of a balanced `(...)` or `[...]` at `off` from the parser's
/// position, 0 if none is there.
fn balanced_len(p: &mut Parser, off: usize) -> usize {
    let (open, close) = match p.peek_at(off) {
        b'(' => (b'(', b')'),
        b'[' => (b'[', b']'),
        _ => return 0,
    };
    let mut depth = 0usize;
    let mut i = off;
    loop {
        match p.peek_at(i) {
            0 => return 0,
            c if c == open => depth += 1,
            c if c == close => {
                depth -= 1;
                if depth == 0 {
                    return i + 1 - off;
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// Bytes of whitespace at `off` from the parser's position.
fn spaces_len(p: &mut Parser, off: usize) -> usize {
    let mut i = off;
    while matches!(p.peek_at(i), b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i - off
}

/// A bare affine map, `(d0, d1)[s0] -> (d1, d0)`, as `parseAffineMap`
/// reads it, stored as the `affine_map<...>` attribute it denotes.
fn parse_bare_affine_map(p: &mut Parser) -> PResult<Attribute> {
    // MLIR reports a missing map where the previous token ended.
    let before = p.pos;
    if p.peek() != b'(' {
        return p.err(before, "expected '(' in dimensional identifier list");
    }
    let start = p.pos;
    let mut n = balanced_len(p, 0);
    if n > 0 {
        n += spaces_len(p, n);
        n += balanced_len(p, n);
        n += spaces_len(p, n);
        if p.peek_at(n) == b'-' && p.peek_at(n + 1) == b'>' {
            n += 2;
            n += spaces_len(p, n);
            let r = balanced_len(p, n);
            n = if r == 0 { 0 } else { n + r };
        } else {
            n = 0;
        }
    }
    if n == 0 {
        return p.err(start, "expected affine map");
    }
    let text: String = (0..n).map(|i| p.peek_at(i) as char).collect();
    let canonical = match mlir_async_ir::affine::parse_map(&text) {
        Ok(m) => m.to_string(),
        Err(e) => return p.err(start + e.offset, e.message),
    };
    p.pos = start + n;
    Ok(p.ctx
        .attr(AttrKind::Affine(format!("affine_map<{canonical}>"))))
}

/// `%in (d0, d1) -> (d1, d0) attrs : T to U`.
fn parse_transpose(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let src = p.parse_operand_ref()?;
    let map = parse_bare_affine_map(p)?;
    let s = p.ctx.sym("permutation");
    st.attrs.push((s, map));
    attr_dict(p, st)?;
    let t = colon_type(p)?;
    p.expect_keyword("to")?;
    let u = p.parse_type()?;
    st.operands.push(p.resolve_operand(&src, t)?);
    st.result_types.push(u);
    Ok(())
}

fn print_transpose(p: &mut Printer, op: Op) {
    let src = p.ctx.operand(op, 0);
    p.w(" ");
    p.operand(src);
    p.w(" ");
    if let Some(AttrKind::Affine(t)) = p
        .ctx
        .get_attr(op, "permutation")
        .map(|a| p.ctx.attr_kind(a))
    {
        let body = t
            .strip_prefix("affine_map<")
            .and_then(|b| b.strip_suffix('>'))
            .unwrap_or(t);
        p.w(body);
    }
    p.attr_dict(op, &["permutation"]);
    p.w(" : ");
    let t = p.ctx.value_type(src);
    p.ty(t);
    p.w(" to ");
    let u = p.ctx.value_type(p.ctx.result(op, 0));
    p.ty(u);
}

/// `%m[%i, ...], read|write, locality<N>, data|instr attrs : T`.
fn parse_prefetch(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let name_pos = name_start(p, "memref.prefetch");
    let m = p.parse_operand_ref()?;
    p.expect("[")?;
    let ids = p.parse_operand_list()?;
    p.expect("]")?;
    p.expect(",")?;
    let write = match p.ident() {
        Some("read") => false,
        Some("write") => true,
        _ => {
            return p.err(
                name_pos,
                "custom op 'memref.prefetch' rw specifier has to be 'read' or 'write'",
            )
        }
    };
    p.expect(",")?;
    p.expect_keyword("locality")?;
    p.expect("<")?;
    p.skip_ws();
    let lpos = p.pos;
    let Some(hint) = p.int_lit().filter(|n| i32::try_from(*n).is_ok()) else {
        return p.err(lpos, "expected integer value");
    };
    p.expect(">")?;
    p.expect(",")?;
    let data = match p.ident() {
        Some("data") => true,
        Some("instr") => false,
        _ => {
            return p.err(
                name_pos,
                "custom op 'memref.prefetch' cache type has to be 'data' or 'instr'",
            )
        }
    };
    attr_dict(p, st)?;
    let t = colon_type(p)?;
    let index = p.index_type();
    st.operands.push(p.resolve_operand(&m, t)?);
    st.operands.extend(resolve_same(p, &ids, index)?);
    let i32t = p.ctx.int_type(32);
    let entries = [
        ("isWrite", p.ctx.attr(AttrKind::Bool(write))),
        ("localityHint", p.ctx.int_attr(hint, i32t)),
        ("isDataCache", p.ctx.attr(AttrKind::Bool(data))),
    ];
    for (k, a) in entries {
        let s = p.ctx.sym(k);
        st.attrs.push((s, a));
    }
    Ok(())
}

fn print_prefetch(p: &mut Printer, op: Op) {
    let ops = p.ctx.operands(op);
    p.w(" ");
    p.operand(ops[0]);
    p.w("[");
    p.operands(&ops[1..]);
    p.w("], ");
    let flag = |p: &Printer, k: &str| {
        matches!(
            p.ctx.get_attr(op, k).map(|a| p.ctx.attr_kind(a)),
            Some(AttrKind::Bool(true))
        )
    };
    p.w(if flag(p, "isWrite") { "write" } else { "read" });
    p.w(", locality<");
    if let Some(AttrKind::Integer(n, _)) = p
        .ctx
        .get_attr(op, "localityHint")
        .map(|a| p.ctx.attr_kind(a))
    {
        p.w(&n.to_string());
    }
    p.w(">, ");
    p.w(if flag(p, "isDataCache") {
        "data"
    } else {
        "instr"
    });
    p.attr_dict(op, &["localityHint", "isWrite", "isDataCache"]);
    p.w(" : ");
    let t = p.ctx.value_type(ops[0]);
    p.ty(t);
}

/// `%m[%i, ...]`, unresolved.
fn parse_memref_at<'a>(
    p: &mut Parser<'a, '_>,
) -> PResult<(
    mlir_async_syntax::UnresolvedOperand<'a>,
    Vec<mlir_async_syntax::UnresolvedOperand<'a>>,
)> {
    let m = p.parse_operand_ref()?;
    p.expect("[")?;
    let ids = p.parse_operand_list()?;
    p.expect("]")?;
    Ok((m, ids))
}

/// `%src[...], %dst[...], %n, %tag[...][, %stride, %per_stride] : S, D, T`.
fn parse_dma_start(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let name_pos = name_start(p, "memref.dma_start");
    let (src, src_ids) = parse_memref_at(p)?;
    p.expect(",")?;
    let (dst, dst_ids) = parse_memref_at(p)?;
    p.expect(",")?;
    let n = p.parse_operand_ref()?;
    p.expect(",")?;
    let (tag, tag_ids) = parse_memref_at(p)?;
    let stride = if p.eat(",") {
        p.parse_operand_list()?
    } else {
        vec![]
    };
    if !stride.is_empty() && stride.len() != 2 {
        return p.err(
            name_pos,
            "custom op 'memref.dma_start' expected two stride related operands",
        );
    }
    // Upstream's parser reads no attribute dictionary (its printer writes one).
    p.expect(":")?;
    let tys = p.parse_type_list_no_parens()?;
    if tys.len() != 3 {
        return p.err(
            name_pos,
            "custom op 'memref.dma_start' fewer/more types expected",
        );
    }
    let index = p.index_type();
    st.operands.push(p.resolve_operand(&src, tys[0])?);
    st.operands.extend(resolve_same(p, &src_ids, index)?);
    st.operands.push(p.resolve_operand(&dst, tys[1])?);
    st.operands.extend(resolve_same(p, &dst_ids, index)?);
    st.operands.push(p.resolve_operand(&n, index)?);
    st.operands.push(p.resolve_operand(&tag, tys[2])?);
    st.operands.extend(resolve_same(p, &tag_ids, index)?);
    st.operands.extend(resolve_same(p, &stride, index)?);
    Ok(())
}

/// The rank of a memref type.
fn memref_rank(ctx: &Context, t: Type) -> Option<usize> {
    match ctx.kind(t) {
        TypeKind::MemRef { shape, .. } => Some(shape.len()),
        _ => None,
    }
}

fn print_dma_start(p: &mut Printer, op: Op) {
    let ops = p.ctx.operands(op);
    let rank = |i: usize| memref_rank(p.ctx, p.ctx.value_type(ops[i])).unwrap_or(0);
    // Positions of the source, destination, element count and tag (the
    // verifier has checked the operands fit).
    let s = 0;
    let d = s + 1 + rank(s);
    let n = d + 1 + rank(d);
    let t = n + 1;
    let rest = t + 1 + rank(t);
    p.w(" ");
    for (m, end) in [(s, d), (d, n)] {
        p.operand(ops[m]);
        p.w("[");
        p.operands(&ops[m + 1..end]);
        p.w("], ");
    }
    p.operand(ops[n]);
    p.w(", ");
    p.operand(ops[t]);
    p.w("[");
    p.operands(&ops[t + 1..rest]);
    p.w("]");
    for &v in &ops[rest..] {
        p.w(", ");
        p.operand(v);
    }
    p.attr_dict(op, &[]);
    p.w(" : ");
    let tys = [ops[s], ops[d], ops[t]].map(|v| p.ctx.value_type(v));
    p.types(&tys);
}

/// `DmaStartOp::verify`, in upstream's order and words.
fn verify_dma_start(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    if !ctx.results(op).is_empty() {
        return Err("requires zero results".into());
    }
    let n = ops.len();
    if n < 4 {
        return Err("expected at least 4 operands".into());
    }
    let is_index = |v: &Value| ctx.kind(ctx.value_type(*v)) == &TypeKind::Index;
    let Some(src_rank) = memref_rank(ctx, ctx.value_type(ops[0])) else {
        return Err("expected source to be of memref type".into());
    };
    if n < src_rank + 4 {
        return Err(format!("expected at least {} operands", src_rank + 4));
    }
    if !ops[1..1 + src_rank].iter().all(is_index) {
        return Err("expected source indices to be of index type".into());
    }
    let d = 1 + src_rank;
    let Some(dst_rank) = memref_rank(ctx, ctx.value_type(ops[d])) else {
        return Err("expected destination to be of memref type".into());
    };
    let mut expected = src_rank + dst_rank + 4;
    if n < expected {
        return Err(format!("expected at least {expected} operands"));
    }
    if !ops[d + 1..d + 1 + dst_rank].iter().all(is_index) {
        return Err("expected destination indices to be of index type".into());
    }
    let num = d + 1 + dst_rank;
    if !is_index(&ops[num]) {
        return Err("expected num elements to be of index type".into());
    }
    let t = num + 1;
    let Some(tag_rank) = memref_rank(ctx, ctx.value_type(ops[t])) else {
        return Err("expected tag to be of memref type".into());
    };
    expected += tag_rank;
    if n < expected {
        return Err(format!("expected at least {expected} operands"));
    }
    if !ops[t + 1..t + 1 + tag_rank].iter().all(is_index) {
        return Err("expected tag indices to be of index type".into());
    }
    if n != expected && n != expected + 2 {
        return Err("incorrect number of operands".into());
    }
    if n == expected + 2 && !ops[expected..].iter().all(is_index) {
        return Err("expected stride and num elements per stride to be of type index".into());
    }
    Ok(())
}

/// ODS's checks and `DmaWaitOp::verify`.
fn verify_dma_wait(ctx: &Context, op: Op) -> Result<(), String> {
    check_counts(ctx, op, 2, true, 0)?;
    let ops = ctx.operands(op);
    let t = ctx.value_type(ops[0]);
    let Some(rank) = memref_rank(ctx, t) else {
        return Err(format!(
            "operand #0 must be memref of any type values, but got '{}'",
            tyname(ctx, t)
        ));
    };
    for (i, &v) in ops.iter().enumerate().skip(1) {
        let vt = ctx.value_type(v);
        if ctx.kind(vt) != &TypeKind::Index {
            return Err(format!(
                "operand #{i} must be index, but got '{}'",
                tyname(ctx, vt)
            ));
        }
    }
    let got = ops.len() - 2;
    if got != rank {
        return Err(format!("expected tagIndices to have the same number of elements as the tagMemRef rank, expected {rank}, but got {got}"));
    }
    Ok(())
}

/// ODS's operand and result counts: `ops` operands (at least `ops` if
/// `variadic`), `results` results.
fn check_counts(
    ctx: &Context,
    op: Op,
    ops: usize,
    variadic: bool,
    results: usize,
) -> Result<(), String> {
    // ODS checks the result count (a trait) before the operands.
    let r = ctx.results(op).len();
    if r != results {
        return Err(match results {
            0 => "requires zero results".to_string(),
            _ => "requires one result".to_string(),
        });
    }
    let n = ctx.operands(op).len();
    if variadic && n < ops {
        return Err(format!("expected {ops} or more operands, but found {n}"));
    }
    if !variadic && n != ops {
        return Err(format!(
            "expected {ops} operand{}, but found {n}",
            if ops == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}

fn is_memref(ctx: &Context, t: Type, unranked_ok: bool) -> bool {
    match ctx.kind(t) {
        TypeKind::MemRef { .. } => true,
        TypeKind::UnrankedMemRef { .. } => unranked_ok,
        _ => false,
    }
}

/// Operand `i` (`Err` if not) is a memref, or result `i` if `result`.
fn check_memref(
    ctx: &Context,
    op: Op,
    i: usize,
    result: bool,
    unranked_ok: bool,
) -> Result<(), String> {
    let (v, what) = if result {
        (ctx.result(op, i), "result")
    } else {
        (ctx.operand(op, i), "operand")
    };
    let t = ctx.value_type(v);
    if is_memref(ctx, t, unranked_ok) {
        return Ok(());
    }
    let kinds = if unranked_ok {
        "unranked.memref of any type values or memref of any type values"
    } else {
        "memref of any type values"
    };
    Err(format!(
        "{what} #{i} must be {kinds}, but got '{}'",
        tyname(ctx, t)
    ))
}

/// Operands from `from` on are of type `index`.
fn check_indices(ctx: &Context, op: Op, from: usize) -> Result<(), String> {
    for (i, &v) in ctx.operands(op).iter().enumerate().skip(from) {
        let t = ctx.value_type(v);
        if ctx.kind(t) != &TypeKind::Index {
            return Err(format!(
                "operand #{i} must be index, but got '{}'",
                tyname(ctx, t)
            ));
        }
    }
    Ok(())
}

/// The offsets, sizes and strides of `subview` and `reinterpret_cast`:
/// the attributes, the segment sizes and as many dynamic values as the
/// static lists have sentinels (`OffsetSizeAndStrideOpInterface`).
fn check_offsets_sizes_strides(ctx: &Context, op: Op, unranked_ok: bool) -> Result<(), String> {
    check_counts(ctx, op, 1, true, 1)?;
    let n = ctx.operands(op).len();
    let segs = get_segments(ctx, op, 4)
        .ok_or("requires 1D i32 elements attribute 'operand_segment_sizes'")?;
    let total: usize = segs.iter().sum();
    if total != n {
        return Err(format!("operand count ({n}) does not match with the total size ({total}) specified in attribute 'operand_segment_sizes'"));
    }
    if segs[0] != 1 {
        return Err(format!(
            "operand group starting at #0 requires 1 element, but found {}",
            segs[0]
        ));
    }
    let mut lists = vec![];
    for name in OFFSETS_SIZES_STRIDES {
        lists.push(get_i64_array(ctx, op, name).ok_or(format!("requires attribute '{name}'"))?);
    }
    check_memref(ctx, op, 0, false, unranked_ok)?;
    check_indices(ctx, op, 1)?;
    check_memref(ctx, op, 0, true, false)?;
    for (i, what) in ["offset", "size", "stride"].iter().enumerate() {
        let dynamic = lists[i].iter().filter(|&&v| v == OSS_SENTINELS[i]).count();
        if dynamic != segs[i + 1] {
            // `emitError`, without the op prefix.
            return Err(format!(
                "{}expected {dynamic} dynamic {what} values",
                crate::PLAIN_ERROR
            ));
        }
    }
    Ok(())
}

fn verify_subview(ctx: &Context, op: Op) -> Result<(), String> {
    check_offsets_sizes_strides(ctx, op, false)
}

fn verify_reinterpret_cast(ctx: &Context, op: Op) -> Result<(), String> {
    check_offsets_sizes_strides(ctx, op, true)
}

fn verify_reshape_like(ctx: &Context, op: Op) -> Result<(), String> {
    check_counts(ctx, op, 1, false, 1)?;
    let ok = match ctx.get_attr(op, "reassociation").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(groups)) => groups.iter().all(|&g| match ctx.attr_kind(g) {
            AttrKind::Array(es) => es
                .iter()
                .all(|&e| matches!(ctx.attr_kind(e), AttrKind::Integer(..))),
            _ => false,
        }),
        Some(_) => {
            return Err("attribute 'reassociation' failed to satisfy constraint: Array of 64-bit integer array attributes".into())
        }
        None => return Err("requires attribute 'reassociation'".into()),
    };
    if !ok {
        return Err("attribute 'reassociation' failed to satisfy constraint: Array of 64-bit integer array attributes".into());
    }
    check_memref(ctx, op, 0, false, false)?;
    check_memref(ctx, op, 0, true, false)
}

fn verify_reshape(ctx: &Context, op: Op) -> Result<(), String> {
    check_counts(ctx, op, 2, false, 1)?;
    check_memref(ctx, op, 0, false, true)?;
    check_memref(ctx, op, 1, false, false)?;
    check_memref(ctx, op, 0, true, true)
}

fn verify_view(ctx: &Context, op: Op) -> Result<(), String> {
    check_counts(ctx, op, 2, true, 1)?;
    check_memref(ctx, op, 0, false, false)?;
    check_indices(ctx, op, 1)?;
    check_memref(ctx, op, 0, true, false)
}

fn verify_transpose(ctx: &Context, op: Op) -> Result<(), String> {
    check_counts(ctx, op, 1, false, 1)?;
    let map = match ctx.get_attr(op, "permutation").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Affine(t)) if t.starts_with("affine_map<") => t
            .strip_prefix("affine_map<")
            .and_then(|b| b.strip_suffix('>'))
            .and_then(|b| mlir_async_ir::affine::parse_map(b).ok()),
        Some(_) => {
            return Err(
                "attribute 'permutation' failed to satisfy constraint: AffineMap attribute".into(),
            )
        }
        None => return Err("requires attribute 'permutation'".into()),
    };
    check_memref(ctx, op, 0, false, false)?;
    check_memref(ctx, op, 0, true, false)?;
    // `AffineMap::isPermutation`: as many results as dims, each a distinct
    // dim, no symbols.
    let Some(map) = map else {
        return Err("expected a permutation map".into());
    };
    let mut seen = vec![false; map.num_dims as usize];
    let permutation = map.num_syms == 0
        && map.results.len() == seen.len()
        && map.results.iter().all(|e| match e {
            mlir_async_ir::affine::AffineExpr::Dim(d) => {
                !std::mem::replace(&mut seen[*d as usize], true)
            }
            _ => false,
        });
    if !permutation {
        return Err("expected a permutation map".into());
    }
    let rank = memref_rank(ctx, ctx.value_type(ctx.operand(op, 0))).unwrap_or(0);
    if seen.len() != rank {
        return Err("expected a permutation map of same rank as the input".into());
    }
    Ok(())
}

fn verify_prefetch(ctx: &Context, op: Op) -> Result<(), String> {
    check_counts(ctx, op, 1, true, 0)?;
    for (name, want) in [
        ("isDataCache", "bool attribute"),
        ("isWrite", "bool attribute"),
        (
            "localityHint",
            "32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3",
        ),
    ] {
        let ok = match ctx.get_attr(op, name).map(|a| ctx.attr_kind(a)) {
            None => return Err(format!("requires attribute '{name}'")),
            Some(AttrKind::Bool(_)) => name != "localityHint",
            Some(AttrKind::Integer(v, t)) => {
                name == "localityHint"
                    && (0..=3).contains(v)
                    && matches!(ctx.kind(*t), TypeKind::Integer(32, Signedness::Signless))
            }
            Some(_) => false,
        };
        if !ok {
            return Err(format!(
                "attribute '{name}' failed to satisfy constraint: {want}"
            ));
        }
    }
    check_memref(ctx, op, 0, false, false)?;
    check_indices(ctx, op, 1)?;
    let rank = memref_rank(ctx, ctx.value_type(ctx.operand(op, 0))).unwrap_or(0);
    if ctx.operands(op).len() != 1 + rank {
        return Err("too few indices".into());
    }
    Ok(())
}

/// Where the op's name starts, for errors MLIR reports at the name
/// (`parser.getNameLoc()`) as `custom op 'name' ...`: the parser stands
/// right after the name when a custom parser starts; `name` spelled out is
/// the only spelling of these ops.
fn name_start(p: &mut Parser, name: &str) -> usize {
    let here = p.pos;
    let Some(start) = here.checked_sub(name.len()) else {
        return here;
    };
    p.pos = start;
    let spelled = name.bytes().enumerate().all(|(i, c)| p.peek_at(i) == c);
    p.pos = here;
    if spelled {
        start
    } else {
        here
    }
}

/// The tensor type of a memref's shape and element type (memref's
/// `getTensorTypeFromMemRefType`); `None` for a type that is no memref.
fn tensor_of_memref(ctx: &mut Context, t: Type) -> Option<Type> {
    let k = match ctx.kind(t) {
        TypeKind::MemRef { shape, elem, .. } => TypeKind::Tensor {
            shape: shape.clone(),
            elem: *elem,
            encoding: None,
        },
        TypeKind::UnrankedMemRef { elem, .. } => TypeKind::UnrankedTensor(*elem),
        _ => return None,
    };
    Some(ctx.ty(k))
}

fn is_any_memref(ctx: &Context, t: Type) -> bool {
    matches!(
        ctx.kind(t),
        TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }
    )
}

fn is_tensor(ctx: &Context, t: Type) -> bool {
    matches!(
        ctx.kind(t),
        TypeKind::Tensor { .. } | TypeKind::UnrankedTensor(_)
    )
}

/// Shape of a shaped type: `None` unranked.
fn shape_dims(ctx: &Context, t: Type) -> Option<Vec<Option<i64>>> {
    match ctx.kind(t) {
        TypeKind::MemRef { shape, .. } | TypeKind::Tensor { shape, .. } => Some(shape.clone()),
        TypeKind::Vector { shape, .. } => Some(shape.iter().map(|&d| Some(d)).collect()),
        _ => None,
    }
}

/// MLIR's `verifyCompatibleShape`: equal ranks (or one unranked), and
/// equal static sizes where both are static.
fn compatible_shapes(ctx: &Context, a: Type, b: Type) -> bool {
    match (shape_dims(ctx, a), shape_dims(ctx, b)) {
        (Some(x), Some(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(&y)
                    .all(|(p, q)| p.is_none() || q.is_none() || p == q)
        }
        _ => true,
    }
}

fn operand_kind_error(ctx: &Context, what: &str, i: usize, t: Type, kind: &str) -> String {
    format!("{what} #{i} must be {kind}, but got '{}'", tyname(ctx, t))
}

const MEMREF_KIND: &str = "unranked.memref of any type values or memref of any type values";
const TENSOR_KIND: &str = "tensor of any type values";

/// 13 and 14: `SameOperandsShape`, `SameOperandsElementType`; 15 says the
/// same in one `TypesMatchWith`.
fn verify_tensor_store(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    let (tt, mt) = (ctx.value_type(ops[0]), ctx.value_type(ops[1]));
    if !is_tensor(ctx, tt) {
        return Err(operand_kind_error(ctx, "operand", 0, tt, TENSOR_KIND));
    }
    if !is_any_memref(ctx, mt) {
        return Err(operand_kind_error(ctx, "operand", 1, mt, MEMREF_KIND));
    }
    if !compatible_shapes(ctx, tt, mt) {
        return Err("requires the same shape for all operands".into());
    }
    if elem_of(ctx, tt) != elem_of(ctx, mt) {
        return Err("requires the same element type for all operands".into());
    }
    Ok(())
}

/// `SameOperandsAndResultShape` and `...ElementType` of a cast between a
/// tensor and a memref, after the kinds of both.
fn verify_bufferization_cast(ctx: &Context, op: Op, from_tensor: bool) -> Result<(), String> {
    let (from, to) = (
        ctx.value_type(ctx.operands(op)[0]),
        ctx.value_type(ctx.result(op, 0)),
    );
    let (from_kind, to_kind) = if from_tensor {
        (TENSOR_KIND, MEMREF_KIND)
    } else {
        (MEMREF_KIND, TENSOR_KIND)
    };
    let is_from = if from_tensor {
        is_tensor
    } else {
        is_any_memref
    };
    let is_to = if from_tensor {
        is_any_memref
    } else {
        is_tensor
    };
    if !is_from(ctx, from) {
        return Err(operand_kind_error(ctx, "operand", 0, from, from_kind));
    }
    if !is_to(ctx, to) {
        return Err(operand_kind_error(ctx, "result", 0, to, to_kind));
    }
    if !compatible_shapes(ctx, from, to) {
        return Err("requires the same shape for all operands and results".into());
    }
    if elem_of(ctx, from) != elem_of(ctx, to) {
        return Err("requires the same element type for all operands and results".into());
    }
    Ok(())
}

fn verify_buffer_cast(ctx: &Context, op: Op) -> Result<(), String> {
    verify_bufferization_cast(ctx, op, true)
}

fn verify_tensor_load(ctx: &Context, op: Op) -> Result<(), String> {
    verify_bufferization_cast(ctx, op, false)
}

fn verify_clone(ctx: &Context, op: Op) -> Result<(), String> {
    let (t, u) = (
        ctx.value_type(ctx.operands(op)[0]),
        ctx.value_type(ctx.result(op, 0)),
    );
    if !is_any_memref(ctx, t) {
        return Err(operand_kind_error(ctx, "operand", 0, t, MEMREF_KIND));
    }
    if !is_any_memref(ctx, u) {
        return Err(operand_kind_error(ctx, "result", 0, u, MEMREF_KIND));
    }
    Ok(())
}

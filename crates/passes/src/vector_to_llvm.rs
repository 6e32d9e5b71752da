//! `-convert-vector-to-llvm` (LLVM 13-15), as far as the async tests use
//! it: `vector.print` unrolled into calls of the runner's printing
//! library (`printF32`, `printI64`, `printOpen`, `printComma`, ...), as
//! upstream's `VectorPrintOpConversion`. As upstream, the pass first runs
//! the greedy driver over the module (its vector patterns find nothing
//! here, but the driver folds and erases dead ops everywhere), then a
//! partial conversion in which `arith`, `memref` and (before 15) `std`
//! stay legal, so the integer extensions it adds stay `arith` ops.

use crate::llvm_common::{llvm_target, lookup_or_create_fn, LowerToLlvmOptions, Lowering};
use crate::{OptionKind, Pass, PassContext, PassInfo, PassOption};
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_dialects::llvm::types as llvm;
use mlir_async_dialects::llvm_build as lb;
use mlir_async_ir::{IrError, Location, Op, Signedness, Type, TypeKind, Value};
use mlir_async_rewrite::{
    apply_partial_conversion, apply_patterns_and_fold_greedily, ConversionPatternSet,
    ConversionRewriter, GreedyConfig, PatternSet, RewriteError,
};
use mlir_async_syntax::edition::generic_name;
use mlir_async_syntax::Edition;

type R = Result<bool, RewriteError>;

const OPTIONS: &[PassOption] = &[
    PassOption::new(
        "reassociate-fp-reductions",
        OptionKind::Bool,
        "false",
        "Allows llvm to reassociate floating-point reductions for speed",
    ),
    PassOption::new(
        "enable-index-optimizations",
        OptionKind::Bool,
        "true",
        "Allows compiler to assume indices fit in 32-bit if that yields faster code",
    ),
];

pub fn info() -> PassInfo {
    PassInfo {
        arg: "convert-vector-to-llvm",
        summary: "Lower the operations from the vector dialect into the LLVM dialect",
        options: OPTIONS,
        anchor: "builtin.module",
        make: |_| Ok(Box::new(VectorToLlvm)),
    }
}

pub struct VectorToLlvm;

impl Pass for VectorToLlvm {
    fn name(&self) -> &'static str {
        "convert-vector-to-llvm"
    }
    fn display_name(&self) -> &'static str {
        "ConvertVectorToLLVM"
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let ifaces = Interfaces::new(pc.registry, pc.edition);
        // The vector-to-vector lowerings: none applies to the ops we know,
        // but the greedy driver folds and cleans up on the way.
        let frozen = PatternSet::new().freeze(pc.ctx);
        let regions = pc.ctx.regions_of(op).to_vec();
        let config = GreedyConfig {
            llvm15: pc.edition == Edition::V15,
            llvm13: pc.edition == Edition::V13,
            // MLIR's `GreedyRewriteConfig` default (the canonicalizer
            // alone asks for top-down): ops visited bottom-up.
            top_down: false,
            ..GreedyConfig::default()
        };
        apply_patterns_and_fold_greedily(pc.ctx, &regions, &frozen, &ifaces, config)
            .map_err(|e| e.into_ir_error(pc.ctx))?;

        let l = Lowering::new(LowerToLlvmOptions::default(), pc.edition);
        let mut patterns = ConversionPatternSet::new();
        l.add(
            &mut patterns,
            "vector.print",
            "VectorPrintOpConversion",
            print,
        );
        let mut target = llvm_target();
        target
            .add_legal_dialect("arith")
            .add_legal_dialect("memref");
        if pc.edition != Edition::V15 {
            // `std` as the generation spells it: func and cf ops, `select`.
            let ed = pc.edition;
            target.mark_unknown_op_dynamically_legal(move |ctx, o| {
                generic_name(ctx.name(o), ed).starts_with("std.")
            });
        }
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

#[derive(Clone, Copy)]
enum Extension {
    None,
    Zero,
    Sign,
}

/// `vector.print`: each element printed by the runtime function of its
/// type, vectors in brackets with commas, a newline after.
fn print(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let ty = ctx.value_type(ctx.operand(op, 0));
    if l.convert(ctx, ty).is_none() {
        return Ok(false);
    }
    let (elem, rank) = match ctx.kind(ty) {
        TypeKind::Vector { elem, shape, .. } => (*elem, Some(shape.len())),
        _ => (ty, None),
    };
    let i64t = ctx.int_type(64);
    let f32t = ctx.ty(TypeKind::F32);
    let f64t = ctx.ty(TypeKind::F64);
    let (printer, param, ext) = match ctx.kind(elem).clone() {
        TypeKind::F32 => ("printF32", f32t, Extension::None),
        TypeKind::F64 => ("printF64", f64t, Extension::None),
        TypeKind::Index => ("printU64", i64t, Extension::None),
        TypeKind::Integer(w, Signedness::Unsigned) if w <= 64 => (
            "printU64",
            i64t,
            if w < 64 {
                Extension::Zero
            } else {
                Extension::None
            },
        ),
        TypeKind::Integer(w, s) if w <= 64 && s != Signedness::Unsigned => (
            "printI64",
            i64t,
            match w {
                1 => Extension::Zero,
                64 => Extension::None,
                _ => Extension::Sign,
            },
        ),
        _ => return Ok(false),
    };
    let void = llvm::void(ctx);
    lookup_or_create_fn(ctx, op, printer, &[param], void)?;
    let loc = ctx.op_loc(op);
    rw.set_insertion_point(op);
    let p = Printer {
        l,
        op,
        loc,
        printer,
        ext,
    };
    p.ranks(rw, operands[0], ty, rank.unwrap_or(0))?;
    lookup_or_create_fn(rw.ctx(), op, "printNewline", &[], void)?;
    call(rw, loc, "printNewline", &[])?;
    rw.erase_op(op)?;
    Ok(true)
}

/// `llvm.call` of a printing function, as the ODS builder makes it.
fn call(
    rw: &mut ConversionRewriter,
    loc: Location,
    f: &str,
    args: &[Value],
) -> Result<(), RewriteError> {
    lb::call_fmf(rw, loc, f, &[], args)?;
    Ok(())
}

struct Printer<'a> {
    l: &'a Lowering,
    op: Op,
    loc: Location,
    printer: &'static str,
    ext: Extension,
}

impl Printer<'_> {
    fn declare(&self, rw: &mut ConversionRewriter, name: &str) -> Result<(), RewriteError> {
        let void = llvm::void(rw.ctx());
        lookup_or_create_fn(rw.ctx(), self.op, name, &[], void)
    }

    /// Prints `value` of (original) type `ty`, of rank `rank`.
    fn ranks(
        &self,
        rw: &mut ConversionRewriter,
        value: Value,
        ty: Type,
        rank: usize,
    ) -> Result<(), RewriteError> {
        let loc = self.loc;
        let TypeKind::Vector { shape, elem, .. } = rw.ctx_ref().kind(ty).clone() else {
            let v = match self.ext {
                Extension::None => value,
                Extension::Zero | Extension::Sign => {
                    let name = if matches!(self.ext, Extension::Zero) {
                        "arith.extui"
                    } else {
                        "arith.extsi"
                    };
                    let i64t = rw.ctx().int_type(64);
                    lb::op1(rw, name, loc, &[value], i64t, &[])?
                }
            };
            return call(rw, loc, self.printer, &[v]);
        };
        self.declare(rw, "printOpen")?;
        call(rw, loc, "printOpen", &[])?;
        self.declare(rw, "printComma")?;
        if rank <= 1 {
            let llvm_elem = self
                .l
                .convert(rw.ctx(), elem)
                .ok_or_else(|| RewriteError::at(loc, "cannot convert the element type"))?;
            let dim = if rank == 0 { 1 } else { shape[0] };
            for d in 0..dim {
                let c = self.l.index_constant(rw, loc, d)?;
                let nested = lb::op1(rw, "llvm.extractelement", loc, &[value, c], llvm_elem, &[])?;
                self.ranks(rw, nested, elem, 0)?;
                if d != dim - 1 {
                    call(rw, loc, "printComma", &[])?;
                }
            }
        } else {
            let reduced = rw.ctx().ty(TypeKind::Vector {
                shape: shape[1..].to_vec(),
                scalable: 0,
                elem,
            });
            for d in 0..shape[0] {
                let nested = lb::extract_value(rw, loc, value, &[d])?;
                self.ranks(rw, nested, reduced, rank - 1)?;
                if d != shape[0] - 1 {
                    call(rw, loc, "printComma", &[])?;
                }
            }
        }
        self.declare(rw, "printClose")?;
        call(rw, loc, "printClose", &[])
    }
}

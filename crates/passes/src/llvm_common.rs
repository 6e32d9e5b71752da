//! What every lowering to the LLVM dialect shares, as MLIR's `LLVMCommon`:
//! the type converter (`index` to `i64`, a memref to its descriptor
//! struct, builtin types LLVM can hold kept), with casts materialized
//! where converted and unconverted values meet.

use mlir_async_dialects::llvm::types as llvm;
use mlir_async_ir::{AttrKind, Context, Type, TypeKind};
use mlir_async_rewrite::{TypeConversion, TypeConverter};

/// Options of the lowering (MLIR's `LowerToLLVMOptions`).
#[derive(Clone, Copy, Debug)]
pub struct LowerToLlvmOptions {
    /// The width `index` becomes.
    pub index_bitwidth: u32,
}

impl Default for LowerToLlvmOptions {
    fn default() -> Self {
        LowerToLlvmOptions { index_bitwidth: 64 }
    }
}

/// MLIR's `LLVMTypeConverter`. Later conversions are tried first, so the
/// catch-all "LLVM-compatible types stay" comes before the specific ones.
pub fn llvm_type_converter(opts: LowerToLlvmOptions) -> TypeConverter {
    let mut conv = TypeConverter::new();
    conv.add_conversion(|_, ctx, t| {
        if llvm::is_compatible(ctx, t) {
            TypeConversion::To(vec![t])
        } else {
            TypeConversion::Next
        }
    });
    conv.add_conversion(|c, ctx, t| {
        let Some((Some(pointee), space)) = llvm::as_pointer(ctx, t) else {
            return TypeConversion::Next;
        };
        match c.convert_type(ctx, pointee) {
            Some(p) => TypeConversion::To(vec![llvm::pointer_in(ctx, p, space)]),
            None => TypeConversion::Next,
        }
    });
    conv.add_conversion(move |c, ctx, t| {
        let converted = match ctx.kind(t).clone() {
            TypeKind::Index => Some(ctx.int_type(opts.index_bitwidth)),
            TypeKind::Integer(w, _) => Some(ctx.int_type(w)),
            k if k.is_float() => Some(t),
            TypeKind::Complex(e) => c
                .convert_type(ctx, e)
                .map(|e| llvm::literal_struct(ctx, &[e, e], false)),
            TypeKind::MemRef {
                shape,
                elem,
                memory_space,
                ..
            } => memref_descriptor(c, ctx, shape.len(), elem, memory_space),
            TypeKind::UnrankedMemRef { .. } => {
                let i64t = ctx.int_type(64);
                let i8p = llvm::i8_pointer(ctx);
                Some(llvm::literal_struct(ctx, &[i64t, i8p], false))
            }
            TypeKind::Vector { shape, elem, .. } if shape.len() == 1 => {
                c.convert_type(ctx, elem).map(|e| {
                    ctx.ty(TypeKind::Vector {
                        shape,
                        scalable: 0,
                        elem: e,
                    })
                })
            }
            _ => return TypeConversion::Next,
        };
        match converted {
            Some(t) => TypeConversion::To(vec![t]),
            None => TypeConversion::Next,
        }
    });
    conv.add_cast_materializations();
    conv
}

/// The descriptor of a ranked memref: allocated and aligned pointers, the
/// offset, then sizes and strides (none for rank 0).
fn memref_descriptor(
    c: &TypeConverter,
    ctx: &mut Context,
    rank: usize,
    elem: Type,
    memory_space: Option<mlir_async_ir::Attribute>,
) -> Option<Type> {
    let e = c.convert_type(ctx, elem)?;
    let space = match memory_space.map(|a| ctx.attr_kind(a).clone()) {
        None => 0,
        Some(AttrKind::Integer(v, _)) => u32::try_from(v).ok()?,
        Some(_) => return None,
    };
    let ptr = llvm::pointer_in(ctx, e, space);
    let i64t = ctx.int_type(64);
    let mut fields = vec![ptr, ptr, i64t];
    if rank > 0 {
        let arr = llvm::array_of(ctx, i64t, rank as u64);
        fields.push(arr);
        fields.push(arr);
    }
    Some(llvm::literal_struct(ctx, &fields, false))
}

//! The LLVM dialect's ops: one [`OpDef`] per op in [`ops`] (traits,
//! ODS's invariants, custom form, verifier), with their parsers, printers
//! and verifiers below, in MLIR's words and spellings of each generation.
//!
//! What the generations spell differently lives with the op: 13 has no
//! `structIndices` on `llvm.getelementptr`, spells `llvm.switch` without
//! the flag's type and its case operands as offsets, names the signature
//! of `llvm.func` (13, 14) and the type of `llvm.mlir.global` (13) `type`
//! and the linkage as an integer (13); 15 adds the calling convention to
//! `llvm.func` and opaque pointers. Ops are stored in one form (15's
//! names, no default calling convention); each generation's generic form
//! is read into it and printed from it.

use super::types::{self as ty, LlvmType};
use crate::format::{CArg, Custom, Frame, TypeClass, Var, View};
use crate::util::*;
use crate::{Arity, Invariants, OpDef};
use mlir_async_ir::*;
use mlir_async_syntax::printer::{print_attr_name, print_symbol};
use mlir_async_syntax::{Edition, PResult, Parser, Printer, RegionArg};

/// The attributes of LLVM's arithmetic, as its `custom<LLVMOpAttrs>`
/// directive reads and prints them (the default fast-math flags elided).
const LLVM_OP_ATTRS: crate::format::Custom = crate::format::Custom {
    name: "LLVMOpAttrs",
    parse: |p, fr, _| attr_dict(p, fr.st),
    print: |p, v, _| llvm_op_attrs_after_space(p, v.op, v.elided),
};

/// `$lhs, $rhs custom<LLVMOpAttrs>(attr-dict) : type($res)`.
macro_rules! binary_ops {
    ($list:ident: $($ty:ident = $name:literal;)*) => {
        $(crate::op! {
            #[doc = concat!("`", $name, "`: two operands and a result of one type.")]
            pub struct $ty = $name {
                operands: [lhs: One, rhs: One],
                results: [res],
                customs: [LLVM_OP_ATTRS],
                format: "$lhs `,` $rhs custom<LLVMOpAttrs>(attr-dict) `:` type($res)",
                infer: AllSame,
            }
        })*
        const $list: &[fn() -> OpDef] = &[$($ty::def),*];
    };
}

binary_ops! { INT_BINARY:
    AddOp = "llvm.add";
    SubOp = "llvm.sub";
    MulOp = "llvm.mul";
    UDivOp = "llvm.udiv";
    SDivOp = "llvm.sdiv";
    URemOp = "llvm.urem";
    SRemOp = "llvm.srem";
    AndOp = "llvm.and";
    OrOp = "llvm.or";
    XOrOp = "llvm.xor";
    ShlOp = "llvm.shl";
    LShrOp = "llvm.lshr";
    AShrOp = "llvm.ashr";
}

binary_ops! { FLOAT_BINARY:
    FAddOp = "llvm.fadd";
    FSubOp = "llvm.fsub";
    FMulOp = "llvm.fmul";
    FDivOp = "llvm.fdiv";
    FRemOp = "llvm.frem";
}

crate::op! {
    /// `llvm.fneg`: one operand and a result of its type.
    pub struct FNegOp = "llvm.fneg" {
        operands: [operand: One],
        results: [res],
        customs: [LLVM_OP_ATTRS],
        format: "$operand custom<LLVMOpAttrs>(attr-dict) `:` type($res)",
        infer: AllSame,
    }
}

/// `$arg attr-dict : type($arg) to type($res)`.
macro_rules! cast_ops {
    ($($ty:ident = $name:literal;)*) => {
        $(crate::op! {
            #[doc = concat!("`", $name, "`: a value converted to another type.")]
            pub struct $ty = $name {
                operands: [arg: One],
                results: [res],
                format: "$arg attr-dict `:` type($arg) `to` type($res)",
                infer: Spelled,
            }
        })*
        const CASTS: &[fn() -> OpDef] = &[$($ty::def),*];
    };
}

cast_ops! {
    BitcastOp = "llvm.bitcast";
    AddrSpaceCastOp = "llvm.addrspacecast";
    IntToPtrOp = "llvm.inttoptr";
    PtrToIntOp = "llvm.ptrtoint";
    SExtOp = "llvm.sext";
    ZExtOp = "llvm.zext";
    TruncOp = "llvm.trunc";
    SIToFPOp = "llvm.sitofp";
    UIToFPOp = "llvm.uitofp";
    FPToSIOp = "llvm.fptosi";
    FPToUIOp = "llvm.fptoui";
    FPExtOp = "llvm.fpext";
    FPTruncOp = "llvm.fptrunc";
}

fn i1(ctx: &mut Context) -> Type {
    ctx.int_type(1)
}

fn i32t(ctx: &mut Context) -> Type {
    ctx.int_type(32)
}

/// `AllTypesMatch`: the type itself.
fn same(_: &mut Context, t: Type) -> Option<Type> {
    Some(t)
}

/// `LLVM_AnyPointer` (ODS's class `LLVMPointerType`).
static POINTER: TypeClass = TypeClass {
    is: ty::is_pointer,
    short: None,
    summary: "LLVM pointer type",
    cpp: Some(Edition::V15),
};

crate::op! {
    /// `llvm.select`
    pub struct SelectOp = "llvm.select" {
        operands: [
            condition: One,
            trueValue: One = Like("res", same),
            falseValue: One = Like("res", same),
        ],
        results: [res],
        format: "operands attr-dict `:` type($condition) `,` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.freeze`
    pub struct FreezeOp = "llvm.freeze" {
        operands: [val: One],
        results: [res],
        format: "$val attr-dict `:` type($val)",
        infer: AllSame,
    }
}

crate::op! {
    /// `llvm.br`
    pub struct BrOp = "llvm.br" {
        operands: [destOperands: Variadic],
        results: [],
        successors: [dest],
        format: "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.cond_br`
    pub struct CondBrOp = "llvm.cond_br" {
        operands: [
            condition: One = Fixed(i1),
            trueDestOperands: Variadic,
            falseDestOperands: Variadic,
        ],
        results: [],
        attrs: [branch_weights: Optional(&Elements)],
        successors: [trueDest, falseDest],
        format: "$condition ( `weights` `(` $branch_weights^ `)` )? `,` $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.unreachable`
    pub struct UnreachableOp = "llvm.unreachable" {
        operands: [],
        results: [],
        format: "attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.return`: C++ in 13 and 14, a format from 15.
    pub struct ReturnOp = "llvm.return" {
        operands: [args: Variadic],
        results: [],
        syntax: {
            V13: Hand(parse_return, print_return),
            V14: Hand(parse_return, print_return),
            V15: Format("attr-dict ($args^ `:` type($args))?"),
        },
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.getelementptr`: 13 indexes with operands alone and has no
    /// `structIndices` (filled in by `canonicalize_gep`), 14 adds
    /// constant indices, 15 the element type an opaque pointer needs.
    pub struct GEPOp = "llvm.getelementptr" {
        operands: [base: One, indices: Variadic],
        results: [res],
        attrs: [structIndices: Elements, elem_type: Optional(&TypeAttr)],
        customs: [GEP_INDICES],
        syntax: {
            V13: Format("$base `[` $indices `]` attr-dict `:` functional-type(operands, results)"),
            V14: Format("$base `[` custom<GEPIndices>($indices, $structIndices) `]` attr-dict `:` functional-type(operands, results)"),
            V15: Format("$base `[` custom<GEPIndices>($indices, $structIndices) `]` attr-dict `:` functional-type(operands, results) (`,` $elem_type^)?"),
        },
        canonicalize: canonicalize_gep,
        expressible: gep_expressible,
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.switch`: 13's flag is an `i32` (`Fixed`: its type is not
    /// spelled) and where each case's operands start an attribute
    /// (`case_operand_offsets`, stored as 14's `case_operand_segments` by
    /// `canonicalize_switch`); from 14 any integer, its type spelled.
    pub struct SwitchOp = "llvm.switch" {
        operands: [
            value: One = Fixed(i32t),
            defaultOperands: Variadic,
            caseOperands: Variadic,
        ],
        results: [],
        attrs: [
            case_values: Optional(&Elements),
            case_operand_segments: Elements,
            case_operand_offsets: Optional(&Elements),
        ],
        successors: [defaultDestination, caseDestinations: Variadic],
        customs: [SWITCH_OP_CASES],
        syntax: {
            V13: Format("$value `,` $defaultDestination (`(` $defaultOperands^ `:` type($defaultOperands) `)`)? `[` `\\n` custom<SwitchOpCases>($case_values, $caseDestinations, $caseOperands, type($caseOperands), $case_operand_offsets) `]` attr-dict"),
            V14: Format("$value `:` type($value) `,` $defaultDestination (`(` $defaultOperands^ `:` type($defaultOperands) `)`)? `[` `\\n` custom<SwitchOpCases>(ref(type($value)), $case_values, $caseDestinations, $caseOperands, type($caseOperands)) `]` attr-dict"),
            V15: Format("$value `:` type($value) `,` $defaultDestination (`(` $defaultOperands^ `:` type($defaultOperands) `)`)? `[` `\\n` custom<SwitchOpCases>(ref(type($value)), $case_values, $caseDestinations, $caseOperands, type($caseOperands)) `]` attr-dict"),
        },
        canonicalize: canonicalize_switch,
        expressible: switch_expressible,
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.mlir.constant`
    pub struct ConstantOp = "llvm.mlir.constant" {
        operands: [],
        results: [res],
        attrs: [value: Any],
        format: "`(` $value `)` attr-dict `:` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.mlir.undef`
    pub struct UndefOp = "llvm.mlir.undef" {
        operands: [],
        results: [res],
        format: "attr-dict `:` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.mlir.null`
    pub struct NullOp = "llvm.mlir.null" {
        operands: [],
        results: [res = Class(&POINTER)],
        format: "attr-dict `:` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.mlir.addressof`
    pub struct AddressOfOp = "llvm.mlir.addressof" {
        operands: [],
        results: [res = Class(&POINTER)],
        attrs: [global_name: FlatSymbolRef],
        format: "$global_name attr-dict `:` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.intr.coro.id`
    pub struct CoroIdOp = "llvm.intr.coro.id" {
        operands: [
            align: One = Fixed(i32t),
            promise: One = Fixed(ty::i8_pointer),
            coroaddr: One = Fixed(ty::i8_pointer),
            fnaddrs: One = Fixed(ty::i8_pointer),
        ],
        results: [res],
        format: "$align `,` $promise `,` $coroaddr `,` $fnaddrs attr-dict `:` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.intr.coro.begin`
    pub struct CoroBeginOp = "llvm.intr.coro.begin" {
        operands: [token: One = Fixed(ty::token), mem: One = Fixed(ty::i8_pointer)],
        results: [res],
        format: "$token `,` $mem attr-dict `:` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.intr.coro.size`
    pub struct CoroSizeOp = "llvm.intr.coro.size" {
        operands: [],
        results: [res],
        format: "attr-dict `:` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.intr.coro.align`
    pub struct CoroAlignOp = "llvm.intr.coro.align" {
        operands: [],
        results: [res],
        format: "attr-dict `:` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.intr.coro.save`
    pub struct CoroSaveOp = "llvm.intr.coro.save" {
        operands: [handle: One = Fixed(ty::i8_pointer)],
        results: [res],
        format: "$handle attr-dict `:` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.intr.coro.suspend`
    pub struct CoroSuspendOp = "llvm.intr.coro.suspend" {
        operands: [save: One = Fixed(ty::token), r#final: One = Fixed(i1)],
        results: [res],
        format: "$save `,` $final attr-dict `:` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.intr.coro.end`
    pub struct CoroEndOp = "llvm.intr.coro.end" {
        operands: [handle: One = Fixed(ty::i8_pointer), unwind: One = Fixed(i1)],
        results: [res],
        format: "$handle `,` $unwind attr-dict `:` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.intr.coro.free`
    pub struct CoroFreeOp = "llvm.intr.coro.free" {
        operands: [id: One = Fixed(ty::token), handle: One = Fixed(ty::i8_pointer)],
        results: [res],
        format: "$id `,` $handle attr-dict `:` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.intr.coro.resume`
    pub struct CoroResumeOp = "llvm.intr.coro.resume" {
        operands: [handle: One = Fixed(ty::i8_pointer)],
        results: [],
        format: "$handle attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.intr.stacksave`
    pub struct StackSaveOp = "llvm.intr.stacksave" {
        operands: [],
        results: [res],
        format: "attr-dict `:` type($res)",
        infer: Spelled,
    }
}

crate::op! {
    /// `llvm.intr.stackrestore`
    pub struct StackRestoreOp = "llvm.intr.stackrestore" {
        operands: [ptr: One = Fixed(ty::i8_pointer)],
        results: [],
        format: "$ptr attr-dict",
        infer: Spelled,
    }
}

/// `llvm.icmp`'s predicates, by their stored value.
pub const ICMP_PREDICATES: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];
/// `llvm.fcmp`'s predicates, by their stored value.
pub const FCMP_PREDICATES: &[&str] = &[
    "_false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "_true",
];
/// Linkages, by the integer 13 stores them as.
pub const LINKAGES: &[&str] = &[
    "private",
    "internal",
    "available_externally",
    "linkonce",
    "weak",
    "common",
    "appending",
    "extern_weak",
    "linkonce_odr",
    "weak_odr",
    "external",
];
/// `llvm.mlir.global`'s `unnamed_addr` keywords, by stored value.
const UNNAMED_ADDR: &[&str] = &["", "local_unnamed_addr", "unnamed_addr"];
/// LLVM 15's calling conventions (the keywords of `llvm.func`).
const CCONVS: &[&str] = &[
    "ccc",
    "fastcc",
    "coldcc",
    "cc_10",
    "cc_11",
    "webkit_jscc",
    "anyregcc",
    "preserve_mostcc",
    "preserve_allcc",
    "swiftcc",
    "cxx_fast_tlscc",
    "tailcc",
    "cfguard_checkcc",
    "swifttailcc",
    "x86_stdcallcc",
    "x86_fastcallcc",
    "arm_apcscc",
    "arm_aapcscc",
    "arm_aapcs_vfpcc",
    "msp430_intrcc",
    "x86_thiscallcc",
    "ptx_kernelcc",
    "ptx_devicecc",
    "spir_funccc",
    "spir_kernelcc",
    "intel_ocl_bicc",
    "x86_64_sysvcc",
    "win64cc",
    "x86_vectorcallcc",
    "hhvmcc",
    "hhvm_ccc",
    "x86_intrcc",
    "avr_intrcc",
    "avr_signalcc",
    "avr_builtincc",
    "amdgpu_vscc",
    "amdgpu_gscc",
    "amdgpu_pscc",
    "amdgpu_cscc",
    "amdgpu_kernelcc",
    "x86_regcallcc",
    "amdgpu_hscc",
    "msp430_builtincc",
    "amdgpu_lscc",
    "amdgpu_escc",
    "aarch64_vectorcallcc",
    "aarch64_sve_vectorcallcc",
    "wasm_emscripten_invokecc",
    "amdgpu_gfxcc",
    "m68k_intrcc",
];

/// The default fast-math flags, elided from the custom form.
const NO_FASTMATH: &str = "#llvm.fastmath<>";
/// The default calling convention, not stored.
const CCONV_C: &str = "#llvm.cconv<ccc>";
/// `llvm.getelementptr`'s marker of an index given by an operand.
pub const GEP_DYNAMIC_INDEX: i32 = i32::MIN;

const fn inv(operands: Arity, results: Arity) -> Invariants {
    Invariants::new(operands, results)
}
const ONE: Arity = Arity::Exactly(1);
const NONE: Arity = Arity::Exactly(0);
const ANY: Arity = Arity::Any;

/// Every op of the dialect.
pub fn ops() -> Vec<OpDef> {
    let mut v = vec![];
    for def in INT_BINARY {
        let d = def()
            .pure()
            .invariants(inv(Arity::Exactly(2), ONE))
            .verify(verify_int_binary);
        v.push(if d.name == "llvm.add" || d.name == "llvm.mul" {
            d.commutative()
        } else {
            d
        });
    }
    for def in FLOAT_BINARY {
        v.push(
            def()
                .pure()
                .invariants(inv(Arity::Exactly(2), ONE))
                .verify(verify_float_binary),
        );
    }
    v.push(
        FNegOp::def()
            .pure()
            .invariants(inv(ONE, ONE))
            .verify(verify_float_binary),
    );
    for def in CASTS {
        let d = def().pure().invariants(inv(ONE, ONE)).verify(verify_cast);
        v.push(
            if d.name == "llvm.bitcast" || d.name == "llvm.addrspacecast" {
                d.folder(crate::fold::fold_llvm_cast)
            } else {
                d
            },
        );
    }
    v.extend([
        OpDef::new("llvm.icmp")
            .syntax(parse_cmp, print_cmp)
            .pure()
            .invariants(inv(Arity::Exactly(2), ONE).attrs(&["predicate"]))
            .verify(verify_cmp),
        OpDef::new("llvm.fcmp")
            .syntax(parse_cmp, print_cmp)
            .pure()
            .invariants(inv(Arity::Exactly(2), ONE).attrs(&["predicate"]))
            .verify(verify_cmp),
        SelectOp::def()
            .pure()
            .invariants(inv(Arity::Exactly(3), ONE))
            .verify(verify_select),
        OpDef::new("llvm.alloca")
            .syntax(parse_alloca, print_alloca)
            .invariants(inv(ONE, ONE))
            .verify(verify_alloca),
        OpDef::new("llvm.load")
            .syntax(parse_load, print_load)
            .invariants(inv(ONE, ONE))
            .verify(verify_load),
        OpDef::new("llvm.store")
            .syntax(parse_store, print_store)
            .invariants(inv(Arity::Exactly(2), NONE))
            .verify(verify_store),
        OpDef::new("llvm.atomicrmw")
            .syntax(parse_atomicrmw, print_atomicrmw)
            .invariants(inv(Arity::Exactly(2), ONE).attrs(&["bin_op", "ordering"]))
            .verify(verify_atomicrmw),
        OpDef::new("llvm.cmpxchg")
            .syntax(parse_cmpxchg, print_cmpxchg)
            .invariants(
                inv(Arity::Exactly(3), ONE).attrs(&["failure_ordering", "success_ordering"]),
            )
            .verify(verify_cmpxchg),
        GEPOp::def()
            .pure()
            .invariants(inv(Arity::AtLeast(1), ONE).attrs(&["structIndices"]))
            .verify_in_edition(verify_gep)
            .generic_attrs_printer(print_gep_generic)
            .folder(crate::fold::fold_gep),
        OpDef::new("llvm.call")
            .syntax(parse_call, print_call)
            .invariants(inv(ANY, ANY))
            .verify(verify_call),
        OpDef::new("llvm.extractvalue")
            .syntax(parse_extractvalue, print_extractvalue)
            .pure()
            .invariants(inv(ONE, ONE).attrs(&["position"]))
            .verify(verify_extractvalue)
            // It follows a chain of `insertvalue`s as deep as it goes.
            .fold_hook(crate::FoldHook::new(crate::fold::fold_extractvalue).not_local()),
        OpDef::new("llvm.insertvalue")
            .syntax(parse_insertvalue, print_insertvalue)
            .pure()
            .invariants(inv(Arity::Exactly(2), ONE).attrs(&["position"]))
            .verify(verify_insertvalue),
        OpDef::new("llvm.extractelement")
            .syntax(parse_extractelement, print_extractelement)
            .pure()
            .invariants(inv(Arity::Exactly(2), ONE))
            .verify(verify_extractelement),
        OpDef::new("llvm.insertelement")
            .syntax(parse_insertelement, print_insertelement)
            .pure()
            .invariants(inv(Arity::Exactly(3), ONE))
            .verify(verify_insertelement),
        OpDef::new("llvm.shufflevector")
            .syntax(parse_shufflevector, print_shufflevector)
            .pure()
            .invariants(inv(Arity::Exactly(2), ONE).attrs(&["mask"])),
        FreezeOp::def().invariants(inv(ONE, ONE)),
        BrOp::def()
            .successor_operands(successor_operand_range)
            .pure()
            .terminator()
            .invariants(inv(ANY, NONE).successors(ONE))
            .verify(verify_br),
        CondBrOp::def()
            .successor_operands(successor_operand_range)
            .pure()
            .terminator()
            .invariants(
                inv(Arity::AtLeast(1), NONE)
                    .successors(Arity::Exactly(2))
                    .segments(3),
            )
            .verify(verify_cond_br),
        SwitchOp::def()
            .successor_operands(successor_operand_range)
            .pure()
            .terminator()
            .invariants(
                inv(Arity::AtLeast(1), NONE)
                    .successors(Arity::AtLeast(1))
                    .segments(3)
                    .attrs(&["case_operand_segments"]),
            )
            .verify(verify_switch)
            .generic_attrs_printer(print_switch_generic),
        ReturnOp::def()
            .pure()
            .return_like()
            .invariants(inv(ANY, NONE))
            .verify(verify_return),
        UnreachableOp::def()
            .terminator()
            .invariants(inv(NONE, NONE)),
        ConstantOp::def()
            .pure()
            .constant_like()
            .invariants(inv(NONE, ONE).attrs(&["value"]))
            .verify(verify_constant),
        UndefOp::def().pure().invariants(inv(NONE, ONE)),
        NullOp::def()
            .pure()
            .invariants(inv(NONE, ONE))
            .verify(verify_null),
        AddressOfOp::def()
            .pure()
            .invariants(inv(NONE, ONE).attrs(&["global_name"]))
            .verify(verify_addressof),
        OpDef::new("llvm.mlir.global")
            .syntax(parse_global, print_global)
            .isolated()
            .symbol()
            .invariants(
                inv(NONE, NONE)
                    .regions(ONE)
                    .attrs(&["global_type", "linkage", "sym_name"]),
            )
            .verify(verify_global)
            .generic_attrs(print_global_generic, canonicalize_global),
        OpDef::new("llvm.func")
            .syntax(parse_func, print_func)
            .isolated()
            .symbol()
            .invariants(
                inv(NONE, NONE)
                    .regions(ONE)
                    .attrs(&["function_type", "sym_name"]),
            )
            .verify(verify_func)
            .generic_attrs(print_func_generic, canonicalize_func),
    ]);
    v.extend(intrinsics());
    v
}

/// The `llvm.intr.*` ops the async, memref and math lowerings produce.
fn intrinsics() -> Vec<OpDef> {
    let mut v = vec![
        CoroIdOp::def().invariants(inv(Arity::Exactly(4), ONE)),
        CoroBeginOp::def().invariants(inv(Arity::Exactly(2), ONE)),
        CoroSizeOp::def().invariants(inv(NONE, ONE)),
        CoroAlignOp::def().invariants(inv(NONE, ONE)),
        CoroSaveOp::def().invariants(inv(ONE, ONE)),
        CoroSuspendOp::def().invariants(inv(Arity::Exactly(2), ONE)),
        CoroEndOp::def().invariants(inv(Arity::Exactly(2), ONE)),
        CoroFreeOp::def().invariants(inv(Arity::Exactly(2), ONE)),
        CoroResumeOp::def().invariants(inv(ONE, NONE)),
        StackSaveOp::def().invariants(inv(NONE, ONE)),
        StackRestoreOp::def().invariants(inv(ONE, NONE)),
    ];
    for n in ["llvm.intr.memcpy", "llvm.intr.memmove", "llvm.intr.memset"] {
        v.push(OpDef::new(n).invariants(inv(Arity::Exactly(4), NONE)));
    }
    // Math intrinsics: generic form only in 14 and 15.
    for n in [
        "llvm.intr.fabs",
        "llvm.intr.ceil",
        "llvm.intr.floor",
        "llvm.intr.sqrt",
        "llvm.intr.exp",
        "llvm.intr.exp2",
        "llvm.intr.log",
        "llvm.intr.log2",
        "llvm.intr.log10",
        "llvm.intr.sin",
        "llvm.intr.cos",
        "llvm.intr.ctpop",
        "llvm.intr.bitreverse",
    ] {
        v.push(OpDef::new(n).pure().invariants(inv(ONE, ONE)));
    }
    for n in [
        "llvm.intr.pow",
        "llvm.intr.powi",
        "llvm.intr.copysign",
        "llvm.intr.maxnum",
        "llvm.intr.minnum",
        "llvm.intr.maximum",
        "llvm.intr.minimum",
        "llvm.intr.smax",
        "llvm.intr.smin",
        "llvm.intr.umax",
        "llvm.intr.umin",
        "llvm.intr.ctlz",
        "llvm.intr.cttz",
    ] {
        v.push(OpDef::new(n).pure().invariants(inv(Arity::Exactly(2), ONE)));
    }
    for n in ["llvm.intr.fma", "llvm.intr.fmuladd"] {
        v.push(OpDef::new(n).pure().invariants(inv(Arity::Exactly(3), ONE)));
    }
    v
}

// ----- shared pieces -----

fn tn(ctx: &Context, t: Type) -> String {
    tyname(ctx, t)
}

/// An error of a custom parser, as MLIR's `OpAsmParser::emitError`
/// words it.
fn custom_err<T>(
    p: &Parser,
    st: &OperationState,
    pos: usize,
    msg: impl std::fmt::Display,
) -> PResult<T> {
    p.err(pos, format!("custom op '{}' {msg}", p.ctx.str(st.name)))
}

/// Resolves operands against types one for one; a count mismatch is
/// reported at `pos`.
fn resolve_at<'a>(
    p: &mut Parser<'a, '_>,
    st: &OperationState,
    ops: &[mlir_async_syntax::UnresolvedOperand<'a>],
    tys: &[Type],
    pos: usize,
) -> PResult<Vec<Value>> {
    if ops.len() != tys.len() {
        return custom_err(
            p,
            st,
            pos,
            format!("{} operands present, but expected {}", ops.len(), tys.len()),
        );
    }
    ops.iter()
        .zip(tys)
        .map(|(o, &t)| p.resolve_operand(o, t))
        .collect()
}

fn attr_key(p: &mut Parser, st: &mut OperationState, key: &'static str, a: Attribute) {
    let s = p.static_sym(key);
    st.attrs.push((s, a));
}

fn llvm_op_attrs_after_space(p: &mut Printer, op: Op, elided: &[&str]) {
    let ctx = p.ctx;
    let default_fmf = ctx
        .get_attr(op, "fastmathFlags")
        .is_some_and(|a| is_opaque(ctx, a, NO_FASTMATH));
    if default_fmf {
        let mut e = elided.to_vec();
        e.push("fastmathFlags");
        p.attr_dict(op, &e);
    } else {
        p.attr_dict(op, elided);
    }
}

fn is_opaque(ctx: &Context, a: Attribute, text: &str) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Opaque(s) if s == text)
}

/// The `position` of an `llvm.extractvalue` or `llvm.insertvalue`.
pub fn position(ctx: &Context, op: Op) -> Option<Vec<i64>> {
    let a = ctx.get_attr(op, "position")?;
    match ctx.attr_kind(a) {
        AttrKind::Array(xs) => xs
            .iter()
            .map(|&x| match ctx.attr_kind(x) {
                AttrKind::Integer(v, _) => Some(*v as i64),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// The integers of a dense integer attribute, splats expanded.
fn dense_ints(ctx: &Context, a: Attribute) -> Option<Vec<i128>> {
    let AttrKind::Dense(elems, t, splat) = ctx.attr_kind(a) else {
        return None;
    };
    let n = match ctx.kind(*t) {
        TypeKind::Vector { shape, .. } if shape.len() == 1 => shape[0] as usize,
        TypeKind::Tensor { shape, .. } if shape.len() == 1 => shape[0]? as usize,
        _ => return None,
    };
    if n > 1 << 24 {
        return None;
    }
    (0..n)
        .map(|i| match elems.get(if *splat { 0 } else { i }) {
            Some(DenseElem::Int(v)) => Some(*v),
            // An `i1`'s: true is all ones.
            Some(DenseElem::Bool(b)) => Some(-i128::from(*b)),
            _ => None,
        })
        .collect()
}

/// A dense attribute of `values` of type `shape_kind<N x elem>`.
fn dense_of(ctx: &mut Context, values: &[i128], elem: Type, tensor: bool) -> Attribute {
    let n = values.len();
    let t = if tensor {
        ctx.ty(TypeKind::Tensor {
            shape: vec![Some(n as i64)],
            elem,
            encoding: None,
        })
    } else {
        ctx.ty(TypeKind::Vector {
            shape: vec![n as i64],
            scalable: 0,
            elem,
        })
    };
    // All equal (one element, or none) is a splat, as the parser keeps it.
    let splat = values.iter().all(|&v| v == values[0]);
    let n = if splat {
        values.len().min(1)
    } else {
        values.len()
    };
    // An `i1`'s elements are booleans.
    let bools = ctx.kind(elem) == &TypeKind::Integer(1, Signedness::Signless);
    let elems = values[..n]
        .iter()
        .map(|&v| match bools {
            true => DenseElem::Bool(v != 0),
            false => DenseElem::Int(v),
        })
        .collect();
    ctx.attr(AttrKind::Dense(elems, t, splat))
}

/// The element type of a builtin or LLVM vector, or `t` itself.
fn scalar_of(ctx: &Context, t: Type) -> Type {
    match ctx.kind(t) {
        TypeKind::Vector { elem, .. } => *elem,
        _ => match ty::classify(ctx, t) {
            Some(LlvmType::Vector { element, .. }) => element,
            _ => t,
        },
    }
}

fn is_int_like(ctx: &Context, t: Type) -> bool {
    matches!(ctx.kind(scalar_of(ctx, t)), TypeKind::Integer(..))
}
fn is_float_like(ctx: &Context, t: Type) -> bool {
    ctx.kind(scalar_of(ctx, t)).is_float()
}

// ----- arithmetic -----

/// `SameOperandsAndResultType`, in its words.
fn same_types(ctx: &Context, op: Op) -> Result<Type, String> {
    let r = ctx.value_type(ctx.result(op, 0));
    if ctx.operands(op).iter().any(|&v| ctx.value_type(v) != r) {
        return Err("requires the same type for all operands and results".into());
    }
    Ok(r)
}

fn verify_int_binary(ctx: &Context, op: Op) -> Result<(), String> {
    let t = same_types(ctx, op)?;
    if !is_int_like(ctx, t) {
        return Err(format!(
            "operand #0 must be integer or LLVM dialect-compatible vector of integer, but got '{}'",
            tn(ctx, t)
        ));
    }
    Ok(())
}

fn verify_float_binary(ctx: &Context, op: Op) -> Result<(), String> {
    let t = same_types(ctx, op)?;
    if !is_float_like(ctx, t) {
        return Err(format!(
            "operand #0 must be floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type, but got '{}'",
            tn(ctx, t)
        ));
    }
    Ok(())
}

fn parse_cmp(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    p.skip_ws();
    let at = p.pos;
    let pred = p.string_lit()?;
    let icmp = p.ctx.str(st.name) == "llvm.icmp";
    let table = if icmp {
        ICMP_PREDICATES
    } else {
        FCMP_PREDICATES
    };
    let Some(v) = table.iter().position(|&n| n == pred) else {
        return custom_err(
            p,
            st,
            at,
            format!("'{pred}' is an incorrect value of the 'predicate' attribute"),
        );
    };
    let a = p.parse_operand_ref()?;
    p.expect(",")?;
    let b = p.parse_operand_ref()?;
    attr_dict(p, st)?;
    p.expect(":")?;
    p.skip_ws();
    let tat = p.pos;
    let t = p.parse_type()?;
    st.operands.push(p.resolve_operand(&a, t)?);
    st.operands.push(p.resolve_operand(&b, t)?);
    let i64t = p.ctx.int_type(64);
    let pa = p.ctx.int_attr(v as i128, i64t);
    attr_key(p, st, "predicate", pa);
    if !ty::is_compatible(p.ctx, t) {
        return custom_err(p, st, tat, "expected LLVM dialect-compatible type");
    }
    let i1 = p.i1_type();
    let rt = match (p.ctx.kind(t).clone(), ty::classify(p.ctx, t)) {
        (
            TypeKind::Vector {
                shape, scalable, ..
            },
            _,
        ) => p.ctx.ty(TypeKind::Vector {
            shape,
            scalable,
            elem: i1,
        }),
        (_, Some(LlvmType::Vector { count, .. })) => {
            // A vector of pointers compares into a builtin vector of i1.
            p.ctx.ty(TypeKind::Vector {
                shape: vec![count as i64],
                scalable: 0,
                elem: i1,
            })
        }
        _ => i1,
    };
    st.result_types.push(rt);
    Ok(())
}

fn predicate(ctx: &Context, op: Op) -> Option<i128> {
    match ctx.get_attr(op, "predicate").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer(v, _)) => Some(*v),
        _ => None,
    }
}

fn print_cmp(p: &mut Printer, op: Op) {
    let icmp = p.ctx.name(op) == "llvm.icmp";
    let table = if icmp {
        ICMP_PREDICATES
    } else {
        FCMP_PREDICATES
    };
    let v = predicate(p.ctx, op).unwrap_or(0);
    p.w(" \"");
    p.w(table.get(v as usize).copied().unwrap_or(""));
    p.w("\" ");
    let ops = p.ctx.operands(op);
    p.operands(ops);
    if icmp {
        p.attr_dict(op, &["predicate"]);
    } else {
        let ctx = p.ctx;
        let default_fmf = ctx
            .get_attr(op, "fastmathFlags")
            .is_some_and(|a| is_opaque(ctx, a, NO_FASTMATH));
        p.attr_dict(
            op,
            if default_fmf {
                &["predicate", "fastmathFlags"]
            } else {
                &["predicate"]
            },
        );
    }
    p.w(" : ");
    let t = p.ctx.value_type(ops[0]);
    p.ty(t);
}

fn verify_cmp(ctx: &Context, op: Op) -> Result<(), String> {
    let icmp = ctx.name(op) == "llvm.icmp";
    let table = if icmp {
        ICMP_PREDICATES
    } else {
        FCMP_PREDICATES
    };
    let ok = ctx
        .get_attr(op, "predicate")
        .is_some_and(|a| match ctx.attr_kind(a) {
            AttrKind::Integer(v, t) => {
                ctx.kind(*t) == &TypeKind::Integer(64, Signedness::Signless)
                    && (0..table.len() as i128).contains(v)
            }
            _ => false,
        });
    if !ok {
        return Err(format!(
            "attribute 'predicate' failed to satisfy constraint: {} comparison predicate",
            ctx.name(op)
        ));
    }
    let ops = ctx.operands(op);
    let (a, b) = (ctx.value_type(ops[0]), ctx.value_type(ops[1]));
    if a != b {
        return Err(format!(
            "requires all operands to have the same type, but got '{}' and '{}'",
            tn(ctx, a),
            tn(ctx, b)
        ));
    }
    Ok(())
}

fn verify_select(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    let r = ctx.value_type(ctx.result(op, 0));
    if ctx.value_type(ops[1]) != r || ctx.value_type(ops[2]) != r {
        return Err(
            "failed to verify that all of {trueValue, falseValue, res} have same type".into(),
        );
    }
    Ok(())
}

fn verify_cast(ctx: &Context, op: Op) -> Result<(), String> {
    let from = ctx.value_type(ctx.operand(op, 0));
    let to = ctx.value_type(ctx.result(op, 0));
    let ptr = |t: Type| ty::is_pointer(ctx, scalar_of(ctx, t));
    let int = |t: Type| is_int_like(ctx, t);
    let float = |t: Type| is_float_like(ctx, t);
    let (ok_from, ok_to, from_what, to_what) = match ctx.name(op) {
        "llvm.inttoptr" => (int(from), ptr(to), "integer", "LLVM pointer type"),
        "llvm.ptrtoint" => (ptr(from), int(to), "LLVM pointer type", "integer"),
        "llvm.sext" | "llvm.zext" | "llvm.trunc" => (int(from), int(to), "integer", "integer"),
        "llvm.sitofp" | "llvm.uitofp" => (int(from), float(to), "integer", "floating point"),
        "llvm.fptosi" | "llvm.fptoui" => (float(from), int(to), "floating point", "integer"),
        "llvm.fpext" | "llvm.fptrunc" => {
            (float(from), float(to), "floating point", "floating point")
        }
        "llvm.addrspacecast" => (ptr(from), ptr(to), "LLVM pointer type", "LLVM pointer type"),
        _ => (true, true, "", ""),
    };
    if !ok_from {
        return Err(format!(
            "operand #0 must be {from_what} or LLVM dialect-compatible vector of {from_what}, but got '{}'",
            tn(ctx, from)
        ));
    }
    if !ok_to {
        return Err(format!(
            "result #0 must be {to_what} or LLVM dialect-compatible vector of {to_what}, but got '{}'",
            tn(ctx, to)
        ));
    }
    Ok(())
}

// ----- memory -----

fn parse_alloca(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let n = p.parse_operand_ref()?;
    p.expect_keyword("x")?;
    let elem = p.parse_type()?;
    attr_dict(p, st)?;
    p.expect(":")?;
    p.skip_ws();
    let tat = p.pos;
    let t = p.parse_type()?;
    // Alignment 0 is no alignment.
    if let Some(i) = st
        .attrs
        .iter()
        .position(|(k, _)| p.ctx.str(*k) == "alignment")
    {
        match p.ctx.attr_kind(st.attrs[i].1) {
            AttrKind::Integer(0, _) => {
                st.attrs.remove(i);
            }
            AttrKind::Integer(..) => {}
            _ => return custom_err(p, st, p.op_name_pos, "expected integer alignment"),
        }
    }
    let (ins, outs) = match p.ctx.kind(t) {
        TypeKind::Function(ins, outs) if ins.len() == 1 && outs.len() == 1 => {
            (ins.clone(), outs.clone())
        }
        _ => {
            return custom_err(
                p,
                st,
                tat,
                "expected trailing function type with one argument and one result",
            )
        }
    };
    st.operands.push(p.resolve_operand(&n, ins[0])?);
    if ty::as_pointer(p.ctx, outs[0]).is_some_and(|(e, _)| e.is_none()) {
        let a = p.ctx.type_attr(elem);
        attr_key(p, st, "elem_type", a);
    }
    st.result_types.push(outs[0]);
    Ok(())
}

fn print_alloca(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    let n = ctx.operand(op, 0);
    let rt = ctx.value_type(ctx.result(op, 0));
    let elem = ty::pointee(ctx, rt).or_else(|| match ctx.get_attr(op, "elem_type") {
        Some(a) => match ctx.attr_kind(a) {
            AttrKind::Type(t) => Some(*t),
            _ => None,
        },
        None => None,
    });
    p.w(" ");
    p.operand(n);
    p.w(" x ");
    if let Some(e) = elem {
        p.ty(e);
    }
    let aligned = ctx
        .get_attr(op, "alignment")
        .is_some_and(|a| !matches!(ctx.attr_kind(a), AttrKind::Integer(0, _)));
    if aligned {
        p.attr_dict(op, &["elem_type"]);
    } else {
        p.attr_dict(op, &["alignment", "elem_type"]);
    }
    p.w(" : ");
    let nt = ctx.value_type(n);
    p.functional_type(&[nt], &[rt]);
}

fn verify_alloca(ctx: &Context, op: Op) -> Result<(), String> {
    let rt = ctx.value_type(ctx.result(op, 0));
    let Some((pointee, _)) = ty::as_pointer(ctx, rt) else {
        return Err(format!(
            "result #0 must be LLVM pointer type, but got '{}'",
            tn(ctx, rt)
        ));
    };
    let nt = ctx.value_type(ctx.operand(op, 0));
    if !matches!(ctx.kind(nt), TypeKind::Integer(..)) {
        return Err(format!(
            "operand #0 must be integer, but got '{}'",
            tn(ctx, nt)
        ));
    }
    if pointee.is_none() && ctx.get_attr(op, "elem_type").is_none() {
        return Err("expected 'elem_type' attribute if opaque pointer type is used".into());
    }
    Ok(())
}

fn parse_load(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    if p.eat_keyword("volatile") {
        let u = p.ctx.unit_attr();
        attr_key(p, st, "volatile_", u);
    }
    let a = p.parse_operand_ref()?;
    attr_dict(p, st)?;
    p.expect(":")?;
    p.skip_ws();
    let tat = p.pos;
    let t = p.parse_type()?;
    st.operands.push(p.resolve_operand(&a, t)?);
    let Some((pointee, _)) = ty::as_pointer(p.ctx, t) else {
        return custom_err(p, st, tat, "expected LLVM pointer type");
    };
    let rt = match pointee {
        Some(e) => e,
        None => {
            p.expect("->")?;
            p.parse_type()?
        }
    };
    st.result_types.push(rt);
    Ok(())
}

fn print_load(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    p.w(" ");
    if ctx.get_attr(op, "volatile_").is_some() {
        p.w("volatile ");
    }
    let a = ctx.operand(op, 0);
    p.operand(a);
    p.attr_dict(op, &["volatile_", "elem_type"]);
    p.w(" : ");
    let t = ctx.value_type(a);
    p.ty(t);
    if ty::as_pointer(ctx, t).is_some_and(|(e, _)| e.is_none()) {
        p.w(" -> ");
        let rt = ctx.value_type(ctx.result(op, 0));
        p.ty(rt);
    }
}

fn verify_load(ctx: &Context, op: Op) -> Result<(), String> {
    let t = ctx.value_type(ctx.operand(op, 0));
    let rt = ctx.value_type(ctx.result(op, 0));
    match ty::as_pointer(ctx, t) {
        Some((Some(e), _)) if e != rt => Err(format!(
            "result #0 must be LLVM type with size, but got '{}'",
            tn(ctx, rt)
        )),
        Some(_) => Ok(()),
        None => Err(format!(
            "operand #0 must be LLVM pointer to LLVM type with size, but got '{}'",
            tn(ctx, t)
        )),
    }
}

fn parse_store(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    if p.eat_keyword("volatile") {
        let u = p.ctx.unit_attr();
        attr_key(p, st, "volatile_", u);
    }
    let v = p.parse_operand_ref()?;
    p.expect(",")?;
    let a = p.parse_operand_ref()?;
    attr_dict(p, st)?;
    p.expect(":")?;
    p.skip_ws();
    let tat = p.pos;
    let t = p.parse_type()?;
    let (vt, pt) = if p.eat(",") {
        // 15's opaque pointers: the value's type, then the pointer's.
        let pt = p.parse_type()?;
        (t, pt)
    } else {
        match ty::as_pointer(p.ctx, t) {
            Some((Some(e), _)) => (e, t),
            Some((None, _)) => return p.err_here("expected ','"),
            None => return custom_err(p, st, tat, "expected LLVM pointer type"),
        }
    };
    st.operands.push(p.resolve_operand(&v, vt)?);
    st.operands.push(p.resolve_operand(&a, pt)?);
    Ok(())
}

fn print_store(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    p.w(" ");
    if ctx.get_attr(op, "volatile_").is_some() {
        p.w("volatile ");
    }
    let ops = ctx.operands(op);
    p.operands(ops);
    p.attr_dict(op, &["volatile_"]);
    p.w(" : ");
    let pt = ctx.value_type(ops[1]);
    if ty::as_pointer(ctx, pt).is_some_and(|(e, _)| e.is_none()) {
        let vt = ctx.value_type(ops[0]);
        p.ty(vt);
        p.w(", ");
    }
    p.ty(pt);
}

fn verify_store(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    let (vt, pt) = (ctx.value_type(ops[0]), ctx.value_type(ops[1]));
    match ty::as_pointer(ctx, pt) {
        Some((Some(e), _)) if e != vt => Err(format!(
            "operand #0 must be LLVM type with size, but got '{}'",
            tn(ctx, vt)
        )),
        Some(_) => Ok(()),
        None => Err(format!(
            "operand #1 must be LLVM pointer to LLVM type with size, but got '{}'",
            tn(ctx, pt)
        )),
    }
}

// ----- atomics -----

/// `llvm.atomicrmw`'s operations, by their stored value.
pub const ATOMIC_BIN_OPS: &[&str] = &[
    "xchg", "add", "sub", "_and", "nand", "_or", "_xor", "max", "min", "umax", "umin", "fadd",
    "fsub",
];
/// Atomic orderings, by their stored value (3 is not one).
pub const ATOMIC_ORDERINGS: &[&str] = &[
    "not_atomic",
    "unordered",
    "monotonic",
    "",
    "acquire",
    "release",
    "acq_rel",
    "seq_cst",
];

/// A keyword of `table` stored as its index in an `i64` attribute `key`.
fn parse_enum_keyword(
    p: &mut Parser,
    st: &mut OperationState,
    table: &[&str],
    key: &'static str,
) -> PResult<()> {
    p.skip_ws();
    let at = p.pos;
    let Some(kw) = p.ident() else {
        return p.err_here("expected valid keyword");
    };
    let Some(v) = table.iter().position(|&n| !n.is_empty() && n == kw) else {
        return custom_err(
            p,
            st,
            at,
            format!("'{kw}' is an incorrect value of the '{key}' attribute"),
        );
    };
    let i64t = p.ctx.int_type(64);
    let a = p.ctx.int_attr(v as i128, i64t);
    attr_key(p, st, key, a);
    Ok(())
}

fn enum_value<'t>(ctx: &Context, op: Op, key: &str, table: &[&'t str]) -> &'t str {
    match ctx.get_attr(op, key).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer(v, _)) => table.get(*v as usize).copied().unwrap_or(""),
        _ => "",
    }
}

fn parse_atomicrmw(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    parse_enum_keyword(p, st, ATOMIC_BIN_OPS, "bin_op")?;
    let ptr = p.parse_operand_ref()?;
    p.expect(",")?;
    let val = p.parse_operand_ref()?;
    parse_enum_keyword(p, st, ATOMIC_ORDERINGS, "ordering")?;
    attr_dict(p, st)?;
    let t = colon_type(p)?;
    let pt = ty::pointer_to(p.ctx, t);
    st.operands.push(p.resolve_operand(&ptr, pt)?);
    st.operands.push(p.resolve_operand(&val, t)?);
    st.result_types.push(t);
    Ok(())
}

fn print_atomicrmw(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    p.w(" ");
    p.w(enum_value(ctx, op, "bin_op", ATOMIC_BIN_OPS));
    p.w(" ");
    let ops = ctx.operands(op);
    p.operands(ops);
    p.w(" ");
    p.w(enum_value(ctx, op, "ordering", ATOMIC_ORDERINGS));
    p.w(" ");
    p.attr_dict(op, &["bin_op", "ordering"]);
    p.w(" : ");
    let t = ctx.value_type(ctx.result(op, 0));
    p.ty(t);
}

/// `i8`, `i16`, `i32` or `i64`.
fn is_atomic_int(ctx: &Context, t: Type) -> bool {
    matches!(ctx.kind(t), TypeKind::Integer(8 | 16 | 32 | 64, _))
}

fn ordering_at_least_monotonic(ctx: &Context, op: Op, key: &str) -> bool {
    matches!(ctx.get_attr(op, key).map(|a| ctx.attr_kind(a)), Some(AttrKind::Integer(v, _)) if *v >= 2)
}

fn verify_atomicrmw(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    let (pt, vt) = (ctx.value_type(ops[0]), ctx.value_type(ops[1]));
    if ty::pointee(ctx, pt) != Some(vt) {
        return Err(
            "expected LLVM IR element type for operand #0 to match type for operand #1".into(),
        );
    }
    if ctx.value_type(ctx.result(op, 0)) != vt {
        return Err("expected LLVM IR result type to match type for operand #1".into());
    }
    match enum_value(ctx, op, "bin_op", ATOMIC_BIN_OPS) {
        "fadd" | "fsub" => {
            if !ctx.kind(vt).is_float() {
                return Err("expected LLVM IR floating point type".into());
            }
        }
        "xchg" => {
            let k = ctx.kind(vt);
            if !is_atomic_int(ctx, vt)
                && !matches!(
                    k,
                    TypeKind::BF16 | TypeKind::F16 | TypeKind::F32 | TypeKind::F64
                )
            {
                return Err("unexpected LLVM IR type for 'xchg' bin_op".into());
            }
        }
        _ => {
            if !is_atomic_int(ctx, vt) {
                return Err("expected LLVM IR integer type".into());
            }
        }
    }
    if !ordering_at_least_monotonic(ctx, op, "ordering") {
        return Err("expected at least 'monotonic' ordering".into());
    }
    Ok(())
}

fn parse_cmpxchg(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let ptr = p.parse_operand_ref()?;
    p.expect(",")?;
    let cmp = p.parse_operand_ref()?;
    p.expect(",")?;
    let val = p.parse_operand_ref()?;
    parse_enum_keyword(p, st, ATOMIC_ORDERINGS, "success_ordering")?;
    parse_enum_keyword(p, st, ATOMIC_ORDERINGS, "failure_ordering")?;
    attr_dict(p, st)?;
    let t = colon_type(p)?;
    let pt = ty::pointer_to(p.ctx, t);
    st.operands.push(p.resolve_operand(&ptr, pt)?);
    st.operands.push(p.resolve_operand(&cmp, t)?);
    st.operands.push(p.resolve_operand(&val, t)?);
    let i1 = p.i1_type();
    let rt = ty::literal_struct(p.ctx, &[t, i1], false);
    st.result_types.push(rt);
    Ok(())
}

fn print_cmpxchg(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    let ops = ctx.operands(op);
    p.w(" ");
    p.operands(ops);
    p.w(" ");
    p.w(enum_value(ctx, op, "success_ordering", ATOMIC_ORDERINGS));
    p.w(" ");
    p.w(enum_value(ctx, op, "failure_ordering", ATOMIC_ORDERINGS));
    p.attr_dict(op, &["success_ordering", "failure_ordering"]);
    p.w(" : ");
    let t = ctx.value_type(ops[2]);
    p.ty(t);
}

fn verify_cmpxchg(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    let pt = ctx.value_type(ops[0]);
    // ODS first: integers and pointers only (the op's own verifier, which
    // also names floats, is never reached with one).
    let int_or_ptr =
        |t: Type| matches!(ctx.kind(t), TypeKind::Integer(..)) || ty::is_pointer(ctx, t);
    if !matches!(ty::as_pointer(ctx, pt), Some((Some(e), _)) if int_or_ptr(e)) {
        return Err(format!(
            "operand #0 must be LLVM pointer to integer or LLVM pointer type, but got '{}'",
            tn(ctx, pt)
        ));
    }
    for (i, &v) in ops.iter().enumerate().skip(1) {
        let t = ctx.value_type(v);
        if !int_or_ptr(t) {
            return Err(format!(
                "operand #{i} must be integer or LLVM pointer type, but got '{}'",
                tn(ctx, t)
            ));
        }
    }
    let Some((pointee, _)) = ty::as_pointer(ctx, pt) else {
        return Err("expected LLVM IR pointer type for operand #0".into());
    };
    let (ct, vt) = (ctx.value_type(ops[1]), ctx.value_type(ops[2]));
    if pointee != Some(ct) || ct != vt {
        return Err(
            "expected LLVM IR element type for operand #0 to match type for all other operands"
                .into(),
        );
    }
    let k = ctx.kind(vt);
    if !ty::is_pointer(ctx, vt)
        && !is_atomic_int(ctx, vt)
        && !matches!(
            k,
            TypeKind::BF16 | TypeKind::F16 | TypeKind::F32 | TypeKind::F64
        )
    {
        return Err("unexpected LLVM IR type".into());
    }
    if !ordering_at_least_monotonic(ctx, op, "success_ordering")
        || !ordering_at_least_monotonic(ctx, op, "failure_ordering")
    {
        return Err("ordering must be at least 'monotonic'".into());
    }
    if matches!(
        enum_value(ctx, op, "failure_ordering", ATOMIC_ORDERINGS),
        "release" | "acq_rel"
    ) {
        return Err("failure ordering cannot be 'release' or 'acq_rel'".into());
    }
    Ok(())
}

// ----- getelementptr -----

/// The `structIndices` of a GEP: a constant, or [`GEP_DYNAMIC_INDEX`]
/// for each index given by an operand.
pub fn gep_indices(ctx: &Context, op: Op) -> Option<Vec<i32>> {
    let a = ctx.get_attr(op, "structIndices")?;
    Some(dense_ints(ctx, a)?.into_iter().map(|v| v as i32).collect())
}

/// The `structIndices` attribute of `indices`.
pub fn gep_indices_attr(ctx: &mut Context, indices: &[i32]) -> Attribute {
    let i32t = ctx.int_type(32);
    let vals: Vec<i128> = indices.iter().map(|&v| v as i128).collect();
    dense_of(ctx, &vals, i32t, true)
}

/// `custom<GEPIndices>($indices, $structIndices)` (14 and 15): each
/// index a 32-bit constant or an operand, `structIndices` saying which.
const GEP_INDICES: Custom = Custom {
    name: "GEPIndices",
    parse: parse_gep_indices,
    print: print_gep_indices,
};

fn parse_gep_indices(p: &mut Parser, fr: &mut Frame, args: &[CArg]) -> PResult<()> {
    let &[CArg::Var(Var::Operand(g)), CArg::Var(Var::Attr(a))] = args else {
        unreachable!("declared so")
    };
    p.skip_ws();
    fr.begin_group(p, g, p.pos);
    let mut indices = vec![];
    loop {
        match fr.parse_optional_integer(p, 32)? {
            Some(v) => indices.push(v as i32),
            None => {
                fr.parse_operand(p, g)?;
                indices.push(GEP_DYNAMIC_INDEX);
            }
        }
        if !p.eat(",") {
            break;
        }
    }
    let attr = gep_indices_attr(p.ctx, &indices);
    let name = p.static_sym(fr.attr_name(a));
    fr.st.attrs.push((name, attr));
    Ok(())
}

fn print_gep_indices(p: &mut Printer, v: &View, args: &[CArg]) {
    let &[CArg::Var(Var::Operand(g)), CArg::Var(Var::Attr(a))] = args else {
        return;
    };
    let ctx = p.ctx;
    let ops = v.operands(ctx, g);
    let indices = v.attr(ctx, a).and_then(|a| dense_ints(ctx, a));
    let mut next = 0;
    for (i, x) in indices.unwrap_or_default().into_iter().enumerate() {
        if i > 0 {
            p.w(", ");
        }
        if x as i32 == GEP_DYNAMIC_INDEX {
            if let Some(&o) = ops.get(next) {
                p.operand(o);
            }
            next += 1;
        } else {
            p.w(&x.to_string());
        }
    }
}

/// The positions of GEP indices that index into structs, with the
/// structs' sizes (MLIR's `findKnownStructIndices`).
fn struct_positions(ctx: &Context, base: Type) -> Vec<(usize, usize)> {
    let t = scalar_of(ctx, base);
    let Some(pointee) = ty::pointee(ctx, t) else {
        return vec![];
    };
    let mut out = vec![];
    let mut visited = vec![];
    record_struct_positions(ctx, pointee, 1, &mut out, &mut visited);
    out
}

fn record_struct_positions(
    ctx: &Context,
    t: Type,
    at: usize,
    out: &mut Vec<(usize, usize)>,
    visited: &mut Vec<Type>,
) {
    if visited.contains(&t) {
        return;
    }
    visited.push(t);
    if let TypeKind::Vector { elem, .. } = ctx.kind(t) {
        return record_struct_positions(ctx, *elem, at + 1, out, visited);
    }
    match ty::classify(ctx, t) {
        Some(LlvmType::Struct(s)) => {
            out.push((at, s.elements().len()));
            for &e in s.elements() {
                record_struct_positions(ctx, e, at + 1, out, visited);
            }
        }
        Some(LlvmType::Array { element, .. } | LlvmType::Vector { element, .. }) => {
            record_struct_positions(ctx, element, at + 1, out, visited)
        }
        _ => {}
    }
}

/// 15's check that the element type is in the (result) pointer type or
/// in `elem_type`, not in neither nor both.
fn verify_opaque_pointer(ctx: &Context, op: Op) -> Result<(), String> {
    let res = scalar_of(ctx, ctx.value_type(ctx.result(op, 0)));
    let opaque = matches!(ty::as_pointer(ctx, res), Some((None, _)));
    match (opaque, ctx.get_attr(op, "elem_type").is_some()) {
        (true, false) => {
            Err("expected 'elem_type' attribute if opaque pointer type is used".into())
        }
        (false, true) => {
            Err("unexpected 'elem_type' attribute when non-opaque pointer type is used".into())
        }
        _ => Ok(()),
    }
}

/// 15's struct index check: the indices followed into the type they
/// index (the element type, `elem_type` or the base's pointee), each
/// index into a struct constant and in bounds.
fn verify_struct_indices_15(ctx: &Context, op: Op, indices: &[i32]) -> Result<(), String> {
    let elem = match ctx.get_attr(op, "elem_type").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Type(t)) => Some(*t),
        _ => ty::pointee(ctx, scalar_of(ctx, ctx.value_type(ctx.operand(op, 0)))),
    };
    let mut t = elem;
    // The first index steps over the pointer, not into the type.
    for (at, &v) in indices.iter().enumerate().skip(1) {
        let Some(cur) = t else {
            break;
        };
        t = match ty::classify(ctx, cur) {
            Some(LlvmType::Struct(s)) => {
                if v == GEP_DYNAMIC_INDEX {
                    return Err(format!(
                        "expected index {at} indexing a struct to be constant"
                    ));
                }
                match usize::try_from(v).ok().and_then(|i| s.elements().get(i)) {
                    Some(&e) => Some(e),
                    None => return Err(format!("index {at} indexing a struct is out of bounds")),
                }
            }
            Some(LlvmType::Array { element, .. } | LlvmType::Vector { element, .. }) => {
                Some(element)
            }
            _ => match ctx.kind(cur) {
                TypeKind::Vector { elem, .. } => Some(*elem),
                _ => None,
            },
        };
    }
    Ok(())
}

fn verify_gep(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    if ed == Edition::V15 {
        verify_opaque_pointer(ctx, op)?;
    }
    let Some(indices) = gep_indices(ctx, op) else {
        return Err("attribute 'structIndices' failed to satisfy constraint: 32-bit signless integer elements attribute".into());
    };
    let dynamic = indices.iter().filter(|&&v| v == GEP_DYNAMIC_INDEX).count();
    if dynamic != ctx.operands(op).len() - 1 {
        return Err(format!(
            "expected as many dynamic indices as specified in 'structIndices' ({dynamic}), but got {}",
            ctx.operands(op).len() - 1
        ));
    }
    // 13 checks nothing of struct indices: they are operands there; 15
    // follows the indices, 14 checks every place a struct may be.
    match ed {
        Edition::V13 => return Ok(()),
        Edition::V15 => return verify_struct_indices_15(ctx, op, &indices),
        Edition::V14 => {}
    }
    let base = ctx.value_type(ctx.operand(op, 0));
    for (at, size) in struct_positions(ctx, base) {
        let Some(&v) = indices.get(at) else {
            continue;
        };
        if v == GEP_DYNAMIC_INDEX {
            return Err(format!(
                "expected index {at} indexing a struct to be constant"
            ));
        }
        if v < 0 || v as usize >= size {
            return Err(format!("index {at} indexing a struct is out of bounds"));
        }
    }
    Ok(())
}

/// 13 has operand indices alone, 13 and 14 no `elem_type`.
fn gep_expressible(ctx: &Context, op: Op, ed: Edition) -> bool {
    let operands_only =
        || gep_indices(ctx, op).is_none_or(|i| i.iter().all(|&v| v == GEP_DYNAMIC_INDEX));
    let no_elem_type = || ctx.get_attr(op, "elem_type").is_none();
    match ed {
        Edition::V13 => operands_only() && no_elem_type(),
        Edition::V14 => no_elem_type(),
        Edition::V15 => true,
    }
}

fn print_gep_generic(p: &mut Printer, op: Op) {
    if p.edition() == Edition::V13 {
        generic_dict(p, op, |_, name, a| match name {
            "structIndices" => Entry::Skip,
            _ => Entry::Attr(name.into(), a),
        });
    } else {
        p.attr_dict(op, &[]);
    }
}

fn canonicalize_gep(p: &mut Parser, attrs: &mut Vec<(Symbol, Attribute)>, n: usize) {
    let ctx = &mut *p.ctx;
    if attrs.iter().any(|(k, _)| ctx.str(*k) == "structIndices") {
        return;
    }
    // 13 has every index dynamic.
    p.note_edition(Edition::V13);
    let ctx = &mut *p.ctx;
    let a = gep_indices_attr(ctx, &vec![GEP_DYNAMIC_INDEX; n.saturating_sub(1)]);
    let k = ctx.sym("structIndices");
    attrs.push((k, a));
}

// ----- calls -----

/// The callee of a direct `llvm.call`.
pub fn callee(ctx: &Context, op: Op) -> Option<Symbol> {
    match ctx.get_attr(op, "callee").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef(s, nested)) if nested.is_empty() => Some(*s),
        _ => None,
    }
}

fn parse_call(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let name_pos = p.op_name_pos;
    p.skip_ws();
    let indirect = if p.peek_operand() {
        Some(p.parse_operand_ref()?)
    } else {
        let name = p.symbol_name()?;
        let s = p.ctx.sym(&name);
        let a = p.ctx.attr(AttrKind::SymbolRef(s, vec![]));
        attr_key(p, st, "callee", a);
        None
    };
    p.expect("(")?;
    let args = if p.eat(")") {
        vec![]
    } else {
        let a = p.parse_operand_list()?;
        p.expect(")")?;
        a
    };
    attr_dict(p, st)?;
    p.expect(":")?;
    p.skip_ws();
    let tat = p.pos;
    let t = p.parse_type()?;
    let TypeKind::Function(ins, outs) = p.ctx.kind(t).clone() else {
        return custom_err(p, st, tat, "expected function type");
    };
    if outs.len() > 1 {
        return custom_err(p, st, tat, "expected function with 0 or 1 result");
    }
    match indirect {
        None => {
            st.operands = resolve_at(p, st, &args, &ins, name_pos)?;
            if outs.len() == 1 && !ty::is_void(p.ctx, outs[0]) {
                st.result_types = outs;
            }
        }
        Some(callee) => {
            let result = match outs.first() {
                None => ty::void(p.ctx),
                Some(&r) => {
                    if !ty::is_compatible(p.ctx, r) {
                        return custom_err(p, st, tat, "expected result to have LLVM type");
                    }
                    r
                }
            };
            if ins.iter().any(|&a| !ty::is_compatible(p.ctx, a)) {
                return custom_err(p, st, tat, "expected LLVM types as inputs");
            }
            let ft = ty::function(p.ctx, result, &ins, false);
            let pt = ty::pointer_to(p.ctx, ft);
            st.operands.push(p.resolve_operand(&callee, pt)?);
            let rest = resolve_at(p, st, &args, &ins, name_pos)?;
            st.operands.extend(rest);
            if !ty::is_void(p.ctx, result) {
                st.result_types.push(result);
            }
        }
    }
    Ok(())
}

fn print_call(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    let ops = ctx.operands(op);
    p.w(" ");
    let args = match callee(ctx, op) {
        Some(s) => {
            let mut name = String::new();
            print_symbol(ctx.str(s), &mut name);
            p.w(&name);
            ops
        }
        None => {
            p.operand(ops[0]);
            &ops[1..]
        }
    };
    p.w("(");
    p.operands(args);
    p.w(")");
    let default_fmf = ctx
        .get_attr(op, "fastmathFlags")
        .is_some_and(|a| is_opaque(ctx, a, NO_FASTMATH));
    p.attr_dict(
        op,
        if default_fmf {
            &["callee", "fastmathFlags"]
        } else {
            &["callee"]
        },
    );
    p.w(" : ");
    let ins = types_of(ctx, args);
    let outs = types_of(ctx, ctx.results(op));
    p.functional_type(&ins, &outs);
}

fn verify_call(ctx: &Context, op: Op) -> Result<(), String> {
    let nres = ctx.results(op).len();
    if nres > 1 {
        return Err("must have 0 or 1 result".into());
    }
    let ops = ctx.operands(op);
    let (fn_type, indirect) = match ctx.get_attr(op, "callee") {
        None => {
            let Some(&c) = ops.first() else {
                return Err("must have either a `callee` attribute or at least an operand".into());
            };
            let ct = ctx.value_type(c);
            match ty::as_pointer(ctx, ct) {
                Some((Some(e), _)) => (e, true),
                // Upstream prints the failed cast: a null type.
                _ => {
                    return Err("indirect call expects a pointer as callee: '<<NULL TYPE>>'".into())
                }
            }
        }
        Some(_) => {
            let Some(name) = callee(ctx, op) else {
                return Err("attribute 'callee' failed to satisfy constraint: flat symbol reference attribute".into());
            };
            let name_s = ctx.str(name);
            let found = ctx
                .nearest_symbol_table(op)
                .and_then(|t| ctx.lookup_symbol_id(t, name));
            let Some(f) = found else {
                return Err(format!(
                    "'{name_s}' does not reference a symbol in the current scope"
                ));
            };
            if ctx.name(f) != "llvm.func" {
                return Err(format!(
                    "'{name_s}' does not reference a valid LLVM function"
                ));
            }
            match func_type(ctx, f) {
                Some(t) => (t, false),
                None => return Err("callee does not have a functional type: ''".into()),
            }
        }
    };
    let Some(ft) = ty::as_function(ctx, fn_type) else {
        return Err(format!(
            "callee does not have a functional type: '{}'",
            tn(ctx, fn_type)
        ));
    };
    let args = &ops[indirect as usize..];
    if !ft.vararg && ft.params.len() != args.len() {
        return Err(format!(
            "incorrect number of operands ({}) for callee (expecting: {})",
            args.len(),
            ft.params.len()
        ));
    }
    if ft.params.len() > args.len() {
        return Err(format!(
            "incorrect number of operands ({}) for varargs callee (expecting at least: {})",
            args.len(),
            ft.params.len()
        ));
    }
    for (i, (&a, &pt)) in args.iter().zip(ft.params).enumerate() {
        let at = ctx.value_type(a);
        if at != pt {
            return Err(format!(
                "operand type mismatch for operand {i}: '{}' != '{}'",
                tn(ctx, at),
                tn(ctx, pt)
            ));
        }
    }
    let void = ty::is_void(ctx, ft.result);
    if nres == 0 && !void {
        return Err("expected function call to produce a value".into());
    }
    if nres != 0 && void {
        return Err("calling function with void result must not produce values".into());
    }
    if nres == 1 {
        let rt = ctx.value_type(ctx.result(op, 0));
        if rt != ft.result {
            return Err(format!(
                "result type mismatch: '{}' != '{}'",
                tn(ctx, rt),
                tn(ctx, ft.result)
            ));
        }
    }
    Ok(())
}

// ----- aggregates -----

enum PositionError {
    NotInt(Attribute),
    OutOfBounds(i64),
    NotAggregate(Type),
}

/// The type at `position` inside `container`.
fn element_at(ctx: &Context, container: Type, position: Attribute) -> Result<Type, PositionError> {
    let mut t = container;
    let AttrKind::Array(xs) = ctx.attr_kind(position) else {
        return Err(PositionError::NotInt(position));
    };
    for &x in xs {
        let AttrKind::Integer(v, _) = ctx.attr_kind(x) else {
            return Err(PositionError::NotInt(x));
        };
        let v = *v as i32 as i64;
        t = match ty::classify(ctx, t) {
            Some(LlvmType::Array { element, count }) => {
                if v < 0 || v as u64 >= count {
                    return Err(PositionError::OutOfBounds(v));
                }
                element
            }
            Some(LlvmType::Struct(s)) => match s.elements().get(v as usize) {
                Some(&e) if v >= 0 => e,
                _ => return Err(PositionError::OutOfBounds(v)),
            },
            _ => return Err(PositionError::NotAggregate(t)),
        };
    }
    Ok(t)
}

/// The element type for the custom parsers, with their errors.
fn parse_element_at(
    p: &Parser,
    st: &OperationState,
    container: Type,
    position: Attribute,
    pos_at: usize,
    type_at: usize,
) -> PResult<Type> {
    if !ty::is_compatible(p.ctx, container) {
        return custom_err(p, st, type_at, "expected LLVM IR Dialect type");
    }
    match element_at(p.ctx, container, position) {
        Ok(t) => Ok(t),
        Err(PositionError::NotInt(_)) => {
            custom_err(p, st, pos_at, "expected an array of integer literals")
        }
        Err(PositionError::OutOfBounds(_)) => custom_err(p, st, pos_at, "position out of bounds"),
        Err(PositionError::NotAggregate(_)) => {
            custom_err(p, st, type_at, "expected LLVM IR structure/array type")
        }
    }
}

/// The element type for the verifiers, with their messages.
fn verify_element_at(ctx: &Context, op: Op, container: Type) -> Result<Type, String> {
    let Some(position) = ctx.get_attr(op, "position") else {
        return Err("requires attribute 'position'".into());
    };
    if !matches!(ctx.attr_kind(position), AttrKind::Array(_)) {
        return Err("attribute 'position' failed to satisfy constraint: array attribute".into());
    }
    if !ty::is_compatible(ctx, container) {
        return Err(format!(
            "{}expected LLVM IR Dialect type, got '{}'",
            crate::PLAIN_ERROR,
            tn(ctx, container)
        ));
    }
    element_at(ctx, container, position).map_err(|e| match e {
        PositionError::NotInt(a) => format!("expected an array of integer literals, got: {}", {
            let mut s = String::new();
            mlir_async_syntax::printer::print_attr_into(ctx, a, &mut s, false);
            s
        }),
        PositionError::OutOfBounds(v) => {
            // 13-15 print the struct case without a separator.
            if matches!(ty::classify(ctx, container), Some(LlvmType::Array { .. })) {
                format!("position out of bounds: {v}")
            } else {
                format!("position out of bounds{v}")
            }
        }
        PositionError::NotAggregate(t) => format!(
            "expected LLVM IR structure/array type, got: '{}'",
            tn(ctx, t)
        ),
    })
}

fn parse_extractvalue(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let c = p.parse_operand_ref()?;
    p.skip_ws();
    let pos_at = p.pos;
    let position = p.parse_attribute(None)?;
    attr_key(p, st, "position", position);
    attr_dict(p, st)?;
    p.expect(":")?;
    p.skip_ws();
    let type_at = p.pos;
    let t = p.parse_type()?;
    st.operands.push(p.resolve_operand(&c, t)?);
    let e = parse_element_at(p, st, t, position, pos_at, type_at)?;
    st.result_types.push(e);
    Ok(())
}

fn print_extractvalue(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    let c = ctx.operand(op, 0);
    p.w(" ");
    p.operand(c);
    if let Some(a) = ctx.get_attr(op, "position") {
        p.attr(a);
    }
    p.attr_dict(op, &["position"]);
    p.w(" : ");
    let t = ctx.value_type(c);
    p.ty(t);
}

fn verify_extractvalue(ctx: &Context, op: Op) -> Result<(), String> {
    let c = ctx.value_type(ctx.operand(op, 0));
    let e = verify_element_at(ctx, op, c)?;
    let r = ctx.value_type(ctx.result(op, 0));
    if r != e {
        return Err(format!(
            "Type mismatch: extracting from '{}' should produce '{}' but this op returns '{}'",
            tn(ctx, c),
            tn(ctx, e),
            tn(ctx, r)
        ));
    }
    Ok(())
}

fn parse_insertvalue(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let v = p.parse_operand_ref()?;
    p.expect(",")?;
    let c = p.parse_operand_ref()?;
    p.skip_ws();
    let pos_at = p.pos;
    let position = p.parse_attribute(None)?;
    attr_key(p, st, "position", position);
    attr_dict(p, st)?;
    p.expect(":")?;
    p.skip_ws();
    let type_at = p.pos;
    let t = p.parse_type()?;
    let e = parse_element_at(p, st, t, position, pos_at, type_at)?;
    st.operands.push(p.resolve_operand(&c, t)?);
    st.operands.push(p.resolve_operand(&v, e)?);
    st.result_types.push(t);
    Ok(())
}

fn print_insertvalue(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    let ops = ctx.operands(op);
    p.w(" ");
    p.operand(ops[1]);
    p.w(", ");
    p.operand(ops[0]);
    if let Some(a) = ctx.get_attr(op, "position") {
        p.attr(a);
    }
    p.attr_dict(op, &["position"]);
    p.w(" : ");
    let t = ctx.value_type(ops[0]);
    p.ty(t);
}

fn verify_insertvalue(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    let c = ctx.value_type(ops[0]);
    let e = verify_element_at(ctx, op, c)?;
    let v = ctx.value_type(ops[1]);
    if v != e {
        return Err(format!(
            "Type mismatch: cannot insert '{}' into '{}'",
            tn(ctx, v),
            tn(ctx, c)
        ));
    }
    Ok(())
}

// ----- vectors -----

/// The element type of a builtin 1-D vector or an `!llvm.vec`.
fn vector_element(ctx: &Context, t: Type) -> Option<Type> {
    match ctx.kind(t) {
        TypeKind::Vector { shape, elem, .. } if shape.len() == 1 => Some(*elem),
        _ => match ty::classify(ctx, t) {
            Some(LlvmType::Vector { element, .. }) => Some(element),
            _ => None,
        },
    }
}

fn parse_extractelement(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    p.skip_ws();
    let at = p.pos;
    let v = p.parse_operand_ref()?;
    p.expect("[")?;
    let i = p.parse_operand_ref()?;
    let it = colon_type(p)?;
    p.expect("]")?;
    attr_dict(p, st)?;
    let vt = colon_type(p)?;
    let Some(e) = vector_element(p.ctx, vt) else {
        return custom_err(
            p,
            st,
            at,
            "expected LLVM dialect-compatible vector type for operand #1",
        );
    };
    st.operands.push(p.resolve_operand(&v, vt)?);
    st.operands.push(p.resolve_operand(&i, it)?);
    st.result_types.push(e);
    Ok(())
}

fn print_extractelement(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    let ops = ctx.operands(op);
    p.w(" ");
    p.operand(ops[0]);
    p.w("[");
    p.operand(ops[1]);
    p.w(" : ");
    let it = ctx.value_type(ops[1]);
    p.ty(it);
    p.w("]");
    p.attr_dict(op, &[]);
    p.w(" : ");
    let vt = ctx.value_type(ops[0]);
    p.ty(vt);
}

fn verify_extractelement(ctx: &Context, op: Op) -> Result<(), String> {
    let vt = ctx.value_type(ctx.operand(op, 0));
    let r = ctx.value_type(ctx.result(op, 0));
    if vector_element(ctx, vt) != Some(r) {
        return Err(format!(
            "Type mismatch: extracting from {} should produce {} but this op returns {}",
            tn(ctx, vt),
            vector_element(ctx, vt)
                .map(|e| tn(ctx, e))
                .unwrap_or_default(),
            tn(ctx, r)
        ));
    }
    Ok(())
}

fn parse_insertelement(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    p.skip_ws();
    let at = p.pos;
    let val = p.parse_operand_ref()?;
    p.expect(",")?;
    let v = p.parse_operand_ref()?;
    p.expect("[")?;
    let i = p.parse_operand_ref()?;
    let it = colon_type(p)?;
    p.expect("]")?;
    attr_dict(p, st)?;
    let vt = colon_type(p)?;
    let Some(e) = vector_element(p.ctx, vt) else {
        return custom_err(
            p,
            st,
            at,
            "expected LLVM dialect-compatible vector type for operand #1",
        );
    };
    st.operands.push(p.resolve_operand(&v, vt)?);
    st.operands.push(p.resolve_operand(&val, e)?);
    st.operands.push(p.resolve_operand(&i, it)?);
    st.result_types.push(vt);
    Ok(())
}

fn print_insertelement(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    let ops = ctx.operands(op);
    p.w(" ");
    p.operand(ops[1]);
    p.w(", ");
    p.operand(ops[0]);
    p.w("[");
    p.operand(ops[2]);
    p.w(" : ");
    let it = ctx.value_type(ops[2]);
    p.ty(it);
    p.w("]");
    p.attr_dict(op, &[]);
    p.w(" : ");
    let vt = ctx.value_type(ops[0]);
    p.ty(vt);
}

fn verify_insertelement(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    let vt = ctx.value_type(ops[0]);
    let val = ctx.value_type(ops[1]);
    if vector_element(ctx, vt) != Some(val) {
        return Err(format!(
            "Type mismatch: cannot insert '{}' into '{}'",
            tn(ctx, val),
            tn(ctx, vt)
        ));
    }
    Ok(())
}

fn parse_shufflevector(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    p.skip_ws();
    let at = p.pos;
    let a = p.parse_operand_ref()?;
    p.expect(",")?;
    let b = p.parse_operand_ref()?;
    let mask = p.parse_attribute(None)?;
    attr_key(p, st, "mask", mask);
    attr_dict(p, st)?;
    let t1 = colon_type(p)?;
    p.expect(",")?;
    let t2 = p.parse_type()?;
    st.operands.push(p.resolve_operand(&a, t1)?);
    st.operands.push(p.resolve_operand(&b, t2)?);
    let Some(e) = vector_element(p.ctx, t1) else {
        return custom_err(
            p,
            st,
            at,
            "expected LLVM IR dialect vector type for operand #1",
        );
    };
    let n = match p.ctx.attr_kind(mask) {
        AttrKind::Array(xs) => xs.len(),
        _ => 0,
    };
    // A builtin vector where it can hold the element, else `!llvm.vec`.
    let rt = if ty::is_llvm_type(p.ctx, e) {
        ty::vector_of(p.ctx, e, n as u32, false)
    } else {
        p.ctx.ty(TypeKind::Vector {
            shape: vec![n as i64],
            scalable: 0,
            elem: e,
        })
    };
    st.result_types.push(rt);
    Ok(())
}

fn print_shufflevector(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    let ops = ctx.operands(op);
    p.w(" ");
    p.operands(ops);
    p.w(" ");
    if let Some(m) = ctx.get_attr(op, "mask") {
        p.attr(m);
    }
    p.attr_dict(op, &["mask"]);
    p.w(" : ");
    let (a, b) = (ctx.value_type(ops[0]), ctx.value_type(ops[1]));
    p.ty(a);
    p.w(", ");
    p.ty(b);
}

// ----- control flow -----

/// The operands an LLVM branch forwards to its successor `i`, as an
/// index range into its operand list.
pub fn successor_operand_range(ctx: &Context, op: Op, i: usize) -> std::ops::Range<usize> {
    let n = ctx.operands(op).len();
    match ctx.name(op) {
        "llvm.br" => 0..n,
        "llvm.cond_br" => {
            let s = get_segments(ctx, op, 3).unwrap_or_else(|| vec![1, n.saturating_sub(1), 0]);
            if i == 0 {
                1..1 + s[1]
            } else {
                1 + s[1]..1 + s[1] + s[2]
            }
        }
        "llvm.switch" => {
            let Some(s) = get_segments(ctx, op, 3) else {
                return 0..0;
            };
            if i == 0 {
                return s[0].min(n)..(s[0] + s[1]).min(n);
            }
            let cases = switch_case_sizes(ctx, op).unwrap_or_default();
            let start = s[0] + s[1] + cases.iter().take(i - 1).sum::<usize>();
            let len = cases.get(i - 1).copied().unwrap_or(0);
            start.min(n)..(start + len).min(n)
        }
        _ => 0..0,
    }
}

/// Records that `llvm.switch`'s successor `i` now takes `n` operands
/// (its segment attributes; the operands are the caller's to set).
pub fn set_switch_segments(ctx: &mut Context, op: Op, i: usize, n: usize) {
    let Some(mut seg) = get_segments(ctx, op, 3) else {
        return;
    };
    let mut cases = switch_case_sizes(ctx, op).unwrap_or_default();
    if i == 0 {
        seg[1] = n;
    } else if let Some(c) = cases.get_mut(i - 1) {
        *c = n;
        seg[2] = cases.iter().sum();
    }
    let a = segment_sizes(ctx, &seg);
    ctx.set_attr(op, "operand_segment_sizes", a);
    let i32t = ctx.int_type(32);
    let sizes: Vec<i128> = cases.iter().map(|&c| c as i128).collect();
    let a = dense_of(ctx, &sizes, i32t, true);
    ctx.set_attr(op, "case_operand_segments", a);
}

fn verify_cond_br(ctx: &Context, op: Op) -> Result<(), String> {
    let s = get_segments(ctx, op, 3).unwrap_or_default();
    if s.first() != Some(&1) {
        return Err(format!(
            "operand group starting at #0 requires 1 element, but found {}",
            s.first().copied().unwrap_or(0)
        ));
    }
    let c = ctx.value_type(ctx.operand(op, 0));
    if ctx.kind(c) != &TypeKind::Integer(1, Signedness::Signless) {
        return Err(format!(
            "operand #0 must be 1-bit signless integer, but got '{}'",
            tn(ctx, c)
        ));
    }
    llvm_typed_operands(ctx, op, 1)
}

/// ODS's `Variadic<LLVM_Type>` from operand `from` on (the branches'
/// destination operands, `llvm.return`'s value): a value of a type LLVM
/// has no counterpart of (`index`, a tensor) is an error, as in
/// mlir-opt-14/15; a lowering that branches with values it did not
/// convert leaves such IR.
fn llvm_typed_operands(ctx: &Context, op: Op, from: usize) -> Result<(), String> {
    for (i, &v) in ctx.operands(op).iter().enumerate().skip(from) {
        let t = ctx.value_type(v);
        if !ty::is_compatible(ctx, t) {
            return Err(format!(
                "operand #{i} must be LLVM dialect-compatible type, but got '{}'",
                tn(ctx, t)
            ));
        }
    }
    Ok(())
}

fn verify_br(ctx: &Context, op: Op) -> Result<(), String> {
    llvm_typed_operands(ctx, op, 0)
}

/// The operand counts of `llvm.switch`'s cases.
fn switch_case_sizes(ctx: &Context, op: Op) -> Option<Vec<usize>> {
    let a = ctx.get_attr(op, "case_operand_segments")?;
    dense_ints(ctx, a)?
        .into_iter()
        .map(|v| usize::try_from(v).ok())
        .collect()
}

/// `custom<SwitchOpCases>(...)`: `value: ^bb(args), ...`, possibly
/// none. 14 and 15 pass the flag's type first
/// (`ref(type($value)), $case_values, $caseDestinations, $caseOperands,
/// type($caseOperands)`): values are read as `int64_t` and kept at its
/// width, and `case_operand_segments` says how many operands each case
/// has. 13 passes `$case_values, $caseDestinations, $caseOperands,
/// type($caseOperands), $case_operand_offsets`: values are `int32_t`,
/// and the offsets are set only with a case, as 13's parser sets them.
const SWITCH_OP_CASES: Custom = Custom {
    name: "SwitchOpCases",
    parse: parse_switch_cases,
    print: print_switch_cases,
};

fn parse_switch_cases(p: &mut Parser, fr: &mut Frame, args: &[CArg]) -> PResult<()> {
    let (flag, args) = match args {
        [CArg::RefType(v), rest @ ..] => (Some(*v), rest),
        _ => (None, args),
    };
    let &[CArg::Var(Var::Attr(values_attr)), CArg::Var(Var::Successor(_)), CArg::Var(Var::Operand(g)), CArg::Type(_), ref offsets @ ..] =
        args
    else {
        unreachable!("declared so")
    };
    let (ft, bits) = match flag {
        Some(v) => (fr.types(p, v).first().copied(), 64),
        None => (Some(p.ctx.int_type(32)), 32),
    };
    // A flag of another type (the verifier's to report) keeps its
    // values as `i64`s.
    let (ft, width) = match ft.map(|t| (t, p.ctx.kind(t).clone())) {
        Some((t, TypeKind::Integer(w, _))) => (t, w),
        _ => (p.ctx.int_type(64), 64),
    };
    p.skip_ws();
    fr.begin_group(p, g, p.pos);
    let mut values = vec![];
    let mut sizes = vec![];
    let mut types = vec![];
    loop {
        p.skip_ws();
        let at = p.pos;
        let mut read = fr.parse_optional_integer(p, 64)?;
        // 13 prints a negative case value as its unsigned 32-bit spelling
        // (`4294967295` for -1), which its own `int32_t` parser refuses:
        // mlir-opt-13 cannot read back what it printed. Read that
        // spelling too; anything wider is refused as 13 refuses it.
        if bits == 32 && read.is_some_and(|v| v < i128::from(i32::MIN) || v > i128::from(u32::MAX))
        {
            p.pos = at;
            read = fr.parse_optional_integer(p, bits)?;
        }
        let Some(v) = read else {
            if values.is_empty() {
                break;
            }
            // Upstream fails here without a word.
            return p.err_here("expected integer value");
        };
        p.expect(":")?;
        let b = p.parse_successor()?;
        let before = fr.operand_count(g);
        fr.parse_successor_operands(p, g, &mut types)?;
        fr.st.successors.push(b);
        // `APInt(width, value)`: the low bits, or the 64 bits
        // zero-extended to a wider flag.
        values.push(match width {
            0..=63 => sign_extend(v, width),
            64 => v,
            _ => v as i64 as u64 as i128,
        });
        sizes.push((fr.operand_count(g) - before) as i128);
        if !p.eat(",") {
            break;
        }
    }
    fr.set_types(p, Var::Operand(g), &types);
    let i32t = p.ctx.int_type(32);
    let mut attrs = vec![];
    if !values.is_empty() {
        attrs.push((
            fr.attr_name(values_attr),
            dense_of(p.ctx, &values, ft, false),
        ));
    }
    match offsets {
        [CArg::Var(Var::Attr(_))] if values.is_empty() => {}
        [CArg::Var(Var::Attr(a))] => {
            let mut at = 0;
            let offsets: Vec<i128> = sizes
                .iter()
                .map(|&n| {
                    at += n;
                    at - n
                })
                .collect();
            attrs.push((fr.attr_name(*a), dense_of(p.ctx, &offsets, i32t, false)));
        }
        _ => attrs.push(("case_operand_segments", dense_of(p.ctx, &sizes, i32t, true))),
    }
    for (name, a) in attrs {
        let s = p.static_sym(name);
        fr.st.attrs.push((s, a));
    }
    Ok(())
}

/// `v`'s low `width` bits read as a signed number.
fn sign_extend(v: i128, width: u32) -> i128 {
    if width == 0 || width >= 128 {
        return v;
    }
    let shift = 128 - width;
    (v << shift) >> shift
}

fn print_switch_cases(p: &mut Printer, v: &View, _: &[CArg]) {
    let ctx = p.ctx;
    let op = v.op;
    let ops = ctx.operands(op);
    let succ = ctx.successors(op);
    let (Some(&flag), Some(values)) = (ops.first(), ctx.get_attr(op, "case_values")) else {
        return;
    };
    let width = ctx.kind(ctx.value_type(flag)).bit_width().unwrap_or(64);
    let values = dense_ints(ctx, values).unwrap_or_default();
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            p.w(",");
            p.newline_indented(0);
        }
        // `APInt::getLimitedValue`: the bits as unsigned, at most 64.
        let bits = if width >= 64 {
            *v as u64
        } else {
            (*v as u64) & ((1u64 << width) - 1)
        };
        p.w("  ");
        p.w(&bits.to_string());
        p.w(": ");
        let r = successor_operand_range(ctx, op, i + 1);
        if let Some(&s) = succ.get(i + 1) {
            p.successor_with_args(s, &ops[r]);
        }
    }
    p.newline_indented(0);
}

/// 13's flag is an `i32`, its type unwritten.
fn switch_expressible(ctx: &Context, op: Op, ed: Edition) -> bool {
    ed != Edition::V13
        || ctx.operands(op).first().is_none_or(|&v| {
            ctx.kind(ctx.value_type(v)) == &TypeKind::Integer(32, Signedness::Signless)
        })
}

fn verify_switch(ctx: &Context, op: Op) -> Result<(), String> {
    let s = get_segments(ctx, op, 3).unwrap_or_default();
    if s.first() != Some(&1) {
        return Err(format!(
            "operand group starting at #0 requires 1 element, but found {}",
            s.first().copied().unwrap_or(0)
        ));
    }
    let ft = ctx.value_type(ctx.operand(op, 0));
    if !matches!(ctx.kind(ft), TypeKind::Integer(..)) {
        return Err(format!(
            "operand #0 must be integer, but got '{}'",
            tn(ctx, ft)
        ));
    }
    let ncases = ctx.successors(op).len() - 1;
    let Some(sizes) = switch_case_sizes(ctx, op) else {
        return Err("attribute 'case_operand_segments' failed to satisfy constraint: constant vector/tensor attribute".into());
    };
    if sizes.len() != ncases || sizes.iter().sum::<usize>() != s.get(2).copied().unwrap_or(0) {
        return Err(format!(
            "expected {ncases} case operand segments summing to {}",
            s.get(2).copied().unwrap_or(0)
        ));
    }
    let nvals = match ctx.get_attr(op, "case_values") {
        None => 0,
        Some(a) => match dense_ints(ctx, a) {
            Some(v) => v.len(),
            None => return Err("attribute 'case_values' failed to satisfy constraint: constant vector/tensor attribute".into()),
        },
    };
    if nvals != ncases {
        return Err("expects number of case values to match number of case destinations".into());
    }
    if let Some(w) = ctx.get_attr(op, "branch_weights") {
        let n = dense_ints(ctx, w).map_or(0, |v| v.len());
        if n != ncases + 1 {
            return Err(format!(
                "{}expects number of branch weights to match number of successors: {n} vs {}",
                crate::PLAIN_ERROR,
                ncases + 1
            ));
        }
    }
    Ok(())
}

fn print_switch_generic(p: &mut Printer, op: Op) {
    if p.edition() != Edition::V13 {
        return p.attr_dict(op, &[]);
    }
    // 13 kept where each case's operands start.
    generic_dict(p, op, |ctx, name, a| match name {
        "case_operand_segments" => {
            let sizes = dense_ints(ctx, a).unwrap_or_default();
            let mut at = 0;
            let offsets: Vec<String> = sizes
                .iter()
                .map(|&s| {
                    let o = at;
                    at += s;
                    o.to_string()
                })
                .collect();
            let n = offsets.len();
            if n == 0 {
                return Entry::Skip;
            }
            // One element, or all equal, is a splat.
            let body = if n >= 1 && offsets.iter().all(|o| *o == offsets[0]) {
                offsets[0].clone()
            } else {
                format!("[{}]", offsets.join(", "))
            };
            Entry::Text(
                "case_operand_offsets".into(),
                format!("dense<{body}> : vector<{n}xi32>"),
            )
        }
        _ => Entry::Attr(name.into(), a),
    });
}

/// 13's `case_operand_offsets` (custom or generic form) as the sizes
/// 14 keeps. 13 sets neither without a case, where 14 requires the sizes:
/// their absence says 13, unless the input said otherwise.
fn canonicalize_switch(p: &mut Parser, attrs: &mut Vec<(Symbol, Attribute)>, _: usize) {
    let ctx = &mut *p.ctx;
    let Some(i) = attrs
        .iter()
        .position(|(k, _)| ctx.str(*k) == "case_operand_offsets")
    else {
        let has_sizes = attrs
            .iter()
            .any(|(k, _)| ctx.str(*k) == "case_operand_segments");
        if matches!(p.seen, None | Some(Edition::V13)) && !has_sizes {
            p.note_edition(Edition::V13);
            let ctx = &mut *p.ctx;
            let i32t = ctx.int_type(32);
            let a = dense_of(ctx, &[], i32t, true);
            attrs.push((ctx.sym("case_operand_segments"), a));
        }
        return;
    };
    p.note_edition(Edition::V13);
    let ctx = &mut *p.ctx;
    let offsets = dense_ints(ctx, attrs[i].1).unwrap_or_default();
    let total = attrs
        .iter()
        .find(|(k, _)| ctx.str(*k) == "operand_segment_sizes")
        .and_then(|&(_, a)| dense_ints(ctx, a))
        .and_then(|s| s.get(2).copied())
        .unwrap_or(0);
    let sizes: Vec<i128> = (0..offsets.len())
        .map(|j| offsets.get(j + 1).copied().unwrap_or(total) - offsets[j])
        .collect();
    let i32t = ctx.int_type(32);
    let a = dense_of(ctx, &sizes, i32t, true);
    attrs[i] = (ctx.sym("case_operand_segments"), a);
}

fn parse_return(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    attr_dict(p, st)?;
    p.skip_ws();
    if !p.peek_operand() {
        return Ok(());
    }
    let v = p.parse_operand_list()?;
    p.expect(":")?;
    let tys = p.parse_type_list_no_parens()?;
    st.operands = resolve(p, &v, &tys)?;
    Ok(())
}

fn print_return(p: &mut Printer, op: Op) {
    p.attr_dict(op, &[]);
    let ops = p.ctx.operands(op);
    print_operands_and_types(p, ops);
}

fn verify_return(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    if ops.len() > 1 {
        return Err("expected at most 1 operand".into());
    }
    llvm_typed_operands(ctx, op, 0)?;
    let Some(parent) = ctx.parent_op(op) else {
        return Ok(());
    };
    // The nearest enclosing function.
    let mut f = Some(parent);
    while let Some(o) = f {
        if ctx.name(o) == "llvm.func" {
            break;
        }
        f = ctx.parent_op(o);
    }
    let Some(f) = f else {
        return Ok(());
    };
    let Some(expected) = func_type(ctx, f)
        .and_then(|t| ty::as_function(ctx, t))
        .map(|t| t.result)
    else {
        return Ok(());
    };
    let note = |m: &str| crate::with_note_at(m, f, "when returning from function");
    if ty::is_void(ctx, expected) {
        if ops.is_empty() {
            return Ok(());
        }
        return Err(note("expected no operands"));
    }
    if ops.is_empty() {
        return Err(note("expected 1 operand"));
    }
    if ctx.value_type(ops[0]) != expected {
        return Err(note("mismatching result types"));
    }
    Ok(())
}

// ----- constants and globals -----

fn verify_constant(ctx: &Context, op: Op) -> Result<(), String> {
    let v = ctx
        .get_attr(op, "value")
        .expect("checked by the invariants");
    let t = ctx.value_type(ctx.result(op, 0));
    if let AttrKind::String(s, _) = ctx.attr_kind(v) {
        let ok = matches!(ty::as_array(ctx, t), Some((e, n)) if n == s.len() as u64
            && ctx.kind(e) == &TypeKind::Integer(8, Signedness::Signless));
        if !ok {
            return Err(format!(
                "expected array type of {} i8 elements for the string constant",
                s.len()
            ));
        }
        return Ok(());
    }
    if let Some(s) = ty::as_struct(ctx, t) {
        let body = s.elements();
        if body.len() != 2 || body[0] != body[1] {
            return Err(format!(
                "{}expected struct type with two elements of the same type, the type of a complex constant",
                crate::PLAIN_ERROR
            ));
        }
        return Ok(());
    }
    match ctx.attr_kind(v) {
        AttrKind::Integer(..)
        | AttrKind::WideInteger(..)
        | AttrKind::Bool(_)
        | AttrKind::Float(..)
        | AttrKind::WideFloat(..)
        | AttrKind::Array(_)
        | AttrKind::Dense(..) => Ok(()),
        _ => Err("only supports integer, float, string or elements attributes".into()),
    }
}

fn verify_null(ctx: &Context, op: Op) -> Result<(), String> {
    let t = ctx.value_type(ctx.result(op, 0));
    if !ty::is_pointer(ctx, t) {
        return Err(format!(
            "result #0 must be LLVM pointer type, but got '{}'",
            tn(ctx, t)
        ));
    }
    Ok(())
}

/// The nearest symbol table op above `op` that is a module of LLVM.
fn lookup_in_module(ctx: &Context, op: Op, name: Symbol) -> Option<Op> {
    let mut m = ctx.parent_op(op);
    while let Some(o) = m {
        if ctx.traits_of(o).symbol_table {
            return ctx.lookup_symbol_id(o, name);
        }
        m = ctx.parent_op(o);
    }
    None
}

fn verify_addressof(ctx: &Context, op: Op) -> Result<(), String> {
    let name = match ctx.get_attr(op, "global_name").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef(s, n)) if n.is_empty() => *s,
        _ => return Err(
            "attribute 'global_name' failed to satisfy constraint: flat symbol reference attribute"
                .into(),
        ),
    };
    let t = ctx.value_type(ctx.result(op, 0));
    let target = lookup_in_module(ctx, op, name);
    match target.map(|o| (o, ctx.name(o))) {
        Some((g, "llvm.mlir.global")) => {
            let gt = attr_type(ctx, g, "global_type");
            let space = match ctx.get_attr(g, "addr_space").map(|a| ctx.attr_kind(a)) {
                Some(AttrKind::Integer(v, _)) => *v as u32,
                _ => 0,
            };
            let ok = gt.is_some_and(|gt| ty::as_pointer(ctx, t) == Some((Some(gt), space)));
            if !ok {
                return Err(
                    "the type must be a pointer to the type of the referenced global".into(),
                );
            }
            Ok(())
        }
        Some((f, "llvm.func")) => {
            let ft = func_type(ctx, f);
            let ok = ft.is_some_and(|ft| ty::as_pointer(ctx, t) == Some((Some(ft), 0)));
            if !ok {
                return Err(
                    "the type must be a pointer to the type of the referenced function".into(),
                );
            }
            Ok(())
        }
        _ => Err("must reference a global defined by 'llvm.mlir.global' or 'llvm.func'".into()),
    }
}

fn attr_type(ctx: &Context, op: Op, key: &str) -> Option<Type> {
    match ctx.get_attr(op, key).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Type(t)) => Some(*t),
        _ => None,
    }
}

/// The `#llvm.linkage<...>` attribute of a linkage keyword.
pub fn linkage_attr(ctx: &mut Context, linkage: &str) -> Attribute {
    ctx.attr(AttrKind::Opaque(format!("#llvm.linkage<{linkage}>")))
}

/// The linkage keyword of a function or global (`external` if unset).
pub fn linkage(ctx: &Context, op: Op) -> &str {
    match ctx.get_attr(op, "linkage").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Opaque(s)) => s
            .strip_prefix("#llvm.linkage<")
            .and_then(|s| s.strip_suffix('>'))
            .map_or("external", str::trim),
        Some(AttrKind::Integer(v, _)) => LINKAGES.get(*v as usize).copied().unwrap_or("external"),
        _ => "external",
    }
}

/// One of `keywords` if it is next, as its index.
fn parse_keyword_of(p: &mut Parser, keywords: &[&str]) -> Option<usize> {
    let id = p.peek_ident()?;
    let i = keywords.iter().position(|&k| !k.is_empty() && k == id)?;
    p.eat_keyword(id);
    Some(i)
}

fn parse_global(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let name_pos = p.op_name_pos;
    let l = parse_keyword_of(p, LINKAGES).unwrap_or(10);
    let la = linkage_attr(p.ctx, LINKAGES[l]);
    attr_key(p, st, "linkage", la);
    if p.eat_keyword("thread_local") {
        let u = p.ctx.unit_attr();
        attr_key(p, st, "thread_local_", u);
    }
    let ua = parse_keyword_of(p, UNNAMED_ADDR).unwrap_or(0);
    let i64t = p.ctx.int_type(64);
    let ua = p.ctx.int_attr(ua as i128, i64t);
    attr_key(p, st, "unnamed_addr", ua);
    if p.eat_keyword("constant") {
        let u = p.ctx.unit_attr();
        attr_key(p, st, "constant", u);
    }
    let name = p.symbol_name()?;
    let na = p.ctx.string_attr(&name);
    attr_key(p, st, "sym_name", na);
    p.expect("(")?;
    let mut value = None;
    if !p.eat(")") {
        let v = p.parse_attribute(None)?;
        p.expect(")")?;
        attr_key(p, st, "value", v);
        value = Some(v);
    }
    attr_dict(p, st)?;
    let r = p.ctx.create_region();
    let t = if p.eat(":") {
        let ts = p.parse_type_list_no_parens()?;
        if ts.len() != 1 {
            return custom_err(p, st, name_pos, "expected zero or one type");
        }
        p.skip_ws();
        if p.peek() == b'{' {
            let body = p.parse_region(&[], true)?;
            st.regions.push(body);
        }
        ts[0]
    } else {
        match value.map(|v| p.ctx.attr_kind(v)) {
            Some(AttrKind::String(s, _)) => {
                let n = s.len() as u64;
                let i8t = p.ctx.int_type(8);
                ty::array_of(p.ctx, i8t, n)
            }
            _ => {
                return custom_err(
                    p,
                    st,
                    name_pos,
                    "type can only be omitted for string globals",
                )
            }
        }
    };
    if st.regions.is_empty() {
        st.regions.push(r);
    }
    let ta = p.ctx.type_attr(t);
    attr_key(p, st, "global_type", ta);
    Ok(())
}

fn print_global(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    p.w(" ");
    p.w(linkage(ctx, op));
    p.w(" ");
    if let Some(AttrKind::Integer(v, _)) =
        ctx.get_attr(op, "unnamed_addr").map(|a| ctx.attr_kind(a))
    {
        let s = UNNAMED_ADDR.get(*v as usize).copied().unwrap_or("");
        // 13 printed the space after an empty keyword too.
        if !s.is_empty() || p.edition() == Edition::V13 {
            p.w(s);
            p.w(" ");
        }
    }
    if ctx.get_attr(op, "thread_local_").is_some() {
        p.w("thread_local ");
    }
    if ctx.get_attr(op, "constant").is_some() {
        p.w("constant ");
    }
    let mut name = String::new();
    print_symbol(ctx.symbol_name(op).unwrap_or(""), &mut name);
    p.w(&name);
    p.w("(");
    let value = ctx.get_attr(op, "value");
    if let Some(v) = value {
        p.attr(v);
    }
    p.w(")");
    p.attr_dict(
        op,
        &[
            "sym_name",
            "global_type",
            "constant",
            "value",
            "linkage",
            "unnamed_addr",
            "thread_local_",
        ],
    );
    if value.is_some_and(|v| matches!(ctx.attr_kind(v), AttrKind::String(..))) {
        return;
    }
    p.w(" : ");
    if let Some(t) = attr_type(ctx, op, "global_type") {
        p.ty(t);
    }
    let r = ctx.regions_of(op)[0];
    if !ctx.region_is_empty(r) {
        p.w(" ");
        p.region(r, false, true);
    }
}

fn verify_global(ctx: &Context, op: Op) -> Result<(), String> {
    // The region traits come first.
    if let Some(b) = ctx.entry_block(ctx.regions_of(op)[0]) {
        if ctx.region_blocks(ctx.regions_of(op)[0]).len() > 1 {
            return Err("expects region #0 to have 0 or 1 blocks".into());
        }
        // `SingleBlockImplicitTerminator<"ReturnOp">`, though the custom
        // parser adds none.
        match ctx.last_op(b) {
            Some(last) if ctx.name(last) != "llvm.return" => {
                return Err(crate::with_note_at(
                    &format!(
                        "expects regions to end with 'llvm.return', found '{}'",
                        ctx.name(last)
                    ),
                    op,
                    "in custom textual format, the absence of terminator implies 'llvm.return'",
                ))
            }
            None => {
                return Err(crate::with_note_at(
                    "expects a non-empty block",
                    op,
                    "in custom textual format, the absence of terminator implies 'llvm.return'",
                ))
            }
            _ => {}
        }
    }
    let Some(t) = attr_type(ctx, op, "global_type") else {
        return Err(
            "attribute 'global_type' failed to satisfy constraint: any type attribute".into(),
        );
    };
    if !ty::is_valid_pointee(ctx, t) {
        return Err("expects type to be a valid element type for an LLVM pointer".into());
    }
    if let Some(parent) = ctx.parent_op(op) {
        if ctx.name(parent) != "builtin.module" {
            return Err("must appear at the module level".into());
        }
    }
    let value = ctx.get_attr(op, "value");
    if let Some(AttrKind::String(s, _)) = value.map(|v| ctx.attr_kind(v)) {
        let ok = matches!(ty::as_array(ctx, t), Some((e, n)) if n == s.len() as u64
            && ctx.kind(e) == &TypeKind::Integer(8, Signedness::Signless));
        if !ok {
            return Err(
                "requires an i8 array type of the length equal to that of the string attribute"
                    .into(),
            );
        }
    }
    let r = ctx.regions_of(op)[0];
    if let Some(b) = ctx.entry_block(r) {
        if let Some(ret) = ctx.last_op(b).filter(|&o| ctx.name(o) == "llvm.return") {
            let Some(&v) = ctx.operands(ret).first() else {
                return Err("initializer region cannot return void".into());
            };
            let rt = ctx.value_type(v);
            if rt != t {
                return Err(format!(
                    "initializer region type '{}' does not match global type '{}'",
                    tn(ctx, rt),
                    tn(ctx, t)
                ));
            }
        }
        if value.is_some() {
            return Err("cannot have both initializer value and region".into());
        }
    }
    match linkage(ctx, op) {
        "common" if value.is_some_and(|v| !is_zero(ctx, v)) => {
            return Err("expected zero value for 'common' linkage".into())
        }
        "appending" if ty::as_array(ctx, t).is_none() => {
            return Err("expected array type for 'appending' linkage".into())
        }
        _ => {}
    }
    if let Some(AttrKind::Integer(a, _)) = ctx.get_attr(op, "alignment").map(|a| ctx.attr_kind(a)) {
        if *a <= 0 || (*a as u64).count_ones() != 1 {
            return Err(format!(
                "{}alignment attribute is not a power of 2",
                crate::PLAIN_ERROR
            ));
        }
    }
    Ok(())
}

fn is_zero(ctx: &Context, a: Attribute) -> bool {
    match ctx.attr_kind(a) {
        AttrKind::Integer(v, _) => *v == 0,
        AttrKind::Bool(b) => !b,
        AttrKind::Float(bits, _) => f64::from_bits(*bits) == 0.0,
        AttrKind::Dense(elems, _, _) => elems.iter().all(|e| match e {
            DenseElem::Int(v) => *v == 0,
            DenseElem::Float(b) => f64::from_bits(*b) == 0.0,
            // Never zero: a double holds every zero.
            DenseElem::WideFloat(_) => false,
            DenseElem::Bool(b) => !b,
        }),
        AttrKind::Array(xs) => xs.iter().all(|&x| is_zero(ctx, x)),
        _ => false,
    }
}

fn print_global_generic(p: &mut Printer, op: Op) {
    if p.edition() != Edition::V13 {
        return p.attr_dict(op, &[]);
    }
    generic_dict(p, op, generic_13);
}

#[allow(clippy::ptr_arg)] // a `CanonicalizeFn`: others push to the list
fn canonicalize_global(p: &mut Parser, attrs: &mut Vec<(Symbol, Attribute)>, _: usize) {
    if rename_key(p.ctx, attrs, "type", "global_type") {
        p.note_edition(Edition::V13);
    }
    canonicalize_linkage(p, attrs);
}

/// 13's spellings: the signature or global type named `type`, the
/// linkage an integer.
fn generic_13(ctx: &Context, name: &str, a: Attribute) -> Entry {
    match name {
        "function_type" | "global_type" => Entry::Attr("type".into(), a),
        "linkage" => {
            let l = match ctx.attr_kind(a) {
                AttrKind::Opaque(s) => s
                    .strip_prefix("#llvm.linkage<")
                    .and_then(|s| s.strip_suffix('>'))
                    .and_then(|s| LINKAGES.iter().position(|&l| l == s.trim())),
                _ => None,
            };
            match l {
                Some(i) => Entry::Text(name.into(), format!("{i} : i64")),
                None => Entry::Attr(name.into(), a),
            }
        }
        _ => Entry::Attr(name.into(), a),
    }
}

/// Renames attribute `from` to `to` unless `to` is there: whether it did.
fn rename_key(ctx: &mut Context, attrs: &mut [(Symbol, Attribute)], from: &str, to: &str) -> bool {
    if attrs.iter().any(|(k, _)| ctx.str(*k) == to) {
        return false;
    }
    match attrs.iter().position(|(k, _)| ctx.str(*k) == from) {
        Some(i) => {
            attrs[i].0 = ctx.sym(to);
            true
        }
        None => false,
    }
}

/// 13's integer linkage as the attribute 14 and 15 store.
fn canonicalize_linkage(p: &mut Parser, attrs: &mut [(Symbol, Attribute)]) {
    let ctx = &mut *p.ctx;
    if let Some(i) = attrs.iter().position(|(k, _)| ctx.str(*k) == "linkage") {
        if let AttrKind::Integer(v, _) = *ctx.attr_kind(attrs[i].1) {
            if let Some(l) = LINKAGES.get(v as usize) {
                attrs[i].1 = linkage_attr(ctx, l);
                p.note_edition(Edition::V13);
            }
        }
    }
}

// ----- functions -----

/// The `!llvm.func` type of an `llvm.func`.
pub fn func_type(ctx: &Context, f: Op) -> Option<Type> {
    attr_type(ctx, f, "function_type")
}

fn parse_func(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let l = parse_keyword_of(p, LINKAGES).unwrap_or(10);
    let la = linkage_attr(p.ctx, LINKAGES[l]);
    attr_key(p, st, "linkage", la);
    if let Some(c) = parse_keyword_of(p, CCONVS) {
        p.note_edition(Edition::V15);
        if c != 0 {
            let a = p
                .ctx
                .attr(AttrKind::Opaque(format!("#llvm.cconv<{}>", CCONVS[c])));
            attr_key(p, st, "CConv", a);
        }
    }
    p.skip_ws();
    let sig_at = p.pos;
    let name = p.symbol_name()?;
    let na = p.ctx.string_attr(&name);
    attr_key(p, st, "sym_name", na);
    p.expect("(")?;
    let mut args: Vec<RegionArg> = vec![];
    let mut inputs = vec![];
    let mut arg_attrs = vec![];
    let mut arg_locs = vec![];
    let mut named = None;
    let mut vararg = false;
    if !p.eat(")") {
        loop {
            p.skip_ws();
            let pos = p.pos;
            if p.eat("...") {
                vararg = true;
                p.expect(")")?;
                break;
            }
            let is_named = p.peek_operand();
            if *named.get_or_insert(is_named) != is_named {
                return p.err(pos, "expected SSA identifier");
            }
            if is_named {
                let u = p.parse_operand_ref()?;
                p.expect(":")?;
                let t = p.parse_type()?;
                args.push(RegionArg {
                    name: u.name,
                    ty: t,
                    pos,
                });
                inputs.push(t);
            } else {
                inputs.push(p.parse_type()?);
            }
            arg_attrs.push(p.parse_optional_attr_dict()?);
            if p.peek_ident() == Some("loc") {
                let l = p.parse_location_body()?;
                if p.seen != Some(Edition::V13) {
                    arg_locs.push((inputs.len() - 1, l));
                }
            }
            if !p.eat(",") {
                p.expect(")")?;
                break;
            }
        }
    }
    let mut results = vec![];
    let mut res_attrs = vec![];
    if p.eat("->") {
        if p.eat("(") {
            if !p.eat(")") {
                loop {
                    results.push(p.parse_type()?);
                    res_attrs.push(p.parse_optional_attr_dict()?);
                    if !p.eat(",") {
                        break;
                    }
                }
                p.expect(")")?;
            }
        } else {
            results.push(p.parse_type()?);
            res_attrs.push(vec![]);
        }
    }
    if results.len() > 1 {
        return custom_err(
            p,
            st,
            sig_at,
            "failed to construct function type: expected zero or one function result",
        );
    }
    if inputs.iter().any(|&t| !ty::is_compatible(p.ctx, t)) {
        return custom_err(
            p,
            st,
            sig_at,
            "failed to construct function type: expected LLVM type for function arguments",
        );
    }
    let result = match results.first() {
        Some(&r) => r,
        None => ty::void(p.ctx),
    };
    if !ty::is_compatible(p.ctx, result) {
        let text = tn(p.ctx, result);
        return custom_err(
            p,
            st,
            sig_at,
            format!(
                "failed to construct function type: expected LLVM type for function results'{text}'"
            ),
        );
    }
    let ft = ty::function(p.ctx, result, &inputs, vararg);
    let fa = p.ctx.type_attr(ft);
    attr_key(p, st, "function_type", fa);
    for (key, dicts) in [("arg_attrs", arg_attrs), ("res_attrs", res_attrs)] {
        if dicts.iter().any(|d| !d.is_empty()) {
            let arr: Vec<Attribute> = dicts
                .into_iter()
                .map(|d| p.ctx.attr(AttrKind::Dictionary(d)))
                .collect();
            let a = p.ctx.attr(AttrKind::Array(arr));
            let s = p.ctx.sym(key);
            st.attrs.push((s, a));
        }
    }
    attr_dict_kw(p, st)?;
    p.skip_ws();
    if p.peek() == b'{' {
        if named == Some(false) {
            return p.err_here(
                "expected SSA identifiers for function arguments when a body is present",
            );
        }
        let r = p.parse_region(&args, true)?;
        if let Some(entry) = p.ctx.entry_block(r) {
            for (i, l) in arg_locs {
                if let Some(&a) = p.ctx.block_args(entry).get(i) {
                    p.ctx.set_value_loc(a, l);
                }
            }
        }
        st.regions.push(r);
    } else {
        let r = p.ctx.create_region();
        st.regions.push(r);
    }
    Ok(())
}

fn print_func(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    p.w(" ");
    let l = linkage(ctx, op);
    if l != "external" {
        p.w(l);
        p.w(" ");
    }
    if let Some(AttrKind::Opaque(s)) = ctx.get_attr(op, "CConv").map(|a| ctx.attr_kind(a)) {
        if let Some(c) = s
            .strip_prefix("#llvm.cconv<")
            .and_then(|s| s.strip_suffix('>'))
            .filter(|c| *c != "ccc")
        {
            p.w(c);
            p.w(" ");
        }
    }
    let mut name = String::new();
    print_symbol(ctx.symbol_name(op).unwrap_or(""), &mut name);
    p.w(&name);
    let ft = func_type(ctx, op).and_then(|t| ty::as_function(ctx, t));
    let (params, result, vararg) = match ft {
        Some(f) => (
            f.params,
            Some(f.result).filter(|&r| !ty::is_void(ctx, r)),
            f.vararg,
        ),
        None => (&[][..], None, false),
    };
    let arg_attrs = crate::builtin::func_arg_attrs(ctx, op, "arg_attrs", params.len());
    let res_attrs = crate::builtin::func_arg_attrs(ctx, op, "res_attrs", result.iter().len());
    let body = ctx.regions_of(op)[0];
    let entry = ctx.entry_block(body);
    p.w("(");
    for (i, &t) in params.iter().enumerate() {
        if i > 0 {
            p.w(", ");
        }
        if let Some(b) = entry {
            if let Some(&a) = ctx.block_args(b).get(i) {
                p.operand(a);
                p.w(": ");
            }
        }
        p.ty(t);
        p.attr_entries(&arg_attrs[i], false);
        if p.opts.debug_info {
            if let Some(&a) = entry.and_then(|b| ctx.block_args(b).get(i)) {
                let l = ctx.value_loc(a);
                p.w(" ");
                p.arg_location(l);
            }
        }
    }
    if vararg {
        if !params.is_empty() {
            p.w(", ");
        }
        p.w("...");
    }
    p.w(")");
    if let Some(r) = result {
        p.w(" -> ");
        let wrap = !res_attrs[0].is_empty();
        if wrap {
            p.w("(");
        }
        p.ty(r);
        p.attr_entries(&res_attrs[0], false);
        if wrap {
            p.w(")");
        }
    }
    p.attr_dict_kw(
        op,
        &[
            "sym_name",
            "function_type",
            "arg_attrs",
            "res_attrs",
            "linkage",
            "CConv",
        ],
    );
    if entry.is_some() {
        p.w(" ");
        p.region(body, false, true);
    }
}

fn verify_func(ctx: &Context, op: Op) -> Result<(), String> {
    let Some(t) = func_type(ctx, op) else {
        return Err("requires 'function_type' attribute of wrapped LLVM function type".into());
    };
    let Some(ft) = ty::as_function(ctx, t) else {
        return Err("requires 'function_type' attribute of wrapped LLVM function type".into());
    };
    let l = linkage(ctx, op);
    if l == "common" {
        return Err("functions cannot have 'common' linkage".into());
    }
    if ty::is_void(ctx, ft.result)
        && crate::builtin::func_arg_attrs(ctx, op, "res_attrs", 1)
            .first()
            .is_some_and(|d| !d.is_empty())
    {
        return Err("cannot attach result attributes to functions with a void return".into());
    }
    let body = ctx.regions_of(op)[0];
    let Some(entry) = ctx.entry_block(body) else {
        if l != "external" && l != "extern_weak" {
            return Err("external functions must have 'external' or 'extern_weak' linkage".into());
        }
        return Ok(());
    };
    // 14 refused a variadic function with a body ("only external functions
    // can be variadic"); 15 takes it, and so do we.
    let args = ctx.block_args(entry);
    for (i, &pt) in ft.params.iter().enumerate() {
        let Some(&a) = args.get(i) else {
            break;
        };
        let at = ctx.value_type(a);
        if !ty::is_compatible(ctx, at) {
            return Err(format!("entry block argument #{i} is not of LLVM type"));
        }
        if at != pt {
            return Err(format!(
                "the type of entry block argument #{i} does not match the function signature"
            ));
        }
    }
    Ok(())
}

fn print_func_generic(p: &mut Printer, op: Op) {
    match p.edition() {
        Edition::V13 => generic_dict(p, op, generic_13),
        Edition::V14 => generic_dict(p, op, |_, name, a| match name {
            "function_type" => Entry::Attr("type".into(), a),
            _ => Entry::Attr(name.into(), a),
        }),
        Edition::V15 => {
            if p.ctx.get_attr(op, "CConv").is_some() {
                return p.attr_dict(op, &[]);
            }
            generic_dict_extra(
                p,
                op,
                |_, name, a| Entry::Attr(name.into(), a),
                Some(("CConv", CCONV_C)),
            )
        }
    }
}

fn canonicalize_func(p: &mut Parser, attrs: &mut Vec<(Symbol, Attribute)>, _: usize) {
    let ctx = &mut *p.ctx;
    // 13 and 14 named the signature `type`; 15 added the calling
    // convention, stored only when not the default.
    let mut before_15 = false;
    if let Some(i) = attrs.iter().position(|(k, _)| ctx.str(*k) == "type") {
        if let AttrKind::Type(t) = *ctx.attr_kind(attrs[i].1) {
            if ty::as_function(ctx, t).is_some()
                && !attrs.iter().any(|(k, _)| ctx.str(*k) == "function_type")
            {
                attrs[i].0 = ctx.sym("function_type");
                before_15 = true;
            }
        }
    }
    let cconv = attrs.iter().any(|(k, _)| ctx.str(*k) == "CConv");
    attrs.retain(|&(k, a)| !(ctx.str(k) == "CConv" && is_opaque(ctx, a, CCONV_C)));
    if before_15 {
        p.note_before_15();
    }
    if cconv {
        p.note_edition(Edition::V15);
    }
    canonicalize_linkage(p, attrs);
}

// ----- intrinsics -----

// ----- generic attribute dictionaries -----

/// An entry of a generic attribute dictionary as a generation spells it.
enum Entry {
    Attr(String, Attribute),
    Text(String, String),
    Skip,
}

/// Prints the op's attributes, each respelled by `f`, sorted by name.
fn generic_dict(p: &mut Printer, op: Op, f: impl Fn(&Context, &str, Attribute) -> Entry) {
    generic_dict_extra(p, op, f, None)
}

fn generic_dict_extra(
    p: &mut Printer,
    op: Op,
    f: impl Fn(&Context, &str, Attribute) -> Entry,
    extra: Option<(&str, &str)>,
) {
    let ctx = p.ctx;
    let mut entries: Vec<(String, Option<Attribute>, String)> = vec![];
    for &(k, a) in ctx.attrs(op) {
        match f(ctx, ctx.str(k), a) {
            Entry::Attr(n, a) => entries.push((n, Some(a), String::new())),
            Entry::Text(n, t) => entries.push((n, None, t)),
            Entry::Skip => {}
        }
    }
    if let Some((n, t)) = extra {
        entries.push((n.into(), None, t.into()));
    }
    if entries.is_empty() {
        return;
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    p.w(" {");
    for (i, (n, a, t)) in entries.iter().enumerate() {
        if i > 0 {
            p.w(", ");
        }
        let mut key = String::new();
        print_attr_name(n, &mut key);
        p.w(&key);
        match a {
            Some(a) if *ctx.attr_kind(*a) == AttrKind::Unit => {}
            Some(a) => {
                p.w(" = ");
                p.attr(*a);
            }
            None => {
                p.w(" = ");
                p.w(t);
            }
        }
    }
    p.w("}");
}

//! The dialects' side of the rewrite layer's [`OpInterfaces`]: what an
//! op folds to (the folder its definition names, see [`crate::Folding`];
//! the folders are in [`crate::fold`]), how each dialect materialises a
//! constant, and what a branch forwards to its successors.

use crate::cf::successor_operand_range;
use crate::util::segment_sizes;
use crate::{FoldHook, Folding, Registry};
use mlir_async_ir::{
    AttrKind, Attribute, Context, InsertPoint, Location, Op, Type, TypeKind, Value,
};
use mlir_async_rewrite::fold::{Folded, OpInterfaces};
use mlir_async_syntax::Edition;
use std::ops::Range;
use std::sync::Arc;

/// The interfaces of every registered op, for one syntax generation (14
/// and 15 fold a few ops differently).
pub struct Interfaces {
    pub edition: Edition,
    /// The registry's table of folders (see [`Registry::folding`]).
    folding: Arc<[Folding]>,
    /// `arith.constant` and `func.constant` (see [`Registry::constant_ops`]).
    constant_ops: [mlir_async_ir::Symbol; 2],
}

impl Interfaces {
    /// The interfaces of the ops `registry` defines, for ops of the
    /// context it was made with.
    pub fn new(registry: &Registry, edition: Edition) -> Self {
        Interfaces {
            edition,
            folding: registry.folding(),
            constant_ops: registry.constant_ops(),
        }
    }

    /// What the definition of `op`'s name says about folding it (the
    /// default for an unregistered op: no folder, not commutative).
    #[inline]
    fn folding(&self, ctx: &Context, op: Op) -> Folding {
        self.folding
            .get(ctx.op_name(op).index())
            .copied()
            .unwrap_or_default()
    }

    /// `op`'s folder in this generation, if its definition has one.
    #[inline]
    fn folder(&self, ctx: &Context, op: Op) -> Option<FoldHook> {
        self.folding(ctx, op).folder_in(self.edition)
    }
}

/// Whether `arith.constant` can hold `value` as a `ty` (MLIR's
/// `arith::ConstantOp::isBuildableWith`): a scalar or dense attribute of
/// exactly that type.
fn arith_buildable(ctx: &Context, value: Attribute, ty: Type) -> bool {
    match ctx.attr_kind(value) {
        AttrKind::Integer(_, t)
        | AttrKind::Float(_, t)
        | AttrKind::WideFloat(_, t)
        | AttrKind::Dense(_, t, _) => *t == ty,
        AttrKind::Bool(_) => matches!(ctx.kind(ty), TypeKind::Integer(1, _)),
        _ => false,
    }
}

impl OpInterfaces for Interfaces {
    fn llvm_release(&self) -> u32 {
        match self.edition {
            Edition::V13 => 13,
            Edition::V14 => 14,
            Edition::V15 => 15,
        }
    }
    fn is_commutative(&self, ctx: &Context, op: Op) -> bool {
        self.folding(ctx, op).commutative_in(self.edition)
    }

    fn may_fold(&self, ctx: &Context, op: Op) -> bool {
        self.folder(ctx, op).is_some()
    }

    fn fold(&self, ctx: &mut Context, op: Op, _operands: &[Option<Attribute>]) -> Folded {
        match self.folder(ctx, op) {
            Some(f) => (f.fold)(ctx, op, self.edition),
            None => Folded::No,
        }
    }

    /// An op without a folder reads nothing: it fails again whatever
    /// changed.
    fn fold_is_local(&self, ctx: &Context, op: Op) -> bool {
        self.folder(ctx, op).is_none_or(|f| f.local)
    }

    fn materialize_constant(
        &self,
        ctx: &mut Context,
        dialect: &str,
        value: Attribute,
        ty: Type,
        loc: Location,
        ip: InsertPoint,
    ) -> Option<Op> {
        let [arith_constant, func_constant] = self.constant_ops;
        let name = match dialect {
            "arith" | "memref" | "scf" | "cf" | "func" | "std"
                if arith_buildable(ctx, value, ty) =>
            {
                arith_constant
            }
            "func" | "std" if matches!(ctx.attr_kind(value), AttrKind::SymbolRef(..)) => {
                func_constant
            }
            _ => return None,
        };
        let key = ctx.value_symbol();
        let c = ctx.create_op_from(name, loc, &[], &[ty], &[(key, value)], &[], &[]);
        ctx.insert_op(ip, c);
        Some(c)
    }

    fn successor_operands(&self, ctx: &Context, op: Op, i: usize) -> Option<Range<usize>> {
        match ctx.name(op) {
            "cf.br" | "cf.cond_br" => Some(successor_operand_range(ctx, op, i)),
            "llvm.br" | "llvm.cond_br" | "llvm.switch" => {
                Some(crate::llvm::ops::successor_operand_range(ctx, op, i))
            }
            _ => None,
        }
    }

    fn set_successor_operands(&self, ctx: &mut Context, op: Op, i: usize, vals: &[Value]) {
        let Some(range) = self.successor_operands(ctx, op, i) else {
            return;
        };
        let mut ops = ctx.operands(op).to_vec();
        ops.splice(range, vals.iter().copied());
        if ctx.name(op) == "llvm.switch" {
            crate::llvm::ops::set_switch_segments(ctx, op, i, vals.len());
        }
        if ctx.name(op) == "cf.cond_br" || ctx.name(op) == "llvm.cond_br" {
            let t = successor_operand_range(ctx, op, 0).len();
            let f = successor_operand_range(ctx, op, 1).len();
            let (t, f) = if i == 0 {
                (vals.len(), f)
            } else {
                (t, vals.len())
            };
            let seg = segment_sizes(ctx, &[1, t, f]);
            ctx.set_attr(op, "operand_segment_sizes", seg);
        }
        ctx.set_operands(op, ops);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlir_async_syntax::parse_source;

    /// What the drivers learn of each op comes from its definition, in
    /// the generation asked: `scf.if` folds from 14 on and reads its
    /// regions, `negf` folds in 15 only, `addf` is commutative from 14 on
    /// and `maxsi` in 15; ops without a folder (or unregistered) fold
    /// nothing and their failed fold stays failed.
    #[test]
    fn folders_and_commutativity_come_from_the_definitions() {
        let mut ctx = Context::new();
        let reg = Registry::new(&mut ctx);
        let text = r#"func.func @f(%a: i32, %b: i32, %x: f32, %c: i1, %s: !llvm.struct<(i32, i32)>) -> i32 {
  %0 = arith.maxsi %a, %b : i32
  %1 = arith.addf %x, %x : f32
  %2 = arith.addi %a, %b : i32
  %3 = arith.negf %x : f32
  %4 = llvm.extractvalue %s[0] : !llvm.struct<(i32, i32)>
  %5 = arith.constant 1 : i32
  %6 = "test.op"(%a, %b) : (i32, i32) -> i32
  scf.if %c {
  }
  return %2 : i32
}
"#;
        let parsed = parse_source(&mut ctx, &reg, "t.mlir", text, 0, true).expect("parses");
        let mut ops = std::collections::HashMap::new();
        ctx.walk_nested(parsed.module, &mut |op| {
            ops.insert(ctx.name(op).to_string(), op);
        });
        let [v13, v14, v15] =
            [Edition::V13, Edition::V14, Edition::V15].map(|e| Interfaces::new(&reg, e));
        let op = |name: &str| ops[name];
        let may_fold = |i: &Interfaces, name| i.may_fold(&ctx, op(name));
        let commutative = |i: &Interfaces, name| i.is_commutative(&ctx, op(name));
        let local = |i: &Interfaces, name| i.fold_is_local(&ctx, op(name));

        assert!(!may_fold(&v13, "scf.if") && may_fold(&v14, "scf.if"));
        assert!(!local(&v15, "scf.if") && !local(&v15, "llvm.extractvalue"));
        assert!(local(&v15, "arith.addi") && local(&v15, "test.op"));
        assert!(!may_fold(&v14, "arith.negf") && may_fold(&v15, "arith.negf"));
        for name in ["arith.constant", "func.return", "test.op"] {
            assert!(!may_fold(&v15, name), "{name} has no folder");
        }
        assert!(may_fold(&v13, "arith.addi") && may_fold(&v13, "llvm.extractvalue"));

        assert!(commutative(&v13, "arith.addi") && commutative(&v15, "arith.addi"));
        assert!(!commutative(&v13, "arith.addf") && commutative(&v14, "arith.addf"));
        assert!(!commutative(&v14, "arith.maxsi") && commutative(&v15, "arith.maxsi"));
        assert!(!commutative(&v15, "test.op"));
    }
}

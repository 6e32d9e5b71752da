//! The op order index: is one op before another in their block? MLIR
//! caches an order number in every op and renumbers a block lazily after
//! it changes; here the numbers live in the index (ops stay 64 bytes) and
//! a block's change counter (`BlockData::order_stamp`) says when its
//! numbering is stale. Liveness queries (`is_dead_after`) ask this for
//! every value at every op, while passes insert ops between the queries.

use crate::entity::SecondaryMap;
use crate::{Block, Context, Op};

/// Positions of ops in their blocks, renumbered per block on demand.
#[derive(Default)]
pub struct OpOrder {
    pos: SecondaryMap<Op, u32>,
    /// The block's `order_stamp` + 1 when numbered; 0 when never.
    numbered_at: SecondaryMap<Block, u64>,
}

impl OpOrder {
    pub fn new() -> Self {
        Self::default()
    }

    fn number(&mut self, ctx: &Context, b: Block) {
        let stamp = u64::from(ctx.block(b).order_stamp) + 1;
        if self.numbered_at[b] == stamp {
            return;
        }
        for (i, o) in ctx.block_ops_iter(b).enumerate() {
            self.pos[o] = i as u32;
        }
        self.numbered_at[b] = stamp;
    }

    /// The position of `op` in its block (the first op is 0).
    pub fn position(&mut self, ctx: &Context, op: Op) -> u32 {
        if let Some(b) = ctx.parent_block(op) {
            self.number(ctx, b);
        }
        self.pos[op]
    }

    /// Whether `a` comes before `b`; both must be in the same block
    /// (MLIR's `Operation::isBeforeInBlock`).
    pub fn is_before_in_block(&mut self, ctx: &Context, a: Op, b: Op) -> bool {
        debug_assert_eq!(ctx.parent_block(a), ctx.parent_block(b), "ops of one block");
        self.position(ctx, a) < self.position(ctx, b)
    }
}

impl Context {
    /// `op`'s ancestor (or itself) that sits directly in block `b`, if
    /// any (MLIR's `Block::findAncestorOpInBlock`).
    pub fn ancestor_in_block(&self, b: Block, op: Op) -> Option<Op> {
        let mut cur = op;
        loop {
            let pb = self.parent_block(cur)?;
            if pb == b {
                return Some(cur);
            }
            cur = self.parent_op(cur)?;
        }
    }

    /// `b`'s ancestor (or itself) that is a block of region `r`, if any
    /// (MLIR's `Region::findAncestorBlockInRegion`).
    pub fn ancestor_block_in_region(&self, r: crate::Region, b: Block) -> Option<Block> {
        let mut cur = b;
        loop {
            let pr = self.parent_region(cur)?;
            if pr == r {
                return Some(cur);
            }
            let op = self.region_parent(pr)?;
            cur = self.parent_block(op)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::OpOrder;
    use crate::{Context, InsertPoint, OpTraits, OperationState};

    #[test]
    fn positions_follow_insertions_and_removals() {
        let mut c = Context::new();
        let name = c.register_op("t.op", OpTraits::default());
        let loc = c.unknown_loc();
        let r = c.create_region();
        let b = c.create_block(&[]);
        c.append_block(r, b);
        let a = c.build(InsertPoint::AtEnd(b), OperationState::new(name, loc));
        let z = c.build(InsertPoint::AtEnd(b), OperationState::new(name, loc));
        let mut order = OpOrder::new();
        assert!(order.is_before_in_block(&c, a, z));
        assert!(!order.is_before_in_block(&c, z, a));
        // An op put first: the numbering is redone, not reused.
        let first = c.build(InsertPoint::Before(a), OperationState::new(name, loc));
        assert!(order.is_before_in_block(&c, first, a));
        assert_eq!(order.position(&c, z), 2);
        c.detach_op(a);
        assert_eq!(order.position(&c, z), 1);
    }
}

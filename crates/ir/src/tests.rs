use super::*;

fn setup() -> (Context, Block, Symbol) {
    let mut c = Context::new();
    let add = c.register_op("t.add", OpTraits::default());
    let b = c.create_block(&[]);
    (c, b, add)
}

#[test]
fn replace_all_uses_moves_every_use() {
    let (mut c, b, add) = setup();
    let i32t = c.int_type(32);
    let a0 = c.add_block_arg(b, i32t);
    let a1 = c.add_block_arg(b, i32t);
    let loc = c.unknown_loc();
    let mut st = OperationState::new(add, loc);
    st.operands = vec![a0, a0];
    st.result_types = vec![i32t];
    let op = c.build(InsertPoint::AtEnd(b), st);
    assert_eq!(c.uses(a0).len(), 2);
    c.replace_all_uses_with(a0, a1);
    assert!(c.uses(a0).is_empty());
    assert_eq!(c.operands(op), &[a1, a1]);
    assert_eq!(c.uses(a1).len(), 2);
}

#[test]
fn an_op_nobody_registered_has_no_traits() {
    let (mut c, b, add) = setup();
    let pure = c.register_op(
        "t.pure",
        OpTraits {
            pure: true,
            constant_like: true,
            ..OpTraits::default()
        },
    );
    let other = c.sym("t.unregistered");
    let loc = c.unknown_loc();
    let [a, p, u] =
        [add, pure, other].map(|n| c.build(InsertPoint::AtEnd(b), OperationState::new(n, loc)));
    assert_eq!(c.traits_of(a), OpTraits::default());
    assert!(c.traits_of(p).pure && c.traits_of(p).constant_like);
    assert_eq!(c.traits_of(u), OpTraits::default());
}

#[test]
fn erasing_a_used_op_is_an_error() {
    let (mut c, b, add) = setup();
    let i32t = c.int_type(32);
    let loc = c.unknown_loc();
    let mut st = OperationState::new(add, loc);
    st.result_types = vec![i32t];
    let def = c.build(InsertPoint::AtEnd(b), st);
    let mut st = OperationState::new(add, loc);
    st.operands = vec![c.result(def, 0)];
    let user = c.build(InsertPoint::AtEnd(b), st);
    assert!(c.erase_op(def).is_err());
    assert_eq!(c.block_ops(b), vec![def, user]);
    c.erase_op(user).unwrap();
    c.erase_op(def).unwrap();
    assert!(c.block_ops(b).is_empty());
}

#[test]
fn split_and_inline_blocks() {
    let (mut c, b, add) = setup();
    let r = c.create_region();
    c.append_block(r, b);
    let loc = c.unknown_loc();
    let ops: Vec<Op> = (0..4)
        .map(|_| c.build(InsertPoint::AtEnd(b), OperationState::new(add, loc)))
        .collect();
    let nb = c.split_block(b, ops[2]);
    assert_eq!(c.block_ops(b), ops[..2].to_vec());
    assert_eq!(c.block_ops(nb), ops[2..].to_vec());
    assert_eq!(c.region_blocks(r).to_vec(), [b, nb]);
    c.inline_block(nb, InsertPoint::Before(ops[1]), &[]);
    assert_eq!(c.block_ops(b), vec![ops[0], ops[2], ops[3], ops[1]]);
    assert_eq!(c.region_blocks(r).to_vec(), [b]);
}

#[test]
fn interning_gives_equal_handles() {
    let mut c = Context::new();
    let a = c.int_type(32);
    let b = c.ty(TypeKind::Integer(32, Signedness::Signless));
    let s = c.ty(TypeKind::Integer(32, Signedness::Signed));
    assert_eq!(a, b);
    assert_ne!(a, s);
    let x = c.int_attr(1, a);
    let y = c.int_attr(1, a);
    assert_eq!(x, y);
}

#[test]
fn attributes_stay_sorted() {
    let (mut c, b, add) = setup();
    let loc = c.unknown_loc();
    let op = c.build(InsertPoint::AtEnd(b), OperationState::new(add, loc));
    let u = c.unit_attr();
    c.set_attr(op, "zeta", u);
    c.set_attr(op, "alpha", u);
    c.set_attr(op, "mid", u);
    let names: Vec<&str> = c.attrs(op).iter().map(|(k, _)| c.str(*k)).collect();
    assert_eq!(names, vec!["alpha", "mid", "zeta"]);
    assert_eq!(c.get_attr(op, "mid"), Some(u));
    assert!(c.remove_attr(op, "mid").is_some());
    assert_eq!(c.get_attr(op, "mid"), None);
}

#[test]
fn clone_region_remaps_values_and_successors() {
    let mut c = Context::new();
    let br = c.register_op(
        "t.br",
        OpTraits {
            is_terminator: true,
            ..Default::default()
        },
    );
    let use_ = c.register_op("t.use", OpTraits::default());
    let i32t = c.int_type(32);
    let r = c.create_region();
    let b0 = c.create_block(&[i32t]);
    let b1 = c.create_block(&[]);
    c.append_block(r, b0);
    c.append_block(r, b1);
    let loc = c.unknown_loc();
    let mut st = OperationState::new(br, loc);
    st.successors = vec![b1];
    c.build(InsertPoint::AtEnd(b0), st);
    let mut st = OperationState::new(use_, loc);
    st.operands = vec![c.block_args(b0)[0]];
    c.build(InsertPoint::AtEnd(b1), st);
    let r2 = c.create_region();
    let mut map = HashMap::new();
    c.clone_region_into(r, r2, &mut map);
    let nb = c.region_blocks(r2).to_vec();
    assert_eq!(nb.len(), 2);
    let t = c.last_op(nb[0]).unwrap();
    assert_eq!(c.successors(t), &[nb[1]]);
    let u = c.first_op(nb[1]).unwrap();
    assert_eq!(c.operand(u, 0), c.block_args(nb[0])[0]);
}

#[test]
fn cloning_an_op_copies_its_lists_and_records_its_uses() {
    let (mut c, b, add) = setup();
    let i32t = c.int_type(32);
    let index = c.index_type();
    let a0 = c.add_block_arg(b, i32t);
    let a1 = c.add_block_arg(b, i32t);
    let target = c.create_block(&[]);
    let loc = c.unknown_loc();
    let one = c.int_attr(1, i32t);
    let mut st = OperationState::new(add, loc);
    st.operands = vec![a0, a0];
    st.result_types = vec![i32t, index];
    st.successors = vec![target];
    st.attrs = vec![(c.sym("z"), one), (c.sym("a"), one)];
    let op = c.build(InsertPoint::AtEnd(b), st);
    // The clone reads `a1` where the op read `a0`.
    let mut map = HashMap::new();
    map.insert(a0, a1);
    let copy = c.clone_op(op, InsertPoint::AtEnd(b), &mut map);
    assert_ne!(copy, op);
    assert_eq!(c.block_ops(b), vec![op, copy]);
    assert_eq!(c.operands(copy), &[a1, a1]);
    assert_eq!(c.uses(a1).len(), 2);
    assert_eq!(c.uses(a0).len(), 2, "the original keeps its uses");
    let types: Vec<Type> = c.results(copy).iter().map(|&r| c.value_type(r)).collect();
    assert_eq!(types, vec![i32t, index]);
    assert_eq!(c.attrs(copy), c.attrs(op));
    assert_eq!(c.successors(copy), &[target]);
    assert_eq!(c.pred_ops(target).len(), 2);
    // Its results are new values, mapped from the original's.
    for i in 0..2 {
        let (r, nr) = (c.result(op, i), c.result(copy, i));
        assert_ne!(r, nr);
        assert_eq!(map[&r], nr);
        assert_eq!(c.value_def(nr), ValueDef::Result(copy, i as u32));
    }
    // Changing the clone's lists leaves the original's alone.
    c.set_operand(copy, 0, a0);
    assert_eq!(c.operands(op), &[a0, a0]);
    assert_eq!(c.operands(copy), &[a0, a1]);
}

#[test]
fn dominance_across_blocks() {
    let mut c = Context::new();
    let br = c.register_op(
        "t.br",
        OpTraits {
            is_terminator: true,
            ..Default::default()
        },
    );
    let def = c.register_op("t.def", OpTraits::default());
    let i32t = c.int_type(32);
    let r = c.create_region();
    let bs: Vec<Block> = (0..3).map(|_| c.create_block(&[])).collect();
    for &b in &bs {
        c.append_block(r, b);
    }
    let loc = c.unknown_loc();
    // bb0 -> bb1, bb0 -> bb2 ; bb1 -> bb2
    let mut st = OperationState::new(def, loc);
    st.result_types = vec![i32t];
    let d0 = c.build(InsertPoint::AtEnd(bs[0]), st.clone());
    let mut b0 = OperationState::new(br, loc);
    b0.successors = vec![bs[1], bs[2]];
    c.build(InsertPoint::AtEnd(bs[0]), b0);
    let d1 = c.build(InsertPoint::AtEnd(bs[1]), st.clone());
    let mut b1 = OperationState::new(br, loc);
    b1.successors = vec![bs[2]];
    c.build(InsertPoint::AtEnd(bs[1]), b1);
    let user = c.build(InsertPoint::AtEnd(bs[2]), OperationState::new(def, loc));
    let mut dom = dominance::DominanceInfo::new();
    assert!(dom.value_dominates_use(&c, c.result(d0, 0), user));
    assert!(!dom.value_dominates_use(&c, c.result(d1, 0), user));
    assert!(!dom.value_dominates_use(&c, c.result(d1, 0), d0));
    // An unreachable block is dominated by every block, the entry block
    // (answered without a dominator tree) and the others alike.
    let dead = c.create_block(&[]);
    c.append_block(r, dead);
    let in_dead = c.build(InsertPoint::AtEnd(dead), OperationState::new(def, loc));
    let mut dom = dominance::DominanceInfo::new();
    assert!(dom.value_dominates_use(&c, c.result(d0, 0), in_dead));
    assert!(dom.value_dominates_use(&c, c.result(d1, 0), in_dead));
    assert!(!dom.value_dominates_use(&c, c.result(d1, 0), user));
}

/// Blocks of one predecessor each, as a lowered coroutine chains them:
/// a value of a block up the chain dominates; one of a block off the
/// chain, or past a join, does not; a loop of such blocks ends the climb.
#[test]
fn dominance_along_single_predecessor_chains() {
    let mut c = Context::new();
    let br = c.register_op(
        "t.br",
        OpTraits {
            is_terminator: true,
            ..Default::default()
        },
    );
    let def = c.register_op("t.def", OpTraits::default());
    let i32t = c.int_type(32);
    let r = c.create_region();
    // entry -> a, c; a -> b; b -> j, l; c -> j; l -> l2; l2 -> l (a loop
    // that only `b` enters).
    let [entry, a, b, cb, j, l, l2] = [(); 7].map(|_| c.create_block(&[]));
    for x in [entry, a, b, cb, j, l, l2] {
        c.append_block(r, x);
    }
    let loc = c.unknown_loc();
    let mut st = OperationState::new(def, loc);
    st.result_types = vec![i32t];
    let value_in = |c: &mut Context, blk: Block| {
        let d = c.build(InsertPoint::AtEnd(blk), st.clone());
        c.result(d, 0)
    };
    let va = value_in(&mut c, a);
    let vb = value_in(&mut c, b);
    let vc = value_in(&mut c, cb);
    let vl2 = value_in(&mut c, l2);
    let branch = |c: &mut Context, from: Block, to: Vec<Block>| {
        let mut t = OperationState::new(br, loc);
        t.successors = to;
        c.build(InsertPoint::AtEnd(from), t);
    };
    branch(&mut c, entry, vec![a, cb]);
    branch(&mut c, a, vec![b]);
    branch(&mut c, b, vec![j, l]);
    branch(&mut c, cb, vec![j]);
    branch(&mut c, l, vec![l2]);
    branch(&mut c, l2, vec![l]);
    let user_in = |c: &mut Context, blk: Block| {
        let at = match c.last_op(blk) {
            Some(t) => InsertPoint::Before(t),
            None => InsertPoint::AtEnd(blk),
        };
        c.build(at, OperationState::new(def, loc))
    };
    let (in_b, in_j, in_l, in_l2) = (
        user_in(&mut c, b),
        user_in(&mut c, j),
        user_in(&mut c, l),
        user_in(&mut c, l2),
    );
    let mut dom = dominance::DominanceInfo::new();
    // Up the chain b <- a, and l <- b (l's predecessors: b and l2).
    assert!(dom.value_dominates_use(&c, va, in_b));
    assert!(dom.value_dominates_use(&c, vb, in_l));
    assert!(dom.value_dominates_use(&c, va, in_l2));
    // Off the chain, or past the join at j.
    assert!(!dom.value_dominates_use(&c, vc, in_b));
    assert!(!dom.value_dominates_use(&c, va, in_j));
    assert!(!dom.value_dominates_use(&c, vc, in_j));
    // Within the loop: l2's value does not reach back to l.
    assert!(!dom.value_dominates_use(&c, vl2, in_l));
    // A cycle of single predecessors no branch enters: the climb goes
    // round it and gives up; unreachable, it is dominated by everything.
    let [x, y] = [(); 2].map(|_| c.create_block(&[]));
    c.append_block(r, x);
    c.append_block(r, y);
    branch(&mut c, x, vec![y]);
    branch(&mut c, y, vec![x]);
    let in_x = user_in(&mut c, x);
    let mut dom = dominance::DominanceInfo::new();
    assert!(dom.value_dominates_use(&c, vc, in_x));
    assert!(!dom.value_dominates_use(&c, vc, in_b));
}

#[test]
fn symbol_lookup_by_text_and_by_interned_name() {
    let mut c = Context::new();
    let table = c.register_op(
        "t.table",
        OpTraits {
            symbol_table: true,
            no_terminator: true,
            ..Default::default()
        },
    );
    let func = c.register_op("t.func", OpTraits::default());
    let loc = c.unknown_loc();
    let r = c.create_region();
    let body = c.create_block(&[]);
    c.append_block(r, body);
    let mut st = OperationState::new(table, loc);
    st.regions = vec![r];
    let module = c.create_op(st);
    let symbol = |c: &mut Context, name: &str| {
        let op = c.build(InsertPoint::AtEnd(body), OperationState::new(func, loc));
        let a = c.string_attr(name);
        c.set_attr(op, "sym_name", a);
        op
    };
    let f = symbol(&mut c, "f");
    // "g" is only a string attribute: never interned as a name.
    let g = symbol(&mut c, "never_referenced_g");
    assert_eq!(c.lookup_symbol(module, "f"), Some(f));
    assert_eq!(c.lookup_symbol(module, "never_referenced_g"), Some(g));
    assert_eq!(c.lookup_symbol(module, "missing"), None);
    // Interning the name later (a new reference to it) must not leave the
    // cached table, built without it, answering "absent".
    let gs = c.sym("never_referenced_g");
    assert_eq!(c.lookup_symbol_id(module, gs), Some(g));
    // Renames are seen.
    let a = c.string_attr("h");
    c.set_attr(f, "sym_name", a);
    let hs = c.sym("h");
    assert_eq!(c.lookup_symbol_id(module, hs), Some(f));
    assert_eq!(c.lookup_symbol(module, "f"), None);

    // The cached table follows insertions and removals of children (a
    // conversion adds and looks up runtime functions op by op).
    let k = symbol(&mut c, "k");
    assert_eq!(c.lookup_symbol(module, "k"), Some(k));
    // A second child of one name: the first in block order is found, also
    // when the new one comes first.
    let k_before = c.build(InsertPoint::Before(f), OperationState::new(func, loc));
    let a = c.string_attr("k");
    c.set_attr(k_before, "sym_name", a);
    assert_eq!(c.lookup_symbol(module, "k"), Some(k_before));
    c.detach_op(k_before);
    assert_eq!(c.lookup_symbol(module, "k"), Some(k));
    c.erase_op(k).unwrap();
    assert_eq!(c.lookup_symbol(module, "k"), None);
    // A symbol inserted after the table was cached, then removed.
    let late = symbol(&mut c, "late");
    assert_eq!(c.lookup_symbol(module, "late"), Some(late));
    c.detach_op(late);
    assert_eq!(c.lookup_symbol(module, "late"), None);
}

/// The region's list read forwards, backwards, by the neighbour links and
/// by index, all agreeing with `expected`; the parents set.
fn check_blocks(c: &Context, r: Region, expected: &[Block]) {
    assert_eq!(c.region_blocks(r).to_vec(), expected);
    let back: Vec<Block> = c.region_blocks(r).rev().collect();
    assert_eq!(back, expected.iter().rev().copied().collect::<Vec<_>>());
    assert_eq!(c.region_blocks(r).len(), expected.len());
    assert_eq!(c.region_num_blocks(r), expected.len());
    assert_eq!(c.region_is_empty(r), expected.is_empty());
    assert_eq!(c.first_block(r), expected.first().copied());
    assert_eq!(c.entry_block(r), expected.first().copied());
    assert_eq!(c.last_block(r), expected.last().copied());
    assert_eq!(
        c.single_block(r),
        (expected.len() == 1).then(|| expected[0])
    );
    for (i, &b) in expected.iter().enumerate() {
        assert_eq!(c.parent_region(b), Some(r));
        assert_eq!(c.block_index(b), i);
        assert_eq!(c.prev_block(b), i.checked_sub(1).map(|j| expected[j]));
        assert_eq!(c.next_block(b), expected.get(i + 1).copied());
    }
}

fn blocks(c: &mut Context, n: usize) -> Vec<Block> {
    (0..n).map(|_| c.create_block(&[])).collect()
}

#[test]
fn block_list_insertions_in_order_both_ways() {
    let mut c = Context::new();
    let r = c.create_region();
    check_blocks(&c, r, &[]);
    let b = blocks(&mut c, 5);
    c.append_block(r, b[2]);
    check_blocks(&c, r, &[b[2]]);
    c.insert_block_before(b[2], b[0]);
    c.insert_block_after(b[0], b[1]);
    c.insert_block_after(b[2], b[4]);
    c.insert_block_before(b[4], b[3]);
    check_blocks(&c, r, &b);
    let f = c.create_block(&[]);
    c.prepend_block(r, f);
    assert_eq!(c.region_blocks(r).next(), Some(f));
    // Both ends of one iterator meet without yielding a block twice.
    let mut it = c.region_blocks(r);
    assert_eq!((it.next(), it.next_back()), (Some(f), Some(b[4])));
    assert_eq!(it.len(), 4);
    assert_eq!(it.collect::<Vec<_>>(), b[..4].to_vec());
}

#[test]
fn block_list_detach_and_move() {
    let mut c = Context::new();
    let (r, r2) = (c.create_region(), c.create_region());
    let b = blocks(&mut c, 4);
    for &x in &b {
        c.append_block(r, x);
    }
    // Middle, first and last.
    c.detach_block(b[1]);
    assert_eq!(c.parent_region(b[1]), None);
    assert_eq!((c.prev_block(b[1]), c.next_block(b[1])), (None, None));
    check_blocks(&c, r, &[b[0], b[2], b[3]]);
    c.detach_block(b[0]);
    check_blocks(&c, r, &[b[2], b[3]]);
    c.detach_block(b[3]);
    check_blocks(&c, r, &[b[2]]);
    // Detaching a detached block changes nothing.
    c.detach_block(b[3]);
    check_blocks(&c, r, &[b[2]]);
    // A block still in a region moves rather than being listed twice.
    c.append_block(r2, b[0]);
    c.append_block(r2, b[2]);
    check_blocks(&c, r, &[]);
    check_blocks(&c, r2, &[b[0], b[2]]);
    c.insert_block_before(b[0], b[2]);
    check_blocks(&c, r2, &[b[2], b[0]]);
    c.insert_block_after(b[0], b[2]);
    check_blocks(&c, r2, &[b[0], b[2]]);
    // A block put where it already is, or next to itself, stays.
    c.append_block(r2, b[2]);
    c.prepend_block(r2, b[0]);
    c.insert_block_after(b[2], b[2]);
    c.insert_block_before(b[0], b[0]);
    c.insert_block_after(b[0], b[2]);
    c.insert_block_before(b[2], b[0]);
    check_blocks(&c, r2, &[b[0], b[2]]);
    // The last block put first, the first put last.
    c.prepend_block(r2, b[2]);
    check_blocks(&c, r2, &[b[2], b[0]]);
    c.append_block(r2, b[2]);
    check_blocks(&c, r2, &[b[0], b[2]]);
}

#[test]
fn block_list_splice_regions() {
    let mut c = Context::new();
    let (dst, src) = (c.create_region(), c.create_region());
    let d = blocks(&mut c, 3);
    let s = blocks(&mut c, 3);
    for &x in &d {
        c.append_block(dst, x);
    }
    for &x in &s {
        c.append_block(src, x);
    }
    // Into the middle.
    c.inline_region_before(src, d[1]);
    check_blocks(&c, src, &[]);
    check_blocks(&c, dst, &[d[0], s[0], s[1], s[2], d[1], d[2]]);
    // Before the first block, then an empty region spliced (nothing moves).
    let other = c.create_region();
    let o = blocks(&mut c, 2);
    c.append_block(other, o[0]);
    c.append_block(other, o[1]);
    c.inline_region_before(other, d[0]);
    c.inline_region_before(src, d[0]);
    check_blocks(&c, other, &[]);
    check_blocks(&c, dst, &[o[0], o[1], d[0], s[0], s[1], s[2], d[1], d[2]]);
    // Everything to the end of another region, and back to an empty one.
    let third = c.create_region();
    c.append_block(third, o[0]);
    c.take_body(third, dst);
    check_blocks(&c, dst, &[]);
    check_blocks(&c, third, &[o[0], o[1], d[0], s[0], s[1], s[2], d[1], d[2]]);
    c.take_body(dst, third);
    check_blocks(&c, third, &[]);
    check_blocks(&c, dst, &[o[0], o[1], d[0], s[0], s[1], s[2], d[1], d[2]]);
}

#[test]
fn block_list_region_emptied_and_refilled() {
    let (mut c, _, add) = setup();
    let loc = c.unknown_loc();
    let r = c.create_region();
    let b = blocks(&mut c, 3);
    for &x in &b {
        c.append_block(r, x);
        c.build(InsertPoint::AtEnd(x), OperationState::new(add, loc));
    }
    // Erased one by one from the front.
    for (i, &x) in b.iter().enumerate() {
        c.erase_block(x).unwrap();
        check_blocks(&c, r, &b[i + 1..]);
    }
    let n = blocks(&mut c, 2);
    c.append_block(r, n[1]);
    c.prepend_block(r, n[0]);
    check_blocks(&c, r, &n);
    // Cleared at once, with its ops, then refilled.
    c.clear_region(r);
    check_blocks(&c, r, &[]);
    let m = blocks(&mut c, 2);
    c.append_block(r, m[0]);
    c.insert_block_after(m[0], m[1]);
    check_blocks(&c, r, &m);
}

/// Every way an op can change moves it past an earlier mark, and only
/// the ops concerned: drivers skip re-folding what did not move.
#[test]
fn changes_move_ops_past_a_mark() {
    let (mut c, b, add) = setup();
    let i32t = c.int_type(32);
    let i64t = c.int_type(64);
    let a0 = c.add_block_arg(b, i32t);
    let a1 = c.add_block_arg(b, i32t);
    let loc = c.unknown_loc();
    let mut st = OperationState::new(add, loc);
    st.operands = vec![a0];
    st.result_types = vec![i32t];
    let def = c.build(InsertPoint::AtEnd(b), st);
    let mut st = OperationState::new(add, loc);
    st.operands = vec![c.result(def, 0)];
    let user = c.build(InsertPoint::AtEnd(b), st);
    let other = c.build(InsertPoint::AtEnd(b), OperationState::new(add, loc));

    let fresh = ChangeMark::default();
    assert!(
        c.changed_since(def, fresh),
        "the default mark is before all"
    );

    type Change = Box<dyn Fn(&mut Context)>;
    let mut changes: Vec<(&str, Change, Vec<Op>)> = vec![
        (
            "set_operand",
            Box::new(move |c| c.set_operand(def, 0, a1)),
            vec![def],
        ),
        (
            "set_operands",
            Box::new(move |c| c.set_operands(def, vec![a0])),
            vec![def],
        ),
        (
            "replace_all_uses_with",
            Box::new(move |c| c.replace_all_uses_with(a0, a1)),
            vec![def],
        ),
        (
            "set_attr",
            Box::new(move |c| {
                let u = c.unit_attr();
                c.set_attr(other, "x", u)
            }),
            vec![other],
        ),
        (
            "remove_attr",
            Box::new(move |c| {
                c.remove_attr(other, "x");
            }),
            vec![other],
        ),
        (
            "set_value_type of a result",
            Box::new(move |c| {
                let r = c.result(def, 0);
                c.set_value_type(r, i64t)
            }),
            vec![def, user],
        ),
        (
            "move",
            Box::new(move |c| c.move_op_before(other, def)),
            vec![other],
        ),
    ];
    for (what, change, moved) in changes.drain(..) {
        let mark = c.change_mark();
        change(&mut c);
        for op in [def, user, other] {
            assert_eq!(
                c.changed_since(op, mark),
                moved.contains(&op),
                "{what}: {op:?}"
            );
        }
    }
}

/// ARCHITECTURE.md states it ("Compact ops"): growing an op costs
/// memory in every large module.
#[test]
fn op_size() {
    assert_eq!(std::mem::size_of::<OperationData>(), 68);
}

#[test]
fn a_move_reads_as_the_clone_it_stands_for() {
    // `x` is replaced by `y` in two ops, the second holding a nested use;
    // `y` already has a use, `x` keeps one by an op that stays.
    let (mut c, b, add) = setup();
    let i32t = c.int_type(32);
    let x = c.add_block_arg(b, i32t);
    let y = c.add_block_arg(b, i32t);
    let loc = c.unknown_loc();
    let mut st = OperationState::new(add, loc);
    st.operands = vec![y];
    let earlier = c.build(InsertPoint::AtEnd(b), st);
    let mut st = OperationState::new(add, loc);
    st.operands = vec![x, x];
    st.result_types = vec![i32t];
    let first = c.build(InsertPoint::AtEnd(b), st);
    let inner_block = c.create_block(&[]);
    let mut st = OperationState::new(add, loc);
    st.operands = vec![x];
    let nested = c.build(InsertPoint::AtEnd(inner_block), st);
    let r = c.create_region();
    c.append_block(r, inner_block);
    let mut st = OperationState::new(add, loc);
    st.operands = vec![c.result(first, 0), x];
    st.regions = vec![r];
    let holder = c.build(InsertPoint::AtEnd(b), st);
    let mut st = OperationState::new(add, loc);
    st.operands = vec![x];
    let stays = c.build(InsertPoint::AtEnd(b), st);

    let target = c.create_block(&[]);
    let mut map: HashMap<Value, Value> = HashMap::new();
    map.insert(x, y);
    let mark = c.change_mark();
    c.move_op_remapped(first, InsertPoint::AtEnd(target), &map);
    c.move_op_remapped(holder, InsertPoint::AtEnd(target), &map);

    assert_eq!(c.block_ops(target), vec![first, holder]);
    assert_eq!(c.block_ops(b), vec![earlier, stays]);
    assert_eq!(c.operands(first), &[y, y]);
    assert_eq!(c.operands(nested), &[y]);
    // Not in `map`: the result of a moved op is still itself.
    assert_eq!(c.operands(holder), &[c.result(first, 0), y]);
    // A clone adds its uses after the existing ones, in the order it is
    // built: each op's operands in order, nested ops before their holder.
    let order: Vec<(Op, u32)> = c.uses(y).iter().map(|u| (u.op, u.index)).collect();
    assert_eq!(
        order,
        vec![
            (earlier, 0),
            (first, 0),
            (first, 1),
            (nested, 0),
            (holder, 1)
        ]
    );
    let left: Vec<(Op, u32)> = c.uses(x).iter().map(|u| (u.op, u.index)).collect();
    assert_eq!(left, vec![(stays, 0)]);
    // A clone would be new: every moved op counts as changed.
    for o in [first, nested, holder] {
        assert!(c.changed_since(o, mark));
    }
    assert!(!c.changed_since(stays, mark));
}

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
    assert_eq!(c.region_blocks(r), &[b, nb]);
    c.inline_block(nb, InsertPoint::Before(ops[1]), &[]);
    assert_eq!(c.block_ops(b), vec![ops[0], ops[2], ops[3], ops[1]]);
    assert_eq!(c.region_blocks(r), &[b]);
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

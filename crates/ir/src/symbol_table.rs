//! Symbol tables, as MLIR's `SymbolTable`: looking symbols up among a
//! table op's children (cached per table, kept in step with every
//! insertion, removal and rename), finding and renaming symbol
//! references in attributes, and naming new symbols as
//! `SymbolTable::insert` does ([`SymbolNames`]).

use crate::fxhash::{FxHashMap, FxHashSet};
use crate::{symbol_key, AttrKind, Attribute, Context, InsertPoint, Op, Symbol};

impl Context {
    /// Calls `f` with every symbol reference in `a` (root and nested
    /// names), looking into arrays and dictionaries: what MLIR's
    /// `SymbolTable::getSymbolUses` finds in one attribute.
    pub fn for_each_symbol_ref(&self, a: Attribute, f: &mut dyn FnMut(Symbol, &[Symbol])) {
        match self.attr_kind(a) {
            AttrKind::SymbolRef(r, nested) => f(*r, nested),
            AttrKind::Array(xs) => {
                for &x in xs {
                    self.for_each_symbol_ref(x, f)
                }
            }
            AttrKind::Dictionary(xs) => {
                for &(_, x) in xs {
                    self.for_each_symbol_ref(x, f)
                }
            }
            _ => {}
        }
    }

    /// The visibility of a symbol op, from `sym_visibility`: `"public"`
    /// when absent.
    pub fn symbol_visibility(&self, op: Op) -> &str {
        match self
            .get_attr(op, "sym_visibility")
            .map(|a| self.attr_kind(a))
        {
            Some(AttrKind::String(s, _)) => std::str::from_utf8(s).unwrap_or(""),
            _ => "public",
        }
    }

    /// The `sym_name` of a symbol op.
    pub fn symbol_name(&self, op: Op) -> Option<&str> {
        match self.attr_kind(self.get_attr(op, "sym_name")?) {
            AttrKind::String(s, _) => std::str::from_utf8(s).ok(),
            _ => None,
        }
    }
    /// Looks a symbol up among the direct children of a symbol table op.
    pub fn lookup_symbol(&self, table: Op, name: &str) -> Option<Op> {
        let r = *self.regions_of(table).first()?;
        let b = self.regions[r].first?;
        let key = symbol_key(name);
        let found = {
            let cache = self.symbol_cache.read().unwrap_or_else(|e| e.into_inner());
            cache.get(&table).map(|m| m.get(&key).copied())
        };
        let found = match found {
            Some(f) => f,
            None => {
                // Built under the lock: threads verifying in parallel all
                // start with a lookup, and one table is enough.
                let mut cache = self.symbol_cache.write().unwrap_or_else(|e| e.into_inner());
                let m = cache.entry(table).or_insert_with(|| {
                    let mut m = FxHashMap::default();
                    for o in self.block_ops_iter(b) {
                        if let Some(n) = self.symbol_name(o) {
                            m.entry(symbol_key(n)).or_insert(o);
                        }
                    }
                    m
                });
                m.get(&key).copied()
            }
        };
        // The cache follows every insertion, removal and rename of a
        // table's children (`note_inserted`, `note_removed`, `touch_op`);
        // this re-check guards against a hash collision and a structural
        // path that forgot.
        match found {
            Some(o)
                if !self.ops[o].erased
                    && self.ops[o].parent == Some(b)
                    && self.symbol_name(o) == Some(name) =>
            {
                Some(o)
            }
            Some(_) => self
                .block_ops_iter(b)
                .find(|&o| self.symbol_name(o) == Some(name)),
            None => None,
        }
    }
    /// [`Context::lookup_symbol`] by interned name, as symbol references
    /// hold it.
    pub fn lookup_symbol_id(&self, table: Op, name: Symbol) -> Option<Op> {
        self.lookup_symbol(table, self.str(name))
    }
    /// Resolves `@a::@b` from `table`, descending into nested tables.
    pub fn lookup_symbol_path(&self, table: Op, root: &str, nested: &[&str]) -> Option<Op> {
        let mut cur = self.lookup_symbol(table, root)?;
        for n in nested {
            cur = self.lookup_symbol(cur, n)?;
        }
        Some(cur)
    }
    /// The closest enclosing symbol table of `op`.
    pub fn nearest_symbol_table(&self, op: Op) -> Option<Op> {
        let p = self.parent_op(op)?;
        self.ancestor(p, |c, o| c.traits_of(o).symbol_table)
    }
    /// Every use of a symbol reference attribute naming `name` (root only)
    /// in the ops nested under `scope`: (user op, attribute name).
    pub fn symbol_uses(&self, scope: Op, name: &str) -> Vec<(Op, Symbol)> {
        let mut out = Vec::new();
        self.walk_nested(scope, &mut |o| {
            for &(k, a) in self.attrs(o) {
                if self.attr_refers_to(a, name) {
                    out.push((o, k));
                }
            }
        });
        out
    }
    fn attr_refers_to(&self, a: Attribute, name: &str) -> bool {
        match self.attr_kind(a) {
            AttrKind::SymbolRef(r, _) => self.str(*r) == name,
            AttrKind::Array(xs) => xs.iter().any(|&x| self.attr_refers_to(x, name)),
            AttrKind::Dictionary(xs) => xs.iter().any(|&(_, x)| self.attr_refers_to(x, name)),
            _ => false,
        }
    }

    /// `a` with the root of every symbol reference that `f` maps renamed,
    /// in arrays and dictionaries too (what MLIR's
    /// `SymbolTable::replaceAllSymbolUses` does to one attribute); `a`
    /// itself when `f` maps none of them.
    pub fn replace_symbol_refs(
        &mut self,
        a: Attribute,
        f: &mut dyn FnMut(Symbol) -> Option<Symbol>,
    ) -> Attribute {
        match self.attr_kind(a) {
            AttrKind::SymbolRef(r, nested) => match f(*r) {
                Some(to) if to != *r => {
                    let nested = nested.clone();
                    self.attr(AttrKind::SymbolRef(to, nested))
                }
                _ => a,
            },
            AttrKind::Array(xs) => {
                let xs = xs.clone();
                let mut ys = Vec::new();
                for (i, &x) in xs.iter().enumerate() {
                    let y = self.replace_symbol_refs(x, f);
                    if y != x && ys.is_empty() {
                        ys.extend_from_slice(&xs[..i]);
                    }
                    if y != x || !ys.is_empty() {
                        ys.push(y);
                    }
                }
                if ys.is_empty() {
                    a
                } else {
                    self.attr(AttrKind::Array(ys))
                }
            }
            AttrKind::Dictionary(xs) => {
                let xs = xs.clone();
                let mut changed = false;
                let ys: Vec<(Symbol, Attribute)> = xs
                    .iter()
                    .map(|&(k, x)| {
                        let y = self.replace_symbol_refs(x, f);
                        changed |= y != x;
                        (k, y)
                    })
                    .collect();
                if changed {
                    self.attr(AttrKind::Dictionary(ys))
                } else {
                    a
                }
            }
            _ => a,
        }
    }

    /// Renames, in every attribute of `op`, the symbol references that `f`
    /// maps (see [`Context::replace_symbol_refs`]); whether any changed.
    pub fn replace_op_symbol_refs(
        &mut self,
        op: Op,
        f: &mut dyn FnMut(Symbol) -> Option<Symbol>,
    ) -> bool {
        let mut changed = false;
        for i in 0..self.attrs(op).len() {
            let (k, a) = self.attrs(op)[i];
            let b = self.replace_symbol_refs(a, f);
            if b != a {
                self.set_attr_sym(op, k, b);
                changed = true;
            }
        }
        changed
    }

    /// Where `SymbolTable::insert` puts a new symbol in `table`: at the end
    /// of its body, before the terminator if the body ends in one.
    pub fn symbol_insertion_point(&self, table: Op) -> Option<InsertPoint> {
        let r = *self.regions_of(table).first()?;
        let b = self.entry_block(r)?;
        Some(match self.terminator(b) {
            Some(t) => InsertPoint::Before(t),
            None => InsertPoint::AtEnd(b),
        })
    }
}

/// The names taken in a symbol table, for naming new symbols as MLIR's
/// `SymbolTable::insert` does without a table of ops: passes that add
/// thousands of functions unique each name in time independent of the
/// module's size. Names are interned, so a check is a hash of a handle.
#[derive(Default)]
pub struct SymbolNames {
    taken: FxHashSet<Symbol>,
    /// `SymbolTable`'s `uniquingCounter`, for [`SymbolNames::unique`].
    counter: u32,
    /// For [`SymbolNames::unique_in_fresh_table`]: every `base_N` below
    /// this N is taken.
    next_suffix: FxHashMap<Symbol, u32>,
}

impl SymbolNames {
    /// The names of `table`'s symbols (its body's children).
    pub fn of_table(ctx: &mut Context, table: Op) -> Self {
        let mut names = SymbolNames::default();
        let Some(b) = ctx
            .regions_of(table)
            .first()
            .and_then(|&r| ctx.entry_block(r))
        else {
            return names;
        };
        // Read first, interned after: the text borrows the context.
        let texts: Vec<String> = ctx
            .block_ops_iter(b)
            .filter_map(|o| ctx.symbol_name(o).map(str::to_string))
            .collect();
        names.taken.reserve(texts.len());
        for t in texts {
            let s = ctx.sym(&t);
            names.taken.insert(s);
        }
        names
    }

    /// Makes room for `n` more names.
    pub fn reserve(&mut self, n: usize) {
        self.taken.reserve(n);
    }

    /// Records `name` as taken; whether it was free.
    pub fn insert(&mut self, name: Symbol) -> bool {
        self.taken.insert(name)
    }

    pub fn contains(&self, name: Symbol) -> bool {
        self.taken.contains(&name)
    }

    /// Where the next [`SymbolNames::unique`] starts counting.
    pub fn counter(&self) -> u32 {
        self.counter
    }

    /// Starts [`SymbolNames::unique`]'s counting at `n` (a module run in
    /// parts continues where the parts before stopped).
    pub fn set_counter(&mut self, n: u32) {
        self.counter = n;
    }

    /// `base`, or `base_N` with the next free N, as `SymbolTable::insert`
    /// names a symbol in a table that lives through the run: its counter
    /// goes on from one insertion to the next, whatever the base.
    /// Recorded as taken.
    pub fn unique(&mut self, ctx: &mut Context, base: &str) -> (Symbol, String) {
        let mut text = base.to_string();
        let mut sym = ctx.sym(&text);
        if self.taken.contains(&sym) {
            loop {
                text.truncate(base.len());
                text.push('_');
                push_u32(&mut text, self.counter);
                self.counter += 1;
                sym = ctx.sym(&text);
                if !self.taken.contains(&sym) {
                    break;
                }
            }
        }
        self.taken.insert(sym);
        (sym, text)
    }

    /// `base`, or `base_N` with the smallest free N, as
    /// `SymbolTable::insert` names a symbol in a table built for this one
    /// insertion (a pattern that makes a `SymbolTable` each time it adds
    /// a function counts from 0 each time). Recorded as taken.
    pub fn unique_in_fresh_table(&mut self, ctx: &mut Context, base: &str) -> (Symbol, String) {
        let sym = ctx.sym(base);
        if self.taken.insert(sym) {
            return (sym, base.to_string());
        }
        // Names are never freed, so the N that was free last time is
        // where the search for the smallest free one starts.
        let mut n = self.next_suffix.get(&sym).copied().unwrap_or(0);
        let mut text = String::with_capacity(base.len() + 4);
        loop {
            text.clear();
            text.push_str(base);
            text.push('_');
            push_u32(&mut text, n);
            n += 1;
            let s = ctx.sym(&text);
            if self.taken.insert(s) {
                self.next_suffix.insert(sym, n);
                return (s, text);
            }
        }
    }
}

/// Appends `n` in decimal without `format!`'s machinery.
fn push_u32(out: &mut String, mut n: u32) {
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(buf[i..].iter().map(|&d| d as char));
}

#[cfg(test)]
mod tests {
    use super::SymbolNames;
    use crate::{AttrKind, Context, InsertPoint, OpTraits, OperationState};

    #[test]
    fn unique_counts_on_across_insertions() {
        let mut c = Context::new();
        let mut names = SymbolNames::default();
        for taken in ["f", "f_1", "g"] {
            let s = c.sym(taken);
            names.insert(s);
        }
        let mut next = |c: &mut Context, base: &str| names.unique(c, base).1;
        // As one long-lived `SymbolTable`: the counter is shared by bases
        // and skips taken names.
        assert_eq!(next(&mut c, "h"), "h");
        assert_eq!(next(&mut c, "f"), "f_0");
        assert_eq!(next(&mut c, "f"), "f_2");
        assert_eq!(next(&mut c, "g"), "g_3");
        assert_eq!(next(&mut c, "h"), "h_4");
    }

    #[test]
    fn unique_in_fresh_table_takes_the_smallest_free_suffix() {
        let mut c = Context::new();
        let mut names = SymbolNames::default();
        for taken in ["f", "f_1", "g"] {
            let s = c.sym(taken);
            names.insert(s);
        }
        let mut next = |c: &mut Context, base: &str| names.unique_in_fresh_table(c, base).1;
        assert_eq!(next(&mut c, "f"), "f_0");
        assert_eq!(next(&mut c, "f"), "f_2");
        assert_eq!(next(&mut c, "g"), "g_0");
        assert_eq!(next(&mut c, "h"), "h");
        assert_eq!(next(&mut c, "h"), "h_0");
    }

    #[test]
    fn symbol_refs_are_renamed_in_nested_attributes() {
        let mut c = Context::new();
        let (f, g, k) = (c.sym("f"), c.sym("g"), c.sym("k"));
        let other = c.sym("other");
        let rf = c.attr(AttrKind::SymbolRef(f, vec![k]));
        let ro = c.attr(AttrKind::SymbolRef(other, vec![]));
        let arr = c.attr(AttrKind::Array(vec![ro, rf]));
        let dict = c.attr(AttrKind::Dictionary(vec![(k, arr)]));
        let mut f_to_g = |s| (s == f).then_some(g);
        let renamed = c.replace_symbol_refs(dict, &mut f_to_g);
        let mut found = vec![];
        c.for_each_symbol_ref(renamed, &mut |r, nested| found.push((r, nested.to_vec())));
        assert_eq!(found, vec![(other, vec![]), (g, vec![k])]);
        // Nothing to rename: the same attribute back.
        assert_eq!(c.replace_symbol_refs(ro, &mut f_to_g), ro);

        let name = c.register_op("t.user", OpTraits::default());
        let loc = c.unknown_loc();
        let r = c.create_region();
        let b = c.create_block(&[]);
        c.append_block(r, b);
        let user = c.build(InsertPoint::AtEnd(b), OperationState::new(name, loc));
        c.set_attr(user, "callee", rf);
        c.set_attr(user, "plain", ro);
        assert!(c.replace_op_symbol_refs(user, &mut f_to_g));
        let callee = c.get_attr(user, "callee").unwrap();
        assert_eq!(c.attr_kind(callee), &AttrKind::SymbolRef(g, vec![k]));
        assert_eq!(c.get_attr(user, "plain"), Some(ro));
        assert!(!c.replace_op_symbol_refs(user, &mut f_to_g));
    }
}

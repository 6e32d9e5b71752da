//! The IR core of mlir-async: operations, blocks, regions and values as
//! typed handles into arenas owned by one [`Context`], with use-lists,
//! interned types and attributes, locations, a builder, walks, symbol
//! tables and dominance.
//!
//! The core knows no dialect by name and no text: dialects describe their
//! ops to it through [`OpTraits`], the syntax layer reads and writes it.

pub mod affine;
pub mod attrs;
pub mod dominance;
pub mod entity;
pub mod fxhash;
mod interner;
pub mod liveness;
mod names;
pub mod order;
pub mod parallel;
pub mod symbol_table;
pub mod types;

pub use attrs::{wide, AttrKind, Attribute, DenseElem};
pub use symbol_table::SymbolNames;
pub use types::{DialectType, Dim, Signedness, Type, TypeKind, TypeParam};

use entity::Arena;
use fxhash::FxHashMap;
use interner::Interner;
use smallvec::SmallVec;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::RwLock;

entity!(
    /// An operation.
    Op,
    "op"
);
entity!(
    /// A basic block.
    Block,
    "block"
);
entity!(
    /// A region: a list of blocks owned by an operation.
    Region,
    "region"
);
entity!(
    /// An SSA value: an op result or a block argument.
    Value,
    "v"
);
entity!(
    /// An interned string: op names, attribute names, symbol names.
    Symbol,
    "sym"
);
entity!(
    /// A source location.
    Location,
    "loc"
);
entity_ref!(Op, Block, Region, Value, Symbol, Location);

/// Grows a dense table (indexed by handle, sized for the whole IR) to
/// `n` entries of `zero`, a value whose bytes are all zero. An empty
/// table is allocated zeroed instead of filled, so its pages are only
/// mapped where it is written: verifying and printing threads each have
/// such tables and write them only for their own functions.
pub fn grow_zeroed<T: Clone>(t: &mut Vec<T>, n: usize, zero: T) {
    if t.is_empty() {
        *t = vec![zero; n];
    } else if t.len() < n {
        t.resize(n, zero);
    }
}

/// Where a location points.
#[derive(Clone, PartialEq, Debug)]
pub enum LocKind {
    Unknown,
    FileLineCol(Symbol, u32, u32),
    Name(Symbol, Option<Location>),
    CallSite(Location, Location),
    Fused(Vec<Location>, Option<Attribute>),
}

/// Where a value comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ValueDef {
    Result(Op, u32),
    BlockArg(Block, u32),
}

/// One use of a value: operand `index` of `op`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Use {
    pub op: Op,
    pub index: u32,
}

/// Most values have one or two uses: inline room for two means no
/// allocation per value, in the 24 bytes a `Vec` header takes anyway.
pub type UseList = SmallVec<[Use; 2]>;

#[derive(Clone, Debug)]
pub struct ValueData {
    pub ty: Type,
    pub def: ValueDef,
    pub uses: UseList,
}

/// A slice of one of the context's pools: the op's lists live there, not
/// in per-op `Vec`s, so an op costs no allocation and 64 bytes (a million
/// ops were 160 MB with five `Vec` headers each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

impl Span {
    #[inline]
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// Append-only storage for the lists of many ops. A list that grows is
/// moved to the end (its old slots become garbage); passes grow a list a
/// bounded number of times per op, so garbage stays linear in size.
#[derive(Debug)]
struct Pool<T> {
    items: Vec<T>,
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool { items: Vec::new() }
    }
}

impl<T: Copy> Pool<T> {
    fn reserve(&mut self, n: usize) {
        self.items.reserve(n);
    }
    #[inline]
    fn alloc(&mut self, xs: &[T]) -> Span {
        let start = self.items.len() as u32;
        // Most lists of an op are empty or one long: no copy call for them.
        match xs {
            [] => {}
            [x] => self.items.push(*x),
            _ => self.items.extend_from_slice(xs),
        }
        Span {
            start,
            len: xs.len() as u32,
        }
    }
    /// A copy of the list at `s` (of this pool), appended.
    #[inline]
    fn alloc_within(&mut self, s: Span) -> Span {
        let start = self.items.len() as u32;
        match s.len {
            0 => {}
            1 => self.items.push(self.items[s.start as usize]),
            _ => self.items.extend_from_within(s.range()),
        }
        Span { start, len: s.len }
    }
    #[inline]
    fn get(&self, s: Span) -> &[T] {
        &self.items[s.range()]
    }
    #[inline]
    fn get_mut(&mut self, s: Span) -> &mut [T] {
        &mut self.items[s.range()]
    }
    fn replace(&mut self, s: &mut Span, xs: &[T]) {
        if xs.len() <= s.len as usize {
            self.items[s.start as usize..s.start as usize + xs.len()].copy_from_slice(xs);
            s.len = xs.len() as u32;
        } else if s.range().end == self.items.len() {
            self.items.truncate(s.start as usize);
            *s = self.alloc(xs);
        } else {
            *s = self.alloc(xs);
        }
    }
    fn insert(&mut self, s: &mut Span, i: usize, x: T) {
        if s.range().end != self.items.len() {
            let start = self.items.len() as u32;
            self.items.extend_from_within(s.range());
            s.start = start;
        }
        self.items.insert(s.start as usize + i, x);
        s.len += 1;
    }
    fn remove(&mut self, s: &mut Span, i: usize) -> T {
        let r = s.range();
        let x = self.items[r.start + i];
        self.items.copy_within(r.start + i + 1..r.end, r.start + i);
        s.len -= 1;
        x
    }
}

#[derive(Clone, Debug)]
pub struct OperationData {
    pub name: Symbol,
    pub loc: Location,
    parent: Option<Block>,
    prev: Option<Op>,
    next: Option<Op>,
    operands: Span,
    results: Span,
    /// Sorted by name, as in MLIR's `DictionaryAttr`.
    attrs: Span,
    regions: Span,
    successors: Span,
    erased: bool,
    /// When the op last changed (see [`Context::changed_since`]).
    stamp: u32,
}

impl OperationData {
    // The lengths of the op's lists, read from its record alone: the
    // verifier compares counts at every op and needs no pool for that.
    #[inline]
    pub fn num_operands(&self) -> usize {
        self.operands.len as usize
    }
    #[inline]
    pub fn num_results(&self) -> usize {
        self.results.len as usize
    }
    #[inline]
    pub fn num_regions(&self) -> usize {
        self.regions.len as usize
    }
    #[inline]
    pub fn num_successors(&self) -> usize {
        self.successors.len as usize
    }
    #[inline]
    pub fn num_attrs(&self) -> usize {
        self.attrs.len as usize
    }
    /// The op after this one in its block.
    #[inline]
    pub fn next_op(&self) -> Option<Op> {
        self.next
    }
    /// The block holding the op.
    #[inline]
    pub fn parent_block(&self) -> Option<Block> {
        self.parent
    }

    /// The record of an op in no block yet, whose lists are in the pools.
    fn detached(
        name: Symbol,
        loc: Location,
        operands: Span,
        results: Span,
        attrs: Span,
        regions: Span,
        successors: Span,
    ) -> Self {
        OperationData {
            name,
            loc,
            parent: None,
            prev: None,
            next: None,
            operands,
            results,
            attrs,
            regions,
            successors,
            erased: false,
            stamp: 0,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct BlockData {
    /// Inline up to four (no allocation for most blocks; the size of a `Vec`).
    pub args: SmallVec<[Value; 4]>,
    pub first: Option<Op>,
    pub last: Option<Op>,
    pub parent: Option<Region>,
    /// The neighbours in the region's block list (MLIR's `ilist` of
    /// blocks, Cranelift's `Layout`): a block goes in or out of a region
    /// of any size in O(1).
    prev: Option<Block>,
    next: Option<Block>,
    /// Ops that name this block as a successor (one entry per edge).
    /// Inline up to two: most blocks have one or two predecessors, and the
    /// async lowering creates a block with a predecessor at every await.
    pub pred_uses: SmallVec<[Op; 2]>,
    /// Bumped whenever an op enters or leaves the block, so an order
    /// index ([`order::OpOrder`]) knows when its numbering is stale.
    pub order_stamp: u32,
}

/// A region's blocks are a doubly linked list threaded through the
/// blocks (`BlockData::prev`/`next`): the region holds its ends and its
/// length. Inserting, detaching and splicing blocks is O(1) per block
/// whatever the region's size; position queries walk the list.
#[derive(Clone, Debug, Default)]
pub struct RegionData {
    first: Option<Block>,
    last: Option<Block>,
    /// How many blocks are linked (so `len` and "one block?" are O(1)).
    len: u32,
    pub parent: Option<Op>,
}

/// The blocks of a region in order, from either end
/// ([`Context::region_blocks`]). It borrows the context: a caller that
/// mutates the region while going through it collects the blocks first.
#[derive(Clone)]
pub struct RegionBlocks<'a> {
    ctx: &'a Context,
    front: Option<Block>,
    back: Option<Block>,
    /// Blocks not yet yielded from either end: the two cursors meet when
    /// it reaches 0.
    left: usize,
}

impl RegionBlocks<'_> {
    /// The blocks as a vector: a snapshot to go through while the region
    /// changes.
    pub fn to_vec(self) -> Vec<Block> {
        self.collect()
    }
}

impl Iterator for RegionBlocks<'_> {
    type Item = Block;
    #[inline]
    fn next(&mut self) -> Option<Block> {
        if self.left == 0 {
            return None;
        }
        let b = self.front?;
        self.left -= 1;
        self.front = self.ctx.blocks[b].next;
        Some(b)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl DoubleEndedIterator for RegionBlocks<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Block> {
        if self.left == 0 {
            return None;
        }
        let b = self.back?;
        self.left -= 1;
        self.back = self.ctx.blocks[b].prev;
        Some(b)
    }
}

impl ExactSizeIterator for RegionBlocks<'_> {}
impl std::iter::FusedIterator for RegionBlocks<'_> {}

/// What the core needs to know about an op kind; registered by dialects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpTraits {
    pub is_terminator: bool,
    pub isolated_from_above: bool,
    pub symbol_table: bool,
    /// Regions hold a single block that needs no terminator (`builtin.module`).
    pub no_terminator: bool,
    /// Blocks in the regions need not dominate (graph regions).
    pub graph_region: bool,
    pub is_symbol: bool,
    /// No side effects: may be erased when unused, and two with the same
    /// operands and attributes compute the same results (CSE).
    pub pure: bool,
    /// Its only effects are those of the ops nested in its regions
    /// (MLIR's `HasRecursiveSideEffects`: `scf.if`, `scf.for`).
    pub recursive_effects: bool,
    /// Its only effects read memory or allocate its results
    /// (`memref.load`, `memref.alloc`): erasable when unused, but never
    /// merged with another.
    pub dead_if_unused: bool,
    /// Its only effect reads memory (`memref.load`): LLVM 15's CSE merges
    /// two such ops with no write between them.
    pub read_only: bool,
    /// Operands may be reordered (MLIR's `Commutative`): the folder moves
    /// constants to the back.
    pub commutative: bool,
    /// Folds to an attribute with no operands (MLIR's `ConstantLike`).
    pub constant_like: bool,
    /// A terminator that hands its operands to the parent op or the
    /// caller (MLIR's `ReturnLike`: `func.return`, `scf.yield`,
    /// `async.yield`).
    pub return_like: bool,
}

impl OpTraits {
    /// No trait: an op no dialect registered, and where a definition starts.
    pub const NONE: OpTraits = OpTraits {
        is_terminator: false,
        isolated_from_above: false,
        symbol_table: false,
        no_terminator: false,
        graph_region: false,
        is_symbol: false,
        pure: false,
        recursive_effects: false,
        dead_if_unused: false,
        read_only: false,
        commutative: false,
        constant_like: false,
        return_like: false,
    };
}

/// Everything needed to create an operation.
#[derive(Clone, Debug)]
pub struct OperationState {
    pub name: Symbol,
    pub loc: Location,
    pub operands: Vec<Value>,
    pub result_types: Vec<Type>,
    pub attrs: Vec<(Symbol, Attribute)>,
    pub regions: Vec<Region>,
    pub successors: Vec<Block>,
}

impl OperationState {
    pub fn new(name: Symbol, loc: Location) -> Self {
        OperationState {
            name,
            loc,
            operands: vec![],
            result_types: vec![],
            attrs: vec![],
            regions: vec![],
            successors: vec![],
        }
    }
}

/// An IR error: a message at a location (turned into a diagnostic by the
/// tools).
#[derive(Clone, Debug)]
pub struct IrError {
    pub loc: Location,
    pub message: String,
    pub notes: Vec<(Location, String)>,
    /// The op the error is about, when upstream emits it on the op
    /// (`Operation::emitError` / `emitOpError`) rather than at a bare
    /// location: mlir-opt then shows the op in a first note ("see current
    /// operation"), which the tools print from this.
    pub op: Option<Op>,
}

impl IrError {
    pub fn new(loc: Location, message: impl Into<String>) -> Self {
        IrError {
            loc,
            message: message.into(),
            notes: vec![],
            op: None,
        }
    }
    /// An error emitted on `op`, at its location (MLIR's
    /// `op->emitError(message)`).
    pub fn on_op(ctx: &Context, op: Op, message: impl Into<String>) -> Self {
        IrError {
            op: Some(op),
            ..IrError::new(ctx.op_loc(op), message)
        }
    }
    pub fn with_note(mut self, loc: Location, message: impl Into<String>) -> Self {
        self.notes.push((loc, message.into()));
        self
    }
}

/// Where the builder inserts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsertPoint {
    AtEnd(Block),
    Before(Op),
    AtStart(Block),
}

const SIMPLE_TYPES: usize = 20;

/// Where a type with no payload (or a common signless integer) is cached
/// in `Context::simple_types`.
fn simple_type_slot(k: &TypeKind) -> Option<usize> {
    Some(match k {
        TypeKind::Index => 0,
        TypeKind::BF16 => 1,
        TypeKind::F16 => 2,
        TypeKind::F32 => 3,
        TypeKind::F64 => 4,
        TypeKind::F80 => 5,
        TypeKind::F128 => 6,
        TypeKind::None => 7,
        TypeKind::Integer(w, Signedness::Signless) => match w {
            1 => 13,
            8 => 14,
            16 => 15,
            32 => 16,
            64 => 17,
            _ => return None,
        },
        _ => return None,
    })
}

// Verification and printing share one `&Context` between threads: keep it
// `Sync` (this fails to compile otherwise).
const _: fn() = || {
    fn shareable<T: Sync + Send>() {}
    shareable::<Context>();
};

/// Symbol table op -> interned name -> the first symbol op of that name.
/// Per symbol table, its direct children by a hash of their name (first
/// in block order wins; a hit is checked against the name, so a collision
/// only costs a scan).
type SymbolCache = FxHashMap<Op, FxHashMap<u64, Op>>;

fn symbol_key(name: &str) -> u64 {
    symbol_key_bytes(name.as_bytes())
}

fn symbol_key_bytes(name: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut h = fxhash::FxHasher::default();
    h.write(name);
    h.finish()
}

/// Owns all IR entities and interned data of a compilation.
#[derive(Default)]
pub struct Context {
    ops: Arena<Op, OperationData>,
    blocks: Arena<Block, BlockData>,
    regions: Arena<Region, RegionData>,
    values: Arena<Value, ValueData>,
    locs: Arena<Location, LocKind>,
    /// Operands and results of all ops.
    value_pool: Pool<Value>,
    attr_pool: Pool<(Symbol, Attribute)>,
    region_pool: Pool<Region>,
    succ_pool: Pool<Block>,
    strings: Interner<Box<str>>,
    types: Interner<TypeKind>,
    /// Handles of the payload-free types, by `simple_type_slot`: the
    /// parser and the passes ask for `index`, `i1` and the like at nearly
    /// every op, and hashing the kind each time showed up in profiles.
    simple_types: [Option<Type>; SIMPLE_TYPES],
    /// Dialect types named by `'static` literals, by the literals'
    /// addresses and the parameter type (see [`Context::static_dialect_type`]).
    static_dialect_types: FxHashMap<(usize, usize, u32), Type>,
    attrs: Interner<AttrKind>,
    /// Indexed by the op name's symbol: asked for every op by the verifier
    /// and the printer, so a lookup must not hash.
    traits: Vec<Option<OpTraits>>,
    unknown_loc: Option<Location>,
    /// The symbol of `value`, the attribute every constant carries and
    /// folders read at every visit (see [`Context::get_attr`]).
    value_sym: Option<Symbol>,
    /// Locations of the block arguments that have one (results use their
    /// op's): few values are block arguments with a location, and a slot
    /// in every value was 8 of its 48 bytes.
    arg_locs: FxHashMap<Value, Location>,
    /// Symbol table op -> name -> first symbol of that name, built on the
    /// first lookup in a table. Call verification looks a callee up per
    /// call; scanning the table each time is quadratic in module size.
    /// Every structural mutation (they all take `&mut self`) clears it.
    /// A lock rather than a `RefCell` so that a `&Context` can be shared
    /// by the threads that verify and print functions in parallel.
    symbol_cache: RwLock<SymbolCache>,
    /// How each dialect that owns types prints them, by the dialect
    /// name's symbol (see [`DialectTypePrinter`]).
    type_printers: Vec<Option<DialectTypePrinter>>,
    /// The bodies of dialect types whose identity is a name (set once).
    type_bodies: FxHashMap<Type, Box<[TypeParam]>>,
    /// The clock of op changes: every change to an op sets its `stamp` to
    /// the next tick (see [`Context::changed_since`]).
    clock: ChangeMark,
}

/// A moment in a context's history of op changes, to ask later whether an
/// op changed since ([`Context::changed_since`]). A driver that found an
/// op it cannot fold keeps the moment and skips the op until it or what
/// its folder reads changes: re-folding every op of a module in a round
/// that only confirms a fixed point was a fifth of `async-parallel-for`.
/// The default moment is before everything: every op changed since.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChangeMark {
    /// How often the tick counter ran out and restarted: a moment of an
    /// earlier era says every op changed since.
    era: u32,
    tick: u32,
}

/// Prints a [`TypeKind::Dialect`] type in full (`!llvm.ptr<i8>`). Kept
/// with the context rather than with the syntax layer's hooks because
/// types are printed wherever a diagnostic names one (verifiers hold only
/// a `&Context`); the dialect registers it along with its ops.
pub type DialectTypePrinter = fn(&Context, Type, &mut String);

/// [`Context::set_type_body`] on a type whose body is already set to a
/// different one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeBodyAlreadySet;

impl Context {
    pub fn new() -> Self {
        let mut c = Context::default();
        c.unknown_loc = Some(c.locs.push(LocKind::Unknown));
        c.value_sym = Some(c.sym("value"));
        c
    }

    /// Now, in the history of op changes.
    pub fn change_mark(&self) -> ChangeMark {
        self.clock
    }
    /// Whether `op` changed after `mark`: it was created, its operands,
    /// attributes, successors, name or place changed, or the type of one
    /// of its results or operands did (an operand's type is part of what
    /// its folder and verifier read). Ops change through `&mut self`
    /// methods only, each of which ticks the clock.
    #[inline]
    pub fn changed_since(&self, op: Op, mark: ChangeMark) -> bool {
        mark.era != self.clock.era || self.ops[op].stamp > mark.tick
    }
    /// Records a change to `op`.
    #[inline]
    fn stamp(&mut self, op: Op) {
        if self.clock.tick == u32::MAX {
            // Out of ticks: a new era, in which every op is old.
            self.clock.era = self.clock.era.wrapping_add(1);
            self.clock.tick = 0;
            for d in self.ops.values_mut() {
                d.stamp = 0;
            }
        }
        self.clock.tick += 1;
        self.ops[op].stamp = self.clock.tick;
    }

    /// Makes room for about `n` more ops (with their values, lists and
    /// locations) up front: a parser that knows the size of its input
    /// saves the arenas' repeated growth, each a copy of everything so far
    /// (and, for large inputs, page faults on every copy). Only a hint.
    pub fn reserve_ops(&mut self, n: usize) {
        self.ops.reserve(n);
        self.values.reserve(n + n / 4);
        self.locs.reserve(n + n / 8);
        self.value_pool.reserve(3 * n);
        self.attr_pool.reserve(n / 2);
        self.region_pool.reserve(n / 4);
        self.regions.reserve(n / 4);
        self.blocks.reserve(n / 4);
    }

    // ----- interning -----

    pub fn sym(&mut self, s: &str) -> Symbol {
        let (i, _) = self.strings.intern::<str, _>(s, Box::from);
        Symbol::from_index(i)
    }
    /// Makes room for `n` more interned strings and attributes: a pass
    /// that is about to name thousands of new symbols grows the tables
    /// once instead of rehashing every string at each doubling.
    pub fn reserve_interned(&mut self, n: usize) {
        self.strings.reserve(n);
        self.attrs.reserve(n);
    }
    /// The symbol of `value`, the attribute every constant holds
    /// (interned with the context: builders of constants need not hash
    /// the name).
    #[inline]
    pub fn value_symbol(&mut self) -> Symbol {
        match self.value_sym {
            Some(s) => s,
            None => {
                let s = self.sym("value");
                self.value_sym = Some(s);
                s
            }
        }
    }
    pub fn lookup_sym(&self, s: &str) -> Option<Symbol> {
        self.strings.get(s).map(Symbol::from_index)
    }
    pub fn str(&self, s: Symbol) -> &str {
        &self.strings[s.index()]
    }
    pub fn ty(&mut self, k: TypeKind) -> Type {
        let slot = simple_type_slot(&k);
        if let Some(Some(id)) = slot.map(|i| self.simple_types[i]) {
            return id;
        }
        let id = Type::from_index(self.types.intern::<TypeKind, _>(k, |k| k).0);
        if let Some(i) = slot {
            self.simple_types[i] = Some(id);
        }
        id
    }
    pub fn kind(&self, t: Type) -> &TypeKind {
        &self.types[t.index()]
    }
    /// The dialect type `!dialect.mnemonic<params>`, interned.
    pub fn dialect_type(
        &mut self,
        dialect: &str,
        mnemonic: &str,
        params: impl IntoIterator<Item = TypeParam>,
    ) -> Type {
        let dialect = self.sym(dialect);
        let mnemonic = self.sym(mnemonic);
        self.ty(TypeKind::Dialect(DialectType {
            dialect,
            mnemonic,
            params: params.into_iter().collect(),
        }))
    }
    /// [`Context::dialect_type`] for names that are `'static` literals and
    /// at most one type parameter (`!async.token`, `!async.value<T>`,
    /// `!llvm.void`): remembered by the literals' addresses, so asking
    /// again hashes two words instead of both names and the kind. (Two
    /// literals of the same text are two keys of the same type.)
    pub fn static_dialect_type(
        &mut self,
        dialect: &'static str,
        mnemonic: &'static str,
        param: Option<Type>,
    ) -> Type {
        let key = (
            dialect.as_ptr() as usize ^ (dialect.len() << 48),
            mnemonic.as_ptr() as usize ^ (mnemonic.len() << 48),
            param.map_or(0, |t| t.index() as u32 + 1),
        );
        if let Some(&t) = self.static_dialect_types.get(&key) {
            return t;
        }
        let t = self.dialect_type(dialect, mnemonic, param.map(TypeParam::Type));
        self.static_dialect_types.insert(key, t);
        t
    }
    /// `t` as a type owned by a dialect.
    pub fn as_dialect_type(&self, t: Type) -> Option<&DialectType> {
        match self.kind(t) {
            TypeKind::Dialect(d) => Some(d),
            _ => None,
        }
    }
    /// `t` as a type of `dialect` with `mnemonic`: its parameters.
    pub fn dialect_type_params(
        &self,
        t: Type,
        dialect: &str,
        mnemonic: &str,
    ) -> Option<&[TypeParam]> {
        let d = self.as_dialect_type(t)?;
        (self.str(d.mnemonic) == mnemonic && self.str(d.dialect) == dialect)
            .then_some(&d.params[..])
    }
    /// Sets the body of a type whose identity is its name; setting the
    /// same body again is fine, a different one is an error (MLIR's
    /// mutable type storage: an identified LLVM struct).
    pub fn set_type_body(
        &mut self,
        t: Type,
        body: Box<[TypeParam]>,
    ) -> Result<(), TypeBodyAlreadySet> {
        match self.type_bodies.get(&t) {
            Some(b) if *b == body => Ok(()),
            Some(_) => Err(TypeBodyAlreadySet),
            None => {
                self.type_bodies.insert(t, body);
                Ok(())
            }
        }
    }
    /// The body set by [`Context::set_type_body`], if any.
    pub fn type_body(&self, t: Type) -> Option<&[TypeParam]> {
        self.type_bodies.get(&t).map(|b| &b[..])
    }
    /// Registers how the types of `dialect` print.
    pub fn register_type_printer(&mut self, dialect: &str, f: DialectTypePrinter) {
        let s = self.sym(dialect);
        if self.type_printers.len() <= s.index() {
            self.type_printers.resize(s.index() + 1, None);
        }
        self.type_printers[s.index()] = Some(f);
    }
    /// The printer of the types of the dialect named by `dialect`.
    pub fn type_printer(&self, dialect: Symbol) -> Option<DialectTypePrinter> {
        self.type_printers.get(dialect.index()).copied().flatten()
    }
    pub fn attr(&mut self, k: AttrKind) -> Attribute {
        Attribute::from_index(self.attrs.intern::<AttrKind, _>(k, |k| k).0)
    }
    /// Could printed text hold `affine_map<`/`affine_set<` outside a
    /// string? Only affine attributes and verbatim (opaque) attributes
    /// and types print it; the printer's aliases need the whole text then.
    pub fn may_print_affine(&self) -> bool {
        self.attrs.items().iter().any(|a| match a {
            AttrKind::Affine(_) => true,
            // Verbatim text holds a map only if it says so: LLVM's
            // `#llvm.linkage<...>` on every function must not keep a
            // module from being written while it is printed.
            AttrKind::Opaque(s) => s.contains("affine_"),
            _ => false,
        }) || self.types.items().iter().any(|t| match t {
            TypeKind::Opaque { body, .. } => body.contains("affine_"),
            TypeKind::Dialect(d) => d.params.iter().any(|p| matches!(p, TypeParam::Attr(_))),
            _ => false,
        })
    }
    pub fn attr_kind(&self, a: Attribute) -> &AttrKind {
        &self.attrs[a.index()]
    }
    #[inline]
    pub fn loc(&mut self, k: LocKind) -> Location {
        if matches!(k, LocKind::Unknown) {
            return self.unknown_loc();
        }
        self.locs.push(k)
    }
    pub fn unknown_loc(&self) -> Location {
        self.unknown_loc.expect("context created with Context::new")
    }
    pub fn loc_kind(&self, l: Location) -> &LocKind {
        &self.locs[l]
    }
    /// The first file:line:col inside a location, for diagnostics.
    pub fn file_line_col(&self, l: Location) -> Option<(&str, u32, u32)> {
        match &self.locs[l] {
            LocKind::FileLineCol(f, line, col) => Some((self.str(*f), *line, *col)),
            LocKind::Name(_, Some(c)) => self.file_line_col(*c),
            LocKind::CallSite(c, _) => self.file_line_col(*c),
            LocKind::Fused(ls, _) => ls.iter().find_map(|l| self.file_line_col(*l)),
            _ => None,
        }
    }

    // common types
    pub fn int_type(&mut self, w: u32) -> Type {
        self.ty(TypeKind::Integer(w, Signedness::Signless))
    }
    pub fn index_type(&mut self) -> Type {
        self.ty(TypeKind::Index)
    }
    pub fn none_type(&mut self) -> Type {
        self.ty(TypeKind::None)
    }
    pub fn function_type(&mut self, inputs: Vec<Type>, results: Vec<Type>) -> Type {
        self.ty(TypeKind::Function(inputs, results))
    }
    pub fn unit_attr(&mut self) -> Attribute {
        self.attr(AttrKind::Unit)
    }
    pub fn string_attr(&mut self, s: &str) -> Attribute {
        self.attr(AttrKind::String(s.as_bytes().to_vec(), None))
    }
    /// A string attribute of bytes that need not be UTF-8.
    pub fn bytes_attr(&mut self, s: &[u8]) -> Attribute {
        self.attr(AttrKind::String(s.to_vec(), None))
    }
    pub fn type_attr(&mut self, t: Type) -> Attribute {
        self.attr(AttrKind::Type(t))
    }
    pub fn int_attr(&mut self, v: i128, t: Type) -> Attribute {
        self.attr(AttrKind::Integer(v, t))
    }

    // ----- op traits -----

    pub fn register_op(&mut self, name: &str, traits: OpTraits) -> Symbol {
        let s = self.sym(name);
        if self.traits.len() <= s.index() {
            self.traits.resize(s.index() + 1, None);
        }
        self.traits[s.index()] = Some(traits);
        s
    }
    #[inline]
    pub fn op_traits(&self, name: Symbol) -> Option<&OpTraits> {
        self.traits.get(name.index()).and_then(|t| t.as_ref())
    }
    pub fn is_registered(&self, name: Symbol) -> bool {
        self.op_traits(name).is_some()
    }
    #[inline]
    pub fn traits_of(&self, op: Op) -> OpTraits {
        // Picking a reference before the copy lets a caller that reads one
        // trait load that one byte: `copied().unwrap_or_default()` built
        // the whole struct first (the drivers read a trait of every op
        // they visit).
        *self.op_traits(self.ops[op].name).unwrap_or(&OpTraits::NONE)
    }
    /// How many ops were ever created (erased ones included): the size of
    /// a dense table indexed by [`Op::index`].
    pub fn num_ops(&self) -> usize {
        self.ops.len()
    }
    /// How many values were ever created: the size of a dense table
    /// indexed by [`Value::index`].
    pub fn num_values(&self) -> usize {
        self.values.len()
    }
    /// How many regions were ever created: the size of a dense table
    /// indexed by [`Region::index`].
    pub fn num_regions(&self) -> usize {
        self.regions.len()
    }
    /// How many blocks were ever created: the size of a dense table
    /// indexed by [`Block::index`].
    pub fn num_blocks(&self) -> usize {
        self.blocks.len()
    }
    /// Forgets cached symbol tables a change to the ops of `b` can change: a cached
    /// table is its direct children, so only a change to a table's body
    /// block can change it. Conversions create and erase ops in function
    /// bodies while they look up the runtime functions they call: those
    /// must not rebuild the module's table each time.
    fn touch_block(&mut self, b: Block) {
        let c = self
            .symbol_cache
            .get_mut()
            .unwrap_or_else(|e| e.into_inner());
        if c.is_empty() {
            return;
        }
        let table = self.blocks[b].parent.and_then(|r| self.regions[r].parent);
        if table.is_some_and(|t| c.contains_key(&t)) {
            c.clear();
        }
    }
    /// The table op whose body is block `b` and the key `op` has there,
    /// when that table is cached and `op` is a symbol. Whether the table is
    /// cached is asked first: a pass that looked a symbol up in the module
    /// then builds thousands of ops in function bodies (whose functions are
    /// no cached table), and reading each new op's `sym_name` by its text
    /// was most of the cost of inserting it.
    fn cached_table_entry(&mut self, b: Block, op: Op) -> Option<(Op, u64)> {
        // A symbol has a `sym_name`: an op without attributes (most that
        // passes build or move) is none.
        if self.ops[op].attrs.len == 0 || self.no_cached_tables() {
            return None;
        }
        let t = self.blocks[b].parent.and_then(|r| self.regions[r].parent)?;
        let cached = self
            .symbol_cache
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&t);
        if !cached {
            return None;
        }
        Some((t, self.symbol_key_of(op)?))
    }
    /// Keeps a cached table whose body is `b` in step with `op` having
    /// just been inserted there: conversions add the runtime functions
    /// they call one by one while they look others up.
    ///
    /// Every op inserted anywhere comes here (parsing, every pass): the
    /// test that rules out most of them, no attributes so no symbol, is
    /// inlined, and the rest of the work is not.
    #[inline]
    fn note_inserted(&mut self, b: Block, op: Op) {
        if self.ops[op].attrs.len != 0 {
            self.note_inserted_symbol(b, op);
        }
    }
    #[inline(never)]
    fn note_inserted_symbol(&mut self, b: Block, op: Op) {
        let Some((t, k)) = self.cached_table_entry(b, op) else {
            return;
        };
        let c = self
            .symbol_cache
            .get_mut()
            .unwrap_or_else(|e| e.into_inner());
        let Some(m) = c.get_mut(&t) else { return };
        let duplicate = match m.entry(k) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(op);
                false
            }
            std::collections::hash_map::Entry::Occupied(_) => true,
        };
        if duplicate {
            // Two children of one name: which one a lookup finds depends
            // on their order, so rebuild.
            c.remove(&t);
        }
    }
    /// The removal counterpart of [`Context::note_inserted`].
    #[inline]
    fn note_removed(&mut self, op: Op) {
        if self.ops[op].attrs.len != 0 {
            self.note_removed_symbol(op);
        }
    }
    #[inline(never)]
    fn note_removed_symbol(&mut self, op: Op) {
        let Some(b) = self.ops[op].parent else { return };
        let Some((t, k)) = self.cached_table_entry(b, op) else {
            return;
        };
        let c = self
            .symbol_cache
            .get_mut()
            .unwrap_or_else(|e| e.into_inner());
        if c.get(&t).and_then(|m| m.get(&k)) == Some(&op) {
            // Another child of the same name may now be the one found.
            c.remove(&t);
        }
    }
    fn no_cached_tables(&mut self) -> bool {
        self.symbol_cache
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .is_empty()
    }
    fn symbol_key_of(&self, op: Op) -> Option<u64> {
        match self.attr_kind(self.get_attr(op, "sym_name")?) {
            AttrKind::String(n, _) => Some(symbol_key_bytes(n)),
            _ => None,
        }
    }
    /// [`Context::touch_block`] for the blocks of region `r` (a table's
    /// body block is the first of its region).
    fn touch_region(&mut self, r: Region) {
        if let Some(b) = self.regions[r].first {
            self.touch_block(b);
        } else if let Some(t) = self.regions[r].parent {
            let c = self
                .symbol_cache
                .get_mut()
                .unwrap_or_else(|e| e.into_inner());
            c.remove(&t);
        }
    }
    /// [`Context::touch_block`] for a change to `op` itself (its name).
    fn touch_op(&mut self, op: Op) {
        if let Some(b) = self.ops[op].parent {
            self.touch_block(b);
        }
    }

    // ----- entity access -----

    #[inline]
    pub fn op(&self, op: Op) -> &OperationData {
        &self.ops[op]
    }
    pub fn op_mut(&mut self, op: Op) -> &mut OperationData {
        self.touch_op(op);
        self.stamp(op);
        &mut self.ops[op]
    }
    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b]
    }
    pub fn region(&self, r: Region) -> &RegionData {
        &self.regions[r]
    }
    pub fn value(&self, v: Value) -> &ValueData {
        &self.values[v]
    }
    pub fn name(&self, op: Op) -> &str {
        self.str(self.ops[op].name)
    }
    pub fn is(&self, op: Op, name: Symbol) -> bool {
        self.ops[op].name == name
    }
    pub fn op_name(&self, op: Op) -> Symbol {
        self.ops[op].name
    }
    #[inline]
    pub fn operands(&self, op: Op) -> &[Value] {
        self.value_pool.get(self.ops[op].operands)
    }
    pub fn operand(&self, op: Op, i: usize) -> Value {
        self.operands(op)[i]
    }
    #[inline]
    pub fn results(&self, op: Op) -> &[Value] {
        self.value_pool.get(self.ops[op].results)
    }
    #[inline]
    pub fn result(&self, op: Op, i: usize) -> Value {
        self.results(op)[i]
    }
    /// Attributes of an op, sorted by name.
    pub fn attrs(&self, op: Op) -> &[(Symbol, Attribute)] {
        self.attr_pool.get(self.ops[op].attrs)
    }
    pub fn regions_of(&self, op: Op) -> &[Region] {
        self.region_pool.get(self.ops[op].regions)
    }
    pub fn successors(&self, op: Op) -> &[Block] {
        self.succ_pool.get(self.ops[op].successors)
    }
    pub fn op_loc(&self, op: Op) -> Location {
        self.ops[op].loc
    }
    #[inline]
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v].ty
    }
    pub fn set_value_type(&mut self, v: Value, t: Type) {
        self.values[v].ty = t;
        if let ValueDef::Result(d, _) = self.values[v].def {
            self.stamp(d);
        }
        for i in 0..self.values[v].uses.len() {
            let u = self.values[v].uses[i].op;
            self.stamp(u);
        }
    }
    #[inline]
    pub fn value_def(&self, v: Value) -> ValueDef {
        self.values[v].def
    }
    pub fn defining_op(&self, v: Value) -> Option<Op> {
        match self.values[v].def {
            ValueDef::Result(op, _) => Some(op),
            _ => None,
        }
    }
    /// The uses of `v`, oldest first. MLIR keeps each use-list newest
    /// first (a new use goes to the head) and its drivers visit users in
    /// that order, which shows in their output; the list here is that
    /// order reversed, kept exactly (removal preserves order, and
    /// replacement moves uses as MLIR does), so [`Context::users`] can
    /// walk it as MLIR does.
    pub fn uses(&self, v: Value) -> &[Use] {
        &self.values[v].uses
    }
    /// The ops using `v`, in MLIR's order (newest use first; an op using
    /// `v` twice is listed twice).
    pub fn users(&self, v: Value) -> impl Iterator<Item = Op> + '_ {
        self.values[v].uses.iter().rev().map(|u| u.op)
    }
    pub fn has_uses(&self, v: Value) -> bool {
        !self.values[v].uses.is_empty()
    }
    pub fn block_args(&self, b: Block) -> &[Value] {
        &self.blocks[b].args
    }
    /// The blocks of `r` in order (`.rev()` for the reverse order).
    #[inline]
    pub fn region_blocks(&self, r: Region) -> RegionBlocks<'_> {
        let d = &self.regions[r];
        RegionBlocks {
            ctx: self,
            front: d.first,
            back: d.last,
            left: d.len as usize,
        }
    }
    /// The first block of `r` (its entry block).
    #[inline]
    pub fn entry_block(&self, r: Region) -> Option<Block> {
        self.regions[r].first
    }
    /// The first block of `r` ([`Context::entry_block`]).
    #[inline]
    pub fn first_block(&self, r: Region) -> Option<Block> {
        self.regions[r].first
    }
    #[inline]
    pub fn last_block(&self, r: Region) -> Option<Block> {
        self.regions[r].last
    }
    /// The block after `b` in its region.
    #[inline]
    pub fn next_block(&self, b: Block) -> Option<Block> {
        self.blocks[b].next
    }
    /// The block before `b` in its region.
    #[inline]
    pub fn prev_block(&self, b: Block) -> Option<Block> {
        self.blocks[b].prev
    }
    /// How many blocks `r` holds (O(1); not [`Context::num_blocks`], the
    /// size of the block arena).
    #[inline]
    pub fn region_num_blocks(&self, r: Region) -> usize {
        self.regions[r].len as usize
    }
    #[inline]
    pub fn region_is_empty(&self, r: Region) -> bool {
        self.regions[r].first.is_none()
    }
    /// The only block of `r`, if it has exactly one.
    #[inline]
    pub fn single_block(&self, r: Region) -> Option<Block> {
        let d = &self.regions[r];
        if d.len == 1 {
            d.first
        } else {
            None
        }
    }
    /// The block that holds a value's definition.
    pub fn value_block(&self, v: Value) -> Option<Block> {
        match self.values[v].def {
            ValueDef::Result(op, _) => self.ops[op].parent,
            ValueDef::BlockArg(b, _) => Some(b),
        }
    }
    /// Location of a value: its op's, or its block argument's.
    pub fn value_loc(&self, v: Value) -> Location {
        match self.values[v].def {
            ValueDef::Result(op, _) => self.ops[op].loc,
            ValueDef::BlockArg(..) => self.arg_locs.get(&v).copied().unwrap_or(self.unknown_loc()),
        }
    }
    pub fn set_value_loc(&mut self, v: Value, l: Location) {
        self.arg_locs.insert(v, l);
    }

    // ----- attributes on ops -----

    #[inline]
    pub fn get_attr(&self, op: Op, name: &str) -> Option<Attribute> {
        // A constant's `value`, asked for at every fold: inlined, the test
        // of a literal name disappears, and symbols compare as integers.
        if let (Some(s), "value") = (self.value_sym, name) {
            return self.get_attr_sym(op, s);
        }
        self.get_attr_by_name(op, name)
    }
    fn get_attr_by_name(&self, op: Op, name: &str) -> Option<Attribute> {
        // Ops carry a handful of attributes (most none): comparing their
        // names beats hashing `name` to find its symbol, which verifiers
        // and printers did at nearly every op.
        self.attrs(op)
            .iter()
            .find(|(k, _)| &*self.strings[k.index()] == name)
            .map(|&(_, a)| a)
    }
    #[inline]
    pub fn get_attr_sym(&self, op: Op, s: Symbol) -> Option<Attribute> {
        // Symbols are interned, so equal names are equal handles; ops carry
        // a handful of attributes, where a scan beats string compares.
        self.attrs(op)
            .iter()
            .find(|(k, _)| *k == s)
            .map(|&(_, a)| a)
    }
    pub fn set_attr(&mut self, op: Op, name: &str, a: Attribute) {
        let s = self.sym(name);
        self.set_attr_sym(op, s, a);
    }
    /// [`Context::set_attr`] with the name already interned (passes set
    /// the same few names on thousands of ops).
    pub fn set_attr_sym(&mut self, op: Op, s: Symbol, a: Attribute) {
        self.stamp(op);
        if &*self.strings[s.index()] == "sym_name" {
            self.touch_op(op);
        }
        let name = &self.strings[s.index()];
        let pos = self
            .attrs(op)
            .binary_search_by(|(k, _)| self.strings[k.index()].as_ref().cmp(name));
        let span = self.ops[op].attrs;
        match pos {
            Ok(i) => self.attr_pool.get_mut(span)[i].1 = a,
            Err(i) => {
                let mut span = span;
                self.attr_pool.insert(&mut span, i, (s, a));
                self.ops[op].attrs = span;
            }
        }
    }
    pub fn remove_attr(&mut self, op: Op, name: &str) -> Option<Attribute> {
        self.stamp(op);
        if name == "sym_name" {
            self.touch_op(op);
        }
        let pos = self
            .attrs(op)
            .binary_search_by(|(k, _)| self.strings[k.index()].as_ref().cmp(name))
            .ok()?;
        let mut span = self.ops[op].attrs;
        let (_, a) = self.attr_pool.remove(&mut span, pos);
        self.ops[op].attrs = span;
        Some(a)
    }
    /// Sorts attribute entries by name (after building a list by hand).
    pub fn sort_attrs(&self, attrs: &mut [(Symbol, Attribute)]) {
        attrs.sort_by(|a, b| self.str(a.0).cmp(self.str(b.0)));
    }

    // ----- creation -----

    pub fn create_block(&mut self, arg_types: &[Type]) -> Block {
        let b = self.blocks.push(BlockData::default());
        for &t in arg_types {
            self.add_block_arg(b, t);
        }
        b
    }
    pub fn add_block_arg(&mut self, b: Block, t: Type) -> Value {
        let i = self.blocks[b].args.len() as u32;
        let v = self.values.push(ValueData {
            ty: t,
            def: ValueDef::BlockArg(b, i),
            uses: UseList::new(),
        });
        self.blocks[b].args.push(v);
        v
    }
    /// Inserts a block argument at `index`, renumbering the later ones.
    pub fn insert_block_arg(&mut self, b: Block, index: usize, t: Type) -> Value {
        let v = self.values.push(ValueData {
            ty: t,
            def: ValueDef::BlockArg(b, index as u32),
            uses: UseList::new(),
        });
        self.blocks[b].args.insert(index, v);
        self.renumber_args(b);
        v
    }
    /// Erases a block argument; fails if it still has uses.
    pub fn erase_block_arg(&mut self, b: Block, index: usize) -> Result<(), String> {
        let v = self.blocks[b].args[index];
        if self.has_uses(v) {
            return Err("cannot erase a block argument that still has uses".into());
        }
        self.blocks[b].args.remove(index);
        self.renumber_args(b);
        Ok(())
    }
    fn renumber_args(&mut self, b: Block) {
        for (i, a) in self.blocks[b].args.clone().into_iter().enumerate() {
            self.values[a].def = ValueDef::BlockArg(b, i as u32);
        }
    }
    pub fn create_region(&mut self) -> Region {
        self.regions.push(RegionData::default())
    }
    /// Creates a detached op. Regions in `state.regions` become owned by it.
    pub fn create_op(&mut self, state: OperationState) -> Op {
        let OperationState {
            name,
            loc,
            operands,
            result_types,
            attrs,
            regions,
            successors,
        } = state;
        self.create_op_from(
            name,
            loc,
            &operands,
            &result_types,
            &attrs,
            &regions,
            &successors,
        )
    }
    /// [`Context::create_op`] from slices: the op's lists are copied into
    /// the context's pools anyway, so a builder need not allocate `Vec`s.
    /// `attrs` need not be sorted.
    #[allow(clippy::too_many_arguments)]
    pub fn create_op_from(
        &mut self,
        name: Symbol,
        loc: Location,
        operands: &[Value],
        result_types: &[Type],
        attrs: &[(Symbol, Attribute)],
        regions: &[Region],
        successors: &[Block],
    ) -> Op {
        let op = Op::from_index(self.ops.len());
        let results = Span {
            start: self.value_pool.items.len() as u32,
            len: result_types.len() as u32,
        };
        for (i, &t) in result_types.iter().enumerate() {
            let v = self.values.push(ValueData {
                ty: t,
                def: ValueDef::Result(op, i as u32),
                uses: UseList::new(),
            });
            self.value_pool.items.push(v);
        }
        self.add_operand_uses(op, operands);
        for &r in regions {
            self.regions[r].parent = Some(op);
        }
        for &s in successors {
            self.blocks[s].pred_uses.push(op);
        }
        let operands = self.value_pool.alloc(operands);
        let attrs = self.attr_pool.alloc(attrs);
        if attrs.len > 1 {
            let strings = &self.strings;
            self.attr_pool
                .get_mut(attrs)
                .sort_by(|a, b| strings[a.0.index()].cmp(&strings[b.0.index()]));
        }
        let regions = self.region_pool.alloc(regions);
        let successors = self.succ_pool.alloc(successors);
        self.push_op(OperationData::detached(
            name, loc, operands, results, attrs, regions, successors,
        ))
    }
    /// Records `op` as the user of each of `operands`, in order.
    fn add_operand_uses(&mut self, op: Op, operands: &[Value]) {
        for (i, &v) in operands.iter().enumerate() {
            let uses = &mut self.values[v].uses;
            // Grow four-fold: a value used past its inline two is
            // usually used many times (function arguments, tokens).
            if uses.len() == uses.capacity() {
                uses.reserve(3 * uses.len());
            }
            uses.push(Use {
                op,
                index: i as u32,
            });
        }
    }
    /// Adds a new op's record (its lists already in the pools), as
    /// changed now.
    fn push_op(&mut self, data: OperationData) -> Op {
        let op = self.ops.push(data);
        self.stamp(op);
        op
    }
    /// A detached copy of `op`, which has no regions, reading `operands`:
    /// its name, location, result types, attributes and successors are
    /// copied list to list inside the pools (cloning a loop body is mostly
    /// this, and gathering each list into a buffer to create the op anew
    /// was most of a clone's cost).
    fn copy_op(&mut self, op: Op, operands: &[Value]) -> Op {
        let new = Op::from_index(self.ops.len());
        let d = &self.ops[op];
        let (name, loc, old_results, old_attrs, old_succs) =
            (d.name, d.loc, d.results, d.attrs, d.successors);
        debug_assert!(d.regions.len == 0);
        let results = Span {
            start: self.value_pool.items.len() as u32,
            len: old_results.len,
        };
        for i in 0..old_results.len {
            let old = self.value_pool.items[(old_results.start + i) as usize];
            let ty = self.values[old].ty;
            let v = self.values.push(ValueData {
                ty,
                def: ValueDef::Result(new, i),
                uses: UseList::new(),
            });
            self.value_pool.items.push(v);
        }
        self.add_operand_uses(new, operands);
        let successors = self.succ_pool.alloc_within(old_succs);
        for i in 0..successors.len {
            let s = self.succ_pool.items[(successors.start + i) as usize];
            self.blocks[s].pred_uses.push(new);
        }
        let operands = self.value_pool.alloc(operands);
        // Already in the order a dictionary keeps.
        let attrs = self.attr_pool.alloc_within(old_attrs);
        let regions = self.region_pool.alloc(&[]);
        let pushed = self.push_op(OperationData::detached(
            name, loc, operands, results, attrs, regions, successors,
        ));
        debug_assert_eq!(pushed, new);
        pushed
    }
    /// Creates an op and inserts it at `ip`.
    pub fn build(&mut self, ip: InsertPoint, state: OperationState) -> Op {
        let op = self.create_op(state);
        self.insert_op(ip, op);
        op
    }

    // ----- operands and uses -----

    pub fn set_operand(&mut self, op: Op, i: usize, v: Value) {
        self.stamp(op);
        let span = self.ops[op].operands;
        let old = self.value_pool.get(span)[i];
        self.remove_use(old, op, i as u32);
        self.value_pool.get_mut(span)[i] = v;
        self.values[v].uses.push(Use {
            op,
            index: i as u32,
        });
    }
    fn remove_use(&mut self, v: Value, op: Op, index: u32) {
        let uses = &mut self.values[v].uses;
        // Order-preserving: use-lists keep MLIR's order (see `uses`).
        if let Some(p) = uses.iter().rposition(|u| u.op == op && u.index == index) {
            uses.remove(p);
        }
    }
    /// Replaces the whole operand list of an op.
    pub fn set_operands(&mut self, op: Op, vals: Vec<Value>) {
        self.stamp(op);
        self.drop_operands(op);
        for (i, &v) in vals.iter().enumerate() {
            self.values[v].uses.push(Use {
                op,
                index: i as u32,
            });
        }
        let mut span = self.ops[op].operands;
        self.value_pool.replace(&mut span, &vals);
        self.ops[op].operands = span;
    }
    fn drop_operands(&mut self, op: Op) {
        let span = std::mem::take(&mut self.ops[op].operands);
        for i in 0..span.len as usize {
            let v = self.value_pool.items[span.start as usize + i];
            self.remove_use(v, op, i as u32);
        }
    }
    pub fn replace_all_uses_with(&mut self, old: Value, new: Value) {
        if old == new {
            return;
        }
        let uses = std::mem::take(&mut self.values[old].uses);
        for u in &uses {
            self.stamp(u.op);
            let span = self.ops[u.op].operands;
            self.value_pool.get_mut(span)[u.index as usize] = new;
        }
        // MLIR moves the uses one by one from the head of `old`'s list to
        // the head of `new`'s: they arrive reversed, before `new`'s own.
        self.values[new].uses.extend(uses.into_iter().rev());
    }
    /// Replaces uses of `old` for which `pred` holds.
    pub fn replace_uses_if(
        &mut self,
        old: Value,
        new: Value,
        pred: impl Fn(&Context, Use) -> bool,
    ) {
        let uses = self.values[old].uses.clone();
        // Newest first, as MLIR walks a use-list (see `uses`).
        for u in uses.into_iter().rev() {
            if pred(self, u) {
                self.set_operand(u.op, u.index as usize, new);
            }
        }
    }
    pub fn set_successor(&mut self, op: Op, i: usize, b: Block) {
        self.stamp(op);
        let span = self.ops[op].successors;
        let old = self.succ_pool.get(span)[i];
        if let Some(p) = self.blocks[old].pred_uses.iter().position(|&o| o == op) {
            self.blocks[old].pred_uses.swap_remove(p);
        }
        self.succ_pool.get_mut(span)[i] = b;
        self.blocks[b].pred_uses.push(op);
    }
    /// Predecessor blocks, one per edge, in the order MLIR lists them
    /// (by the position of the branching op is not tracked; callers sort).
    pub fn predecessors(&self, b: Block) -> Vec<Block> {
        self.blocks[b]
            .pred_uses
            .iter()
            .filter_map(|&op| self.ops[op].parent)
            .collect()
    }
    pub fn pred_ops(&self, b: Block) -> &[Op] {
        &self.blocks[b].pred_uses
    }

    // ----- layout -----

    pub fn parent_block(&self, op: Op) -> Option<Block> {
        self.ops[op].parent
    }
    pub fn parent_region(&self, b: Block) -> Option<Region> {
        self.blocks[b].parent
    }
    pub fn region_parent(&self, r: Region) -> Option<Op> {
        self.regions[r].parent
    }
    /// Whether region `r` is `ancestor` or nested in it (MLIR's
    /// `Region::isAncestor`).
    pub fn is_region_ancestor(&self, ancestor: Region, mut r: Region) -> bool {
        loop {
            if r == ancestor {
                return true;
            }
            let Some(b) = self.regions[r].parent.and_then(|o| self.ops[o].parent) else {
                return false;
            };
            let Some(p) = self.blocks[b].parent else {
                return false;
            };
            r = p;
        }
    }
    /// The op whose region holds `op`.
    pub fn parent_op(&self, op: Op) -> Option<Op> {
        let b = self.ops[op].parent?;
        self.block_parent_op(b)
    }
    pub fn block_parent_op(&self, b: Block) -> Option<Op> {
        let r = self.blocks[b].parent?;
        self.regions[r].parent
    }
    /// The closest ancestor (or `op` itself) satisfying `pred`.
    pub fn ancestor(&self, op: Op, pred: impl Fn(&Context, Op) -> bool) -> Option<Op> {
        let mut cur = Some(op);
        while let Some(o) = cur {
            if pred(self, o) {
                return Some(o);
            }
            cur = self.parent_op(o);
        }
        None
    }
    /// Is `op` inside `ancestor` (or equal to it)?
    pub fn is_ancestor(&self, ancestor: Op, op: Op) -> bool {
        self.ancestor(op, |_, o| o == ancestor).is_some()
    }
    pub fn next_op(&self, op: Op) -> Option<Op> {
        self.ops[op].next
    }
    pub fn prev_op(&self, op: Op) -> Option<Op> {
        self.ops[op].prev
    }
    pub fn first_op(&self, b: Block) -> Option<Op> {
        self.blocks[b].first
    }
    pub fn last_op(&self, b: Block) -> Option<Op> {
        self.blocks[b].last
    }
    /// The ops of a block, in order (a snapshot: safe to mutate while using it).
    pub fn block_ops(&self, b: Block) -> Vec<Op> {
        let mut v = Vec::new();
        let mut cur = self.blocks[b].first;
        while let Some(o) = cur {
            v.push(o);
            cur = self.ops[o].next;
        }
        v
    }
    pub fn block_ops_iter(&self, b: Block) -> impl Iterator<Item = Op> + '_ {
        let mut cur = self.blocks[b].first;
        std::iter::from_fn(move || {
            let o = cur?;
            cur = self.ops[o].next;
            Some(o)
        })
    }
    /// The block's last op if the registered traits say it's a terminator.
    pub fn terminator(&self, b: Block) -> Option<Op> {
        let l = self.blocks[b].last?;
        if self.traits_of(l).is_terminator {
            Some(l)
        } else {
            None
        }
    }
    pub fn insert_op(&mut self, ip: InsertPoint, op: Op) {
        debug_assert!(self.ops[op].parent.is_none(), "op already in a block");
        self.stamp(op);
        match ip {
            InsertPoint::AtEnd(b) => {
                self.blocks[b].order_stamp = self.blocks[b].order_stamp.wrapping_add(1);
                let last = self.blocks[b].last;
                self.ops[op].prev = last;
                self.ops[op].next = None;
                match last {
                    Some(l) => self.ops[l].next = Some(op),
                    None => self.blocks[b].first = Some(op),
                }
                self.blocks[b].last = Some(op);
                self.ops[op].parent = Some(b);
                self.note_inserted(b, op);
            }
            InsertPoint::AtStart(b) => match self.blocks[b].first {
                Some(f) => self.insert_op(InsertPoint::Before(f), op),
                None => self.insert_op(InsertPoint::AtEnd(b), op),
            },
            InsertPoint::Before(anchor) => {
                let b = self.ops[anchor].parent.expect("anchor in a block");
                self.blocks[b].order_stamp = self.blocks[b].order_stamp.wrapping_add(1);
                let prev = self.ops[anchor].prev;
                self.ops[op].prev = prev;
                self.ops[op].next = Some(anchor);
                self.ops[anchor].prev = Some(op);
                match prev {
                    Some(p) => self.ops[p].next = Some(op),
                    None => self.blocks[b].first = Some(op),
                }
                self.ops[op].parent = Some(b);
                self.note_inserted(b, op);
            }
        }
    }
    /// Appends a detached op to the end of block `b`: `insert_op` at
    /// `InsertPoint::AtEnd(b)`, inlined where parsers build blocks op by op.
    #[inline(always)]
    pub fn append_op(&mut self, b: Block, op: Op) {
        debug_assert!(self.ops[op].parent.is_none(), "op already in a block");
        self.stamp(op);
        let last = self.blocks[b].last;
        self.blocks[b].order_stamp = self.blocks[b].order_stamp.wrapping_add(1);
        let d = &mut self.ops[op];
        d.prev = last;
        d.next = None;
        d.parent = Some(b);
        match last {
            Some(l) => self.ops[l].next = Some(op),
            None => self.blocks[b].first = Some(op),
        }
        self.blocks[b].last = Some(op);
        self.note_inserted(b, op);
    }
    /// The insertion point right after `op`.
    pub fn after(&self, op: Op) -> InsertPoint {
        match self.ops[op].next {
            Some(n) => InsertPoint::Before(n),
            None => InsertPoint::AtEnd(self.ops[op].parent.expect("op in a block")),
        }
    }
    /// Unlinks an op from its block (it keeps its operands and regions).
    pub fn detach_op(&mut self, op: Op) {
        self.note_removed(op);
        self.stamp(op);
        let Some(b) = self.ops[op].parent else { return };
        self.blocks[b].order_stamp = self.blocks[b].order_stamp.wrapping_add(1);
        let (prev, next) = (self.ops[op].prev, self.ops[op].next);
        match prev {
            Some(p) => self.ops[p].next = next,
            None => self.blocks[b].first = next,
        }
        match next {
            Some(n) => self.ops[n].prev = prev,
            None => self.blocks[b].last = prev,
        }
        self.ops[op].parent = None;
        self.ops[op].prev = None;
        self.ops[op].next = None;
    }
    pub fn move_op_before(&mut self, op: Op, anchor: Op) {
        self.detach_op(op);
        self.insert_op(InsertPoint::Before(anchor), op);
    }
    /// Erases an op and everything nested in it. Fails (and changes
    /// nothing) if a result is still used outside of the op.
    pub fn erase_op(&mut self, op: Op) -> Result<(), String> {
        for &r in self.results(op) {
            if self.values[r]
                .uses
                .iter()
                .any(|u| !self.is_ancestor(op, u.op))
            {
                return Err(format!(
                    "cannot erase '{}': a result still has uses",
                    self.name(op)
                ));
            }
        }
        self.detach_op(op);
        self.destroy_op(op);
        Ok(())
    }
    fn destroy_op(&mut self, op: Op) {
        for ri in self.ops[op].regions.range() {
            let r = self.region_pool.items[ri];
            let mut cur = self.regions[r].first;
            while let Some(b) = cur {
                for o in self.block_ops(b) {
                    self.destroy_op(o);
                }
                cur = self.blocks[b].next;
            }
        }
        self.drop_operands(op);
        let succs = std::mem::take(&mut self.ops[op].successors);
        for si in succs.range() {
            let s = self.succ_pool.items[si];
            if let Some(p) = self.blocks[s].pred_uses.iter().position(|&o| o == op) {
                self.blocks[s].pred_uses.swap_remove(p);
            }
        }
        self.ops[op].erased = true;
    }
    /// Removes all ops of a region's blocks and the blocks themselves.
    pub fn clear_region(&mut self, r: Region) {
        // Tables nested in `r` go with it: their entries are never read.
        self.touch_region(r);
        let blocks: Vec<Block> = self.region_blocks(r).collect();
        let d = &mut self.regions[r];
        (d.first, d.last, d.len) = (None, None, 0);
        for &b in &blocks {
            for o in self.block_ops(b) {
                self.destroy_op(o);
            }
        }
        for b in blocks {
            self.blocks[b] = BlockData::default();
        }
    }
    /// Drops every operand and successor of `op` and of the ops nested in
    /// it (MLIR's `dropAllReferences`): what is about to be erased as a
    /// whole (unreachable blocks, dead cycles) may use itself in cycles,
    /// and no single erasure order would leave each op unused first.
    pub fn drop_all_references(&mut self, op: Op) {
        // Most ops hold no region: no list of them.
        if self.ops[op].regions.len == 0 {
            self.drop_references_of(op);
            return;
        }
        let mut all = vec![op];
        self.walk_nested(op, &mut |o| all.push(o));
        for o in all {
            self.drop_references_of(o);
        }
    }
    /// [`Context::drop_all_references`] of `o` alone.
    fn drop_references_of(&mut self, o: Op) {
        self.drop_operands(o);
        let succs = std::mem::take(&mut self.ops[o].successors);
        for si in succs.range() {
            let s = self.succ_pool.items[si];
            if let Some(p) = self.blocks[s].pred_uses.iter().position(|&x| x == o) {
                self.blocks[s].pred_uses.swap_remove(p);
            }
        }
    }
    pub fn is_erased(&self, op: Op) -> bool {
        self.ops[op].erased
    }
    /// Links `b`, in no region, into `r` between `prev` and `next`
    /// (neighbours in `r`, or `None` at the ends). Callers unlink a block
    /// that is in a region first (and only then read its new neighbours),
    /// so a block is never listed twice.
    fn link_block(&mut self, r: Region, b: Block, prev: Option<Block>, next: Option<Block>) {
        debug_assert!(self.blocks[b].parent.is_none(), "block in no region");
        let d = &mut self.blocks[b];
        (d.parent, d.prev, d.next) = (Some(r), prev, next);
        match prev {
            Some(p) => self.blocks[p].next = Some(b),
            None => self.regions[r].first = Some(b),
        }
        match next {
            Some(n) => self.blocks[n].prev = Some(b),
            None => self.regions[r].last = Some(b),
        }
        self.regions[r].len += 1;
    }
    /// Takes `b` out of its region's list (nothing if in none).
    fn unlink_block(&mut self, b: Block) {
        let d = &mut self.blocks[b];
        let Some(r) = d.parent.take() else { return };
        let (prev, next) = (d.prev.take(), d.next.take());
        match prev {
            Some(p) => self.blocks[p].next = next,
            None => self.regions[r].first = next,
        }
        match next {
            Some(n) => self.blocks[n].prev = prev,
            None => self.regions[r].last = prev,
        }
        self.regions[r].len -= 1;
    }
    /// Puts `b` last in `r` (moving it out of its region if in one).
    pub fn append_block(&mut self, r: Region, b: Block) {
        self.touch_region(r);
        self.touch_block(b);
        self.unlink_block(b);
        let last = self.regions[r].last;
        self.link_block(r, b, last, None);
    }
    /// Puts `b` first in `r` (moving it out of its region if in one).
    pub fn prepend_block(&mut self, r: Region, b: Block) {
        self.touch_region(r);
        self.touch_block(b);
        self.unlink_block(b);
        let first = self.regions[r].first;
        self.link_block(r, b, None, first);
    }
    /// Puts `b` right after `after` (moving it out of its region if in one).
    pub fn insert_block_after(&mut self, after: Block, b: Block) {
        self.touch_block(after);
        self.touch_block(b);
        if after == b {
            return;
        }
        self.unlink_block(b);
        let r = self.blocks[after].parent.expect("block in a region");
        let next = self.blocks[after].next;
        self.link_block(r, b, Some(after), next);
    }
    /// Puts `b` right before `before` (moving it out of its region if in one).
    pub fn insert_block_before(&mut self, before: Block, b: Block) {
        self.touch_block(before);
        self.touch_block(b);
        if before == b {
            return;
        }
        self.unlink_block(b);
        let r = self.blocks[before].parent.expect("block in a region");
        let prev = self.blocks[before].prev;
        self.link_block(r, b, prev, Some(before));
    }
    /// Position of a block in its region: a walk back to the first block.
    /// (Nothing asks it in a loop over a large region: the printer numbers
    /// blocks as it goes, and passes that order blocks number them once.)
    pub fn block_index(&self, b: Block) -> usize {
        debug_assert!(self.blocks[b].parent.is_some(), "block in a region");
        let mut i = 0;
        let mut cur = self.blocks[b].prev;
        while let Some(p) = cur {
            i += 1;
            cur = self.blocks[p].prev;
        }
        i
    }
    /// Unlinks a block from its region.
    pub fn detach_block(&mut self, b: Block) {
        self.touch_block(b);
        self.unlink_block(b);
    }
    /// Erases a block with its ops; fails if other blocks still branch to it.
    pub fn erase_block(&mut self, b: Block) -> Result<(), String> {
        if !self.blocks[b].pred_uses.is_empty() {
            return Err("cannot erase a block that still has predecessors".into());
        }
        for o in self.block_ops(b).into_iter().rev() {
            self.detach_op(o);
            self.destroy_op(o);
        }
        self.detach_block(b);
        Ok(())
    }
    /// Splits `b` before `op`: `op` and everything after it move to a new
    /// block inserted right after `b`.
    pub fn split_block(&mut self, b: Block, op: Op) -> Block {
        let nb = self.create_block(&[]);
        self.insert_block_after(b, nb);
        self.splice_tail(b, op, InsertPoint::AtEnd(nb));
        nb
    }
    /// Moves `from` and the ops after it in `src` to `ip` (outside `src`)
    /// by relinking the two ends of the run, not op by op: the async
    /// lowering splits a block at every await, and moving ops one by one
    /// showed up in its profile.
    fn splice_tail(&mut self, src: Block, from: Op, ip: InsertPoint) {
        self.touch_block(src);
        match ip {
            InsertPoint::AtEnd(b) | InsertPoint::AtStart(b) => self.touch_block(b),
            InsertPoint::Before(o) => self.touch_op(o),
        }
        debug_assert_eq!(self.ops[from].parent, Some(src), "op in the source block");
        let last = self.blocks[src].last.expect("source block holds `from`");
        match self.ops[from].prev {
            Some(p) => self.ops[p].next = None,
            None => self.blocks[src].first = None,
        }
        self.blocks[src].last = self.ops[from].prev;
        let (dst, prev, next) = match ip {
            InsertPoint::AtEnd(b) => (b, self.blocks[b].last, None),
            InsertPoint::AtStart(b) => (b, None, self.blocks[b].first),
            InsertPoint::Before(a) => (
                self.ops[a].parent.expect("anchor in a block"),
                self.ops[a].prev,
                Some(a),
            ),
        };
        debug_assert_ne!(dst, src, "splice into another block");
        for b in [src, dst] {
            self.blocks[b].order_stamp = self.blocks[b].order_stamp.wrapping_add(1);
        }
        self.ops[from].prev = prev;
        match prev {
            Some(p) => self.ops[p].next = Some(from),
            None => self.blocks[dst].first = Some(from),
        }
        self.ops[last].next = next;
        match next {
            Some(n) => self.ops[n].prev = Some(last),
            None => self.blocks[dst].last = Some(last),
        }
        let mut cur = Some(from);
        while let Some(o) = cur {
            self.ops[o].parent = Some(dst);
            self.stamp(o);
            cur = self.ops[o].next;
            if o == last {
                break;
            }
        }
    }
    /// Moves all ops of `src` to the insertion point, replacing the block
    /// arguments of `src` by `args`; `src` is left empty and detached.
    pub fn inline_block(&mut self, src: Block, ip: InsertPoint, args: &[Value]) {
        for (i, &a) in self.blocks[src].args.clone().iter().enumerate() {
            self.replace_all_uses_with(a, args[i]);
        }
        if let Some(first) = self.blocks[src].first {
            self.splice_tail(src, first, ip);
        }
        self.detach_block(src);
    }
    /// Moves every block of `src` to the end of `dst`.
    pub fn take_body(&mut self, dst: Region, src: Region) {
        self.touch_region(dst);
        let last = self.regions[dst].last;
        self.splice_blocks(src, dst, last, None);
    }
    /// Moves the blocks of `src` into the region of `before`, before it.
    pub fn inline_region_before(&mut self, src: Region, before: Block) {
        self.touch_block(before);
        let dst = self.blocks[before].parent.expect("block in a region");
        let prev = self.blocks[before].prev;
        self.splice_blocks(src, dst, prev, Some(before));
    }
    /// Moves all blocks of `src`, in order, between `prev` and `next` of
    /// `dst`: the two ends are relinked, and only the moved blocks' parent
    /// changes (as MLIR's `ilist` transfer).
    fn splice_blocks(
        &mut self,
        src: Region,
        dst: Region,
        prev: Option<Block>,
        next: Option<Block>,
    ) {
        self.touch_region(src);
        debug_assert_ne!(src, dst, "splice into another region");
        let d = &mut self.regions[src];
        let (Some(first), Some(last), n) = (d.first.take(), d.last.take(), d.len) else {
            return;
        };
        d.len = 0;
        let mut cur = Some(first);
        while let Some(b) = cur {
            self.blocks[b].parent = Some(dst);
            cur = self.blocks[b].next;
        }
        self.blocks[first].prev = prev;
        match prev {
            Some(p) => self.blocks[p].next = Some(first),
            None => self.regions[dst].first = Some(first),
        }
        self.blocks[last].next = next;
        match next {
            Some(x) => self.blocks[x].prev = Some(last),
            None => self.regions[dst].last = Some(last),
        }
        self.regions[dst].len += n;
    }

    // ----- cloning -----

    /// Clones an op (with its regions) at `ip`, mapping operands through
    /// `map` and recording the new results in it. (Any hasher: a pass
    /// cloning loop bodies op by op maps with a cheap one.)
    pub fn clone_op<S: BuildHasher>(
        &mut self,
        op: Op,
        ip: InsertPoint,
        map: &mut HashMap<Value, Value, S>,
    ) -> Op {
        let d = &self.ops[op];
        let (name, loc) = (d.name, d.loc);
        // Gathered without allocating for the common small op: passes clone
        // loop bodies op by op.
        let operands: SmallVec<[Value; 4]> = self
            .operands(op)
            .iter()
            .map(|v| *map.get(v).unwrap_or(v))
            .collect();
        if self.regions_of(op).is_empty() {
            let new = self.copy_op(op, &operands);
            for i in 0..self.results(op).len() {
                let (r, nr) = (self.result(op, i), self.result(new, i));
                map.insert(r, nr);
            }
            self.insert_op(ip, new);
            return new;
        }
        let result_types: SmallVec<[Type; 2]> = self
            .results(op)
            .iter()
            .map(|&r| self.values[r].ty)
            .collect();
        let attrs: SmallVec<[(Symbol, Attribute); 4]> = self.attrs(op).iter().copied().collect();
        let succs: SmallVec<[Block; 2]> = self.successors(op).iter().copied().collect();
        let mut new_regions: SmallVec<[Region; 2]> = SmallVec::new();
        for i in 0..self.regions_of(op).len() {
            let r = self.regions_of(op)[i];
            let nr = self.create_region();
            self.clone_region_into(r, nr, map);
            new_regions.push(nr);
        }
        let new = self.create_op_from(
            name,
            loc,
            &operands,
            &result_types,
            &attrs,
            &new_regions,
            &succs,
        );
        for i in 0..result_types.len() {
            let (r, nr) = (self.result(op, i), self.result(new, i));
            map.insert(r, nr);
        }
        self.insert_op(ip, new);
        new
    }
    /// Moves `op` to `ip` as the IR a clone of it reading through `map`
    /// would leave once `op` itself is erased: a rewrite that clones a
    /// region for the last time and then erases the original (a loop body
    /// lowered into the last of its outlined functions) need not build
    /// the copy. The operands of `op` and of the ops nested in it are
    /// re-pointed through `map` in the order a clone creates its uses
    /// (nested ops first, each after the ops it holds, then `op`): each
    /// use leaves its old value's list, whose order is kept, and joins the
    /// end of the new value's, so use-lists read as the clone's would.
    /// Every op moved counts as changed now, as a clone would be new.
    pub fn move_op_remapped<S: BuildHasher>(
        &mut self,
        op: Op,
        ip: InsertPoint,
        map: &HashMap<Value, Value, S>,
    ) {
        self.detach_op(op);
        if self.regions_of(op).is_empty() {
            self.remap_operands(op, map);
        } else {
            let mut nested = vec![];
            self.walk_post(op, &mut |o| nested.push(o));
            nested.push(op);
            for o in nested {
                self.remap_operands(o, map);
            }
        }
        self.insert_op(ip, op);
    }
    /// [`Context::move_op_remapped`] for one op's own operands.
    fn remap_operands<S: BuildHasher>(&mut self, op: Op, map: &HashMap<Value, Value, S>) {
        self.stamp(op);
        let span = self.ops[op].operands;
        for i in 0..span.len {
            let at = (span.start + i) as usize;
            let old = self.value_pool.items[at];
            let Some(&new) = map.get(&old) else { continue };
            // Moved in the order they were made, this op's use is the
            // oldest of the moved ones left: found from the front.
            let uses = &mut self.values[old].uses;
            if let Some(p) = uses.iter().position(|u| u.op == op && u.index == i) {
                uses.remove(p);
            }
            self.value_pool.items[at] = new;
            self.values[new].uses.push(Use { op, index: i });
        }
    }
    /// Clones every block of `src` to the end of `dst`, remapping values and
    /// successors. Block arguments already in `map` are not cloned (uses
    /// of them take the mapped value), as MLIR's `Region::cloneInto`.
    pub fn clone_region_into<S: BuildHasher>(
        &mut self,
        src: Region,
        dst: Region,
        map: &mut HashMap<Value, Value, S>,
    ) {
        let blocks: SmallVec<[Block; 4]> = self.region_blocks(src).collect();
        let mut bmap: FxHashMap<Block, Block> = FxHashMap::default();
        for &b in &blocks {
            let nb = self.create_block(&[]);
            for a in self.blocks[b].args.clone() {
                // An argument the caller mapped already is not cloned (the
                // inliner maps the entry block's to the call's operands).
                if map.contains_key(&a) {
                    continue;
                }
                let t = self.values[a].ty;
                let na = self.add_block_arg(nb, t);
                if let Some(&l) = self.arg_locs.get(&a) {
                    self.arg_locs.insert(na, l);
                }
                map.insert(a, na);
            }
            self.append_block(dst, nb);
            bmap.insert(b, nb);
        }
        for &b in &blocks {
            let nb = bmap[&b];
            for o in self.block_ops(b) {
                let c = self.clone_op(o, InsertPoint::AtEnd(nb), map);
                for i in 0..self.successors(c).len() {
                    let s = self.successors(c)[i];
                    if let Some(&ns) = bmap.get(&s) {
                        self.set_successor(c, i, ns);
                    }
                }
            }
        }
        // Operands defined later in the region were cloned before their
        // definitions were mapped: patch them now.
        for &b in &blocks {
            for o in self.block_ops(bmap[&b]) {
                self.remap_nested(o, map);
            }
        }
    }
    fn remap_nested<S: BuildHasher>(&mut self, op: Op, map: &HashMap<Value, Value, S>) {
        for i in 0..self.operands(op).len() {
            let v = self.operands(op)[i];
            if let Some(&n) = map.get(&v) {
                if n != v {
                    self.set_operand(op, i, n);
                }
            }
        }
        for r in self.regions_of(op).to_vec() {
            let mut cur = self.regions[r].first;
            while let Some(b) = cur {
                for o in self.block_ops(b) {
                    self.remap_nested(o, map);
                }
                cur = self.blocks[b].next;
            }
        }
    }

    // ----- walks -----

    /// Ops nested in `op` (excluding it), in pre-order. Generic, so that
    /// the visitor is inlined into the walk: passes and the verifier walk
    /// every op of a module several times.
    pub fn walk_nested<F: FnMut(Op) + ?Sized>(&self, op: Op, f: &mut F) {
        for &r in self.regions_of(op) {
            let mut block = self.regions[r].first;
            while let Some(b) = block {
                let mut cur = self.blocks[b].first;
                while let Some(o) = cur {
                    f(o);
                    self.walk_nested(o, f);
                    cur = self.ops[o].next;
                }
                block = self.blocks[b].next;
            }
        }
    }
    /// Ops nested in `op` (excluding it), in post-order.
    pub fn walk_post<F: FnMut(Op) + ?Sized>(&self, op: Op, f: &mut F) {
        for &r in self.regions_of(op) {
            let mut block = self.regions[r].first;
            while let Some(b) = block {
                let mut cur = self.blocks[b].first;
                while let Some(o) = cur {
                    self.walk_post(o, f);
                    f(o);
                    cur = self.ops[o].next;
                }
                block = self.blocks[b].next;
            }
        }
    }
    /// Collects the nested ops satisfying `pred`, pre-order.
    pub fn collect(&self, op: Op, pred: impl Fn(&Context, Op) -> bool) -> Vec<Op> {
        let mut v = Vec::new();
        self.walk_nested(op, &mut |o| {
            if pred(self, o) {
                v.push(o)
            }
        });
        v
    }
}

#[cfg(test)]
mod tests;

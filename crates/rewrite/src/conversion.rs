//! Dialect conversion, as MLIR's `DialectConversion.h`: a
//! [`ConversionTarget`] says which ops are legal, [`ConversionPattern`]s
//! rewrite the illegal ones given their operands already converted, and a
//! [`TypeConverter`] says what each type becomes and how to bridge a value
//! whose users were not converted (`builtin.unrealized_conversion_cast`).
//!
//! Why a second driver beside the greedy one: a conversion changes types.
//! While it runs, an op's operands may already have been replaced by values
//! of the new types while the op itself still expects the old ones, so
//! replacements are *recorded* (old value -> new value) and applied only
//! when every op has been visited, as MLIR does; patterns read their
//! operands through that mapping. The order of visits (pre-order, blocks
//! from the entry along successors, last successor first), fold-first
//! legalization, the recursive legalization of the ops a pattern creates
//! and where the materializations land all follow LLVM 14, because they
//! are visible in the output; where LLVM 13's driver differs (it builds
//! the casts at once, see `State::llvm13`), a conversion whose
//! interfaces name release 13 follows 13.
//!
//! One difference from MLIR: nothing is rolled back. A pattern must either
//! succeed or leave the IR untouched (the contract of every pattern here),
//! and when an op a pattern created cannot be legalized the whole
//! conversion fails with a diagnostic at the op that was being converted,
//! where MLIR would undo the pattern and try the next one. A tool prints
//! nothing of a failed conversion, so the input is never half-converted on
//! screen.

use crate::fold::{constant_of, dialect_of, FoldResult, Folded, OpInterfaces};
use crate::pattern::Benefit;
use crate::rewriter::{NoListener, RewriteError, Rewriter};
use mlir_async_ir::entity::SecondaryMap;
use mlir_async_ir::fxhash::{FxHashMap, FxHashSet};
use mlir_async_ir::{
    Attribute, Block, Context, InsertPoint, Location, Op, OperationState, Region, Symbol, Type,
    Value, ValueDef,
};
use smallvec::SmallVec;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

// ----------------------------------------------------------------------
// Legality

/// A legality callback: is this op, as it stands, legal? It may intern
/// (asking a type converter does).
pub type LegalityFn = Rc<dyn Fn(&mut Context, Op) -> bool>;

/// What the target says about an op name or a dialect (MLIR's
/// `LegalizationAction`).
#[derive(Clone)]
pub enum Legality {
    Legal,
    /// Legal when the callback says so, for each op.
    Dynamic(LegalityFn),
    Illegal,
}

/// Which ops may remain after a conversion (MLIR's `ConversionTarget`).
/// An op's own entry wins over its dialect's; ops known to neither are
/// legal only if [`ConversionTarget::mark_unknown_op_dynamically_legal`]
/// says so.
#[derive(Clone, Default)]
pub struct ConversionTarget {
    ops: FxHashMap<String, Legality>,
    dialects: FxHashMap<String, Legality>,
    unknown: Option<LegalityFn>,
    /// Legal ops whose regions are not looked into.
    recursive: FxHashSet<String>,
}

impl ConversionTarget {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn add_legal_op(&mut self, name: &str) -> &mut Self {
        self.ops.insert(name.to_string(), Legality::Legal);
        self
    }
    pub fn add_illegal_op(&mut self, name: &str) -> &mut Self {
        self.ops.insert(name.to_string(), Legality::Illegal);
        self
    }
    pub fn add_dynamically_legal_op(
        &mut self,
        name: &str,
        f: impl Fn(&mut Context, Op) -> bool + 'static,
    ) -> &mut Self {
        self.ops
            .insert(name.to_string(), Legality::Dynamic(Rc::new(f)));
        self
    }
    pub fn add_legal_dialect(&mut self, name: &str) -> &mut Self {
        self.dialects.insert(name.to_string(), Legality::Legal);
        self
    }
    pub fn add_illegal_dialect(&mut self, name: &str) -> &mut Self {
        self.dialects.insert(name.to_string(), Legality::Illegal);
        self
    }
    pub fn add_dynamically_legal_dialect(
        &mut self,
        name: &str,
        f: impl Fn(&mut Context, Op) -> bool + 'static,
    ) -> &mut Self {
        self.dialects
            .insert(name.to_string(), Legality::Dynamic(Rc::new(f)));
        self
    }
    pub fn mark_unknown_op_dynamically_legal(
        &mut self,
        f: impl Fn(&mut Context, Op) -> bool + 'static,
    ) -> &mut Self {
        self.unknown = Some(Rc::new(f));
        self
    }
    /// A legal op whose nested ops are legal too, whatever they are.
    pub fn mark_op_recursively_legal(&mut self, name: &str) -> &mut Self {
        self.recursive.insert(name.to_string());
        self
    }

    /// What the target says about `op`'s name: its own entry, else its
    /// dialect's, else the unknown-op callback.
    fn action(&self, ctx: &Context, op: Op) -> Option<Legality> {
        let name = ctx.name(op);
        if let Some(l) = self.ops.get(name) {
            return Some(l.clone());
        }
        if let Some(l) = self.dialects.get(dialect_of(ctx, op)) {
            return Some(l.clone());
        }
        self.unknown.clone().map(Legality::Dynamic)
    }

    /// `None` if `op` is not legal; else whether it is recursively legal.
    pub fn is_legal(&self, ctx: &mut Context, op: Op) -> Option<bool> {
        let legal = match self.action(ctx, op)? {
            Legality::Legal => true,
            Legality::Dynamic(f) => f(ctx, op),
            Legality::Illegal => false,
        };
        legal.then(|| self.recursive.contains(ctx.name(op)))
    }

    /// Was `op` explicitly marked illegal (by name or dialect)?
    pub fn is_illegal(&self, ctx: &Context, op: Op) -> bool {
        matches!(self.action(ctx, op), Some(Legality::Illegal))
    }
}

// ----------------------------------------------------------------------
// Types

/// What one conversion callback says about a type (MLIR's
/// `Optional<LogicalResult>` with the results vector).
#[derive(Clone, Debug, PartialEq)]
pub enum TypeConversion {
    /// This callback does not handle the type: ask the next one.
    Next,
    /// The type cannot be converted (stop asking).
    Fail,
    /// The type becomes these types (none: the value is dropped).
    To(Vec<Type>),
}

type ConvertFn = Box<dyn Fn(&TypeConverter, &mut Context, Type) -> TypeConversion>;
/// Builds a value of `Type` from `&[Value]` at the rewriter's insertion
/// point; `None` if this callback cannot.
pub type MaterializeFn = Box<dyn Fn(&mut Rewriter, Type, &[Value], Location) -> Option<Value>>;

/// What types become, and how to bridge old and new types where both
/// must coexist (MLIR's `TypeConverter`). Callbacks are tried most recent
/// first; results are cached per type.
#[derive(Default)]
pub struct TypeConverter {
    conversions: Vec<ConvertFn>,
    source: Vec<MaterializeFn>,
    target: Vec<MaterializeFn>,
    argument: Vec<MaterializeFn>,
    cache: RefCell<FxHashMap<Type, Option<Vec<Type>>>>,
}

/// How a block's (or a function's) arguments map to the converted ones.
#[derive(Clone, Debug, Default)]
pub struct SignatureConversion {
    /// Per original argument: where its replacement starts and how many
    /// new arguments it became, or a value replacing it outright.
    inputs: Vec<Option<InputMapping>>,
    types: Vec<Type>,
}

#[derive(Clone, Copy, Debug)]
struct InputMapping {
    first: usize,
    size: usize,
    replacement: Option<Value>,
}

impl SignatureConversion {
    pub fn new(num_inputs: usize) -> Self {
        SignatureConversion {
            inputs: vec![None; num_inputs],
            types: vec![],
        }
    }
    /// Original argument `i` becomes `types` (appended to the signature).
    pub fn add_inputs(&mut self, i: usize, types: &[Type]) {
        self.inputs[i] = Some(InputMapping {
            first: self.types.len(),
            size: types.len(),
            replacement: None,
        });
        self.types.extend_from_slice(types);
    }
    /// Original argument `i` is dropped; its uses take `v`.
    pub fn remap_input(&mut self, i: usize, v: Value) {
        self.inputs[i] = Some(InputMapping {
            first: i,
            size: 0,
            replacement: Some(v),
        });
    }
    /// The converted argument types.
    pub fn converted_types(&self) -> &[Type] {
        &self.types
    }
}

impl TypeConverter {
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a conversion callback; it is tried before those added earlier.
    pub fn add_conversion(
        &mut self,
        f: impl Fn(&TypeConverter, &mut Context, Type) -> TypeConversion + 'static,
    ) -> &mut Self {
        self.conversions.push(Box::new(f));
        self.cache.borrow_mut().clear();
        self
    }
    /// Bridges a converted value back to its original type for users that
    /// were not converted.
    pub fn add_source_materialization(
        &mut self,
        f: impl Fn(&mut Rewriter, Type, &[Value], Location) -> Option<Value> + 'static,
    ) -> &mut Self {
        self.source.push(Box::new(f));
        self
    }
    /// Bridges an unconverted value to the converted type a pattern needs.
    pub fn add_target_materialization(
        &mut self,
        f: impl Fn(&mut Rewriter, Type, &[Value], Location) -> Option<Value> + 'static,
    ) -> &mut Self {
        self.target.push(Box::new(f));
        self
    }
    /// Rebuilds an original block argument from its converted ones.
    pub fn add_argument_materialization(
        &mut self,
        f: impl Fn(&mut Rewriter, Type, &[Value], Location) -> Option<Value> + 'static,
    ) -> &mut Self {
        self.argument.push(Box::new(f));
        self
    }
    /// All three materializations as one `builtin.unrealized_conversion_cast`
    /// of a single value.
    pub fn add_cast_materializations(&mut self) -> &mut Self {
        self.add_source_and_target_casts();
        self.add_argument_materialization(cast_one);
        self
    }
    /// Source and target materializations as one
    /// `builtin.unrealized_conversion_cast` of a single value, as the LLVM
    /// type converter registers them.
    pub fn add_source_and_target_casts(&mut self) -> &mut Self {
        self.add_source_materialization(cast_one);
        self.add_target_materialization(cast_one);
        self
    }

    /// The types `t` becomes, or `None` if it cannot be converted.
    pub fn convert_type_to_many(&self, ctx: &mut Context, t: Type) -> Option<Vec<Type>> {
        if let Some(hit) = self.cache.borrow().get(&t) {
            return hit.clone();
        }
        let mut result = None;
        for f in self.conversions.iter().rev() {
            match f(self, ctx, t) {
                TypeConversion::Next => continue,
                TypeConversion::Fail => break,
                TypeConversion::To(v) => {
                    result = Some(v);
                    break;
                }
            }
        }
        self.cache.borrow_mut().insert(t, result.clone());
        result
    }
    /// `None` if `t` cannot be converted; else the one type it becomes,
    /// or `None` if it becomes none or several. As
    /// [`TypeConverter::convert_type_to_many`], without copying the list
    /// out of the cache: asked of every operand of every op a pattern is
    /// tried on.
    pub fn convert_type_to_one(&self, ctx: &mut Context, t: Type) -> Option<Option<Type>> {
        if let Some(hit) = self.cache.borrow().get(&t) {
            return hit.as_ref().map(|l| one_of(l));
        }
        self.convert_type_to_many(ctx, t).map(|l| one_of(&l))
    }
    /// The one type `t` becomes; `None` if it cannot be converted or
    /// becomes several.
    pub fn convert_type(&self, ctx: &mut Context, t: Type) -> Option<Type> {
        match self.convert_type_to_many(ctx, t)?.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }
    /// Converts each of `types`, flattened; `None` if one cannot be.
    pub fn convert_types(&self, ctx: &mut Context, types: &[Type]) -> Option<Vec<Type>> {
        let mut out = Vec::with_capacity(types.len());
        for &t in types {
            out.extend(self.convert_type_to_many(ctx, t)?);
        }
        Some(out)
    }
    /// A type is legal when it converts to itself.
    pub fn is_legal(&self, ctx: &mut Context, t: Type) -> bool {
        self.convert_type(ctx, t) == Some(t)
    }
    /// Are all operand and result types of `op` legal?
    pub fn is_legal_op(&self, ctx: &mut Context, op: Op) -> bool {
        let types: Vec<Type> = ctx
            .operands(op)
            .iter()
            .chain(ctx.results(op))
            .map(|&v| ctx.value_type(v))
            .collect();
        types.into_iter().all(|t| self.is_legal(ctx, t))
    }
    /// Is a function type legal: inputs and results?
    pub fn is_signature_legal(&self, ctx: &mut Context, inputs: &[Type], results: &[Type]) -> bool {
        inputs.iter().chain(results).all(|&t| self.is_legal(ctx, t))
    }
    /// The conversion of `types` as a function's or block's arguments.
    pub fn convert_signature_args(
        &self,
        ctx: &mut Context,
        types: &[Type],
    ) -> Option<SignatureConversion> {
        let mut sig = SignatureConversion::new(types.len());
        for (i, &t) in types.iter().enumerate() {
            let to = self.convert_type_to_many(ctx, t)?;
            if !to.is_empty() {
                sig.add_inputs(i, &to);
            }
        }
        Some(sig)
    }
    /// The conversion of `b`'s argument types.
    pub fn convert_block_signature(
        &self,
        ctx: &mut Context,
        b: Block,
    ) -> Option<SignatureConversion> {
        let types: Vec<Type> = ctx
            .block_args(b)
            .iter()
            .map(|&v| ctx.value_type(v))
            .collect();
        self.convert_signature_args(ctx, &types)
    }

    fn materialize(
        list: &[MaterializeFn],
        rw: &mut Rewriter,
        ty: Type,
        inputs: &[Value],
        loc: Location,
    ) -> Option<Value> {
        list.iter().rev().find_map(|f| f(rw, ty, inputs, loc))
    }
}

/// The single type of a conversion's list, if it has one.
fn one_of(list: &[Type]) -> Option<Type> {
    match list {
        [one] => Some(*one),
        _ => None,
    }
}

/// A cast of one value at the rewriter's insertion point.
fn cast_one(rw: &mut Rewriter, ty: Type, inputs: &[Value], loc: Location) -> Option<Value> {
    if inputs.len() != 1 {
        return None;
    }
    build_cast(rw.ctx, rw.insertion_point()?, loc, inputs, ty).ok()
}

/// Builds `builtin.unrealized_conversion_cast inputs : ... to ty` at `ip`.
pub fn build_cast(
    ctx: &mut Context,
    ip: InsertPoint,
    loc: Location,
    inputs: &[Value],
    ty: Type,
) -> Result<Value, RewriteError> {
    let name = ctx.sym(UNREALIZED_CAST);
    let op = ctx.create_op_from(name, loc, inputs, &[ty], &[], &[], &[]);
    ctx.insert_op(ip, op);
    Ok(ctx.result(op, 0))
}

/// The op that stands for a conversion not yet resolved.
pub const UNREALIZED_CAST: &str = "builtin.unrealized_conversion_cast";

// ----------------------------------------------------------------------
// Patterns

/// A rewrite of one illegal op, given its operands as already converted
/// (MLIR's `ConversionPattern` with its adaptor).
pub trait ConversionPattern {
    /// The op name this pattern converts; `None` for any op.
    fn root(&self) -> Option<&str>;
    fn benefit(&self) -> Benefit {
        1
    }
    fn name(&self) -> &str;
    /// Converts `op`, whose operands are `operands` after conversion.
    /// `Ok(false)`: does not apply, and nothing changed.
    fn match_and_rewrite(
        &self,
        op: Op,
        operands: &[Value],
        rw: &mut ConversionRewriter,
    ) -> Result<bool, RewriteError>;
    /// A cheap test of `op` as it stands, asked before its operands are
    /// remapped and a rewriter is set up for
    /// [`ConversionPattern::match_and_rewrite`] (which may still decline).
    /// Patterns sharing a root (the token and value awaits) say here which
    /// ops are theirs, so that the others are not tried on them at the
    /// cost of a full attempt each.
    fn matches(&self, _ctx: &Context, _op: Op) -> bool {
        true
    }
    /// May this pattern apply to an op it created itself (recursively)?
    fn has_bounded_rewrite_recursion(&self) -> bool {
        false
    }
    /// The type converter this pattern converts operands with, if not the
    /// conversion's (MLIR gives each pattern its own).
    fn type_converter(&self) -> Option<Conv> {
        None
    }
}

/// A type converter as patterns and the driver share it.
pub type Conv = Rc<TypeConverter>;

/// The signature of a conversion pattern written as a plain function.
pub type ConversionFn = fn(Op, &[Value], &mut ConversionRewriter) -> Result<bool, RewriteError>;

/// A conversion pattern that is a function.
pub struct FnConversionPattern {
    pub root: Option<&'static str>,
    pub name: &'static str,
    pub benefit: Benefit,
    pub f: ConversionFn,
    pub converter: Option<Conv>,
}

impl FnConversionPattern {
    pub const fn new(root: &'static str, name: &'static str, f: ConversionFn) -> Self {
        FnConversionPattern {
            root: Some(root),
            name,
            benefit: 1,
            f,
            converter: None,
        }
    }
}

impl ConversionPattern for FnConversionPattern {
    fn root(&self) -> Option<&str> {
        self.root
    }
    fn benefit(&self) -> Benefit {
        self.benefit
    }
    fn name(&self) -> &str {
        self.name
    }
    fn match_and_rewrite(
        &self,
        op: Op,
        operands: &[Value],
        rw: &mut ConversionRewriter,
    ) -> Result<bool, RewriteError> {
        (self.f)(op, operands, rw)
    }
    fn type_converter(&self) -> Option<Conv> {
        self.converter.clone()
    }
}

/// Conversion patterns, tried by benefit, then in the order added.
#[derive(Default)]
pub struct ConversionPatternSet {
    patterns: Vec<Box<dyn ConversionPattern>>,
}

impl ConversionPatternSet {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn add(&mut self, p: impl ConversionPattern + 'static) -> &mut Self {
        self.patterns.push(Box::new(p));
        self
    }
    pub fn add_fn(&mut self, root: &'static str, name: &'static str, f: ConversionFn) -> &mut Self {
        self.add(FnConversionPattern::new(root, name, f))
    }
    /// A function pattern converting its operands with `conv`.
    pub fn add_fn_with(
        &mut self,
        root: &'static str,
        name: &'static str,
        f: ConversionFn,
        conv: &Conv,
    ) -> &mut Self {
        self.add(FnConversionPattern {
            converter: Some(conv.clone()),
            ..FnConversionPattern::new(root, name, f)
        })
    }
    pub fn len(&self) -> usize {
        self.patterns.len()
    }
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }
    /// Pattern indices per root symbol, best first.
    fn index(&self, ctx: &mut Context) -> (FxHashMap<Symbol, Vec<usize>>, Vec<usize>) {
        let mut by_root: FxHashMap<Symbol, Vec<usize>> = FxHashMap::default();
        let mut any = vec![];
        for (i, p) in self.patterns.iter().enumerate() {
            match p.root() {
                Some(name) => by_root.entry(ctx.sym(name)).or_default().push(i),
                None => any.push(i),
            }
        }
        let key = |i: &usize| std::cmp::Reverse(self.patterns[*i].benefit());
        for list in by_root.values_mut() {
            list.sort_by_key(key);
        }
        any.sort_by_key(key);
        (by_root, any)
    }
}

// ----------------------------------------------------------------------
// The rewriter patterns see

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum MaterializationKind {
    Argument,
    Target,
}

struct Unresolved {
    op: Op,
    kind: MaterializationKind,
    converter: Option<Conv>,
    /// For an argument materialization, the type of the argument it
    /// stands for (MLIR hands that, not the cast's type, to the hook).
    orig_ty: Option<Type>,
}

/// A block whose arguments were converted: the original (detached) block
/// and, per original argument, the value standing for it.
struct ConvertedBlock {
    orig: Block,
    new: Block,
    args: Vec<Option<Value>>,
    converter: Option<Conv>,
}

/// Old value -> the value replacing it, as a dense table: the driver
/// reads it for every operand it remaps and every result it replaces,
/// where hashing cost more than the rest of the lookup.
#[derive(Default)]
struct ValueMapping {
    map: SecondaryMap<Value, Option<Value>>,
}

impl ValueMapping {
    fn get(&self, v: &Value) -> Option<&Value> {
        self.map.get(*v).as_ref()
    }
    fn insert(&mut self, from: Value, to: Value) {
        self.map.set(from, Some(to));
    }
    /// Every (old, new) pair, by old value's handle.
    fn iter(&self) -> impl Iterator<Item = (Value, Value)> + '_ {
        self.map.iter().filter_map(|(k, v)| v.map(|v| (k, v)))
    }
}

/// [`State::flags`]: the op was replaced or erased.
const REPLACED: u8 = 1;
/// [`State::flags`]: the ops nested in this one need no conversion.
const IGNORED: u8 = 2;
/// [`State::flags`]: one of the casts the conversion inserted.
const MATERIALIZATION: u8 = 4;

/// Everything recorded while converting, applied at the end.
#[derive(Default)]
struct State {
    /// Old value -> the value replacing it (chains are followed).
    mapping: ValueMapping,
    /// Replaced ops in order, each with whether a result changed type or
    /// was dropped.
    replacements: Vec<Op>,
    /// The converter of the pattern that made each replacement.
    replacement_converters: Vec<Option<Conv>>,
    changed_results: Vec<usize>,
    /// Per op: replaced, ignored (its nested ops need no conversion: it
    /// was replaced or is recursively legal), or one of the conversion's
    /// own casts. A dense table: the driver asks it of nearly every op it
    /// visits and creates, where hash sets cost more than the rest of the
    /// check.
    flags: SecondaryMap<Op, u8>,
    unresolved: Vec<Unresolved>,
    converted_blocks: Vec<ConvertedBlock>,
    block_converted: FxHashSet<Block>,
    arg_replacements: Vec<Value>,
    /// Ops updated in place by the pattern being applied.
    root_updates: Vec<Op>,
    /// LLVM 13's driver: a pattern's operand of the wrong type gets the
    /// type converter's target materialization at once, right before the
    /// op, one per use, an op the pattern made (legalized with its others)
    /// and never revisited; a block argument gets its argument
    /// materialization at the block's start, or the new argument itself;
    /// at the end, results and dropped arguments still used get a source
    /// materialization (legalized too), and uses move to the last value in
    /// the mapping whatever its type. Later releases record casts and
    /// resolve them at the end.
    llvm13: bool,
    /// Casts built for the operands of the pattern being tried (LLVM 13):
    /// erased again when it does not apply.
    remap_casts: Vec<Op>,
}

impl State {
    fn lookup_or_default(&self, mut from: Value, desired: Option<Type>, ctx: &Context) -> Value {
        let Some(desired) = desired else {
            while let Some(&m) = self.mapping.get(&from) {
                from = m;
            }
            return from;
        };
        let mut found = None;
        loop {
            if ctx.value_type(from) == desired {
                found = Some(from);
            }
            match self.mapping.get(&from) {
                Some(&m) => from = m,
                None => break,
            }
        }
        found.unwrap_or(from)
    }
    fn lookup_or_null(&self, from: Value, desired: Option<Type>, ctx: &Context) -> Option<Value> {
        let r = self.lookup_or_default(from, desired, ctx);
        if r == from || desired.is_some_and(|d| ctx.value_type(r) != d) {
            None
        } else {
            Some(r)
        }
    }
    fn is_replaced(&self, op: Op) -> bool {
        self.flags[op] & REPLACED != 0
    }
    fn is_materialization(&self, op: Op) -> bool {
        self.flags[op] & MATERIALIZATION != 0
    }
    fn mark(&mut self, op: Op, flag: u8) {
        *self.flags.get_mut(op) |= flag;
    }
    fn is_ignored(&self, ctx: &Context, op: Op) -> bool {
        self.is_replaced(op)
            || ctx
                .parent_op(op)
                .is_some_and(|p| self.flags[p] & IGNORED != 0)
    }
    fn mark_nested_ignored(&mut self, ctx: &Context, op: Op) {
        if ctx.regions_of(op).is_empty() {
            return;
        }
        let mut mark = |o: Op| {
            if ctx.regions_of(o).iter().any(|&r| !ctx.region_is_empty(r)) {
                self.mark(o, IGNORED);
            }
        };
        mark(op);
        ctx.walk_nested(op, &mut mark);
    }
}

/// The rewriter a [`ConversionPattern`] works with: ops are created at
/// once, but replacing and erasing are recorded and applied when the
/// conversion ends, so operands of ops not converted yet stay valid.
pub struct ConversionRewriter<'a> {
    rw: Rewriter<'a>,
    state: &'a mut State,
    converter: Option<Conv>,
}

impl<'a> ConversionRewriter<'a> {
    pub fn ctx(&mut self) -> &mut Context {
        self.rw.ctx
    }
    pub fn ctx_ref(&self) -> &Context {
        self.rw.ctx
    }
    /// The conversion's type converter, if it has one.
    pub fn type_converter(&self) -> Option<Conv> {
        self.converter.clone()
    }
    /// Converts `t` with the conversion's type converter (identity
    /// without one).
    pub fn convert_type(&mut self, t: Type) -> Option<Type> {
        match &self.converter {
            Some(c) => c.convert_type(self.rw.ctx, t),
            None => Some(t),
        }
    }
    pub fn set_insertion_point(&mut self, op: Op) {
        self.rw.set_insertion_point(op)
    }
    pub fn set_insertion_point_after(&mut self, op: Op) {
        self.rw.set_insertion_point_after(op)
    }
    pub fn set_insertion_point_to_start(&mut self, b: Block) {
        self.rw.set_insertion_point_to_start(b)
    }
    pub fn set_insertion_point_to_end(&mut self, b: Block) {
        self.rw.set_insertion_point_to_end(b)
    }
    pub fn insertion_point(&self) -> Option<InsertPoint> {
        self.rw.insertion_point()
    }
    pub fn restore_insertion_point(&mut self, ip: Option<InsertPoint>) {
        self.rw.restore_insertion_point(ip)
    }
    pub fn create(&mut self, state: OperationState) -> Result<Op, RewriteError> {
        self.rw.create(state)
    }
    /// Creates a terminator from its parts at the insertion point.
    pub fn create_branch(
        &mut self,
        name: Symbol,
        loc: Location,
        operands: &[Value],
        attrs: &[(Symbol, Attribute)],
        successors: &[Block],
    ) -> Result<Op, RewriteError> {
        self.rw
            .create_branch(name, loc, operands, attrs, successors)
    }
    /// Inserts an op created detached (with `Context::create_op_from`) at
    /// the insertion point: an op with a region built before it.
    pub fn insert(&mut self, op: Op) -> Result<Op, RewriteError> {
        self.rw.insert(op)
    }
    pub fn create_op(
        &mut self,
        name: Symbol,
        loc: Location,
        operands: &[Value],
        result_types: &[Type],
        attrs: &[(Symbol, Attribute)],
    ) -> Result<Op, RewriteError> {
        self.rw.create_op(name, loc, operands, result_types, attrs)
    }
    pub fn clone_op(
        &mut self,
        op: Op,
        map: &mut HashMap<Value, Value>,
    ) -> Result<Op, RewriteError> {
        self.rw.clone_op(op, map)
    }
    pub fn create_block(
        &mut self,
        region: Region,
        before: Option<Block>,
        arg_types: &[Type],
    ) -> Block {
        self.rw.create_block(region, before, arg_types)
    }
    pub fn split_block(&mut self, b: Block, op: Op) -> Block {
        self.rw.split_block(b, op)
    }
    pub fn inline_region_before(&mut self, src: Region, before: Block) {
        self.rw.inline_region_before(src, before)
    }
    /// Moves the blocks of `src` to the end of `dst`.
    pub fn inline_region_at_end(&mut self, src: Region, dst: Region) {
        self.rw.ctx.take_body(dst, src)
    }

    /// Records that `op`'s results become `with` (one per result; `None`
    /// drops a result, which must then be unused at the end).
    pub fn replace_op_with(&mut self, op: Op, with: &[Option<Value>]) -> Result<(), RewriteError> {
        self.record_replacement(op, with.iter().copied())
    }
    /// Records that `op`'s results become `with`.
    pub fn replace_op(&mut self, op: Op, with: &[Value]) -> Result<(), RewriteError> {
        self.record_replacement(op, with.iter().copied().map(Some))
    }
    /// [`ConversionRewriter::replace_op_with`] from an iterator: replacing
    /// and erasing, done for nearly every op a conversion rewrites, build
    /// no list.
    fn record_replacement(
        &mut self,
        op: Op,
        with: impl ExactSizeIterator<Item = Option<Value>>,
    ) -> Result<(), RewriteError> {
        let ctx = &*self.rw.ctx;
        let n = ctx.results(op).len();
        if with.len() != n {
            return Err(RewriteError::ResultCount {
                op,
                expected: n,
                found: with.len(),
            });
        }
        let mut changed = false;
        for (i, w) in with.enumerate() {
            let r = ctx.result(op, i);
            match w {
                Some(v) => {
                    changed |= ctx.value_type(v) != ctx.value_type(r);
                    self.state.mapping.insert(r, v);
                }
                None => changed = true,
            }
        }
        if changed {
            self.state
                .changed_results
                .push(self.state.replacements.len());
        }
        self.state.replacements.push(op);
        self.state
            .replacement_converters
            .push(self.converter.clone());
        self.state.mark(op, REPLACED);
        self.state.mark_nested_ignored(ctx, op);
        Ok(())
    }
    /// Creates `state` before `op` and records `op` replaced by its results.
    pub fn replace_op_with_new(
        &mut self,
        op: Op,
        state: OperationState,
    ) -> Result<Op, RewriteError> {
        self.rw.set_insertion_point(op);
        let new = self.rw.create(state)?;
        let vals = self.rw.ctx.results(new).to_vec();
        self.replace_op(op, &vals)?;
        Ok(new)
    }
    /// Records `op` erased (its results must be unused at the end).
    pub fn erase_op(&mut self, op: Op) -> Result<(), RewriteError> {
        let n = self.rw.ctx.results(op).len();
        self.record_replacement(op, std::iter::repeat_n(None, n))
    }
    /// Changes `op` in place; the driver checks it is legal afterwards.
    pub fn update_root_in_place<R>(&mut self, op: Op, f: impl FnOnce(&mut Context) -> R) -> R {
        let r = f(self.rw.ctx);
        self.state.root_updates.push(op);
        r
    }

    /// The value standing for `v` now.
    pub fn lookup(&self, v: Value) -> Value {
        self.state.lookup_or_default(v, None, self.rw.ctx)
    }

    /// Converts the argument types of every block of `region`: the entry
    /// block as `entry` says (or by the converter), the others by the
    /// converter. Returns the new entry block.
    pub fn convert_region_types(
        &mut self,
        region: Region,
        entry: Option<&SignatureConversion>,
    ) -> Result<Option<Block>, RewriteError> {
        let blocks = self.rw.ctx.region_blocks(region).to_vec();
        let Some((&first, rest)) = blocks.split_first() else {
            return Ok(None);
        };
        for &b in rest {
            self.convert_block_signature(b, None)?;
        }
        self.convert_block_signature(first, entry).map(Some)
    }
    /// Converts the argument types of `b`, a block some branch leads to,
    /// when its parent op did not (an already legal `llvm.func` holding
    /// `index` block arguments): later MLIR's `getConvertedBlock`. A block
    /// whose types are legal, or already converted, is returned as it is.
    pub fn convert_successor_types(&mut self, b: Block) -> Result<Block, RewriteError> {
        let Some(conv) = self.converter.clone() else {
            return Ok(b);
        };
        let ctx = &mut *self.rw.ctx;
        let is_entry = ctx
            .parent_region(b)
            .is_some_and(|r| ctx.entry_block(r) == Some(b));
        if is_entry || self.state.block_converted.contains(&b) {
            return Ok(b);
        }
        let types: Vec<_> = ctx
            .block_args(b)
            .iter()
            .map(|&a| ctx.value_type(a))
            .collect();
        if types.iter().all(|&t| conv.is_legal(ctx, t)) {
            return Ok(b);
        }
        self.convert_block_signature(b, None)
    }
    /// Applies `conversion` to the entry block of `region`.
    pub fn apply_signature_conversion(
        &mut self,
        region: Region,
        conversion: &SignatureConversion,
    ) -> Result<Option<Block>, RewriteError> {
        match self.rw.ctx.entry_block(region) {
            Some(b) => self.convert_block_signature(b, Some(conversion)).map(Some),
            None => Ok(None),
        }
    }

    fn convert_block_signature(
        &mut self,
        b: Block,
        conversion: Option<&SignatureConversion>,
    ) -> Result<Block, RewriteError> {
        if self.state.block_converted.contains(&b) || self.rw.ctx.parent_region(b).is_none() {
            return Ok(b);
        }
        let owned;
        let conversion = match conversion {
            Some(c) => c,
            None => {
                let loc = self
                    .rw
                    .ctx
                    .first_op(b)
                    .map(|o| self.rw.ctx.op_loc(o))
                    .unwrap_or_else(|| self.rw.ctx.unknown_loc());
                let Some(conv) = self.converter.clone() else {
                    return Err(RewriteError::at(
                        loc,
                        "no type converter for the block's arguments",
                    ));
                };
                owned = conv
                    .convert_block_signature(self.rw.ctx, b)
                    .ok_or_else(|| {
                        RewriteError::at(loc, "failed to convert the block's argument types")
                    })?;
                &owned
            }
        };
        let orig_args = self.rw.ctx.block_args(b).to_vec();
        if orig_args.is_empty() && conversion.types.is_empty() {
            return Ok(b);
        }
        let ctx = &mut *self.rw.ctx;
        // The ops move to a new block in the old one's place; the old one,
        // keeping the old arguments, leaves the region until the end.
        let new = match ctx.first_op(b) {
            Some(first) => ctx.split_block(b, first),
            None => {
                let nb = ctx.create_block(&[]);
                ctx.insert_block_after(b, nb);
                nb
            }
        };
        for pred in ctx.pred_ops(b).to_vec() {
            for (i, &s) in ctx.successors(pred).to_vec().iter().enumerate() {
                if s == b {
                    ctx.set_successor(pred, i, new);
                }
            }
        }
        let unknown = ctx.unknown_loc();
        let new_args: Vec<Value> = conversion
            .types
            .iter()
            .map(|&t| {
                let a = ctx.add_block_arg(new, t);
                ctx.set_value_loc(a, unknown);
                a
            })
            .collect();
        ctx.detach_block(b);
        let mut info = ConvertedBlock {
            orig: b,
            new,
            args: vec![None; orig_args.len()],
            converter: self.converter.clone(),
        };
        let start = match ctx.first_op(new) {
            Some(o) => InsertPoint::Before(o),
            None => InsertPoint::AtEnd(new),
        };
        for (i, &orig) in orig_args.iter().enumerate() {
            let Some(m) = conversion.inputs[i] else {
                continue;
            };
            if let Some(r) = m.replacement {
                self.state.mapping.insert(orig, r);
                self.state.arg_replacements.push(orig);
                continue;
            }
            let repl = &new_args[m.first..m.first + m.size];
            let orig_ty = self.rw.ctx.value_type(orig);
            let new_arg = if repl.len() == 1
                && (self.converter.is_none() || self.rw.ctx.value_type(repl[0]) == orig_ty)
            {
                repl[0]
            } else if self.state.llvm13 {
                // Built at once; a 1->1 conversion without one keeps the
                // new argument itself.
                let loc = self.rw.ctx.value_loc(orig);
                let saved = self.rw.insertion_point();
                let made = self.converter.clone().and_then(|c| {
                    self.rw.restore_insertion_point(Some(start));
                    TypeConverter::materialize(&c.argument, &mut self.rw, orig_ty, repl, loc)
                });
                self.rw.restore_insertion_point(saved);
                match (made, repl) {
                    (Some(v), _) => v,
                    (None, [one]) => *one,
                    (None, _) => {
                        return Err(RewriteError::at(
                            loc,
                            "couldn't materialize the result of 1->N conversion",
                        ))
                    }
                }
            } else {
                let ctx = &mut *self.rw.ctx;
                let out_ty = self
                    .converter
                    .as_ref()
                    .and_then(|c| c.convert_type(ctx, orig_ty))
                    .unwrap_or(orig_ty);
                if repl.len() == 1 && ctx.value_type(repl[0]) == out_ty {
                    repl[0]
                } else {
                    let loc = ctx.value_loc(orig);
                    let v = build_cast(ctx, start, loc, repl, out_ty)?;
                    let op = ctx.defining_op(v).expect("a cast defines its result");
                    self.state.unresolved.push(Unresolved {
                        op,
                        kind: MaterializationKind::Argument,
                        converter: self.converter.clone(),
                        orig_ty: Some(orig_ty),
                    });
                    self.state.mark(op, MATERIALIZATION);
                    v
                }
            };
            self.state.mapping.insert(orig, new_arg);
            self.state.arg_replacements.push(orig);
            info.args[i] = Some(new_arg);
        }
        self.state.block_converted.insert(new);
        self.state.block_converted.insert(b);
        self.state.converted_blocks.push(info);
        Ok(new)
    }

    /// The operands of `op` as the pattern should see them: replaced values
    /// followed, and bridged to the converted type where they do not have
    /// it yet.
    /// Appends them to `out`; `Ok(false)` if an operand's type cannot be
    /// converted.
    fn remap_operands(&mut self, op: Op, out: &mut Vec<Value>) -> Result<bool, RewriteError> {
        for i in 0..self.rw.ctx.operands(op).len() {
            let v = self.rw.ctx.operand(op, i);
            let orig_ty = self.rw.ctx.value_type(v);
            let desired = match &self.converter {
                Some(c) => match c.convert_type_to_one(self.rw.ctx, orig_ty) {
                    None => return Ok(false),
                    Some(one) => one,
                },
                None => None,
            };
            let mut new = self.state.lookup_or_default(v, desired, self.rw.ctx);
            if let Some(d) = desired {
                if self.rw.ctx.value_type(new) != d && self.state.llvm13 {
                    let conv = self
                        .converter
                        .clone()
                        .expect("a desired type has a converter");
                    let loc = self.rw.ctx.op_loc(op);
                    self.rw.set_insertion_point(op);
                    let Some(cast) =
                        TypeConverter::materialize(&conv.target, &mut self.rw, d, &[new], loc)
                    else {
                        self.discard_remap_casts();
                        return Ok(false);
                    };
                    if let Some(c) = self.rw.ctx.defining_op(cast) {
                        self.state.remap_casts.push(c);
                    }
                    out.push(cast);
                    continue;
                }
                if self.rw.ctx.value_type(new) != d {
                    let ctx = &mut *self.rw.ctx;
                    let ip = match ctx.value_def(new) {
                        ValueDef::Result(o, _) => ctx.after(o),
                        ValueDef::BlockArg(b, _) => match ctx.first_op(b) {
                            Some(f) => InsertPoint::Before(f),
                            None => InsertPoint::AtEnd(b),
                        },
                    };
                    let loc = ctx.op_loc(op);
                    let cast = build_cast(ctx, ip, loc, &[new], d)?;
                    let cop = ctx.defining_op(cast).expect("a cast defines its result");
                    self.state.unresolved.push(Unresolved {
                        op: cop,
                        kind: MaterializationKind::Target,
                        converter: self.converter.clone(),
                        orig_ty: None,
                    });
                    self.state.mark(cop, MATERIALIZATION);
                    let leaf = self.state.lookup_or_default(new, None, ctx);
                    self.state.mapping.insert(leaf, cast);
                    new = cast;
                }
            }
            out.push(new);
        }
        Ok(true)
    }

    /// Erases the casts built for a pattern that then did not apply (LLVM
    /// 13 rolls them back).
    fn discard_remap_casts(&mut self) {
        for c in std::mem::take(&mut self.state.remap_casts)
            .into_iter()
            .rev()
        {
            let _ = self.rw.ctx.erase_op(c);
        }
    }
}

// ----------------------------------------------------------------------
// The driver

/// Whether every op must end legal, or only those marked illegal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ConversionMode {
    /// MLIR's `applyPartialConversion`: ops that cannot be legalized stay,
    /// unless the target marks them illegal.
    Partial,
    /// MLIR's `applyFullConversion`: every op must end legal.
    Full,
}

/// Converts `root` and everything nested in it.
pub fn apply_partial_conversion(
    ctx: &mut Context,
    root: Op,
    target: &ConversionTarget,
    patterns: &ConversionPatternSet,
    converter: Option<Conv>,
    interfaces: &dyn OpInterfaces,
) -> Result<(), RewriteError> {
    apply_conversion(
        ctx,
        root,
        target,
        patterns,
        converter,
        interfaces,
        ConversionMode::Partial,
    )
}

/// Converts `root` and everything nested in it; every op must end legal.
pub fn apply_full_conversion(
    ctx: &mut Context,
    root: Op,
    target: &ConversionTarget,
    patterns: &ConversionPatternSet,
    converter: Option<Conv>,
    interfaces: &dyn OpInterfaces,
) -> Result<(), RewriteError> {
    apply_conversion(
        ctx,
        root,
        target,
        patterns,
        converter,
        interfaces,
        ConversionMode::Full,
    )
}

struct Legalizer<'p> {
    target: &'p ConversionTarget,
    legality: LegalityCache,
    patterns: &'p ConversionPatternSet,
    by_root: FxHashMap<Symbol, Vec<usize>>,
    any: Vec<usize>,
    interfaces: &'p dyn OpInterfaces,
    converter: Option<Conv>,
    /// Patterns being applied further up the recursion.
    active: Vec<usize>,
    /// See [`ConversionConfig::keep_open_created_ops`].
    keep_open_created_ops: bool,
    /// The constant operands of the op being folded, reused: asked of
    /// every op the target leaves open.
    scratch_consts: Vec<Option<Attribute>>,
    /// The pattern lists of [`NameFacts::patterns`] (kept per name in the
    /// legality cache), one after another.
    candidates: Vec<usize>,
    /// Scratch lists for the remapped operands of the op being converted,
    /// one per level of recursion.
    operand_bufs: Vec<Vec<Value>>,
}

/// What the driver asks about every op it cannot leave as it is, the same
/// for all ops of one name: computed once per name, so that trying an op
/// costs no hashing, no list and no fold attempt that cannot succeed.
#[derive(Clone, Copy)]
struct NameFacts {
    /// The patterns whose root is the name, or any op, best first, as a
    /// range of `Legalizer::candidates`.
    patterns: (u32, u32),
    /// [`OpInterfaces::may_fold`].
    may_fold: bool,
}

/// How a conversion runs, beyond its target and patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConversionConfig {
    pub mode: ConversionMode,
    /// Beyond upstream: blocks no branch reaches are converted too, after
    /// the reachable ones, in region order. MLIR rejects the region
    /// ("unreachable blocks were not converted"); a pass that promises to
    /// lower every op of its kind (`async-to-async-runtime`) asks for this.
    pub visit_unreachable_blocks: bool,
    /// Beyond upstream: an op a pattern created that nothing legalizes
    /// stays as it is when the target says nothing about it (no entry for
    /// its name, its dialect or unknown ops). MLIR rolls the pattern back
    /// and fails the op that was being converted; with no rollback here,
    /// a pass whose patterns create such ops on purpose (the `scf.for`
    /// lowering's `arith.addi`/`arith.cmpi` inside a coroutine) keeps
    /// them.
    pub keep_open_created_ops: bool,
}

impl ConversionConfig {
    /// MLIR's behaviour in `mode`.
    pub const fn new(mode: ConversionMode) -> Self {
        ConversionConfig {
            mode,
            visit_unreachable_blocks: false,
            keep_open_created_ops: false,
        }
    }
}

/// Converts `root` and everything nested in it, as the LLVM release the
/// interfaces name converts: LLVM 13's driver builds each cast a pattern
/// needs at once (see `State::llvm13`), later ones record them and
/// resolve them at the end.
pub fn apply_conversion(
    ctx: &mut Context,
    root: Op,
    target: &ConversionTarget,
    patterns: &ConversionPatternSet,
    converter: Option<Conv>,
    interfaces: &dyn OpInterfaces,
    mode: ConversionMode,
) -> Result<(), RewriteError> {
    apply_conversion_with(
        ctx,
        root,
        target,
        patterns,
        converter,
        interfaces,
        ConversionConfig::new(mode),
    )
}

/// [`apply_conversion`] with the options of `config`.
pub fn apply_conversion_with(
    ctx: &mut Context,
    root: Op,
    target: &ConversionTarget,
    patterns: &ConversionPatternSet,
    converter: Option<Conv>,
    interfaces: &dyn OpInterfaces,
    config: ConversionConfig,
) -> Result<(), RewriteError> {
    let mode = config.mode;
    let mut legality = LegalityCache::default();
    let mut set = ConversionSet {
        target,
        legality: &mut legality,
        config: &config,
        // Room for every op there is: no copy as the list grows.
        out: Vec::with_capacity(ctx.num_ops()),
        visited: SecondaryMap::with_capacity(ctx.num_blocks(), false),
        worklist: vec![],
    };
    set.out.push(root);
    for i in 0..ctx.regions_of(root).len() {
        let r = ctx.regions_of(root)[i];
        set.region(ctx, r)?;
    }
    let to_convert = set.out;
    let (by_root, any) = patterns.index(ctx);
    let mut lg = Legalizer {
        target,
        legality,
        patterns,
        by_root,
        any,
        interfaces,
        converter,
        active: vec![],
        keep_open_created_ops: config.keep_open_created_ops,
        scratch_consts: vec![],
        candidates: vec![],
        operand_bufs: vec![],
    };
    let mut state = State {
        llvm13: interfaces.llvm_release() <= 13,
        ..State::default()
    };
    for op in to_convert {
        if ctx.is_erased(op) {
            continue;
        }
        // (A partial conversion leaves most ops it visits as they are: the
        // op's name is only read for a diagnostic.)
        if !lg.legalize(ctx, &mut state, op)? {
            match mode {
                ConversionMode::Full => {
                    return Err(RewriteError::on_op(
                        ctx,
                        op,
                        format!("failed to legalize operation '{}'", ctx.name(op)),
                    ))
                }
                ConversionMode::Partial if lg.legality.is_illegal(target, ctx, op) => {
                    return Err(RewriteError::on_op(
                        ctx,
                        op,
                        format!(
                            "failed to legalize operation '{}' that was explicitly marked illegal",
                            ctx.name(op)
                        ),
                    ))
                }
                ConversionMode::Partial => {}
            }
        }
    }
    if state.llvm13 {
        lg.finalize_llvm13(ctx, &mut state)?;
    } else {
        finalize(ctx, &mut state, interfaces.llvm_release())?;
    }
    apply_rewrites(ctx, &mut state)
}

/// Collects the ops to visit, in MLIR's order: pre-order, the blocks of a
/// region from its entry along successor edges (the last successor first);
/// with [`ConversionConfig::visit_unreachable_blocks`], the blocks no
/// branch reaches after them, in region order. The visited marks and the
/// worklist are shared by all regions (a block is in one region, and a
/// nested region's walk ends before its parent's goes on): a set and a
/// list per multi-block region were a third of the walk.
struct ConversionSet<'a> {
    target: &'a ConversionTarget,
    legality: &'a mut LegalityCache,
    config: &'a ConversionConfig,
    out: Vec<Op>,
    visited: SecondaryMap<Block, bool>,
    worklist: Vec<Block>,
}

impl ConversionSet<'_> {
    fn region(&mut self, ctx: &mut Context, region: Region) -> Result<(), RewriteError> {
        let Some(entry) = ctx.first_block(region) else {
            return Ok(());
        };
        // Most regions hold one block: no successor walk.
        if ctx.next_block(entry).is_none() {
            return self.block(ctx, entry);
        }
        self.visited.set(entry, true);
        let base = self.worklist.len();
        self.worklist.push(entry);
        while self.worklist.len() > base {
            let Some(b) = self.worklist.pop() else { break };
            self.block(ctx, b)?;
            if let Some(t) = ctx.terminator(b) {
                for &s in ctx.successors(t) {
                    if !self.visited[s] {
                        self.visited.set(s, true);
                        self.worklist.push(s);
                    }
                }
            }
        }
        let mut cur = ctx.next_block(entry);
        while let Some(b) = cur {
            cur = ctx.next_block(b);
            if self.visited[b] {
                continue;
            }
            if !self.config.visit_unreachable_blocks {
                let loc = ctx
                    .region_parent(region)
                    .map(|o| ctx.op_loc(o))
                    .unwrap_or_else(|| ctx.unknown_loc());
                return Err(RewriteError::at(
                    loc,
                    "unreachable blocks were not converted",
                ));
            }
            self.block(ctx, b)?;
        }
        Ok(())
    }

    /// The ops of `b` and, unless an op is recursively legal, of its
    /// regions.
    fn block(&mut self, ctx: &mut Context, b: Block) -> Result<(), RewriteError> {
        let mut next = ctx.first_op(b);
        while let Some(op) = next {
            next = ctx.next_op(op);
            self.out.push(op);
            let nregions = ctx.regions_of(op).len();
            if nregions == 0 || self.legality.is_legal(self.target, ctx, op) == Some(true) {
                continue;
            }
            for i in 0..nregions {
                let r = ctx.regions_of(op)[i];
                self.region(ctx, r)?;
            }
        }
        Ok(())
    }
}

/// The target's answer for each op name, looked up once per name (by the
/// interned name's index) instead of hashing the name's text at every op:
/// a conversion asks it of every op of the module, twice. Answers are
/// plain values (a dynamic one names its callback by index), so asking
/// clones nothing.
#[derive(Default)]
struct LegalityCache {
    by_name: Vec<NameInfo>,
    /// The callbacks of [`NameLegality::Dynamic`] answers.
    dynamic: Vec<LegalityFn>,
}

/// All the driver keeps per op name: one lookup per op visited.
#[derive(Clone, Copy, Default)]
struct NameInfo {
    legality: NameLegality,
    /// Known once the legalizer first tried an op of the name.
    facts: Option<NameFacts>,
}

/// What the target says about one op name.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum NameLegality {
    /// Not asked yet.
    #[default]
    Unknown,
    /// The target says nothing (no entry for the name, its dialect or
    /// unknown ops).
    Open,
    Legal {
        recursive: bool,
    },
    Dynamic {
        callback: u32,
        recursive: bool,
    },
    Illegal,
}

impl LegalityCache {
    /// What the target says about `op`'s name (asked of every op twice:
    /// the lookup inlined, the first answer per name worked out apart).
    #[inline]
    fn entry(&mut self, target: &ConversionTarget, ctx: &Context, op: Op) -> NameLegality {
        match self.by_name.get(ctx.op_name(op).index()) {
            Some(known) if known.legality != NameLegality::Unknown => known.legality,
            _ => self.first_entry(target, ctx, op),
        }
    }
    #[cold]
    #[inline(never)]
    fn first_entry(&mut self, target: &ConversionTarget, ctx: &Context, op: Op) -> NameLegality {
        let i = ctx.op_name(op).index();
        if self.by_name.len() <= i {
            self.by_name.resize(i + 1, NameInfo::default());
        }
        let recursive = target.recursive.contains(ctx.name(op));
        let answer = match target.action(ctx, op) {
            None => NameLegality::Open,
            Some(Legality::Legal) => NameLegality::Legal { recursive },
            Some(Legality::Illegal) => NameLegality::Illegal,
            Some(Legality::Dynamic(f)) => {
                self.dynamic.push(f);
                NameLegality::Dynamic {
                    callback: (self.dynamic.len() - 1) as u32,
                    recursive,
                }
            }
        };
        self.by_name[i].legality = answer;
        answer
    }
    /// As [`ConversionTarget::is_legal`].
    fn is_legal(&mut self, target: &ConversionTarget, ctx: &mut Context, op: Op) -> Option<bool> {
        match self.entry(target, ctx, op) {
            NameLegality::Legal { recursive } => Some(recursive),
            NameLegality::Dynamic {
                callback,
                recursive,
            } => (self.dynamic[callback as usize])(ctx, op).then_some(recursive),
            NameLegality::Unknown | NameLegality::Open | NameLegality::Illegal => None,
        }
    }
    /// As [`ConversionTarget::is_illegal`].
    fn is_illegal(&mut self, target: &ConversionTarget, ctx: &Context, op: Op) -> bool {
        self.entry(target, ctx, op) == NameLegality::Illegal
    }
    /// Does the target say nothing about `op`?
    fn is_open(&mut self, target: &ConversionTarget, ctx: &Context, op: Op) -> bool {
        self.entry(target, ctx, op) == NameLegality::Open
    }
}

impl Legalizer<'_> {
    /// Makes `op` legal; `Ok(false)` if no fold or pattern could.
    ///
    /// Inlined for the ops a conversion meets most, those legal by name
    /// and those the target says nothing about that neither fold nor have
    /// a pattern: a lookup and a test, where the full path (a call deep
    /// in the recursion) cost several times that for each of them.
    #[inline]
    fn legalize(
        &mut self,
        ctx: &mut Context,
        state: &mut State,
        op: Op,
    ) -> Result<bool, RewriteError> {
        if let Some(NameInfo {
            legality,
            facts: Some(facts),
        }) = self.legality.by_name.get(ctx.op_name(op).index())
        {
            match legality {
                NameLegality::Legal { recursive: false } => return Ok(true),
                NameLegality::Open if !facts.may_fold && facts.patterns.1 == 0 => {
                    return Ok(state.is_ignored(ctx, op));
                }
                _ => {}
            }
        }
        self.legalize_op(ctx, state, op)
    }

    /// [`Legalizer::legalize`] in full.
    #[inline(never)]
    fn legalize_op(
        &mut self,
        ctx: &mut Context,
        state: &mut State,
        op: Op,
    ) -> Result<bool, RewriteError> {
        let (legality, facts) = self.info(ctx, op);
        let legal = match legality {
            NameLegality::Legal { recursive } => Some(recursive),
            NameLegality::Dynamic {
                callback,
                recursive,
            } => (self.legality.dynamic[callback as usize])(ctx, op).then_some(recursive),
            NameLegality::Unknown | NameLegality::Open | NameLegality::Illegal => None,
        };
        if let Some(recursive) = legal {
            if recursive {
                state.mark_nested_ignored(ctx, op);
            }
            return Ok(true);
        }
        if state.is_ignored(ctx, op) {
            return Ok(true);
        }
        if facts.may_fold && self.legalize_with_fold(ctx, state, op)? {
            return Ok(true);
        }
        // Most ops a conversion visits have no pattern.
        if facts.patterns.1 == 0 {
            return Ok(false);
        }
        self.legalize_with_pattern(ctx, state, op, facts.patterns)
    }

    fn legalize_with_fold(
        &mut self,
        ctx: &mut Context,
        state: &mut State,
        op: Op,
    ) -> Result<bool, RewriteError> {
        if self.interfaces.constant_value(ctx, op).is_some() {
            return Ok(false);
        }
        let mut consts = std::mem::take(&mut self.scratch_consts);
        consts.clear();
        consts.extend(
            ctx.operands(op)
                .iter()
                .map(|&v| constant_of(ctx, self.interfaces, v)),
        );
        let folded = self.interfaces.fold(ctx, op, &consts);
        self.scratch_consts = consts;
        let Folded::Results(results) = folded else {
            return Ok(false);
        };
        let mark = ctx.num_ops();
        let mut values = Vec::with_capacity(results.len());
        let dialect = dialect_of(ctx, op).to_string();
        let mut created = vec![];
        // LLVM 13's `OpBuilder::tryFold` took a folded value of another
        // type as it was.
        let any_type = self.interfaces.llvm_release() <= 13;
        for (i, r) in results.into_iter().enumerate() {
            let ty = ctx.value_type(ctx.result(op, i));
            match r {
                FoldResult::Value(v) if any_type || ctx.value_type(v) == ty => values.push(v),
                FoldResult::Value(_) => return self.undo_constants(ctx, created),
                FoldResult::Attr(a) => {
                    let loc = ctx.op_loc(op);
                    match self.interfaces.materialize_constant(
                        ctx,
                        &dialect,
                        a,
                        ty,
                        loc,
                        InsertPoint::Before(op),
                    ) {
                        Some(c) => {
                            created.push(c);
                            values.push(ctx.result(c, 0));
                        }
                        None => return self.undo_constants(ctx, created),
                    }
                }
            }
        }
        // The constants must be legal (or legalized) for the fold to
        // stand; one that cannot be undoes the fold, as MLIR resets its
        // state, and the op goes on to the patterns. (Legalizing them
        // before the op's replacement is recorded changes nothing visible:
        // they have no users yet.)
        for (k, c) in created_since(ctx, state, mark).into_iter().enumerate() {
            if !self.legalize(ctx, state, c)? {
                if k == 0 {
                    return self.undo_constants(ctx, created);
                }
                return Err(RewriteError::at(
                    ctx.op_loc(op),
                    format!("failed to legalize generated constant '{}'", ctx.name(c)),
                ));
            }
        }
        let mut rw_listener = NoListener;
        let mut crw = ConversionRewriter {
            rw: Rewriter::new(ctx, &mut rw_listener),
            state,
            converter: self.converter.clone(),
        };
        crw.replace_op(op, &values)?;
        Ok(true)
    }

    fn undo_constants(
        &mut self,
        ctx: &mut Context,
        created: Vec<Op>,
    ) -> Result<bool, RewriteError> {
        for c in created.into_iter().rev() {
            let _ = ctx.erase_op(c);
        }
        Ok(false)
    }

    fn legalize_with_pattern(
        &mut self,
        ctx: &mut Context,
        state: &mut State,
        op: Op,
        (start, len): (u32, u32),
    ) -> Result<bool, RewriteError> {
        let patterns = self.patterns;
        let mut operands = self.operand_bufs.pop().unwrap_or_default();
        let mut result = Ok(false);
        for k in start..start + len {
            let pi = self.candidates[k as usize];
            let pattern = &patterns.patterns[pi];
            if !pattern.has_bounded_rewrite_recursion() && self.active.contains(&pi) {
                continue;
            }
            if !pattern.matches(ctx, op) {
                continue;
            }
            match self.try_pattern(ctx, state, op, pi, &mut operands) {
                Ok(false) => continue,
                r => {
                    result = r;
                    break;
                }
            }
        }
        operands.clear();
        self.operand_bufs.push(operands);
        result
    }

    /// Applies pattern `pi` to `op` and legalizes what it made;
    /// `Ok(false)` if it did not apply. `operands` is scratch room for the
    /// remapped operands (kept between calls: one `Vec` per try was a
    /// large part of trying).
    fn try_pattern(
        &mut self,
        ctx: &mut Context,
        state: &mut State,
        op: Op,
        pi: usize,
        operands: &mut Vec<Value>,
    ) -> Result<bool, RewriteError> {
        let pattern = &self.patterns.patterns[pi];
        let mark = ctx.num_ops();
        let replaced_before = state.replacements.len();
        state.root_updates.clear();
        let mut listener = NoListener;
        let converter = match pattern.type_converter() {
            Some(c) => Some(c),
            None => self.converter.clone(),
        };
        let mut crw = ConversionRewriter {
            rw: Rewriter::new(ctx, &mut listener),
            state,
            converter,
        };
        crw.rw.set_insertion_point(op);
        crw.state.remap_casts.clear();
        operands.clear();
        if !crw.remap_operands(op, operands)? {
            return Ok(false);
        }
        let applied = pattern.match_and_rewrite(op, operands, &mut crw)?;
        if !applied {
            crw.discard_remap_casts();
            return Ok(false);
        }
        state.remap_casts.clear();
        let updates = std::mem::take(&mut state.root_updates);
        self.active.push(pi);
        let result = self.legalize_pattern_result(ctx, state, op, mark, replaced_before, &updates);
        self.active.pop();
        if !result? {
            return Err(RewriteError::at(
                ctx.op_loc(op),
                format!(
                    "failed to legalize the ops pattern '{}' created for operation '{}'",
                    self.patterns.patterns[pi].name(),
                    ctx.name(op)
                ),
            ));
        }
        Ok(true)
    }

    /// What the driver knows of `op`'s name: what the target says, its
    /// patterns and whether it may fold, worked out once per name.
    #[inline]
    fn info(&mut self, ctx: &Context, op: Op) -> (NameLegality, NameFacts) {
        match self.legality.by_name.get(ctx.op_name(op).index()) {
            Some(NameInfo {
                legality,
                facts: Some(facts),
            }) => (*legality, *facts),
            _ => self.first_info(ctx, op),
        }
    }
    #[cold]
    #[inline(never)]
    fn first_info(&mut self, ctx: &Context, op: Op) -> (NameLegality, NameFacts) {
        let legality = self.legality.entry(self.target, ctx, op);
        let i = ctx.op_name(op).index();
        let specific = self
            .by_root
            .get(&ctx.op_name(op))
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let merged = merge_by_benefit(specific, &self.any, self.patterns);
        let facts = NameFacts {
            patterns: (self.candidates.len() as u32, merged.len() as u32),
            may_fold: self.interfaces.may_fold(ctx, op),
        };
        self.candidates.extend(merged);
        self.legality.by_name[i].facts = Some(facts);
        (legality, facts)
    }

    fn legalize_pattern_result(
        &mut self,
        ctx: &mut Context,
        state: &mut State,
        op: Op,
        mark: usize,
        replaced_before: usize,
        updates: &[Op],
    ) -> Result<bool, RewriteError> {
        let replaced = state.replacements[replaced_before..].contains(&op);
        if !replaced && !updates.contains(&op) {
            return Err(RewriteError::at(
                ctx.op_loc(op),
                format!(
                    "a conversion pattern neither replaced nor updated '{}'",
                    ctx.name(op)
                ),
            ));
        }
        // Ops updated in place must now be legal, or be legalized again.
        for &u in updates {
            if !ctx.is_erased(u)
                && self.legality.is_legal(self.target, ctx, u).is_none()
                && !self.legalize(ctx, state, u)?
            {
                return Ok(false);
            }
        }
        for c in created_since(ctx, state, mark) {
            if self.legalize(ctx, state, c)? {
                continue;
            }
            // See `ConversionConfig::keep_open_created_ops`.
            if !(self.keep_open_created_ops && self.legality.is_open(self.target, ctx, c)) {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

impl Legalizer<'_> {
    /// LLVM 13's `finalize`: block arguments dropped or replaced by a value
    /// of another type, then results whose type changed, that still have
    /// users the conversion did not replace get the source
    /// materialization of the converter that replaced them (an argument
    /// after its replacement or at its block's start, a result before its
    /// op), legalized at once; uses move to it when the rewrites apply.
    fn finalize_llvm13(
        &mut self,
        ctx: &mut Context,
        state: &mut State,
    ) -> Result<(), RewriteError> {
        let mark = ctx.num_ops();
        for bi in 0..state.converted_blocks.len() {
            let (orig, new) = (
                state.converted_blocks[bi].orig,
                state.converted_blocks[bi].new,
            );
            let converter = state.converted_blocks[bi].converter.clone();
            for (i, orig_arg) in ctx.block_args(orig).to_vec().into_iter().enumerate() {
                if state.converted_blocks[bi].args[i].is_some() {
                    continue;
                }
                let repl = state.lookup_or_default(orig_arg, None, ctx);
                let dropped = repl == orig_arg;
                let orig_ty = ctx.value_type(orig_arg);
                if ctx.value_type(repl) == orig_ty && !dropped {
                    continue;
                }
                if !ctx.users(orig_arg).any(|u| !state.is_ignored(ctx, u)) {
                    continue;
                }
                let ip = match ctx.value_def(repl) {
                    ValueDef::Result(d, _) if !dropped => ctx.after(d),
                    _ => match ctx.first_op(new) {
                        Some(f) => InsertPoint::Before(f),
                        None => InsertPoint::AtEnd(new),
                    },
                };
                let loc = ctx.value_loc(orig_arg);
                let inputs: Vec<Value> = if dropped { vec![] } else { vec![repl] };
                let made = converter.as_ref().and_then(|c| {
                    let mut l = NoListener;
                    let mut rw = Rewriter::new(ctx, &mut l);
                    rw.restore_insertion_point(Some(ip));
                    TypeConverter::materialize(&c.source, &mut rw, orig_ty, &inputs, loc)
                });
                let Some(v) = made else {
                    return Err(RewriteError::at(
                        loc,
                        format!("failed to materialize conversion for block argument #{i} that remained live after conversion"),
                    ));
                };
                state.mapping.insert(orig_arg, v);
            }
        }
        for c in created_since(ctx, state, mark) {
            if !self.legalize(ctx, state, c)? {
                return Err(RewriteError::at(
                    ctx.op_loc(c),
                    "failed to legalize conversion operation generated for block argument that remained live after conversion",
                ));
            }
        }
        // Built when a result first needs it (most conversions replace
        // values by values of the same type and never do): no result is
        // remapped before, so it is the map as it stands now.
        let mut inverse = None;
        let mut k = 0;
        while k < state.changed_results.len() {
            let op = state.replacements[state.changed_results[k]];
            let converter = state.replacement_converters[state.changed_results[k]].clone();
            k += 1;
            for ri in 0..ctx.results(op).len() {
                let r = ctx.result(op, ri);
                let Some(new) = state.lookup_or_null(r, None, ctx) else {
                    if ctx.users(r).any(|u| !state.is_ignored(ctx, u)) {
                        return Err(RewriteError::at(
                            ctx.op_loc(op),
                            format!(
                                "failed to legalize operation '{}' marked as erased",
                                ctx.name(op)
                            ),
                        ));
                    }
                    continue;
                };
                let ty = ctx.value_type(r);
                if ctx.value_type(new) == ty {
                    continue;
                }
                let inv = inverse.get_or_insert_with(|| inverse_mapping(&state.mapping));
                if !has_live_user_of_replaced(ctx, state, inv, r) {
                    continue;
                }
                // Without a converter the new value is forwarded as it is.
                let Some(c) = converter.clone() else {
                    continue;
                };
                let loc = ctx.op_loc(op);
                let mark = ctx.num_ops();
                let made = {
                    let mut l = NoListener;
                    let mut rw = Rewriter::new(ctx, &mut l);
                    rw.set_insertion_point(op);
                    TypeConverter::materialize(&c.source, &mut rw, ty, &[new], loc)
                };
                let Some(v) = made else {
                    return Err(RewriteError::at(
                        loc,
                        format!(
                            "failed to materialize conversion for result #{} of operation '{}' that remained live after conversion",
                            result_index(ctx, r),
                            ctx.name(op)
                        ),
                    ));
                };
                for c in created_since(ctx, state, mark) {
                    if !self.legalize(ctx, state, c)? {
                        return Err(RewriteError::at(
                            loc,
                            format!(
                                "failed to legalize conversion operation generated for result #{} of operation '{}' that remained live after conversion",
                                result_index(ctx, r),
                                ctx.name(op)
                            ),
                        ));
                    }
                }
                state.mapping.insert(r, v);
            }
        }
        Ok(())
    }
}

/// Ops created since the arena held `mark` ops, in creation order, without
/// the conversion's own materializations and what was erased.
/// (Inline: a pattern creates a handful, and this is asked after each.)
fn created_since(ctx: &Context, state: &State, mark: usize) -> SmallVec<[Op; 16]> {
    (mark..ctx.num_ops())
        .map(Op::from_index)
        .filter(|&o| {
            !ctx.is_erased(o) && !state.is_materialization(o) && ctx.parent_block(o).is_some()
        })
        .collect()
}

/// Op-specific and any-op patterns interleaved by benefit, op-specific
/// first on a tie.
fn merge_by_benefit(specific: &[usize], any: &[usize], set: &ConversionPatternSet) -> Vec<usize> {
    let mut out = Vec::with_capacity(specific.len() + any.len());
    let (mut i, mut j) = (0, 0);
    while i < specific.len() || j < any.len() {
        let take_specific = j >= any.len()
            || (i < specific.len()
                && set.patterns[specific[i]].benefit() >= set.patterns[any[j]].benefit());
        if take_specific {
            out.push(specific[i]);
            i += 1;
        } else {
            out.push(any[j]);
            j += 1;
        }
    }
    out
}

/// Resolves what the conversion left pending: casts still needed, block
/// arguments and results whose users were not converted.
fn finalize(ctx: &mut Context, state: &mut State, release: u32) -> Result<(), RewriteError> {
    resolve_materializations(ctx, state, release)?;
    // Converted block arguments that unconverted ops still use.
    for bi in 0..state.converted_blocks.len() {
        let (orig, new) = (
            state.converted_blocks[bi].orig,
            state.converted_blocks[bi].new,
        );
        let converter = state.converted_blocks[bi].converter.clone();
        for (i, orig_arg) in ctx.block_args(orig).to_vec().into_iter().enumerate() {
            let orig_ty = ctx.value_type(orig_arg);
            if state.lookup_or_null(orig_arg, Some(orig_ty), ctx).is_some() {
                continue;
            }
            let Some(user) = ctx.users(orig_arg).find(|&u| !state.is_ignored(ctx, u)) else {
                continue;
            };
            let repl = state.lookup_or_default(orig_arg, None, ctx);
            let dropped = repl == orig_arg;
            let ip = if dropped || matches!(ctx.value_def(repl), ValueDef::BlockArg(..)) {
                let b = if dropped {
                    new
                } else {
                    ctx.value_block(repl).unwrap_or(new)
                };
                match ctx.first_op(b) {
                    Some(f) => InsertPoint::Before(f),
                    None => InsertPoint::AtEnd(b),
                }
            } else {
                ctx.after(ctx.defining_op(repl).expect("a result has an op"))
            };
            let loc = ctx.value_loc(orig_arg);
            let inputs: Vec<Value> = if dropped { vec![] } else { vec![repl] };
            let made = converter.as_ref().and_then(|c| {
                let mut l = NoListener;
                let mut rw = Rewriter::new(ctx, &mut l);
                rw.restore_insertion_point(Some(ip));
                TypeConverter::materialize(&c.source, &mut rw, orig_ty, &inputs, loc)
            });
            let Some(v) = made else {
                let user_loc = ctx.op_loc(user);
                let _ = user_loc;
                return Err(RewriteError::at(
                    loc,
                    format!("failed to materialize conversion for block argument #{i} that remained live after conversion"),
                ));
            };
            state.mapping.insert(orig_arg, v);
            let _ = state.converted_blocks[bi].args[i];
        }
    }
    // Results whose type changed and that unconverted ops still use.
    // Built when a result first needs it (most conversions replace values
    // by values of the same type and never do): no result is remapped
    // before, so it is the map as it stands now.
    let mut inverse = None;
    let mut k = 0;
    while k < state.changed_results.len() {
        let op = state.replacements[state.changed_results[k]];
        let converter = state.replacement_converters[state.changed_results[k]].clone();
        k += 1;
        for ri in 0..ctx.results(op).len() {
            let r = ctx.result(op, ri);
            let Some(&new) = state.mapping.get(&r) else {
                if let Some(u) = ctx.users(r).find(|&u| !state.is_ignored(ctx, u)) {
                    let _ = u;
                    return Err(RewriteError::at(
                        ctx.op_loc(op),
                        format!(
                            "failed to legalize operation '{}' marked as erased",
                            ctx.name(op)
                        ),
                    ));
                }
                continue;
            };
            let new = state.lookup_or_default(new, None, ctx);
            let ty = ctx.value_type(r);
            if ctx.value_type(new) == ty {
                continue;
            }
            let inv = inverse.get_or_insert_with(|| inverse_mapping(&state.mapping));
            if !has_live_user_of_replaced(ctx, state, inv, r) {
                continue;
            }
            let loc = ctx.op_loc(op);
            let made = converter.as_ref().and_then(|c| {
                let mut l = NoListener;
                let mut rw = Rewriter::new(ctx, &mut l);
                rw.set_insertion_point(op);
                TypeConverter::materialize(&c.source, &mut rw, ty, &[new], loc)
            });
            let Some(v) = made else {
                return Err(RewriteError::at(
                    loc,
                    format!(
                        "failed to materialize conversion for result #{} of operation '{}' that remained live after conversion",
                        result_index(ctx, r),
                        ctx.name(op)
                    ),
                ));
            };
            state.mapping.insert(r, v);
        }
    }
    Ok(())
}

/// Replaced value -> the values it replaced.
fn inverse_mapping(mapping: &ValueMapping) -> FxHashMap<Value, Vec<Value>> {
    let mut inverse: FxHashMap<Value, Vec<Value>> = FxHashMap::default();
    for (from, to) in mapping.iter() {
        inverse.entry(to).or_default().push(from);
    }
    inverse
}

fn result_index(ctx: &Context, v: Value) -> usize {
    match ctx.value_def(v) {
        ValueDef::Result(_, i) => i as usize,
        ValueDef::BlockArg(_, i) => i as usize,
    }
}

/// Does `v`, or a value `v` itself replaced (followed back through the
/// mapping), still have a user the conversion did not replace?
fn has_live_user_of_replaced(
    ctx: &Context,
    state: &State,
    inverse: &FxHashMap<Value, Vec<Value>>,
    v: Value,
) -> bool {
    let mut work = vec![v];
    let mut seen = FxHashSet::default();
    while let Some(x) = work.pop() {
        if !seen.insert(x) {
            continue;
        }
        if ctx
            .users(x)
            .any(|u| !state.is_ignored(ctx, u) && !state.is_materialization(u))
        {
            return true;
        }
        if let Some(older) = inverse.get(&x) {
            work.extend_from_slice(older);
        }
    }
    false
}

/// The casts the conversion inserted for patterns: those whose users all
/// went away are dropped; a live one is resolved through the mapping when a
/// value of its type already stands for its input, or replaced by the type
/// converter's materialization at the same place.
fn resolve_materializations(
    ctx: &mut Context,
    state: &mut State,
    release: u32,
) -> Result<(), RewriteError> {
    let list: Vec<(Op, MaterializationKind, Option<Conv>, Option<Type>)> = state
        .unresolved
        .iter()
        .map(|u| (u.op, u.kind, u.converter.clone(), u.orig_ty))
        .collect();
    // An argument materialization stands for an original block argument:
    // it is live while that argument has users left, even before they
    // were pointed at it (MLIR's `computeNecessaryMaterializations`).
    if list.is_empty() {
        return Ok(());
    }
    let mut inverse = inverse_mapping(&state.mapping);
    for (op, kind, converter, orig_ty) in list.into_iter().rev() {
        let out = ctx.result(op, 0);
        let live_value = |v: Value| {
            ctx.users(v)
                .any(|u| !state.is_ignored(ctx, u) && !state.is_materialization(u))
        };
        // A cast of a block argument, or standing for one, counts as an
        // argument materialization (MLIR re-kinds it so): it stays while
        // the argument has users, even if the cast itself has none.
        let is_arg = |v: &Value| matches!(ctx.value_def(*v), ValueDef::BlockArg(..));
        let kind = if ctx.operands(op).iter().any(is_arg)
            || inverse.get(&out).is_some_and(|vs| vs.iter().any(is_arg))
        {
            MaterializationKind::Argument
        } else {
            kind
        };
        let live = live_value(out)
            || ((kind == MaterializationKind::Argument || release >= 15)
                && inverse
                    .get(&out)
                    .is_some_and(|vs| vs.iter().any(|&v| live_value(v))));
        if !live {
            continue;
        }
        let ty = ctx.value_type(out);
        let inputs = ctx.operands(op).to_vec();
        // A value of the wanted type may already stand for the input, or
        // for the input of a cast the input comes from.
        if let [input] = inputs[..] {
            if let Some(remapped) = lookup_remapped(ctx, state, out, input, ty) {
                ctx.replace_all_uses_with(out, remapped);
                continue;
            }
        }
        let loc = ctx.op_loc(op);
        // The new cast goes right after its one input (at the start of
        // its block for an argument), as MLIR's `setInsertionPointAfterValue`.
        let ip = match inputs[..] {
            [input] => match ctx.value_def(input) {
                ValueDef::Result(d, _) => ctx.after(d),
                ValueDef::BlockArg(b, _) => match ctx.first_op(b) {
                    Some(f) => InsertPoint::Before(f),
                    None => InsertPoint::AtEnd(b),
                },
            },
            _ => InsertPoint::Before(op),
        };
        let made = converter.as_ref().and_then(|c| {
            let mut l = NoListener;
            let mut rw = Rewriter::new(ctx, &mut l);
            rw.restore_insertion_point(Some(ip));
            // An argument materialization is asked for the argument's
            // original type; one that does not apply falls back to a
            // target materialization of the cast's type, as in MLIR.
            match kind {
                MaterializationKind::Argument => TypeConverter::materialize(
                    &c.argument,
                    &mut rw,
                    orig_ty.unwrap_or(ty),
                    &inputs,
                    loc,
                )
                .or_else(|| TypeConverter::materialize(&c.target, &mut rw, ty, &inputs, loc)),
                MaterializationKind::Target => {
                    TypeConverter::materialize(&c.target, &mut rw, ty, &inputs, loc)
                }
            }
        });
        let Some(v) = made else {
            let from = inputs.first().map(|&v| ctx.value_type(v));
            let _ = from;
            return Err(RewriteError::at(
                loc,
                "failed to legalize unresolved materialization that remained live after conversion",
            ));
        };
        ctx.replace_all_uses_with(out, v);
        // What stood for the cast now stands for its materialization (by
        // the inverse map: a scan of the mapping per cast was quadratic).
        let old = inverse.remove(&out).unwrap_or_default();
        for &k in &old {
            state.mapping.insert(k, v);
        }
        inverse.entry(v).or_default().extend(old);
    }
    Ok(())
}

/// A value of type `ty` standing for `v`, other than `root`: `v`'s
/// replacement, or, through the single-input casts `v` comes from, theirs
/// (MLIR's `lookupRemappedValue` in `computeNecessaryMaterializations`).
fn lookup_remapped(ctx: &Context, state: &State, root: Value, v: Value, ty: Type) -> Option<Value> {
    let r = state.lookup_or_default(v, Some(ty), ctx);
    if ctx.value_type(r) == ty && r != root {
        return Some(r);
    }
    let d = ctx.defining_op(v)?;
    match ctx.operands(d) {
        [single] if ctx.name(d) == UNREALIZED_CAST => {
            lookup_remapped(ctx, state, root, *single, ty)
        }
        _ => None,
    }
}

/// Applies what was recorded: uses move to the replacing values, replaced
/// ops and pending casts are erased, converted blocks' old arguments go.
fn apply_rewrites(ctx: &mut Context, state: &mut State) -> Result<(), RewriteError> {
    // LLVM 13 takes the last value of the mapping, whatever its type.
    let desired = |ctx: &Context, v: Value| (!state.llvm13).then(|| ctx.value_type(v));
    for i in 0..state.replacements.len() {
        let op = state.replacements[i];
        for k in 0..ctx.results(op).len() {
            let r = ctx.result(op, k);
            if let Some(new) = state.lookup_or_null(r, desired(ctx, r), ctx) {
                ctx.replace_all_uses_with(r, new);
            }
        }
    }
    // One numbering of each block for all the replacements below (a map
    // of the block's ops per argument was quadratic in large blocks).
    let order = std::cell::RefCell::new(mlir_async_ir::order::OpOrder::new());
    for &arg in &state.arg_replacements {
        let Some(repl) = state.lookup_or_null(arg, desired(ctx, arg), ctx) else {
            continue;
        };
        match ctx.defining_op(repl) {
            None => ctx.replace_all_uses_with(arg, repl),
            Some(def) => {
                // Uses before the replacing op in its own block keep the
                // argument (they are being erased).
                let def_block = ctx.parent_block(def);
                ctx.replace_uses_if(arg, repl, |c, u| {
                    c.parent_block(u.op) != def_block
                        || order.borrow_mut().is_before_in_block(c, def, u.op)
                });
            }
        }
    }
    for u in std::mem::take(&mut state.unresolved).into_iter().rev() {
        if ctx.is_erased(u.op) {
            continue;
        }
        let out = ctx.result(u.op, 0);
        if ctx.has_uses(out) {
            // Only erased ops still use it.
            drop_uses(ctx, state, out)?;
        }
        let _ = ctx.erase_op(u.op);
    }
    for &op in state.replacements.iter().rev() {
        if ctx.is_erased(op) {
            continue;
        }
        for k in 0..ctx.results(op).len() {
            let r = ctx.result(op, k);
            drop_uses(ctx, state, r)?;
        }
        ctx.drop_all_references(op);
        let _ = ctx.erase_op(op);
    }
    for cb in std::mem::take(&mut state.converted_blocks) {
        for (i, a) in ctx.block_args(cb.orig).to_vec().into_iter().enumerate() {
            if ctx.has_uses(a) && state.llvm13 {
                let repl = match cb.args[i] {
                    Some(v) => Some(state.lookup_or_default(v, None, ctx)),
                    None => state.lookup_or_null(a, None, ctx),
                };
                match repl {
                    Some(v) => ctx.replace_all_uses_with(a, v),
                    None => drop_uses(ctx, state, a)?,
                }
            } else if ctx.has_uses(a) {
                let repl =
                    cb.args[i].map(|v| state.lookup_or_default(v, Some(ctx.value_type(a)), ctx));
                match repl {
                    Some(v) if ctx.value_type(v) == ctx.value_type(a) => {
                        ctx.replace_all_uses_with(a, v)
                    }
                    _ => drop_uses(ctx, state, a)?,
                }
            }
        }
        let _ = ctx.erase_block(cb.orig);
    }
    Ok(())
}

/// Detaches the remaining uses of `v`, all by ops being erased; a use by
/// an op that stays means a pattern built it on an operand it should have
/// taken converted.
fn drop_uses(ctx: &mut Context, state: &State, v: Value) -> Result<(), RewriteError> {
    // Most replaced values have no use left by now.
    if !ctx.has_uses(v) {
        return Ok(());
    }
    for user in ctx.users(v).collect::<Vec<_>>() {
        let doomed = state.is_ignored(ctx, user)
            || state.is_materialization(user)
            || ctx.ancestor(user, |_, a| state.is_replaced(a)).is_some();
        if !doomed {
            return Err(RewriteError::at(
                ctx.op_loc(user),
                format!(
                    "'{}' uses a value the conversion replaced by one of another type",
                    ctx.name(user)
                ),
            ));
        }
        ctx.drop_all_references(user);
    }
    Ok(())
}

impl crate::rewriter::Builder for ConversionRewriter<'_> {
    fn context(&mut self) -> &mut Context {
        self.rw.ctx
    }
    fn build_op(
        &mut self,
        name: Symbol,
        loc: Location,
        operands: &[Value],
        result_types: &[Type],
        attrs: &[(Symbol, Attribute)],
    ) -> Result<Op, RewriteError> {
        self.rw.create_op(name, loc, operands, result_types, attrs)
    }
    fn build(&mut self, state: OperationState) -> Result<Op, RewriteError> {
        self.rw.create(state)
    }
    fn build_branch(
        &mut self,
        name: Symbol,
        loc: Location,
        operands: &[Value],
        attrs: &[(Symbol, Attribute)],
        successors: &[Block],
    ) -> Result<Op, RewriteError> {
        self.rw
            .create_branch(name, loc, operands, attrs, successors)
    }
}

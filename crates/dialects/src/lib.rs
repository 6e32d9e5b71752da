//! The dialects mlir-async knows: builtin, func (with the legacy `std`
//! spellings), arith, cf, scf, memref, linalg, vector and async. Each op is
//! an [`OpDef`]: traits for the IR core, custom syntax for the syntax layer,
//! a verifier with MLIR's messages, and result name hints.

pub mod arith;
pub mod asyncd;
pub mod build;
pub mod builtin;
pub mod canonicalize;
pub mod cf;
pub mod fold;
pub mod interfaces;
pub mod llvm;
pub mod llvm_build;
pub mod memref;
pub mod scf;
pub mod type_conversion;
pub mod util;
pub mod verify;

use mlir_async_ir::fxhash::FxHashMap;
use mlir_async_ir::{Context, Op, OpTraits, OperationState, Type};
use mlir_async_syntax::{DialectHooks, PResult, Parser, Printer};

pub type ParseFn = fn(&mut Parser, &mut OperationState, usize) -> PResult<()>;
pub type PrintFn = fn(&mut Printer, Op);
/// An op verifier: its message gets MLIR's `'name' op ` prefix (as
/// `emitOpError`), unless it starts with [`PLAIN_ERROR`] (as `emitError`).
pub type VerifyFn = fn(&Context, Op) -> Result<(), String>;

/// Marks a verifier message that mlir-opt prints without the op prefix.
pub const PLAIN_ERROR: &str = "\u{1}";
pub type NamesFn = fn(&Context, Op, mlir_async_syntax::Edition, &mut dyn FnMut(usize, &str));

/// Everything mlir-async knows about one op.
#[derive(Clone, Copy)]
pub struct OpDef {
    pub name: &'static str,
    pub traits: OpTraits,
    pub parse: Option<ParseFn>,
    pub print: Option<PrintFn>,
    pub verify: Option<VerifyFn>,
    pub names: Option<NamesFn>,
}

impl OpDef {
    pub const fn new(name: &'static str) -> Self {
        OpDef {
            name,
            traits: OpTraits {
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
            },
            parse: None,
            print: None,
            verify: None,
            names: None,
        }
    }
    pub const fn syntax(mut self, parse: ParseFn, print: PrintFn) -> Self {
        self.parse = Some(parse);
        self.print = Some(print);
        self
    }
    pub const fn verify(mut self, f: VerifyFn) -> Self {
        self.verify = Some(f);
        self
    }
    pub const fn names(mut self, f: NamesFn) -> Self {
        self.names = Some(f);
        self
    }
    pub const fn terminator(mut self) -> Self {
        self.traits.is_terminator = true;
        self
    }
    pub const fn pure(mut self) -> Self {
        self.traits.pure = true;
        self
    }
    pub const fn recursive_effects(mut self) -> Self {
        self.traits.recursive_effects = true;
        self
    }
    pub const fn dead_if_unused(mut self) -> Self {
        self.traits.dead_if_unused = true;
        self
    }
    pub const fn read_only(mut self) -> Self {
        self.traits.read_only = true;
        self.traits.dead_if_unused = true;
        self
    }
    pub const fn commutative(mut self) -> Self {
        self.traits.commutative = true;
        self
    }
    /// A terminator handing its operands back (implies `terminator`).
    pub const fn return_like(mut self) -> Self {
        self.traits.return_like = true;
        self.traits.is_terminator = true;
        self
    }
    pub const fn constant_like(mut self) -> Self {
        self.traits.constant_like = true;
        self
    }
    /// Regions of one block that needs no terminator.
    pub const fn no_terminator(mut self) -> Self {
        self.traits.no_terminator = true;
        self
    }
    pub const fn isolated(mut self) -> Self {
        self.traits.isolated_from_above = true;
        self
    }
    pub const fn symbol(mut self) -> Self {
        self.traits.is_symbol = true;
        self
    }
}

/// Every canonicalization pattern of the registered ops, in MLIR's order
/// (dialect patterns, then each op's, by op name).
pub fn canonicalization_patterns(
    edition: mlir_async_syntax::Edition,
) -> mlir_async_rewrite::PatternSet {
    canonicalize::patterns(edition)
}

/// The registry of every known op; implements the syntax layer's hooks.
pub struct Registry {
    ops: FxHashMap<&'static str, OpDef>,
    /// Custom parsers by the index of the op name's symbol: the parser
    /// hands over the symbol with every op, and a look-up by name per op
    /// (hash and compare) showed up in profiles.
    parsers: Vec<Option<ParseFn>>,
}

const DIALECTS: &[&str] = &[
    "builtin", "func", "std", "arith", "cf", "scf", "memref", "linalg", "vector", "async", "llvm",
];

impl Registry {
    /// Registers all dialects into `ctx` (op traits) and returns the hooks.
    pub fn new(ctx: &mut Context) -> Self {
        let mut ops = FxHashMap::default();
        let mut parsers = vec![];
        // The 13/14 generic spelling of `func.func`'s signature key, so the
        // printer (which cannot intern) finds it.
        ctx.sym("type");
        llvm::register(ctx);
        for list in [
            builtin::ops(),
            arith::ops(),
            cf::ops(),
            scf::ops(),
            memref::ops(),
            asyncd::ops(),
        ] {
            for d in list {
                let s = ctx.register_op(d.name, d.traits);
                if parsers.len() <= s.index() {
                    parsers.resize(s.index() + 1, None);
                }
                parsers[s.index()] = d.parse;
                ops.insert(d.name, d);
            }
        }
        Registry { ops, parsers }
    }
    pub fn get(&self, name: &str) -> Option<&OpDef> {
        self.ops.get(name)
    }
}

impl DialectHooks for Registry {
    fn is_known_dialect(&self, name: &str) -> bool {
        DIALECTS.contains(&name)
    }
    fn parse_custom(
        &self,
        name: &str,
        p: &mut Parser,
        st: &mut OperationState,
        num_results: usize,
        name_pos: usize,
    ) -> PResult<bool> {
        // The parser has set `st.name` to the symbol of `name`: a
        // registered op with a custom form needs no look-up by name.
        debug_assert_eq!(p.ctx.str(st.name), name);
        if let Some(&Some(parse)) = self.parsers.get(st.name.index()) {
            parse(p, st, num_results)?;
            return Ok(true);
        }
        // `constant` is `arith.constant` in 13 and `func.constant` (a
        // symbol) in 13 and 14.
        let renamed = name == "constant";
        let name = if renamed {
            if p.peek() == b'@' {
                "func.constant"
            } else {
                p.note_edition(mlir_async_syntax::Edition::V13);
                "arith.constant"
            }
        } else {
            name
        };
        let Some(def) = self.ops.get(name) else {
            let dialect = name.split('.').next().unwrap_or("");
            if name.contains('.') && !DIALECTS.contains(&dialect) {
                if p.allow_unregistered {
                    return p.err(name_pos, format!("custom op '{name}' is unknown"));
                }
                return p.err(
                    name_pos,
                    "operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used",
                );
            }
            return Ok(false);
        };
        let Some(parse) = def.parse else {
            return Ok(false);
        };
        // The parser has set `st.name` to the symbol of `name` already.
        if renamed {
            st.name = p.ctx.sym(name);
        }
        parse(p, st, num_results)?;
        Ok(true)
    }
    fn custom_printer(&self, name: &str) -> Option<PrintFn> {
        self.ops.get(name).and_then(|d| d.print)
    }
    fn result_namer(&self, name: &str) -> Option<NamesFn> {
        self.ops.get(name).and_then(|d| d.names)
    }
    fn parse_type(&self, dialect: &str, p: &mut Parser, start: usize) -> PResult<Option<Type>> {
        match dialect {
            llvm::DIALECT => llvm::types::parse_type(p, start),
            _ => Ok(None),
        }
    }
}

//! MLIR's textual form: the lexer and recursive-descent parser for generic
//! and custom op forms, the printer with MLIR's exact naming, the three
//! syntax generations ([`edition`]) and diagnostics.
//!
//! The syntax layer decides no semantics: dialects plug their custom forms
//! in through [`DialectHooks`].

pub mod diag;
pub mod edition;
pub mod parser;
pub mod printer;

pub use diag::{Diagnostic, Severity};
pub use edition::Edition;
pub use parser::{PResult, ParseError, Parser, RegionArg, UnresolvedOperand};
pub use printer::{print_type, PrintOptions, Printer};

use mlir_async_ir::{Context, Op, OperationState};

/// What dialects provide to the syntax layer.
pub trait DialectHooks {
    /// Is `name` a dialect whose ops and types are registered?
    fn is_known_dialect(&self, name: &str) -> bool;
    /// Does the op `name` (canonical spelling) have a custom form?
    fn has_custom(&self, name: &str) -> bool;
    /// Parses the rest of a custom op after its name into `st`. Returns
    /// `Ok(false)` when `name` has no custom form. `num_results` is the
    /// number of results the text binds; `name_pos` where the name began.
    fn parse_custom(
        &self,
        name: &str,
        p: &mut Parser,
        st: &mut OperationState,
        num_results: usize,
        name_pos: usize,
    ) -> PResult<bool>;
    /// Prints the rest of a custom op after its name; `false` falls back
    /// to the generic form.
    fn print_custom(&self, p: &mut Printer, op: Op) -> bool;
    /// Result name hints (`%c0`, `%cst`, `%token`): `set(result_index, name)`.
    fn result_names(&self, ctx: &Context, op: Op, set: &mut dyn FnMut(usize, &str));
}

/// The result of parsing one buffer.
pub struct Parsed {
    pub module: Op,
    /// The syntax generation the spelling of the input betrays.
    pub edition: Edition,
}

/// Parses a whole buffer (one split of a file) into a module.
pub fn parse_source(
    ctx: &mut Context,
    hooks: &dyn DialectHooks,
    file: &str,
    text: &str,
    line_offset: u32,
    allow_unregistered: bool,
) -> Result<Parsed, Diagnostic> {
    let mut p = Parser::new(ctx, file, text, line_offset, hooks);
    p.allow_unregistered = allow_unregistered;
    match p.parse_module() {
        Ok(module) => {
            let edition = match p.seen {
                Some(e) => e,
                None if p.saw_legacy_func => Edition::V14,
                None => Edition::V15,
            };
            let edition = if p.saw_legacy_func && edition == Edition::V15 {
                Edition::V14
            } else {
                edition
            };
            Ok(Parsed { module, edition })
        }
        Err(e) => {
            let (line, col) = p.line_col(e.pos);
            Err(Diagnostic::error(file, line, col, e.message))
        }
    }
}

/// Prints an op (normally a module) followed by a newline.
pub fn print_op(ctx: &Context, hooks: &dyn DialectHooks, op: Op, opts: PrintOptions) -> String {
    let mut p = Printer::new(ctx, hooks, op, opts);
    p.op(op);
    p.out.push('\n');
    p.out
}

//! Diagnostics as values, rendered the way mlir-opt renders them:
//! `file:line:col: error: message`, the source line, a caret.

use crate::{DialectHooks, Edition, PrintOptions, Printer};
use mlir_async_ir::{Context, IrError, Location};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

/// What a diagnostic on an op needs to show the op (see
/// [`Diagnostic::from_ir_showing_op`]): the dialects' printers, the
/// generation, and `--mlir-print-debuginfo` (the note's op then has its
/// locations, inline).
pub struct ShowOp<'a> {
    pub hooks: &'a dyn DialectHooks,
    pub edition: Edition,
    pub debug_info: bool,
}

/// A message at a point of a source file (line and column are 1-based).
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
    pub notes: Vec<Diagnostic>,
}

impl Diagnostic {
    pub fn error(file: &str, line: u32, col: u32, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            file: file.to_string(),
            line,
            col,
            message: message.into(),
            notes: vec![],
        }
    }

    /// Converts an IR error; locations without a file position print as
    /// `loc(unknown)` does in mlir-opt (`<unknown>:0: error: ...`).
    pub fn from_ir(ctx: &Context, e: &IrError) -> Self {
        Self::from_ir_showing_op(ctx, e, None)
    }

    /// [`Diagnostic::from_ir`], and for an error emitted on an op, with
    /// `show`, the note mlir-opt 13-15 attach first (MLIR's
    /// `Operation::emitError` under `printOpOnDiagnostic`, which
    /// `MlirOptMain` turns off for `-verify-diagnostics`): `see current
    /// operation: ` and the op in the generic form, as it is now (after
    /// the pass that failed, say). The one place that note is made.
    pub fn from_ir_showing_op(ctx: &Context, e: &IrError, show: Option<&ShowOp>) -> Self {
        let mut d = Self::at(ctx, e.loc, Severity::Error, &e.message);
        if let (Some(op), Some(show)) = (e.op, show) {
            let opts = PrintOptions {
                edition: show.edition,
                generic: true,
                debug_info: show.debug_info,
            };
            let text = Printer::op_for_diagnostic(ctx, show.hooks, op, opts);
            d.notes.push(Self::at(
                ctx,
                ctx.op_loc(op),
                Severity::Note,
                &format!("see current operation: {text}"),
            ));
        }
        for (l, m) in &e.notes {
            d.notes.push(Self::at(ctx, *l, Severity::Note, m));
        }
        d
    }

    pub fn at(ctx: &Context, loc: Location, severity: Severity, message: &str) -> Self {
        let (file, line, col) = ctx
            .file_line_col(loc)
            .map(|(f, l, c)| (f.to_string(), l, c))
            .unwrap_or_else(|| ("<unknown>".to_string(), 0, 0));
        Diagnostic {
            severity,
            file,
            line,
            col,
            message: message.to_string(),
            notes: vec![],
        }
    }

    /// Renders with the source line and a caret when `source` has the line.
    pub fn render(&self, source: Option<&str>) -> String {
        let mut s = String::new();
        // An unknown location prints `<unknown>:0:`; a file location at
        // line 0 (the module mlir-opt makes up) keeps its column.
        if self.line == 0 && self.file == "<unknown>" {
            s.push_str(&format!(
                "{}:0: {}: {}\n",
                self.file,
                self.severity.as_str(),
                self.message
            ));
        } else {
            s.push_str(&format!(
                "{}:{}:{}: {}: {}\n",
                self.file,
                self.line,
                self.col,
                self.severity.as_str(),
                self.message
            ));
            let line = (self.line as usize).checked_sub(1);
            if let Some(text) = source.and_then(|src| src.lines().nth(line?)) {
                let text: String = text.chars().take(4096).collect();
                s.push_str(&text);
                s.push('\n');
                s.push_str(&" ".repeat(self.col.saturating_sub(1) as usize));
                s.push_str("^\n");
            }
        }
        for n in &self.notes {
            // As MLIR's source manager handler: a note at the place of its
            // error does not show the line a second time.
            let same_place =
                (n.file.as_str(), n.line, n.col) == (self.file.as_str(), self.line, self.col);
            s.push_str(&n.render(if same_place { None } else { source }));
        }
        s
    }
}

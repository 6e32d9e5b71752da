//! The pass manager, the pass registry, the textual pipeline syntax
//! (`-name`, `-name="k=v k2=v2"`, `--pass-pipeline=builtin.module(func.func(p))`),
//! the analysis manager ([`analysis`]) and the async passes, one file
//! each.

pub mod analysis;
pub mod arith_to_llvm;
pub mod async_parallel_for;
pub mod async_to_async_runtime;
pub mod async_to_llvm;
pub mod canonicalize;
mod cleanup_ladder;
pub mod cse;
pub mod expand;
pub mod func_to_llvm;
pub mod inline;
pub mod linalg_to_loops;
pub mod llvm_common;
pub mod memref_expand;
pub mod memref_to_llvm;
pub mod reconcile_casts;
pub mod ref_counting;
pub mod scf_to_cf;
pub mod symbol_dce;
pub mod vector_to_llvm;

pub use analysis::{Analysis, AnalysisManager, PreservedAnalyses};
use mlir_async_dialects::Registry;
use mlir_async_ir::{Context, IrError, Op};
use mlir_async_syntax::Edition;
use std::collections::BTreeMap;

/// What a pass runs with.
pub struct PassContext<'a> {
    pub ctx: &'a mut Context,
    pub registry: &'a Registry,
    /// The syntax generation of the input: passes that emit
    /// edition-specific IR (the coroutine `passthrough`) consult it.
    pub edition: Edition,
    /// Warnings the passes report at ops they leave as they are; the tool
    /// prints them as MLIR prints `emitWarning`.
    pub warnings: Vec<IrError>,
    /// Analyses of `ctx`'s IR, kept from pass to pass: ask with
    /// `pc.analyses.get::<A>(pc.ctx, op)` (the two fields borrow apart, so
    /// the pass keeps changing the IR while it holds the analysis).
    pub analyses: &'a mut AnalysisManager,
    /// What the running pass declared it preserved; [`run_entry`] resets
    /// it before each run and drops the other analyses after.
    pub preserved: PreservedAnalyses,
}

impl<'a> PassContext<'a> {
    pub fn new(
        ctx: &'a mut Context,
        registry: &'a Registry,
        edition: Edition,
        analyses: &'a mut AnalysisManager,
    ) -> Self {
        PassContext {
            ctx,
            registry,
            edition,
            warnings: vec![],
            analyses,
            preserved: PreservedAnalyses::none(),
        }
    }

    /// The analysis `A` of `op`, cached (MLIR's `getAnalysis`).
    pub fn analysis<A: Analysis>(&mut self, op: Op) -> &mut A {
        self.analyses.get::<A>(self.ctx, op)
    }

    /// The running pass changed nothing any analysis reads (MLIR's
    /// `markAllAnalysesPreserved`).
    pub fn mark_all_analyses_preserved(&mut self) {
        self.preserved.preserve_all();
    }

    /// The running pass left the analysis `A` true (MLIR's
    /// `markAnalysesPreserved<A>`).
    pub fn mark_analysis_preserved<A: Analysis>(&mut self) {
        self.preserved.preserve::<A>();
    }
}

/// A transformation of the IR nested under an op (a module or a function).
pub trait Pass {
    /// The command-line argument (`async-to-async-runtime`).
    fn name(&self) -> &'static str;
    /// The class name mlir-opt shows in IR dumps (`AsyncToAsyncRuntime`).
    fn display_name(&self) -> &'static str;
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError>;
    /// Whether, run on a module, the pass changes each top-level function
    /// by what that function holds alone, and adds, removes or renames no
    /// top-level op: then a module split into parts (each with
    /// declarations of the others' functions) can run it part by part
    /// and print what the whole module would (see `mlir-async-opt`'s
    /// sharded runs).
    fn local_to_functions(&self) -> bool {
        false
    }
}

/// Builds a pass from its options, checked against their declarations.
pub type PassConstructor = fn(&PassOptions) -> Result<Box<dyn Pass>, String>;

/// The type of a pass option, as LLVM's `cl::opt` parses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Bool,
    /// A signed 64-bit integer (`cl::opt<long>`, `int64_t` in MLIR's
    /// pass definitions).
    Int,
    /// A signed 32-bit integer (`cl::opt<int>`, `int32_t` in MLIR's pass
    /// definitions).
    Int32,
    /// A comma-separated list of strings (`ListOption<std::string>`).
    StringList,
    /// One string (`cl::opt<std::string>`).
    String,
    /// An unsigned 32-bit integer (`cl::opt<unsigned>`).
    UInt,
}

/// A pass option, declared with the pass: `--help` and the checks of
/// given values come from these declarations.
#[derive(Clone, Copy, Debug)]
pub struct PassOption {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: OptionKind,
    /// The value when not given (empty for a list).
    pub default: &'static str,
    /// The generations that have the option (a pass's options changed
    /// between releases): given in another, it is unknown.
    pub first: Edition,
    pub last: Edition,
}

impl PassOption {
    pub const fn new(
        name: &'static str,
        kind: OptionKind,
        default: &'static str,
        description: &'static str,
    ) -> Self {
        PassOption {
            name,
            description,
            kind,
            default,
            first: Edition::V13,
            last: Edition::V15,
        }
    }

    /// The option exists from generation `e` on.
    pub const fn since(mut self, e: Edition) -> Self {
        self.first = e;
        self
    }

    /// The option exists up to generation `e`.
    pub const fn until(mut self, e: Edition) -> Self {
        self.last = e;
        self
    }

    /// Whether generation `e` has the option.
    pub fn exists_in(&self, e: Edition) -> bool {
        self.first <= e && e <= self.last
    }

    /// The value placeholder `--help` shows (`=<long>`, `=<string>`), as
    /// LLVM's option printer shows it; booleans take none.
    pub fn help_value(&self) -> &'static str {
        match self.kind {
            OptionKind::Bool => "",
            OptionKind::Int => "=<long>",
            OptionKind::Int32 => "=<int>",
            OptionKind::StringList | OptionKind::String => "=<string>",
            OptionKind::UInt => "=<uint>",
        }
    }

    /// Checks a given value, with LLVM's message when it does not parse.
    fn check(&self, v: &str) -> Result<(), String> {
        match self.kind {
            OptionKind::Bool => parse_bool(self.name, v).map(|_| ()),
            OptionKind::Int => v.parse::<i64>().map(|_| ()).map_err(|_| {
                format!(
                    "for the --{} option: '{v}' value invalid for long argument!",
                    self.name
                )
            }),
            OptionKind::Int32 => v.parse::<i32>().map(|_| ()).map_err(|_| {
                format!(
                    "for the --{} option: '{v}' value invalid for integer argument!",
                    self.name
                )
            }),
            OptionKind::UInt => v.parse::<u32>().map(|_| ()).map_err(|_| {
                format!(
                    "for the --{} option: '{v}' value invalid for uint argument!",
                    self.name
                )
            }),
            OptionKind::StringList | OptionKind::String => Ok(()),
        }
    }
}

/// The options a pass was given, checked; unset ones read as their
/// declared default.
pub struct PassOptions {
    decls: &'static [PassOption],
    given: BTreeMap<String, String>,
}

impl PassOptions {
    fn raw(&self, name: &str) -> &str {
        if let Some(v) = self.given.get(name) {
            return v;
        }
        self.decls
            .iter()
            .find(|o| o.name == name)
            .map_or("", |o| o.default)
    }
    /// A boolean option (checked when given, so it parses).
    pub fn bool(&self, name: &str) -> bool {
        parse_bool(name, self.raw(name)).unwrap_or(false)
    }
    pub fn int(&self, name: &str) -> i64 {
        self.raw(name).parse().unwrap_or(0)
    }
    pub fn string(&self, name: &str) -> String {
        self.raw(name).to_string()
    }
    /// A list whose elements may hold commas inside parentheses
    /// (pipelines: `func.func(canonicalize,cse)`), split at the others.
    pub fn list_raw(&self, name: &str) -> Vec<String> {
        let mut out = vec![];
        let mut depth = 0i32;
        let mut cur = String::new();
        for ch in self.raw(name).chars() {
            match ch {
                '(' | '{' => depth += 1,
                ')' | '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.push(std::mem::take(&mut cur));
                    continue;
                }
                _ => {}
            }
            cur.push(ch);
        }
        out.push(cur);
        out.into_iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    }
    pub fn list(&self, name: &str) -> Vec<String> {
        self.raw(name)
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    }
}

/// A registered pass: its argument, summary, options and constructor.
pub struct PassInfo {
    pub arg: &'static str,
    pub summary: &'static str,
    pub options: &'static [PassOption],
    /// The op the pass anchors on (`builtin.module` or `func.func`).
    pub anchor: &'static str,
    pub make: PassConstructor,
}

/// Every pass mlir-async-opt knows.
pub fn registry() -> Vec<PassInfo> {
    vec![
        async_to_async_runtime::info(),
        async_parallel_for::info(),
        canonicalize::info(),
        cse::info(),
        inline::info(),
        symbol_dce::info(),
        expand::info_arith(),
        expand::info_std(),
        reconcile_casts::info(),
        async_to_llvm::info(),
        arith_to_llvm::info(),
        func_to_llvm::info_std(),
        func_to_llvm::info_func(),
        func_to_llvm::info_cf(),
        memref_to_llvm::info(),
        memref_expand::info(),
        vector_to_llvm::info(),
        linalg_to_loops::info_loops(),
        linalg_to_loops::info_parallel(),
        linalg_to_loops::info_llvm(),
        scf_to_cf::info_cf(),
        scf_to_cf::info_std(),
        ref_counting::info(),
        ref_counting::info_opt(),
        ref_counting::info_policy(),
    ]
}

/// One entry of a pipeline: a pass, nested under the ops it anchors on.
pub struct PipelineEntry {
    pub pass: Box<dyn Pass>,
    /// Op names, as the pipeline spells them, from the top-level module
    /// down to the ops the pass runs on: `["builtin.func"]` for
    /// `builtin.func(canonicalize)` in 14, `["builtin.module"]` for a pass
    /// on the modules nested in the top-level one. Matched against each
    /// op's generic name in the input's generation ([`run_entry`]), as
    /// mlir-opt 13-15 match op names.
    pub nesting: Vec<String>,
}

/// What is wrong with a `--pass-pipeline`: a message at a character of
/// the pipeline text (`MLIR Textual PassPipeline Parser:1:col:`), or
/// messages with no location (the pass manager's, at `<unknown>:0:`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PipelineError {
    At { col: usize, message: String },
    Unlocated(Vec<String>),
}

impl PipelineError {
    /// The first message, for callers that show one line.
    pub fn message(&self) -> &str {
        match self {
            PipelineError::At { message, .. } => message,
            PipelineError::Unlocated(ms) => ms.first().map_or("", |m| m.as_str()),
        }
    }
}

/// Parses `k=v k2=v2` (values may be quoted or braced).
pub fn parse_options(s: &str) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    let mut rest = s.trim();
    while !rest.is_empty() {
        let eq = rest
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(rest.len());
        let key = rest[..eq].to_string();
        rest = &rest[eq..];
        let value;
        if let Some(r) = rest.strip_prefix('=') {
            let (v, r2) = if let Some(q) = r.strip_prefix('"') {
                let end = q.find('"').ok_or("unterminated quoted option value")?;
                (q[..end].to_string(), &q[end + 1..])
            } else if let Some(q) = r.strip_prefix('{') {
                let end = q.find('}').ok_or("unterminated braced option value")?;
                (q[..end].to_string(), &q[end + 1..])
            } else {
                let end = r.find(char::is_whitespace).unwrap_or(r.len());
                (r[..end].to_string(), &r[end..])
            };
            value = v;
            rest = r2;
        } else {
            value = "true".to_string();
        }
        if key.is_empty() {
            return Err("expected option name".into());
        }
        out.insert(key, value);
        rest = rest.trim_start();
    }
    Ok(out)
}

/// Parses a boolean option value as LLVM's `cl::opt<bool>` does.
pub fn parse_bool(name: &str, v: &str) -> Result<bool, String> {
    match v {
        "true" | "1" | "TRUE" | "True" => Ok(true),
        "false" | "0" | "FALSE" | "False" => Ok(false),
        _ => Err(format!(
            "for the --{name} option: '{v}' is invalid value for boolean argument! Try 0 or 1"
        )),
    }
}

/// Instantiates a registered pass from its argument and option string.
pub fn make_pass(arg: &str, options: &str) -> Result<(Box<dyn Pass>, &'static str), String> {
    make_pass_for(arg, options, None)
}

/// [`make_pass`] for the input's generation, once it is known: an option
/// the generation's pass does not have is unknown, as in that release's
/// `mlir-opt`.
pub fn make_pass_for(
    arg: &str,
    options: &str,
    edition: Option<Edition>,
) -> Result<(Box<dyn Pass>, &'static str), String> {
    let reg = registry();
    let Some(info) = reg.iter().find(|p| p.arg == arg) else {
        return Err(format!(
            "'{arg}' does not refer to a registered pass or pass pipeline"
        ));
    };
    let given = parse_options(options)?;
    for (k, v) in &given {
        let Some(decl) = info
            .options
            .iter()
            .find(|o| o.name == k && edition.is_none_or(|e| o.exists_in(e)))
        else {
            return Err(format!("<Pass-Options-Parser>: no such option {k}"));
        };
        decl.check(v)?;
    }
    let opts = PassOptions {
        decls: info.options,
        given,
    };
    Ok(((info.make)(&opts)?, info.anchor))
}

/// Parses `builtin.func(a, b{k=v}), c` into entries, with mlir-opt's
/// diagnostics. An empty pipeline is no pass at all.
pub fn parse_pipeline(text: &str) -> Result<Vec<PipelineEntry>, PipelineError> {
    parse_pipeline_for(text, None)
}

/// [`parse_pipeline`] for the input's generation (see [`make_pass_for`]).
pub fn parse_pipeline_for(
    text: &str,
    edition: Option<Edition>,
) -> Result<Vec<PipelineEntry>, PipelineError> {
    let mut out = vec![];
    let chars: Vec<char> = text.chars().collect();
    let mut pos = 0;
    skip_ws(&chars, &mut pos);
    if pos == chars.len() {
        return Ok(out);
    }
    // Parentheses are matched before any name is looked up, as mlir-opt's
    // parser does: an unclosed one is reported just past it.
    let mut open = vec![];
    for (i, &ch) in chars.iter().enumerate() {
        match ch {
            '(' => open.push(i),
            ')' => {
                open.pop();
            }
            _ => {}
        }
    }
    if let Some(&i) = open.last() {
        return Err(PipelineError::At {
            col: i + 2,
            message: "encountered unbalanced parentheses while parsing pipeline".into(),
        });
    }
    parse_pipeline_list(&chars, &mut pos, &mut vec![], &mut out, edition)?;
    skip_ws(&chars, &mut pos);
    if pos != chars.len() {
        return Err(PipelineError::At {
            col: pos + 1,
            message: "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline".into(),
        });
    }
    Ok(out)
}

fn skip_ws(c: &[char], pos: &mut usize) {
    while *pos < c.len() && c[*pos].is_whitespace() {
        *pos += 1;
    }
}

fn parse_pipeline_list(
    c: &[char],
    pos: &mut usize,
    nesting: &mut Vec<String>,
    out: &mut Vec<PipelineEntry>,
    edition: Option<Edition>,
) -> Result<(), PipelineError> {
    loop {
        skip_ws(c, pos);
        let start = *pos;
        while *pos < c.len() && (c[*pos].is_alphanumeric() || "-_.".contains(c[*pos])) {
            *pos += 1;
        }
        // An empty name is reported as an unknown pass (or nests, before
        // `(`), as mlir-opt's pipeline parser does.
        let name: String = c[start..*pos].iter().collect();
        skip_ws(c, pos);
        if *pos < c.len() && c[*pos] == '(' {
            *pos += 1;
            nesting.push(name);
            let open = *pos;
            parse_pipeline_list(c, pos, nesting, out, edition)?;
            nesting.pop();
            skip_ws(c, pos);
            if *pos >= c.len() || c[*pos] != ')' {
                return Err(PipelineError::At {
                    col: open + 1,
                    message: "encountered unbalanced parentheses while parsing pipeline".into(),
                });
            }
            *pos += 1;
        } else {
            let mut opts = String::new();
            if *pos < c.len() && c[*pos] == '{' {
                *pos += 1;
                let s = *pos;
                let mut depth = 1;
                while *pos < c.len() {
                    match c[*pos] {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    *pos += 1;
                }
                if *pos >= c.len() {
                    return Err(PipelineError::At {
                        col: s,
                        message: "unbalanced '{' in pass options".into(),
                    });
                }
                opts = c[s..*pos].iter().collect();
                *pos += 1;
            }
            let (pass, anchor) =
                make_pass_for(&name, &opts, edition).map_err(|message| PipelineError::At {
                    col: start + 1,
                    message,
                })?;
            // A pass tied to an op kind cannot run nested on another. The
            // kind is named as the input's generation names it (13's
            // module is `module`).
            let anchor = match edition {
                Some(ed) if !anchor.is_empty() => {
                    mlir_async_syntax::edition::generic_name(anchor, ed)
                }
                _ => anchor.to_string(),
            };
            if let Some(inner) = nesting.last() {
                if !anchor.is_empty() && anchor != *inner {
                    let mut ms = vec![
                        format!(
                            "Can't add pass '{}' restricted to '{anchor}' on a PassManager intended to run on '{inner}', did you intend to nest?",
                            pass.display_name()
                        ),
                        format!("failed to add `{name}` with options `{opts}`"),
                    ];
                    for n in nesting.iter().rev() {
                        ms.push(format!(
                            "failed to add `{n}` with options `` to inner pipeline"
                        ));
                    }
                    return Err(PipelineError::Unlocated(ms));
                }
            }
            out.push(PipelineEntry {
                pass,
                nesting: nesting.clone(),
            });
        }
        skip_ws(c, pos);
        if *pos < c.len() && c[*pos] == ',' {
            *pos += 1;
            continue;
        }
        return Ok(());
    }
}

/// Runs one pipeline entry on a module: on the module itself, or on each
/// op matching the nesting path below it. Names are matched against the
/// ops' generic names in the input's generation (`builtin.func` in 13 and
/// 14, `func.func` in 15; `builtin.module` names the modules nested in
/// the top-level one), so a pipeline written for another generation
/// matches nothing, as in mlir-opt.
pub fn run_entry(pc: &mut PassContext, e: &PipelineEntry, module: Op) -> Result<(), IrError> {
    let mut targets = vec![module];
    for name in &e.nesting {
        let mut next = vec![];
        for t in targets {
            for &r in pc.ctx.regions_of(t) {
                for b in pc.ctx.region_blocks(r) {
                    for o in pc.ctx.block_ops_iter(b) {
                        let generic =
                            mlir_async_syntax::edition::generic_name(pc.ctx.name(o), pc.edition);
                        if generic == *name {
                            next.push(o);
                        }
                    }
                }
            }
        }
        targets = next;
    }
    // The pass that runs this entry (the inliner runs pipelines on the
    // functions it visits) keeps what it declared.
    let outer = std::mem::take(&mut pc.preserved);
    let mut runs = Vec::with_capacity(targets.len());
    let mut result = Ok(());
    for t in targets {
        pc.preserved = PreservedAnalyses::none();
        result = e.pass.run(pc, t);
        let preserved = std::mem::take(&mut pc.preserved);
        if result.is_err() {
            // The IR is whatever the pass left: nothing cached holds.
            pc.analyses.clear();
            break;
        }
        pc.analyses
            .invalidate_op_and_ancestors(pc.ctx, t, &preserved);
        runs.push((t, preserved));
    }
    pc.analyses.invalidate_nested(pc.ctx, &runs);
    pc.preserved = outer;
    result
}

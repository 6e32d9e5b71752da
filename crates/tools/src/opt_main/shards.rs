//! A large module run through `-async-to-async-runtime` (and passes local
//! to functions after it: the reference-counting passes) in shards: its
//! text is cut between top-level functions, and each part is parsed,
//! verified, lowered and verified again after each pass in its own
//! `Context` on its own thread; once every part is, they are printed as
//! one module.
//!
//! Parsing and the pass mutate a context, so on one context they run on
//! one core; in shards they use them all. Each shard also gets private
//! declarations of the functions the others define, so that its calls
//! verify and the pass can rewrite them; the pass exchanges the little it
//! needs of the whole module through `run_shard` and a `Coordinator`. The
//! printed module is the shards' original functions in order, then their
//! outlined functions in order: the sequential run's text, byte for byte.
//!
//! Anything unusual makes the sharded run give up (an `Err` saying why)
//! before a byte is written, and the caller runs the whole module on one
//! context: errors (whose diagnostics the sequential run words), text
//! that is not a plain list of top-level functions, aliases, a converted
//! function referenced other than by a call.

use super::Options;
use mlir_async_dialects::{verify::verify, Registry};
use mlir_async_ir::fxhash::FxHashSet;
use mlir_async_ir::{parallel, Context, Op};
use mlir_async_passes::async_parallel_for::{self as pf, AsyncParallelFor};
use mlir_async_passes::async_to_async_runtime::{self as rt, exchange, run_shard, ShardLink};
use mlir_async_passes::{make_pass_for, run_entry, AnalysisManager, PassContext, PipelineEntry};
use mlir_async_syntax::printer::{print_type_into, BodySource, Printer};
use mlir_async_syntax::{parse_source, write_sources, Edition, EditionEvidence, PrintOptions};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::Instant;

/// Below this size one context is as fast.
const MIN_BYTES: usize = 64 * 1024;

/// What a sharded run did: the timings `--mlir-timing` shows, the edition
/// printed, and whether the output could be written.
pub(super) struct ShardedRun {
    pub timing: Vec<(String, f64)>,
    pub edition: Edition,
    pub written: Result<(), String>,
}

/// The pipelines a sharded run takes: `-async-to-async-runtime`,
/// `-async-parallel-for` or no module pass, then passes that change each
/// function by what it holds alone (`Pass::local_to_functions`: the
/// reference-counting passes). With no pass at all, the parts are parsed,
/// verified and printed on all cores (a large module read and printed
/// back, as `mlir-opt` does to check it).
struct ShardPipeline<'o> {
    first: First<'o>,
    /// The passes after it: name and options.
    rest: Vec<(&'o str, &'o str)>,
}

/// The module pass a sharded run starts with.
#[derive(Clone, Copy)]
enum First<'o> {
    /// `-async-to-async-runtime`, with `eliminate-blocking-await-ops`.
    Runtime { eliminate: bool },
    /// `-async-parallel-for` with its options.
    ParallelFor { options: &'o str },
    /// No module pass: the pipeline is only passes local to functions, or
    /// nothing.
    LocalOnly,
}

impl First<'_> {
    fn name(self) -> Option<&'static str> {
        match self {
            First::Runtime { .. } => Some("async-to-async-runtime"),
            First::ParallelFor { .. } => Some("async-parallel-for"),
            First::LocalOnly => None,
        }
    }
}

/// A shard's end of its first pass's exchange with the coordinator.
enum Link {
    Runtime(ShardLink),
    ParallelFor(pf::ShardLink),
    /// No module pass, nothing to exchange.
    LocalOnly,
}

fn shard_pipeline(o: &Options) -> Option<ShardPipeline<'_>> {
    let module_pass = match o.pipeline.split_first() {
        Some(((name, opts, false), rest))
            if name == "async-to-async-runtime" || name == "async-parallel-for" =>
        {
            Some((name, opts, rest))
        }
        _ => None,
    };
    let Some((name, opts, rest)) = module_pass else {
        return Some(ShardPipeline {
            first: First::LocalOnly,
            rest: local_passes(&o.pipeline)?,
        });
    };
    let first = match name.as_str() {
        "async-to-async-runtime" => {
            let mut eliminate = false;
            for (k, v) in mlir_async_passes::parse_options(opts).ok()? {
                if k != "eliminate-blocking-await-ops" {
                    return None;
                }
                eliminate = mlir_async_passes::parse_bool(&k, &v).ok()?;
            }
            First::Runtime { eliminate }
        }
        // Its options are checked against the input's generation.
        _ => First::ParallelFor { options: opts },
    };
    Some(ShardPipeline {
        first,
        rest: local_passes(rest)?,
    })
}

/// `passes` if each changes each function by what it holds alone.
fn local_passes(passes: &[(String, String, bool)]) -> Option<Vec<(&str, &str)>> {
    let mut local = vec![];
    for (name, opts, is_pipeline) in passes {
        if *is_pipeline {
            return None;
        }
        let (pass, anchor) = make_pass_for(name, opts, None).ok()?;
        if !anchor.is_empty() || !pass.local_to_functions() {
            return None;
        }
        local.push((name.as_str(), opts.as_str()));
    }
    Some(local)
}

/// Where to cut `text` into `parts` parts: at the first line after each
/// equal share that starts at column 0 with an op (a letter or a quoted
/// name), with the number of lines before it. Only the lines near the
/// cuts are read: a cut that is not between two top-level ops leaves a
/// part that does not parse (an op or a region left open, or a part
/// starting with the tail of an op), and the module then runs whole.
/// `None` when the text is one `module` op, or defines aliases (at the
/// start of a line), which every part would need.
fn cut_points(text: &str, parts: usize) -> Option<Vec<(usize, u32)>> {
    let b = text.as_bytes();
    let first = text
        .lines()
        .map(str::trim_start)
        .find(|l| !l.is_empty() && !l.starts_with("//"))?;
    if first.starts_with("module") || first.starts_with('#') || first.starts_with('!') {
        return None;
    }
    if text.contains("\n#") || text.contains("\n!") {
        return None;
    }
    let mut cuts: Vec<(usize, u32)> = vec![(0, 0)];
    let mut lines = 0u32;
    for k in 1..parts {
        let from = (text.len() * k / parts).max(cuts.last()?.0 + 1);
        let mut i = from;
        let at = loop {
            let nl = i + b.get(i..)?.iter().position(|&c| c == b'\n')?;
            match b.get(nl + 1) {
                Some(c) if c.is_ascii_alphabetic() || *c == b'"' => break nl + 1,
                Some(_) => i = nl + 1,
                None => return None,
            }
        };
        // Counted in one pass over each stretch (vectorized).
        let prev = cuts.last()?.0;
        lines += b[prev..at].iter().filter(|&&c| c == b'\n').count() as u32;
        cuts.push((at, lines));
    }
    Some(cuts)
}

/// One part of the module, in its own context.
struct ShardState {
    ctx: Context,
    reg: Registry,
    module: Op,
    evidence: EditionEvidence,
    /// Its own top-level ops, before the declarations.
    own: usize,
    /// `func.func private @f(...) -> (...)` of each of its functions.
    decls: Vec<String>,
    foreign: FxHashSet<Op>,
}

fn parse_shard(o: &Options, file: &str, text: &str, line: u32) -> Option<ShardState> {
    let mut ctx = Context::new();
    let reg = Registry::new(&mut ctx);
    let parsed = parse_source(&mut ctx, &reg, file, text, line, o.allow_unregistered).ok()?;
    let module = parsed.module;
    let body = Printer::body_ops(&ctx, module)?;
    let mut decls = vec![];
    for &f in &body {
        if ctx.name(f) != "func.func" {
            continue;
        }
        let name = ctx.symbol_name(f)?;
        // Names that print quoted are left to the sequential run.
        let plain = name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'$');
        let (ins, outs) = mlir_async_dialects::builtin::func_type(&ctx, f);
        if !plain || name.is_empty() {
            return None;
        }
        let mut d = format!("func.func private @{name}(");
        for (k, &t) in ins.iter().enumerate() {
            if k > 0 {
                d.push_str(", ");
            }
            print_type_into(&ctx, t, &mut d);
        }
        d.push_str(") -> (");
        for (k, &t) in outs.iter().enumerate() {
            if k > 0 {
                d.push_str(", ");
            }
            print_type_into(&ctx, t, &mut d);
        }
        d.push_str(")\n");
        decls.push(d);
    }
    Some(ShardState {
        ctx,
        reg,
        module,
        evidence: parsed.evidence,
        own: body.len(),
        decls,
        foreign: FxHashSet::default(),
    })
}

/// Adds declarations of the other shards' functions to `s`.
fn declare_foreign(s: &mut ShardState, o: &Options, file: &str, decls: &str) -> Option<()> {
    if decls.is_empty() {
        return Some(());
    }
    let parsed = parse_source(&mut s.ctx, &s.reg, file, decls, 0, o.allow_unregistered).ok()?;
    let from = Printer::body_ops(&s.ctx, parsed.module)?;
    let r = s.ctx.regions_of(s.module)[0];
    let body = s.ctx.entry_block(r)?;
    for d in from {
        s.ctx.detach_op(d);
        s.ctx.insert_op(mlir_async_ir::InsertPoint::AtEnd(body), d);
        s.foreign.insert(d);
    }
    Some(())
}

/// What a shard's thread gets from the others once all are parsed: the
/// declarations of their functions, and the edition of the whole input.
type Declared = (String, Edition);

/// What a shard's thread tells the others once parsed (by its index): the
/// declarations of its functions and the spellings it met; `None` if it
/// did not parse.
type PartParsed = (usize, Option<(Vec<String>, EditionEvidence)>);

/// Seconds a shard spent parsing, verifying, lowering, verifying again,
/// then in each later pass and the verification after it.
type Phases = Vec<f64>;

/// One shard, from text to verified lowered IR, on its own thread; the
/// other shards are met twice: to swap declarations, and in the pass.
#[allow(clippy::too_many_arguments)]
fn run_part(
    o: &Options,
    file: &str,
    text: &str,
    line: u32,
    k: usize,
    parsed: Sender<PartParsed>,
    declared: Receiver<Declared>,
    link: Link,
    pipeline: &ShardPipeline,
) -> Result<(ShardState, Phases), &'static str> {
    let mut phases = vec![0.0; 4];
    let t0 = Instant::now();
    let Some(mut s) = parse_shard(o, file, text, line) else {
        let _ = parsed.send((k, None));
        return Err("a part did not parse");
    };
    let decls = std::mem::take(&mut s.decls);
    let _ = parsed.send((k, Some((decls, s.evidence))));
    let (others, edition) = declared.recv().map_err(|_| "another part did not parse")?;
    declare_foreign(&mut s, o, file, &others)
        .ok_or("a part did not parse with the others' declarations")?;
    phases[0] = t0.elapsed().as_secs_f64();
    let t0 = Instant::now();
    verify(&s.ctx, &s.reg, s.module, edition).map_err(|_| "a part did not verify")?;
    phases[1] = t0.elapsed().as_secs_f64();
    let t0 = Instant::now();
    let foreign = s.foreign.clone();
    // The lowering is run directly, not by `run_entry`: it asks for no
    // analysis, and the manager starts empty for the passes after it.
    let mut analyses = AnalysisManager::new();
    let mut pc = PassContext::new(&mut s.ctx, &s.reg, edition, &mut analyses);
    match (pipeline.first, link) {
        (First::Runtime { eliminate }, Link::Runtime(link)) => {
            run_shard(&mut pc, s.module, foreign, link, eliminate)
                .map_err(|_| "the pass needs the whole module")?
        }
        (First::ParallelFor { options }, Link::ParallelFor(link)) => {
            let pass = AsyncParallelFor::from_options(options, edition)
                .map_err(|_| "a pass has bad options")?;
            pf::run_shard(&pass, &mut pc, s.module, &foreign, link)
                .map_err(|_| "the pass needs the whole module")?
        }
        (First::LocalOnly, Link::LocalOnly) => {}
        _ => return Err("the pass needs the whole module"),
    }
    if pipeline.first.name().is_some() {
        phases[2] = t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        verify(&s.ctx, &s.reg, s.module, edition)
            .map_err(|_| "a part did not verify after the pass")?;
        phases[3] = t0.elapsed().as_secs_f64();
    }
    for &(name, opts) in &pipeline.rest {
        let t0 = Instant::now();
        let (pass, _) =
            make_pass_for(name, opts, Some(edition)).map_err(|_| "a pass has bad options")?;
        let entry = PipelineEntry {
            pass,
            nesting: vec![],
        };
        let mut pc = PassContext::new(&mut s.ctx, &s.reg, edition, &mut analyses);
        run_entry(&mut pc, &entry, s.module).map_err(|_| "a pass failed on a part")?;
        // Warnings are printed in the whole run's order.
        if !pc.warnings.is_empty() {
            return Err("a pass warned");
        }
        phases.push(t0.elapsed().as_secs_f64());
        let t0 = Instant::now();
        verify(&s.ctx, &s.reg, s.module, edition)
            .map_err(|_| "a part did not verify after a pass")?;
        phases.push(t0.elapsed().as_secs_f64());
    }
    Ok((s, phases))
}

/// Runs the module in shards, writing the output to `dest`; says why not
/// when it is not worth it or not possible (nothing was written then).
pub(super) fn try_sharded(
    o: &Options,
    file: &str,
    dest: &str,
    text: &str,
) -> Result<ShardedRun, &'static str> {
    let pipeline = shard_pipeline(o).ok_or(
        "the pipeline is not -async-to-async-runtime or -async-parallel-for followed by passes local to functions",
    )?;
    let pipeline = &pipeline;
    if o.print_generic || o.print_debuginfo || o.print_ir_after_all {
        return Err("the output options print more than the module");
    }
    let wanted = match o.shards {
        Some(n) => n,
        None if text.len() < MIN_BYTES => return Err("the module is small"),
        None => parallel::threads_for(usize::MAX),
    };
    if wanted < 2 || parallel::threading_disabled() {
        return Err("there is one thread");
    }
    // Cut at the first op starting a line after each equal share.
    let cuts = match cut_points(text, wanted) {
        Some(c) => c,
        None if text.len() < 2 => return Err("the module is empty"),
        None => return Err("the text is not a list of top-level operations"),
    };
    let mut ends: Vec<usize> = cuts.iter().skip(1).map(|c| c.0).collect();
    ends.push(text.len());
    let parts: Vec<(usize, usize, u32)> = cuts
        .iter()
        .zip(&ends)
        .map(|(&(s, l), &e)| (s, e, l))
        .collect();
    let (coordinator, links): (Box<dyn FnOnce() + Send>, Vec<Link>) = match pipeline.first {
        First::Runtime { eliminate } => {
            let (c, links) = exchange(parts.len());
            (
                Box::new(move || {
                    let _: Result<(), rt::NotSharded> = c.run(eliminate);
                }),
                links.into_iter().map(Link::Runtime).collect(),
            )
        }
        First::ParallelFor { .. } => {
            let (c, links) = pf::exchange(parts.len());
            (
                Box::new(move || {
                    let _ = c.run();
                }),
                links.into_iter().map(Link::ParallelFor).collect(),
            )
        }
        First::LocalOnly => (
            Box::new(|| {}),
            parts.iter().map(|_| Link::LocalOnly).collect(),
        ),
    };
    let mut edition = o.edition.unwrap_or(Edition::V15);
    let results: Vec<Result<(ShardState, Phases), &str>> = std::thread::scope(|sc| {
        let (parsed, from_parts) = channel();
        let mut to_parts = vec![];
        let mut handles = vec![];
        for (k, (link, &(start, end, line))) in links.into_iter().zip(&parts).enumerate() {
            let (tx, declared) = channel();
            to_parts.push(tx);
            let parsed = parsed.clone();
            let part = std::thread::Builder::new().stack_size(parallel::DEEP_STACK);
            handles.push(
                part.spawn_scoped(sc, move || {
                    // Each part is one of the threads: what it verifies stays
                    // on it.
                    parallel::on_this_thread(|| {
                        run_part(
                            o,
                            file,
                            &text[start..end],
                            line,
                            k,
                            parsed,
                            declared,
                            link,
                            pipeline,
                        )
                    })
                })
                .expect("failed to spawn thread"),
            );
        }
        drop(parsed);
        let mut decls: Vec<Vec<String>> = vec![vec![]; parts.len()];
        let mut evidence = EditionEvidence::default();
        let mut all_parsed = true;
        for _ in 0..parts.len() {
            match from_parts.recv() {
                Ok((k, Some((d, e)))) => {
                    decls[k] = d;
                    evidence = evidence.merge(e);
                }
                _ => all_parsed = false,
            }
        }
        if all_parsed {
            edition = o.edition.unwrap_or(evidence.edition());
            for (k, tx) in to_parts.iter().enumerate() {
                let others: String = decls
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .flat_map(|(_, d)| d.iter().map(String::as_str))
                    .collect();
                let _ = tx.send((others, edition));
            }
        }
        // A part still waiting for declarations fails, and so does every
        // part waiting in the pass when one stopped.
        drop(to_parts);
        coordinator();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err("a part stopped")))
            .collect()
    });
    let mut shards = vec![];
    let mut phases = vec![0.0f64; 4 + 2 * pipeline.rest.len()];
    for r in results {
        let (s, p) = r?;
        for (a, b) in phases.iter_mut().zip(p) {
            *a = a.max(b);
        }
        shards.push(s);
    }
    // Phases 2 and 3 are the module pass and the verification after it,
    // when there is one.
    let mut names = vec![Some("Parser"), Some("Verifier")];
    match pipeline.first.name() {
        Some(pass) => names.extend([Some(pass), Some("Verifier")]),
        None => names.extend([None, None]),
    }
    for &(name, _) in &pipeline.rest {
        names.extend([Some(name), Some("Verifier")]);
    }
    let mut timing: Vec<(String, f64)> = names
        .iter()
        .zip(phases)
        .filter_map(|(n, t)| Some((n.as_ref()?.to_string(), t)))
        .collect();

    let t0 = Instant::now();
    // Each shard's body: its own ops, the declarations, then what the
    // pass outlined.
    let mut own = vec![];
    let mut outlined = vec![];
    for s in &shards {
        let body = Printer::body_ops(&s.ctx, s.module).ok_or("a body defines values")?;
        let n = s.own + s.foreign.len();
        if body.len() < n || body[s.own..n].iter().any(|d| !s.foreign.contains(d)) {
            return Err("the pass moved the declarations");
        }
        if s.ctx.may_print_affine() {
            return Err("the output may need attribute aliases");
        }
        own.push(body[..s.own].to_vec());
        outlined.push(body[n..].to_vec());
    }
    // The first part's module frames the text: it needs a body to hold
    // the place of the parts (a module in the generic form may be cut
    // before its first op).
    if shards
        .first()
        .and_then(|s| Printer::body_ops(&s.ctx, s.module))
        .is_none_or(|b| b.is_empty())
    {
        return Err("the first part is empty");
    }
    let mut sources = vec![];
    for (s, ops) in shards.iter().zip(own) {
        sources.push(BodySource {
            ctx: &s.ctx,
            hooks: &s.reg,
            top: s.module,
            ops,
        });
    }
    // `-async-parallel-for` adds the functions of the last part first.
    let mut outlined: Vec<_> = shards.iter().zip(outlined).collect();
    if matches!(pipeline.first, First::ParallelFor { .. }) {
        outlined.reverse();
    }
    for (s, ops) in outlined {
        sources.push(BodySource {
            ctx: &s.ctx,
            hooks: &s.reg,
            top: s.module,
            ops,
        });
    }
    let popts = PrintOptions {
        edition,
        generic: false,
        debug_info: false,
    };
    let written = super::write_output(dest, |w| {
        match write_sources(&sources, popts, w) {
            Some(r) => r?,
            None => return Err(std::io::Error::other("the shards could not be printed")),
        }
        // mlir-opt ends its output with an empty line.
        w.write_all(b"\n")
    });
    timing.push(("Output".to_string(), t0.elapsed().as_secs_f64()));
    drop(sources);
    // The process ends right after: freeing a large IR piece by piece
    // would only cost time.
    std::mem::forget(shards);
    Ok(ShardedRun {
        timing,
        edition,
        written,
    })
}

#[cfg(test)]
mod tests {
    use super::cut_points;

    #[test]
    fn cuts_at_lines_starting_an_op() {
        let text = "// c\nfunc @a() {\n  return\n}\nfunc @b() {\n  return\n}\n";
        let cuts = cut_points(text, 2).unwrap();
        assert_eq!(cuts.len(), 2);
        let (at, line) = cuts[1];
        assert!(text[at..].starts_with("func @b"), "{}", &text[at..]);
        assert_eq!(line, 4);
        // No op starts a line after the middle of the last function.
        assert!(cut_points("func @a() {\n  return\n}\n", 2).is_none());
    }

    #[test]
    fn refuses_aliases_and_modules() {
        assert!(cut_points("#map = affine_map<(d0) -> (d0)>\nfunc @a()\nfunc @b()\n", 2).is_none());
        assert!(cut_points("func @a()\n!t = i32\nfunc @b()\n", 2).is_none());
        assert!(cut_points("// x\nmodule {\n  func @a()\n}\nfunc @b()\n", 2).is_none());
    }
}

//! LIR to Cranelift IR, and the JIT module that holds the machine code.
//!
//! Every LIR value is a Cranelift `Variable`: the frontend's SSA builder
//! then inserts the block parameters where definitions meet, which is what
//! the coroutine parts need (after a resume, a value comes from the frame
//! on the dispatch path and from its definition on the others) and costs
//! plain functions nothing in the generated code.

use crate::coro::{self, CoroLayout, Exit, Part, Plan};
use crate::error::ExecError;
use crate::lir::{
    self, BinOp, Callee, CastOp, FloatCC, Function, InstKind, IntCC, Sig, Terminator, Ty, UnOp,
    Value,
};
use cranelift_codegen::ir::condcodes::{FloatCC as CFloatCC, IntCC as CIntCC};
use cranelift_codegen::ir::immediates::{Ieee32, Ieee64};
use cranelift_codegen::ir::{
    self, types, AbiParam, BlockArg, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind,
    TrapCode,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{DataDescription, DataId, FuncId, Linkage, Module as _};
use std::collections::{BTreeMap, HashMap};

/// `-O0` .. `-O3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OptLevel {
    O0,
    O1,
    #[default]
    O2,
    O3,
}

impl OptLevel {
    /// Cranelift has two levels that matter: none, and speed (its e-graph
    /// rewrites, GVN, LICM, alias analysis). `-O1`..`-O3` all get speed.
    fn cranelift(self) -> &'static str {
        match self {
            OptLevel::O0 => "none",
            _ => "speed",
        }
    }
}

/// Compiled code: the JIT module and the address of every function.
pub struct Compiled {
    module: JITModule,
    funcs: HashMap<String, FuncId>,
}

impl Compiled {
    /// The address of a function of the module (its ramp for a coroutine).
    pub fn function_address(&self, name: &str) -> Option<*const u8> {
        let id = self.funcs.get(name)?;
        Some(self.module.get_finalized_function(*id))
    }

    /// Keeps the machine code mapped for the rest of the process: tasks
    /// still queued in the runtime may run it after the caller is done.
    pub fn leak(self) {
        std::mem::forget(self.module);
    }
}

/// The C library functions the generated code calls for float operations
/// Cranelift has no instruction for.
fn libm_name(op: &str, ty: Ty) -> String {
    if ty == Ty::F32 {
        format!("{op}f")
    } else {
        op.to_string()
    }
}

fn libm_op(op: UnOp) -> Option<&'static str> {
    Some(match op {
        UnOp::FRound => "round",
        UnOp::FExp => "exp",
        UnOp::FExp2 => "exp2",
        UnOp::FLog => "log",
        UnOp::FLog2 => "log2",
        UnOp::FLog10 => "log10",
        UnOp::FSin => "sin",
        UnOp::FCos => "cos",
        UnOp::FTanh => "tanh",
        _ => return None,
    })
}

/// Every external symbol the module needs: called or addressed functions
/// it does not define, external globals, and the libm functions used for
/// float ops.
pub fn imports(m: &lir::Module) -> BTreeMap<String, Option<Sig>> {
    let defined: std::collections::HashSet<&str> = m
        .functions
        .iter()
        .filter(|f| !f.is_declaration())
        .map(|f| f.name.as_str())
        .chain(
            m.globals
                .iter()
                .filter(|g| !g.external)
                .map(|g| g.name.as_str()),
        )
        .collect();
    let declared: HashMap<&str, &Sig> = m
        .functions
        .iter()
        .map(|f| (f.name.as_str(), &f.sig))
        .collect();
    let mut out = BTreeMap::new();
    let mut add = |n: &str, sig: Option<Sig>| {
        if !defined.contains(n) {
            let sig = declared.get(n).map(|s| (*s).clone()).or(sig);
            out.entry(n.to_string()).or_insert(sig);
        }
    };
    for f in &m.functions {
        for b in &f.blocks {
            for inst in &b.insts {
                match &inst.kind {
                    InstKind::Call {
                        callee: Callee::Direct(n),
                        sig,
                        ..
                    } => add(n, Some(sig.clone())),
                    InstKind::FuncAddr(n) | InstKind::GlobalAddr(n) => add(n, None),
                    InstKind::Binary(BinOp::FRem, a, _) => {
                        let t = f.ty(*a);
                        add(&libm_name("fmod", t), Some(Sig::new(vec![t, t], vec![t])));
                    }
                    InstKind::Binary(BinOp::FPow, a, _) => {
                        let t = f.ty(*a);
                        add(&libm_name("pow", t), Some(Sig::new(vec![t, t], vec![t])));
                    }
                    InstKind::Unary(op, a) => {
                        if let Some(n) = libm_op(*op) {
                            let t = f.ty(*a);
                            add(&libm_name(n, t), Some(Sig::new(vec![t], vec![t])));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

fn clif_ty(t: Ty) -> ir::Type {
    match t {
        Ty::I1 | Ty::I8 => types::I8,
        Ty::I16 => types::I16,
        Ty::I32 => types::I32,
        Ty::I64 | Ty::Ptr => types::I64,
        Ty::F32 => types::F32,
        Ty::F64 => types::F64,
        Ty::F32X4 => types::F32X4,
        Ty::F64X2 => types::F64X2,
        Ty::I32X4 => types::I32X4,
        Ty::I64X2 => types::I64X2,
    }
}

fn abi(t: Ty) -> AbiParam {
    let p = AbiParam::new(clif_ty(t));
    // C's `bool` is zero-extended by the caller on x86-64 and AArch64.
    if t == Ty::I1 {
        p.uext()
    } else {
        p
    }
}

fn clif_sig(sig: &Sig, cc: cranelift_codegen::isa::CallConv) -> ir::Signature {
    let mut s = ir::Signature::new(cc);
    s.params.extend(sig.params.iter().map(|t| abi(*t)));
    s.returns.extend(sig.results.iter().map(|t| abi(*t)));
    s
}

fn resume_sig() -> Sig {
    Sig::new(vec![Ty::Ptr], vec![])
}

/// Name of a coroutine part's function (as LLVM names them).
pub fn part_name(f: &str, part: Part) -> String {
    match part {
        Part::Resume => format!("{f}.resume"),
        Part::Destroy => format!("{f}.destroy"),
        _ => f.to_string(),
    }
}

fn codegen_err(function: &str, e: impl std::fmt::Display) -> ExecError {
    ExecError::Codegen {
        function: function.to_string(),
        message: e.to_string(),
    }
}

/// Compiles `m`: `symbols` gives the address of every name of
/// [`imports`] (all must resolve; check first).
pub fn compile(
    m: &lir::Module,
    opt: OptLevel,
    symbols: &HashMap<String, usize>,
) -> Result<Compiled, ExecError> {
    compile_with(m, opt, false, symbols)
}

/// The tracing hook's name (see [`crate::trace`]).
const TRACE_HOOK: &str = "__mlir_async_run_trace";

/// [`compile`], with calls of the tracing hook in coroutines when `trace`
/// (function ids are indices into `m.functions`).
pub fn compile_with(
    m: &lir::Module,
    opt: OptLevel,
    trace: bool,
    symbols: &HashMap<String, usize>,
) -> Result<Compiled, ExecError> {
    let mut symbols = symbols.clone();
    if trace {
        symbols.insert(
            TRACE_HOOK.to_string(),
            crate::trace::__mlir_async_run_trace as *const () as usize,
        );
    }
    let mut flags = settings::builder();
    let set = |flags: &mut settings::Builder, k: &str, v: &str| {
        flags
            .set(k, v)
            .map_err(|e| codegen_err("<module>", format!("setting {k}={v}: {e}")))
    };
    set(&mut flags, "opt_level", opt.cranelift())?;
    set(&mut flags, "use_colocated_libcalls", "false")?;
    set(&mut flags, "is_pic", "false")?;
    set(&mut flags, "enable_multi_ret_implicit_sret", "true")?;
    // The verifier costs compile time and guards against executor bugs
    // only; keep it in debug builds.
    set(
        &mut flags,
        "enable_verifier",
        if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        },
    )?;
    let isa_builder =
        cranelift_native::builder().map_err(|e| codegen_err("<module>", e.to_string()))?;
    let isa = isa_builder
        .finish(settings::Flags::new(flags))
        .map_err(|e| codegen_err("<module>", e))?;
    let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    jb.symbols(symbols.iter().map(|(k, v)| (k.clone(), *v as *const u8)));
    let mut module = JITModule::new(jb);
    let cc = module.isa().default_call_conv();

    // Declarations.
    let mut funcs: HashMap<String, FuncId> = HashMap::new();
    let mut layouts: HashMap<String, CoroLayout> = HashMap::new();
    for f in &m.functions {
        let (linkage, sig) = if f.is_declaration() {
            (Linkage::Import, &f.sig)
        } else {
            (Linkage::Local, &f.sig)
        };
        let id = module
            .declare_function(&f.name, linkage, &clif_sig(sig, cc))
            .map_err(|e| codegen_err(&f.name, e))?;
        funcs.insert(f.name.clone(), id);
        if !f.is_declaration() && is_coroutine(f) {
            let l = coro::layout(f)?;
            if dump_clif() {
                eprintln!("; coroutine {}: frame {} bytes", f.name, l.frame_size);
                for (i, s) in l.suspends.iter().enumerate() {
                    eprintln!(
                        ";   suspend {i}: spills {:?} remats {:?}",
                        s.spills, s.remats
                    );
                }
            }
            layouts.insert(f.name.clone(), l);
            for part in [Part::Resume, Part::Destroy] {
                let name = part_name(&f.name, part);
                let id = module
                    .declare_function(&name, Linkage::Local, &clif_sig(&resume_sig(), cc))
                    .map_err(|e| codegen_err(&f.name, e))?;
                funcs.insert(name, id);
            }
        }
    }
    let mut data: HashMap<String, DataId> = HashMap::new();
    for g in &m.globals {
        let linkage = if g.external {
            Linkage::Import
        } else {
            Linkage::Local
        };
        let id = module
            .declare_data(&g.name, linkage, true, false)
            .map_err(|e| codegen_err(&g.name, e))?;
        if !g.external {
            let mut d = DataDescription::new();
            let mut bytes = g.init.clone();
            bytes.resize(g.size.max(g.init.len() as u32) as usize, 0);
            d.define(bytes.into_boxed_slice());
            d.set_align(u64::from(g.align.max(1)));
            module
                .define_data(id, &d)
                .map_err(|e| codegen_err(&g.name, e))?;
        }
        data.insert(g.name.clone(), id);
    }
    if trace {
        let sig = Sig::new(vec![Ty::I32, Ty::Ptr, Ty::I64], vec![]);
        let id = module
            .declare_function(TRACE_HOOK, Linkage::Import, &clif_sig(&sig, cc))
            .map_err(|e| codegen_err(TRACE_HOOK, e))?;
        funcs.insert(TRACE_HOOK.to_string(), id);
    }
    // Symbols used only by address or by calls without a declaration.
    for (name, sig) in imports(m) {
        if !funcs.contains_key(&name) && !data.contains_key(&name) {
            let sig = sig.unwrap_or_default();
            let id = module
                .declare_function(&name, Linkage::Import, &clif_sig(&sig, cc))
                .map_err(|e| codegen_err(&name, e))?;
            funcs.insert(name, id);
        }
    }

    let mut ctx = module.make_context();
    let mut fctx = FunctionBuilderContext::new();
    for (fid, f) in m.functions.iter().enumerate() {
        if f.is_declaration() {
            continue;
        }
        let layout = layouts.get(&f.name);
        let parts: &[Part] = if layout.is_some() {
            &[Part::Ramp, Part::Resume, Part::Destroy]
        } else {
            &[Part::Plain]
        };
        for &part in parts {
            let name = part_name(&f.name, part);
            let plan = coro::plan(f, part, layout);
            let sig = match part {
                Part::Resume | Part::Destroy | Part::Analysis => resume_sig(),
                _ => f.sig.clone(),
            };
            ctx.func.signature = clif_sig(&sig, cc);
            {
                let b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
                let e = Emitter {
                    f,
                    part,
                    layout,
                    plan: &plan,
                    b,
                    vars: Vec::new(),
                    blocks: Vec::new(),
                    handle_var: None,
                    module: &mut module,
                    funcs: &funcs,
                    data: &data,
                    func_refs: HashMap::new(),
                    slots: HashMap::new(),
                    cc,
                    trace: (trace && layout.is_some()).then_some(fid as i64),
                    cont_results: if layout.is_some() {
                        coro::cont_results(f)
                    } else {
                        HashMap::new()
                    },
                };
                e.emit()?;
            }
            if dump_clif() {
                eprintln!("; {name}\n{}", ctx.func.display());
                ctx.set_disasm(true);
            }
            let id = funcs[&name];
            module.define_function(id, &mut ctx).map_err(|e| {
                let msg = match &e {
                    cranelift_module::ModuleError::Compilation(
                        cranelift_codegen::CodegenError::Verifier(errs),
                    ) => format!("{errs}\n{}", ctx.func.display()),
                    _ => e.to_string(),
                };
                codegen_err(&name, msg)
            })?;
            if dump_clif() {
                if let Some(code) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
                    eprintln!("; {name} (machine code)\n{code}");
                }
            }
            module.clear_context(&mut ctx);
        }
    }
    module
        .finalize_definitions()
        .map_err(|e| codegen_err("<module>", e))?;
    Ok(Compiled { module, funcs })
}

/// `MLIR_ASYNC_RUN_DUMP_CLIF=1`: print the Cranelift IR of every function
/// and the frame layout of every coroutine on stderr (for debugging the
/// executor).
fn dump_clif() -> bool {
    std::env::var_os("MLIR_ASYNC_RUN_DUMP_CLIF").is_some()
}

/// Whether `f` uses the coroutine intrinsics that make it a coroutine.
pub fn is_coroutine(f: &Function) -> bool {
    f.blocks.iter().any(|b| {
        matches!(b.term, Terminator::CoroSuspend { .. })
            || b.insts.iter().any(|i| {
                matches!(
                    i.kind,
                    InstKind::CoroBegin(_)
                        | InstKind::CoroSave(_)
                        | InstKind::CoroSize
                        | InstKind::CoroAlign
                        | InstKind::CoroFree(_)
                        | InstKind::CoroEnd(_)
                )
            })
    })
}

struct Emitter<'a, 'b> {
    f: &'a Function,
    part: Part,
    layout: Option<&'a CoroLayout>,
    plan: &'a Plan,
    b: FunctionBuilder<'b>,
    vars: Vec<Variable>,
    blocks: Vec<ir::Block>,
    handle_var: Option<Variable>,
    module: &'a mut JITModule,
    funcs: &'a HashMap<String, FuncId>,
    data: &'a HashMap<String, DataId>,
    func_refs: HashMap<String, ir::FuncRef>,
    slots: HashMap<Value, ir::StackSlot>,
    cc: cranelift_codegen::isa::CallConv,
    /// The function id to report to the tracing hook, when tracing.
    trace: Option<i64>,
    /// The suspend result defined at the top of each continuation block.
    cont_results: HashMap<lir::Block, Value>,
}

fn args(vals: &[ir::Value]) -> Vec<BlockArg> {
    vals.iter().map(|v| BlockArg::Value(*v)).collect()
}

impl Emitter<'_, '_> {
    fn emit(mut self) -> Result<(), ExecError> {
        let f = self.f;
        self.vars = f
            .values
            .iter()
            .map(|t| self.b.declare_var(clif_ty(*t)))
            .collect();
        self.blocks = self
            .plan
            .nodes
            .iter()
            .map(|_| self.b.create_block())
            .collect();
        match self.part {
            Part::Plain | Part::Ramp => {
                if self.blocks.is_empty() {
                    return Err(codegen_err(&f.name, "no entry block"));
                }
                self.b
                    .append_block_params_for_function_params(self.blocks[0]);
            }
            Part::Resume | Part::Destroy => self.emit_dispatch()?,
            Part::Analysis => return Err(codegen_err(&f.name, "the analysis part is not code")),
        }
        for n in 0..self.plan.nodes.len() {
            self.emit_node(n)?;
        }
        self.b.seal_all_blocks();
        let cfg = self.module.target_config();
        self.b.finalize(cfg);
        Ok(())
    }

    /// The entry of a resume or destroy part: load the suspend index and
    /// jump to the code after that suspend point, with the values kept in
    /// the frame loaded and the others recomputed.
    fn emit_dispatch(&mut self) -> Result<(), ExecError> {
        let layout = self.layout.expect("resume part of a coroutine");
        let entry = self.b.create_block();
        self.b.append_block_params_for_function_params(entry);
        self.b.switch_to_block(entry);
        let h = self.b.block_params(entry)[0];
        let hv = self.b.declare_var(types::I64);
        self.b.def_var(hv, h);
        self.handle_var = Some(hv);
        if self.part == Part::Resume {
            self.trace_event(crate::trace::RESUMED, h)?;
        }
        let idx = self
            .b
            .ins()
            .load(types::I32, MemFlagsData::trusted(), h, coro::INDEX_OFFSET);
        let trap = self.b.create_block();
        let mut sw = Switch::new();
        let mut targets = Vec::new();
        for &(si, node) in &self.plan.dispatch {
            let d = self.b.create_block();
            sw.set_entry(si as u128, d);
            targets.push((si, node, d));
        }
        sw.emit(&mut self.b, idx, trap);
        self.b.switch_to_block(trap);
        self.b.ins().trap(TrapCode::unwrap_user(1));
        for (si, node, d) in targets {
            self.b.switch_to_block(d);
            let s = &layout.suspends[si];
            let h = self.b.use_var(hv);
            for &v in &s.spills {
                let off = layout.slots[&v] as i32;
                let x = self
                    .b
                    .ins()
                    .load(clif_ty(self.f.ty(v)), MemFlagsData::trusted(), h, off);
                self.b.def_var(self.vars[v.0 as usize], x);
            }
            for &v in &s.remats {
                self.remat(v)?;
            }
            self.b.ins().jump(self.blocks[node], &[]);
        }
        Ok(())
    }

    /// Calls the tracing hook (when tracing) with `kind` for frame `h`.
    fn trace_event(&mut self, kind: i32, h: ir::Value) -> Result<(), ExecError> {
        let Some(fid) = self.trace else {
            return Ok(());
        };
        let r = self.func_ref(TRACE_HOOK)?;
        let k = self.b.ins().iconst(types::I32, i64::from(kind));
        let f = self.b.ins().iconst(types::I64, fid);
        self.b.ins().call(r, &[k, h, f]);
        Ok(())
    }

    fn handle(&mut self) -> ir::Value {
        match self.handle_var {
            Some(v) => self.b.use_var(v),
            None => {
                let l = self.layout.expect("coroutine");
                self.b.use_var(self.vars[l.handle.0 as usize])
            }
        }
    }

    /// Recomputes value `v` at a resumption.
    fn remat(&mut self, v: Value) -> Result<(), ExecError> {
        let layout = self.layout.expect("coroutine");
        if v == layout.handle {
            let h = self.handle();
            self.b.def_var(self.vars[v.0 as usize], h);
            return Ok(());
        }
        if let Some(&off) = layout.slots.get(&v) {
            let h = self.handle();
            let a = self.b.ins().iadd_imm_s(h, i64::from(off));
            self.b.def_var(self.vars[v.0 as usize], a);
            return Ok(());
        }
        let Some(coro::Def::Inst(b, ii)) = layout.defs[v.0 as usize] else {
            return Err(codegen_err(
                &self.f.name,
                "rematerialized value without definition",
            ));
        };
        let inst = &self.f.block(b).insts[ii];
        if let InstKind::CoroSave(_) = inst.kind {
            let z = self.b.ins().iconst(types::I64, 0);
            self.b.def_var(self.vars[v.0 as usize], z);
            return Ok(());
        }
        self.emit_inst(inst)
    }

    fn use_var(&mut self, v: Value) -> ir::Value {
        self.b.use_var(self.vars[v.0 as usize])
    }

    fn def(&mut self, v: Value, x: ir::Value) {
        self.b.def_var(self.vars[v.0 as usize], x);
    }

    fn emit_node(&mut self, n: usize) -> Result<(), ExecError> {
        let node = &self.plan.nodes[n];
        let f = self.f;
        let data = f.block(node.block);
        let cb = self.blocks[n];
        self.b.switch_to_block(cb);
        if n == 0 && matches!(self.part, Part::Plain | Part::Ramp) {
            let ps = self.b.block_params(cb).to_vec();
            for (p, x) in data.params.iter().zip(ps) {
                self.def(*p, x);
            }
        } else {
            for p in &data.params {
                let x = self.b.append_block_param(cb, clif_ty(f.ty(*p)));
                self.def(*p, x);
            }
        }
        // The suspend result of a continuation copy.
        if let Some(k) = node.konst {
            if let Some(&r) = self.cont_results.get(&node.block) {
                let x = self.b.ins().iconst(types::I8, coro::norm(Ty::I8, k));
                self.def(r, x);
            }
        }
        for inst in &data.insts[..node.ninsts] {
            if let Some(r) = inst.results.first() {
                if let Some(&c) = node.folded.get(r) {
                    let x = self.b.ins().iconst(clif_ty(f.ty(*r)), c);
                    self.def(*r, x);
                    continue;
                }
            }
            self.emit_inst(inst)?;
        }
        let succ = |i: usize| self.plan.nodes[n].succs[i];
        match (&node.exit, &data.term) {
            (Exit::ReturnVoid, _) => {
                self.b.ins().return_(&[]);
            }
            (Exit::Suspend, _) => {
                let t = self.blocks[succ(0)];
                self.b.ins().jump(t, &[]);
            }
            (Exit::Jump(i), term) => {
                let t = term.targets()[*i];
                let a: Vec<ir::Value> = t.args.iter().map(|v| self.use_var(*v)).collect();
                let blk = self.blocks[succ(0)];
                self.b.ins().jump(blk, &args(&a));
            }
            (Exit::Term, term) => match term {
                Terminator::Br(t) => {
                    let a: Vec<ir::Value> = t.args.iter().map(|v| self.use_var(*v)).collect();
                    let blk = self.blocks[succ(0)];
                    self.b.ins().jump(blk, &args(&a));
                }
                Terminator::CondBr(c, t, e) => {
                    let c = self.use_var(*c);
                    let ta: Vec<ir::Value> = t.args.iter().map(|v| self.use_var(*v)).collect();
                    let ea: Vec<ir::Value> = e.args.iter().map(|v| self.use_var(*v)).collect();
                    let (tb, eb) = (self.blocks[succ(0)], self.blocks[succ(1)]);
                    self.b.ins().brif(c, tb, &args(&ta), eb, &args(&ea));
                }
                Terminator::Switch {
                    value,
                    default,
                    cases,
                } => {
                    let ty = f.ty(*value);
                    let v = self.use_var(*value);
                    let mut targets = vec![default];
                    targets.extend(cases.iter().map(|(_, t)| t));
                    let mut blocks = Vec::new();
                    for (i, t) in targets.iter().enumerate() {
                        let dest = self.blocks[succ(i)];
                        if t.args.is_empty() {
                            blocks.push(dest);
                        } else {
                            blocks.push(self.b.create_block());
                        }
                    }
                    let mut sw = Switch::new();
                    let mut seen = std::collections::HashSet::new();
                    for (i, (c, _)) in cases.iter().enumerate() {
                        let key = coro::norm(ty, *c) as u64;
                        if seen.insert(key) {
                            sw.set_entry(u128::from(key), blocks[i + 1]);
                        }
                    }
                    sw.emit(&mut self.b, v, blocks[0]);
                    for (i, t) in targets.iter().enumerate() {
                        if !t.args.is_empty() {
                            self.b.switch_to_block(blocks[i]);
                            let a: Vec<ir::Value> =
                                t.args.iter().map(|v| self.use_var(*v)).collect();
                            let dest = self.blocks[succ(i)];
                            self.b.ins().jump(dest, &args(&a));
                        }
                    }
                }
                Terminator::Return(vals) => {
                    if matches!(self.part, Part::Plain | Part::Ramp) {
                        let a: Vec<ir::Value> = vals.iter().map(|v| self.use_var(*v)).collect();
                        self.b.ins().return_(&a);
                    } else {
                        self.b.ins().return_(&[]);
                    }
                }
                Terminator::Unreachable => {
                    self.b.ins().trap(TrapCode::unwrap_user(1));
                }
                Terminator::CoroSuspend { .. } => {
                    return Err(codegen_err(&f.name, "unplanned suspend"));
                }
            },
        }
        Ok(())
    }

    fn func_ref(&mut self, name: &str) -> Result<ir::FuncRef, ExecError> {
        if let Some(r) = self.func_refs.get(name) {
            return Ok(*r);
        }
        let Some(id) = self.funcs.get(name) else {
            return Err(codegen_err(
                &self.f.name,
                format!("unknown function '{name}'"),
            ));
        };
        let r = self.module.declare_func_in_func(*id, self.b.func);
        self.func_refs.insert(name.to_string(), r);
        Ok(r)
    }

    /// Calls a libm function of one or two operands of float type `ty`.
    fn libm(&mut self, name: &str, ty: Ty, a: &[ir::Value]) -> Result<ir::Value, ExecError> {
        let full = libm_name(name, ty);
        let r = self.func_ref(&full)?;
        let call = self.b.ins().call(r, a);
        Ok(self.b.inst_results(call)[0])
    }

    fn emit_inst(&mut self, inst: &lir::Inst) -> Result<(), ExecError> {
        let f = self.f;
        let ty_of = |v: &Value| f.ty(*v);
        let res = inst.results.first().copied();
        let rty = res.map(|r| f.ty(r));
        match &inst.kind {
            InstKind::Iconst(c) => {
                let t = rty.unwrap_or(Ty::I64);
                let x = self.b.ins().iconst(clif_ty(t), coro::norm(t, *c));
                self.def(res.unwrap_or(Value(0)), x);
            }
            InstKind::F32const(bits) => {
                let x = self.b.ins().f32const(Ieee32::with_bits(*bits));
                self.def(inst.results[0], x);
            }
            InstKind::F64const(bits) => {
                let x = self.b.ins().f64const(Ieee64::with_bits(*bits));
                self.def(inst.results[0], x);
            }
            InstKind::Binary(op, a, b) => {
                let t = ty_of(a);
                let (x, y) = (self.use_var(*a), self.use_var(*b));
                let r = self.binary(*op, t, x, y)?;
                self.def(inst.results[0], r);
            }
            InstKind::Unary(op, a) => {
                let t = ty_of(a);
                let x = self.use_var(*a);
                let r = self.unary(*op, t, x)?;
                self.def(inst.results[0], r);
            }
            InstKind::Cast(op, a) => {
                let from = ty_of(a);
                let to = rty.unwrap_or(from);
                let x = self.use_var(*a);
                let r = self.cast(*op, from, to, x);
                self.def(inst.results[0], r);
            }
            InstKind::Icmp(cc, a, b) => {
                let t = ty_of(a);
                let (mut x, mut y) = (self.use_var(*a), self.use_var(*b));
                let signed = matches!(cc, IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge);
                if t == Ty::I1 && signed {
                    x = self.b.ins().ineg(x);
                    y = self.b.ins().ineg(y);
                }
                let c = match cc {
                    IntCC::Eq => CIntCC::Equal,
                    IntCC::Ne => CIntCC::NotEqual,
                    IntCC::Slt => CIntCC::SignedLessThan,
                    IntCC::Sle => CIntCC::SignedLessThanOrEqual,
                    IntCC::Sgt => CIntCC::SignedGreaterThan,
                    IntCC::Sge => CIntCC::SignedGreaterThanOrEqual,
                    IntCC::Ult => CIntCC::UnsignedLessThan,
                    IntCC::Ule => CIntCC::UnsignedLessThanOrEqual,
                    IntCC::Ugt => CIntCC::UnsignedGreaterThan,
                    IntCC::Uge => CIntCC::UnsignedGreaterThanOrEqual,
                };
                let r = self.b.ins().icmp(c, x, y);
                self.def(inst.results[0], r);
            }
            InstKind::Fcmp(cc, a, b) => {
                let (x, y) = (self.use_var(*a), self.use_var(*b));
                let c = match cc {
                    FloatCC::False | FloatCC::True => None,
                    FloatCC::Oeq => Some(CFloatCC::Equal),
                    FloatCC::Ogt => Some(CFloatCC::GreaterThan),
                    FloatCC::Oge => Some(CFloatCC::GreaterThanOrEqual),
                    FloatCC::Olt => Some(CFloatCC::LessThan),
                    FloatCC::Ole => Some(CFloatCC::LessThanOrEqual),
                    FloatCC::One => Some(CFloatCC::OrderedNotEqual),
                    FloatCC::Ord => Some(CFloatCC::Ordered),
                    FloatCC::Ueq => Some(CFloatCC::UnorderedOrEqual),
                    FloatCC::Ugt => Some(CFloatCC::UnorderedOrGreaterThan),
                    FloatCC::Uge => Some(CFloatCC::UnorderedOrGreaterThanOrEqual),
                    FloatCC::Ult => Some(CFloatCC::UnorderedOrLessThan),
                    FloatCC::Ule => Some(CFloatCC::UnorderedOrLessThanOrEqual),
                    FloatCC::Une => Some(CFloatCC::NotEqual),
                    FloatCC::Uno => Some(CFloatCC::Unordered),
                };
                let r = match c {
                    Some(c) => self.b.ins().fcmp(c, x, y),
                    None => self
                        .b
                        .ins()
                        .iconst(types::I8, i64::from(*cc == FloatCC::True)),
                };
                self.def(inst.results[0], r);
            }
            InstKind::Select(c, a, b) => {
                let (c, x, y) = (self.use_var(*c), self.use_var(*a), self.use_var(*b));
                let r = self.b.ins().select(c, x, y);
                self.def(inst.results[0], r);
            }
            InstKind::Load { addr, offset } => {
                let a = self.use_var(*addr);
                let t = rty.unwrap_or(Ty::I64);
                let r = self
                    .b
                    .ins()
                    .load(clif_ty(t), MemFlagsData::new(), a, *offset);
                self.def(inst.results[0], r);
            }
            InstKind::Store {
                value,
                addr,
                offset,
            } => {
                let (v, a) = (self.use_var(*value), self.use_var(*addr));
                self.b.ins().store(MemFlagsData::new(), v, a, *offset);
            }
            InstKind::StackAlloc { size, align } => {
                let r = inst.results[0];
                if let Some(&off) = self.layout.and_then(|l| l.slots.get(&r)) {
                    let h = self.handle();
                    let a = self.b.ins().iadd_imm_s(h, i64::from(off));
                    self.def(r, a);
                } else {
                    let slot = match self.slots.get(&r) {
                        Some(s) => *s,
                        None => {
                            let shift = align.max(&1).trailing_zeros() as u8;
                            let s = self.b.create_sized_stack_slot(StackSlotData::new(
                                StackSlotKind::ExplicitSlot,
                                *size,
                                shift,
                            ));
                            self.slots.insert(r, s);
                            s
                        }
                    };
                    let a = self.b.ins().stack_addr(types::I64, slot, 0);
                    self.def(r, a);
                }
            }
            InstKind::FuncAddr(name) => {
                if let Some(d) = self.data.get(name) {
                    let gv = self.module.declare_data_in_func(*d, self.b.func);
                    let a = self.b.ins().symbol_value(types::I64, gv);
                    self.def(inst.results[0], a);
                } else {
                    let r = self.func_ref(name)?;
                    let a = self.b.ins().func_addr(types::I64, r);
                    self.def(inst.results[0], a);
                }
            }
            InstKind::GlobalAddr(name) => {
                if let Some(d) = self.data.get(name) {
                    let gv = self.module.declare_data_in_func(*d, self.b.func);
                    let a = self.b.ins().symbol_value(types::I64, gv);
                    self.def(inst.results[0], a);
                } else {
                    let r = self.func_ref(name)?;
                    let a = self.b.ins().func_addr(types::I64, r);
                    self.def(inst.results[0], a);
                }
            }
            InstKind::Call { callee, args, sig } => {
                let a: Vec<ir::Value> = args.iter().map(|v| self.use_var(*v)).collect();
                let results = match callee {
                    Callee::Direct(name) => {
                        let r = self.func_ref(name)?;
                        let want = clif_sig(sig, self.cc);
                        let have = self.b.func.dfg.ext_funcs[r].signature;
                        if self.b.func.dfg.signatures[have] != want {
                            // Called with another signature than declared
                            // (a symbol known only by name): call it as
                            // the call site says.
                            let addr = self.b.ins().func_addr(types::I64, r);
                            let sref = self.b.import_signature(want);
                            let call = self.b.ins().call_indirect(sref, addr, &a);
                            self.b.inst_results(call).to_vec()
                        } else {
                            let call = self.b.ins().call(r, &a);
                            self.b.inst_results(call).to_vec()
                        }
                    }
                    Callee::Indirect(p) => {
                        let p = self.use_var(*p);
                        let sref = self.b.import_signature(clif_sig(sig, self.cc));
                        let call = self.b.ins().call_indirect(sref, p, &a);
                        self.b.inst_results(call).to_vec()
                    }
                };
                for (i, (r, x)) in inst.results.iter().zip(results).enumerate() {
                    let x = if sig.results.get(i) == Some(&Ty::I1) {
                        self.b.ins().band_imm_s(x, 1)
                    } else {
                        x
                    };
                    self.def(*r, x);
                }
            }
            InstKind::Splat(a) => {
                let x = self.use_var(*a);
                let t = rty.unwrap_or(Ty::F32X4);
                let r = self.b.ins().splat(clif_ty(t), x);
                self.def(inst.results[0], r);
            }
            InstKind::AtomicRmw { op, addr, value } => {
                use cranelift_codegen::ir::AtomicRmwOp as A;
                let o = match op {
                    lir::AtomicOp::Xchg => A::Xchg,
                    lir::AtomicOp::Add => A::Add,
                    lir::AtomicOp::Sub => A::Sub,
                    lir::AtomicOp::And => A::And,
                    lir::AtomicOp::Nand => A::Nand,
                    lir::AtomicOp::Or => A::Or,
                    lir::AtomicOp::Xor => A::Xor,
                    lir::AtomicOp::SMax => A::Smax,
                    lir::AtomicOp::SMin => A::Smin,
                    lir::AtomicOp::UMax => A::Umax,
                    lir::AtomicOp::UMin => A::Umin,
                };
                let (a, v) = (self.use_var(*addr), self.use_var(*value));
                let t = clif_ty(ty_of(value));
                let r = self.b.ins().atomic_rmw(t, MemFlagsData::trusted(), o, a, v);
                self.def(inst.results[0], r);
            }
            InstKind::AtomicCas {
                addr,
                expected,
                new,
            } => {
                let (a, e, n) = (
                    self.use_var(*addr),
                    self.use_var(*expected),
                    self.use_var(*new),
                );
                let r = self.b.ins().atomic_cas(MemFlagsData::trusted(), a, e, n);
                self.def(inst.results[0], r);
            }
            InstKind::Fence => {
                self.b.ins().fence();
            }
            InstKind::CoroId => {
                let z = self.b.ins().iconst(types::I64, 0);
                self.def(inst.results[0], z);
            }
            InstKind::CoroSize | InstKind::CoroAlign => {
                let l = self.layout.ok_or_else(|| {
                    codegen_err(&f.name, "coroutine intrinsic outside a coroutine")
                })?;
                let v = if matches!(inst.kind, InstKind::CoroSize) {
                    l.frame_size
                } else {
                    l.frame_align
                };
                let t = rty.unwrap_or(Ty::I64);
                let x = self.b.ins().iconst(clif_ty(t), i64::from(v));
                self.def(inst.results[0], x);
            }
            InstKind::CoroBegin(mem) => {
                let m = self.use_var(*mem);
                if self.part == Part::Ramp {
                    let name = &f.name;
                    let resume = self.func_ref(&part_name(name, Part::Resume))?;
                    let destroy = self.func_ref(&part_name(name, Part::Destroy))?;
                    let ra = self.b.ins().func_addr(types::I64, resume);
                    let da = self.b.ins().func_addr(types::I64, destroy);
                    let fl = MemFlagsData::trusted();
                    self.b.ins().store(fl, ra, m, coro::RESUME_FN_OFFSET);
                    self.b.ins().store(fl, da, m, coro::DESTROY_FN_OFFSET);
                    self.trace_event(crate::trace::CREATED, m)?;
                }
                self.def(inst.results[0], m);
            }
            InstKind::CoroSave(h) => {
                let l = self.layout.ok_or_else(|| {
                    codegen_err(&f.name, "coroutine intrinsic outside a coroutine")
                })?;
                let r = inst.results[0];
                if let Some(&si) = l.save_index.get(&r) {
                    let hv = self.use_var(*h);
                    if self.part == Part::Resume {
                        self.trace_event(crate::trace::SUSPENDED, hv)?;
                    }
                    let fl = MemFlagsData::trusted();
                    let idx = self.b.ins().iconst(types::I32, si as i64);
                    self.b.ins().store(fl, idx, hv, coro::INDEX_OFFSET);
                    for &v in &l.suspends[si].spills {
                        let x = self.use_var(v);
                        let off = l.slots[&v] as i32;
                        self.b.ins().store(fl, x, hv, off);
                    }
                }
                let z = self.b.ins().iconst(types::I64, 0);
                self.def(r, z);
            }
            InstKind::CoroFree(h) => {
                let x = self.use_var(*h);
                if self.part == Part::Resume {
                    self.trace_event(crate::trace::COMPLETED, x)?;
                }
                self.def(inst.results[0], x);
            }
            InstKind::CoroEnd(_) => {
                if let Some(&r) = inst.results.first() {
                    let z = self.b.ins().iconst(types::I8, 0);
                    self.def(r, z);
                }
            }
            InstKind::CoroResume(h) | InstKind::CoroDestroy(h) => {
                let off = if matches!(inst.kind, InstKind::CoroResume(_)) {
                    coro::RESUME_FN_OFFSET
                } else {
                    coro::DESTROY_FN_OFFSET
                };
                let hv = self.use_var(*h);
                let fp = self
                    .b
                    .ins()
                    .load(types::I64, MemFlagsData::trusted(), hv, off);
                let sref = self.b.import_signature(clif_sig(&resume_sig(), self.cc));
                self.b.ins().call_indirect(sref, fp, &[hv]);
            }
        }
        Ok(())
    }

    fn binary(
        &mut self,
        op: BinOp,
        t: Ty,
        x: ir::Value,
        y: ir::Value,
    ) -> Result<ir::Value, ExecError> {
        let i = self.b.ins();
        let r = match op {
            BinOp::Add => i.iadd(x, y),
            BinOp::Sub => i.isub(x, y),
            BinOp::Mul => i.imul(x, y),
            BinOp::SDiv => i.sdiv(x, y),
            BinOp::UDiv => i.udiv(x, y),
            BinOp::SRem => i.srem(x, y),
            BinOp::URem => i.urem(x, y),
            BinOp::And => i.band(x, y),
            BinOp::Or => i.bor(x, y),
            BinOp::Xor => i.bxor(x, y),
            BinOp::Shl => i.ishl(x, y),
            BinOp::LShr => i.ushr(x, y),
            BinOp::AShr => i.sshr(x, y),
            BinOp::SMax => i.smax(x, y),
            BinOp::SMin => i.smin(x, y),
            BinOp::UMax => i.umax(x, y),
            BinOp::UMin => i.umin(x, y),
            BinOp::FAdd => i.fadd(x, y),
            BinOp::FSub => i.fsub(x, y),
            BinOp::FMul => i.fmul(x, y),
            BinOp::FDiv => i.fdiv(x, y),
            BinOp::FMinimum => i.fmin(x, y),
            BinOp::FMaximum => i.fmax(x, y),
            BinOp::FCopySign => i.fcopysign(x, y),
            BinOp::FMinNum | BinOp::FMaxNum => {
                // The non-NaN operand wins; Cranelift's fmin/fmax propagate NaN.
                let m = if op == BinOp::FMinNum {
                    self.b.ins().fmin(x, y)
                } else {
                    self.b.ins().fmax(x, y)
                };
                let xnan = self.b.ins().fcmp(CFloatCC::Unordered, x, x);
                let ynan = self.b.ins().fcmp(CFloatCC::Unordered, y, y);
                let r = self.b.ins().select(ynan, x, m);
                self.b.ins().select(xnan, y, r)
            }
            BinOp::FRem => return self.libm("fmod", t, &[x, y]),
            BinOp::FPow => return self.libm("pow", t, &[x, y]),
        };
        // Keep an i1 a 0 or 1.
        if t == Ty::I1
            && matches!(
                op,
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl | BinOp::AShr
            )
        {
            return Ok(self.b.ins().band_imm_s(r, 1));
        }
        Ok(r)
    }

    fn unary(&mut self, op: UnOp, t: Ty, x: ir::Value) -> Result<ir::Value, ExecError> {
        if let Some(name) = libm_op(op) {
            return self.libm(name, t, &[x]);
        }
        let i = self.b.ins();
        Ok(match op {
            UnOp::FNeg => i.fneg(x),
            UnOp::FAbs => i.fabs(x),
            UnOp::FSqrt => i.sqrt(x),
            UnOp::FFloor => i.floor(x),
            UnOp::FCeil => i.ceil(x),
            UnOp::FTrunc => i.trunc(x),
            UnOp::FRoundEven => i.nearest(x),
            UnOp::Ctlz => i.clz(x),
            UnOp::Cttz => i.ctz(x),
            UnOp::Ctpop => i.popcnt(x),
            UnOp::IAbs => i.iabs(x),
            UnOp::BSwap => i.bswap(x),
            _ => return Err(codegen_err(&self.f.name, format!("unary {op:?}"))),
        })
    }

    fn cast(&mut self, op: CastOp, from: Ty, to: Ty, x: ir::Value) -> ir::Value {
        let (cf, ct) = (clif_ty(from), clif_ty(to));
        let widen = |b: &mut FunctionBuilder, signed: bool, x: ir::Value| {
            if cf == ct {
                x
            } else if ct.bits() > cf.bits() {
                if signed {
                    b.ins().sextend(ct, x)
                } else {
                    b.ins().uextend(ct, x)
                }
            } else {
                b.ins().ireduce(ct, x)
            }
        };
        match op {
            CastOp::SExt => {
                let x = if from == Ty::I1 {
                    self.b.ins().ineg(x)
                } else {
                    x
                };
                widen(&mut self.b, true, x)
            }
            CastOp::ZExt | CastOp::PtrToInt | CastOp::IntToPtr => widen(&mut self.b, false, x),
            CastOp::Trunc => {
                let r = widen(&mut self.b, false, x);
                if to == Ty::I1 {
                    self.b.ins().band_imm_s(r, 1)
                } else {
                    r
                }
            }
            CastOp::SIToFP | CastOp::UIToFP => {
                let signed = op == CastOp::SIToFP;
                let mut x = x;
                if from == Ty::I1 && signed {
                    x = self.b.ins().ineg(x);
                }
                if cf.bits() < 32 {
                    x = if signed {
                        self.b.ins().sextend(types::I32, x)
                    } else {
                        self.b.ins().uextend(types::I32, x)
                    };
                }
                if signed {
                    self.b.ins().fcvt_from_sint(ct, x)
                } else {
                    self.b.ins().fcvt_from_uint(ct, x)
                }
            }
            CastOp::FPToSI | CastOp::FPToUI => {
                let wide = if ct.bits() < 32 { types::I32 } else { ct };
                let r = if op == CastOp::FPToSI {
                    self.b.ins().fcvt_to_sint_sat(wide, x)
                } else {
                    self.b.ins().fcvt_to_uint_sat(wide, x)
                };
                if wide != ct {
                    let r = self.b.ins().ireduce(ct, r);
                    if to == Ty::I1 {
                        return self.b.ins().band_imm_s(r, 1);
                    }
                    r
                } else {
                    r
                }
            }
            CastOp::FPExt => {
                if cf == ct {
                    x
                } else {
                    self.b.ins().fpromote(ct, x)
                }
            }
            CastOp::FPTrunc => {
                if cf == ct {
                    x
                } else {
                    self.b.ins().fdemote(ct, x)
                }
            }
            CastOp::Bitcast => {
                if cf == ct {
                    x
                } else if cf.bits() == ct.bits() {
                    self.b.ins().bitcast(ct, MemFlagsData::new(), x)
                } else {
                    widen(&mut self.b, false, x)
                }
            }
        }
    }
}

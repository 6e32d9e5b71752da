//! The lowered form the executor compiles from ("LIR"): functions of scalar
//! SSA values in blocks with arguments.
//!
//! It sits between the LLVM dialect and Cranelift so that the two hard
//! parts are each done once, in one place: the front end splits LLVM
//! aggregates (memref descriptors are `!llvm.struct`s of pointers and
//! arrays) into scalars and turns `getelementptr` into address arithmetic,
//! and the coroutine split (`coro.rs`) reasons about plain scalar values
//! live across a suspend point. Nothing here knows MLIR text; unit tests
//! build functions with [`FunctionBuilder`].
//!
//! Conventions: the entry block is block 0 and its parameters are the
//! function's parameters; `i1` is a byte holding 0 or 1; pointers are
//! 64-bit integers (`Ty::Ptr` only says "address" for readers and for the
//! C ABI); `!llvm.token` values are `Ty::I64` zeros.

use std::fmt;

/// A scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    I1,
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
    Ptr,
    /// SIMD vectors, made only by the loop vectorizer (`vectorize.rs`).
    F32X4,
    F64X2,
    I32X4,
    I64X2,
}

impl Ty {
    /// Size in bytes in memory (an `i1` takes a byte, as in LLVM's data
    /// layout).
    pub fn size(self) -> u32 {
        match self {
            Ty::I1 | Ty::I8 => 1,
            Ty::I16 => 2,
            Ty::I32 | Ty::F32 => 4,
            Ty::I64 | Ty::F64 | Ty::Ptr => 8,
            Ty::F32X4 | Ty::F64X2 | Ty::I32X4 | Ty::I64X2 => 16,
        }
    }

    /// A vector's lane type and count.
    pub fn lanes(self) -> Option<(Ty, u32)> {
        match self {
            Ty::F32X4 => Some((Ty::F32, 4)),
            Ty::F64X2 => Some((Ty::F64, 2)),
            Ty::I32X4 => Some((Ty::I32, 4)),
            Ty::I64X2 => Some((Ty::I64, 2)),
            _ => None,
        }
    }

    /// The 128-bit vector of this scalar type.
    pub fn vector(self) -> Option<Ty> {
        match self {
            Ty::F32 => Some(Ty::F32X4),
            Ty::F64 => Some(Ty::F64X2),
            Ty::I32 => Some(Ty::I32X4),
            Ty::I64 | Ty::Ptr => Some(Ty::I64X2),
            _ => None,
        }
    }

    /// Natural alignment (the size, as for x86-64's data layout).
    pub fn align(self) -> u32 {
        self.size()
    }

    /// Width in bits of an integer (pointers: 64).
    pub fn bits(self) -> u32 {
        match self {
            Ty::I1 => 1,
            Ty::I8 => 8,
            Ty::I16 => 16,
            Ty::I32 | Ty::F32 => 32,
            Ty::I64 | Ty::F64 | Ty::Ptr => 64,
            Ty::F32X4 | Ty::F64X2 | Ty::I32X4 | Ty::I64X2 => 128,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64 | Ty::F32X4 | Ty::F64X2)
    }

    pub fn is_int(self) -> bool {
        !self.is_float()
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Ty::I1 => "i1",
            Ty::I8 => "i8",
            Ty::I16 => "i16",
            Ty::I32 => "i32",
            Ty::I64 => "i64",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
            Ty::Ptr => "ptr",
            Ty::F32X4 => "f32x4",
            Ty::F64X2 => "f64x2",
            Ty::I32X4 => "i32x4",
            Ty::I64X2 => "i64x2",
        };
        f.write_str(s)
    }
}

/// An SSA value of a function (index into [`Function::values`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub u32);

/// A block of a function (index into [`Function::blocks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(pub u32);

/// A source location: index into [`Module::locs`]; 0 is "unknown".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Loc(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    SDiv,
    UDiv,
    SRem,
    URem,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
    SMax,
    SMin,
    UMax,
    UMin,
    FAdd,
    FSub,
    FMul,
    FDiv,
    FRem,
    /// `llvm.intr.minnum` / `maxnum`: the non-NaN operand wins.
    FMinNum,
    FMaxNum,
    /// `llvm.intr.minimum` / `maximum`: NaN wins.
    FMinimum,
    FMaximum,
    FCopySign,
    FPow,
}

impl BinOp {
    pub fn is_float(self) -> bool {
        matches!(
            self,
            BinOp::FAdd
                | BinOp::FSub
                | BinOp::FMul
                | BinOp::FDiv
                | BinOp::FRem
                | BinOp::FMinNum
                | BinOp::FMaxNum
                | BinOp::FMinimum
                | BinOp::FMaximum
                | BinOp::FCopySign
                | BinOp::FPow
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    FNeg,
    FAbs,
    FSqrt,
    FFloor,
    FCeil,
    FTrunc,
    FRoundEven,
    /// Round half away from zero (`llvm.intr.round`).
    FRound,
    FExp,
    FExp2,
    FLog,
    FLog2,
    FLog10,
    FSin,
    FCos,
    FTanh,
    Ctlz,
    Cttz,
    Ctpop,
    IAbs,
    BSwap,
}

/// `llvm.atomicrmw`'s operations on integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Xchg,
    Add,
    Sub,
    And,
    Nand,
    Or,
    Xor,
    SMax,
    SMin,
    UMax,
    UMin,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastOp {
    SExt,
    ZExt,
    Trunc,
    SIToFP,
    UIToFP,
    FPToSI,
    FPToUI,
    FPExt,
    FPTrunc,
    /// Same size, reinterpreted (int <-> float, ptr <-> i64).
    Bitcast,
    PtrToInt,
    IntToPtr,
}

/// `llvm.icmp` predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntCC {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

/// `llvm.fcmp` predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatCC {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
    True,
}

/// A function signature of scalars.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Sig {
    pub params: Vec<Ty>,
    pub results: Vec<Ty>,
}

impl Sig {
    pub fn new(params: Vec<Ty>, results: Vec<Ty>) -> Sig {
        Sig { params, results }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    /// A function of the module (defined or declared) by symbol name.
    Direct(String),
    /// A function pointer, called with the signature given in the call.
    Indirect(Value),
}

/// An instruction; its results are in [`Inst::results`].
#[derive(Clone, Debug, PartialEq)]
pub enum InstKind {
    /// An integer constant of the result's type (an `i1` is 0 or 1).
    Iconst(i64),
    F32const(u32),
    F64const(u64),
    Binary(BinOp, Value, Value),
    Unary(UnOp, Value),
    Cast(CastOp, Value),
    Icmp(IntCC, Value, Value),
    Fcmp(FloatCC, Value, Value),
    Select(Value, Value, Value),
    /// Loads the result's type from `addr + offset`.
    Load {
        addr: Value,
        offset: i32,
    },
    Store {
        value: Value,
        addr: Value,
        offset: i32,
    },
    /// A stack allocation for the function's activation (`llvm.alloca`
    /// with a constant count); in a coroutine, a slot of its frame.
    StackAlloc {
        size: u32,
        align: u32,
    },
    /// `llvm.intr.memcpy` / `memmove` / `memset` are calls; this is the
    /// address of a function of the module or an external symbol.
    FuncAddr(String),
    /// The address of a global of the module.
    GlobalAddr(String),
    Call {
        callee: Callee,
        args: Vec<Value>,
        sig: Sig,
    },
    /// A vector with every lane the scalar operand (the result's type).
    Splat(Value),
    /// `llvm.atomicrmw` (sequentially consistent): returns the old value.
    AtomicRmw {
        op: AtomicOp,
        addr: Value,
        value: Value,
    },
    /// `llvm.cmpxchg` (sequentially consistent): returns the old value.
    AtomicCas {
        addr: Value,
        expected: Value,
        new: Value,
    },
    /// `llvm.fence`.
    Fence,
    /// `llvm.intr.coro.id`: a token (0).
    CoroId,
    /// `llvm.intr.coro.size`: the frame size, known after the split.
    CoroSize,
    /// `llvm.intr.coro.align`: the frame alignment, known after the split.
    CoroAlign,
    /// `llvm.intr.coro.begin(id, mem)`: `mem` becomes the frame; returns
    /// the handle (the frame pointer).
    CoroBegin(Value),
    /// `llvm.intr.coro.save(handle)`: from here the coroutine counts as
    /// suspended (it may be resumed on another thread), so the suspend
    /// index and the values live across the suspend are stored here.
    CoroSave(Value),
    /// `llvm.intr.coro.free(id, handle)`: the memory to free (the frame).
    CoroFree(Value),
    /// `llvm.intr.coro.end(handle, unwind)`: the end of the coroutine in
    /// its resume parts (they return here); a no-op in the ramp.
    CoroEnd(Value),
    /// `llvm.intr.coro.resume(handle)`: calls the frame's resume function.
    CoroResume(Value),
    /// `llvm.intr.coro.destroy(handle)`: calls the frame's destroy function.
    CoroDestroy(Value),
}

impl InstKind {
    /// The values the instruction reads.
    pub fn operands(&self) -> Vec<Value> {
        let mut v = Vec::new();
        self.for_each_operand(|x| v.push(x));
        v
    }

    pub fn for_each_operand(&self, mut f: impl FnMut(Value)) {
        match self {
            InstKind::Iconst(_)
            | InstKind::F32const(_)
            | InstKind::F64const(_)
            | InstKind::StackAlloc { .. }
            | InstKind::FuncAddr(_)
            | InstKind::GlobalAddr(_)
            | InstKind::CoroId
            | InstKind::CoroSize
            | InstKind::CoroAlign
            | InstKind::Fence => {}
            InstKind::AtomicRmw { addr, value, .. } => {
                f(*addr);
                f(*value)
            }
            InstKind::AtomicCas {
                addr,
                expected,
                new,
            } => {
                f(*addr);
                f(*expected);
                f(*new)
            }
            InstKind::Binary(_, a, b) | InstKind::Icmp(_, a, b) | InstKind::Fcmp(_, a, b) => {
                f(*a);
                f(*b)
            }
            InstKind::Unary(_, a) | InstKind::Cast(_, a) | InstKind::Splat(a) => f(*a),
            InstKind::Select(c, a, b) => {
                f(*c);
                f(*a);
                f(*b)
            }
            InstKind::Load { addr, .. } => f(*addr),
            InstKind::Store { value, addr, .. } => {
                f(*value);
                f(*addr)
            }
            InstKind::Call { callee, args, .. } => {
                if let Callee::Indirect(c) = callee {
                    f(*c);
                }
                args.iter().copied().for_each(f)
            }
            InstKind::CoroBegin(a)
            | InstKind::CoroSave(a)
            | InstKind::CoroFree(a)
            | InstKind::CoroEnd(a)
            | InstKind::CoroResume(a)
            | InstKind::CoroDestroy(a) => f(*a),
        }
    }

    /// Whether re-evaluating it anywhere gives the same value and has no
    /// effect, so a coroutine recomputes it after a suspend instead of
    /// keeping it in its frame.
    pub fn is_rematerializable(&self) -> bool {
        matches!(
            self,
            InstKind::Iconst(_)
                | InstKind::F32const(_)
                | InstKind::F64const(_)
                | InstKind::FuncAddr(_)
                | InstKind::GlobalAddr(_)
                | InstKind::CoroId
                | InstKind::CoroSize
                | InstKind::CoroAlign
                | InstKind::CoroSave(_)
        )
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub kind: InstKind,
    pub results: Vec<Value>,
    pub loc: Loc,
}

/// A branch target with its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub block: Block,
    pub args: Vec<Value>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    Br(Target),
    CondBr(Value, Target, Target),
    /// Jumps to the case equal to the (integer) value, else the default.
    Switch {
        value: Value,
        default: Target,
        cases: Vec<(i64, Target)>,
    },
    Return(Vec<Value>),
    Unreachable,
    /// `llvm.intr.coro.suspend(save, final)`: the block ends at the suspend
    /// point; `cont` (a block with no other predecessor) continues with
    /// `result` defined: -1 when the coroutine suspended (the ramp returns,
    /// a resume part returns), 0 when resumed, 1 when destroyed.
    CoroSuspend {
        save: Value,
        is_final: bool,
        result: Value,
        cont: Block,
    },
}

impl Terminator {
    pub fn targets(&self) -> Vec<&Target> {
        match self {
            Terminator::Br(t) => vec![t],
            Terminator::CondBr(_, a, b) => vec![a, b],
            Terminator::Switch { default, cases, .. } => {
                let mut v = vec![default];
                v.extend(cases.iter().map(|(_, t)| t));
                v
            }
            Terminator::Return(_) | Terminator::Unreachable | Terminator::CoroSuspend { .. } => {
                vec![]
            }
        }
    }

    /// Blocks control can go to next (a suspend's continuation included).
    pub fn successors(&self) -> Vec<Block> {
        match self {
            Terminator::CoroSuspend { cont, .. } => vec![*cont],
            t => t.targets().iter().map(|t| t.block).collect(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BlockData {
    pub params: Vec<Value>,
    pub insts: Vec<Inst>,
    pub term: Terminator,
    pub term_loc: Loc,
}

/// A function: a declaration when it has no blocks.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub sig: Sig,
    /// The type of every value.
    pub values: Vec<Ty>,
    pub blocks: Vec<BlockData>,
    pub loc: Loc,
}

impl Function {
    pub fn declaration(name: impl Into<String>, sig: Sig) -> Function {
        Function {
            name: name.into(),
            sig,
            values: Vec::new(),
            blocks: Vec::new(),
            loc: Loc(0),
        }
    }

    pub fn is_declaration(&self) -> bool {
        self.blocks.is_empty()
    }

    pub fn ty(&self, v: Value) -> Ty {
        self.values[v.0 as usize]
    }

    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b.0 as usize]
    }

    /// Whether the function uses the coroutine intrinsics that make it a
    /// coroutine to split (`coro.begin`).
    pub fn is_coroutine(&self) -> bool {
        self.blocks.iter().any(|b| {
            b.insts
                .iter()
                .any(|i| matches!(i.kind, InstKind::CoroBegin(_)))
        })
    }
}

/// A global variable: bytes at a fixed address.
#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    pub name: String,
    pub size: u32,
    pub align: u32,
    /// Initial contents (zeros when shorter than `size`).
    pub init: Vec<u8>,
    /// External: resolved by name like an external function.
    pub external: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Module {
    pub functions: Vec<Function>,
    pub globals: Vec<Global>,
    /// Location text (`file:line:col`) of each [`Loc`]; index 0 is unknown.
    pub locs: Vec<String>,
}

impl Module {
    pub fn new() -> Module {
        Module {
            functions: Vec::new(),
            globals: Vec::new(),
            locs: vec![String::new()],
        }
    }

    /// Registers a location text.
    pub fn loc(&mut self, text: impl Into<String>) -> Loc {
        self.locs.push(text.into());
        Loc(self.locs.len() as u32 - 1)
    }

    pub fn loc_text(&self, loc: Loc) -> &str {
        self.locs.get(loc.0 as usize).map_or("", |s| s.as_str())
    }

    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }
}

/// Builds a [`Function`] block by block (for the front end and for tests).
pub struct FunctionBuilder {
    f: Function,
    current: Option<Block>,
    pub loc: Loc,
}

impl FunctionBuilder {
    /// Starts a function whose entry block (block 0) has the signature's
    /// parameters as arguments.
    pub fn new(name: impl Into<String>, sig: Sig) -> FunctionBuilder {
        let mut b = FunctionBuilder {
            f: Function {
                name: name.into(),
                sig: sig.clone(),
                values: Vec::new(),
                blocks: Vec::new(),
                loc: Loc(0),
            },
            current: None,
            loc: Loc(0),
        };
        let entry = b.create_block(&sig.params);
        b.switch_to(entry);
        b
    }

    pub fn new_value(&mut self, ty: Ty) -> Value {
        self.f.values.push(ty);
        Value(self.f.values.len() as u32 - 1)
    }

    pub fn ty(&self, v: Value) -> Ty {
        self.f.ty(v)
    }

    /// A new block with arguments of the given types.
    pub fn create_block(&mut self, params: &[Ty]) -> Block {
        let params = params.iter().map(|t| self.new_value(*t)).collect();
        self.f.blocks.push(BlockData {
            params,
            insts: Vec::new(),
            term: Terminator::Unreachable,
            term_loc: Loc(0),
        });
        Block(self.f.blocks.len() as u32 - 1)
    }

    pub fn params(&self, b: Block) -> &[Value] {
        &self.f.blocks[b.0 as usize].params
    }

    pub fn switch_to(&mut self, b: Block) {
        self.current = Some(b);
    }

    pub fn current(&self) -> Option<Block> {
        self.current
    }

    /// Appends an instruction with results of the given types.
    pub fn inst(&mut self, kind: InstKind, results: &[Ty]) -> Vec<Value> {
        let results: Vec<Value> = results.iter().map(|t| self.new_value(*t)).collect();
        let b = self.current.expect("FunctionBuilder: no current block");
        self.f.blocks[b.0 as usize].insts.push(Inst {
            kind,
            results: results.clone(),
            loc: self.loc,
        });
        results
    }

    /// Appends an instruction with one result.
    pub fn inst1(&mut self, kind: InstKind, ty: Ty) -> Value {
        self.inst(kind, &[ty])[0]
    }

    /// Ends the current block.
    pub fn terminate(&mut self, term: Terminator) {
        let b = self.current.expect("FunctionBuilder: no current block");
        let data = &mut self.f.blocks[b.0 as usize];
        data.term = term;
        data.term_loc = self.loc;
        self.current = None;
    }

    pub fn iconst(&mut self, ty: Ty, v: i64) -> Value {
        self.inst1(InstKind::Iconst(v), ty)
    }

    pub fn f32const(&mut self, v: f32) -> Value {
        self.inst1(InstKind::F32const(v.to_bits()), Ty::F32)
    }

    pub fn f64const(&mut self, v: f64) -> Value {
        self.inst1(InstKind::F64const(v.to_bits()), Ty::F64)
    }

    /// A binary op whose result has the first operand's type.
    pub fn bin(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let ty = self.ty(a);
        self.inst1(InstKind::Binary(op, a, b), ty)
    }

    pub fn icmp(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        self.inst1(InstKind::Icmp(cc, a, b), Ty::I1)
    }

    pub fn cast(&mut self, op: CastOp, a: Value, to: Ty) -> Value {
        self.inst1(InstKind::Cast(op, a), to)
    }

    pub fn load(&mut self, ty: Ty, addr: Value, offset: i32) -> Value {
        self.inst1(InstKind::Load { addr, offset }, ty)
    }

    pub fn store(&mut self, value: Value, addr: Value, offset: i32) {
        self.inst(
            InstKind::Store {
                value,
                addr,
                offset,
            },
            &[],
        );
    }

    /// A direct call of a module function or external symbol.
    pub fn call(&mut self, name: &str, sig: Sig, args: Vec<Value>) -> Vec<Value> {
        let results = sig.results.clone();
        self.inst(
            InstKind::Call {
                callee: Callee::Direct(name.to_string()),
                args,
                sig,
            },
            &results,
        )
    }

    pub fn br(&mut self, block: Block, args: Vec<Value>) {
        self.terminate(Terminator::Br(Target { block, args }));
    }

    pub fn cond_br(&mut self, c: Value, t: Block, targs: Vec<Value>, e: Block, eargs: Vec<Value>) {
        self.terminate(Terminator::CondBr(
            c,
            Target {
                block: t,
                args: targs,
            },
            Target {
                block: e,
                args: eargs,
            },
        ));
    }

    pub fn ret(&mut self, values: Vec<Value>) {
        self.terminate(Terminator::Return(values));
    }

    /// Ends the block with `llvm.intr.coro.suspend`; returns the suspend
    /// result (an `i8`) and switches to the continuation block.
    pub fn coro_suspend(&mut self, save: Value, is_final: bool) -> Value {
        let cont = self.create_block(&[]);
        let result = self.new_value(Ty::I8);
        self.terminate(Terminator::CoroSuspend {
            save,
            is_final,
            result,
            cont,
        });
        self.switch_to(cont);
        result
    }

    pub fn finish(self) -> Function {
        self.f
    }
}

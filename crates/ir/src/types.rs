//! Types, interned in the [`crate::Context`]: equality is a handle compare.

use crate::{Attribute, Symbol};
use smallvec::SmallVec;

crate::entity!(
    /// An interned type.
    Type,
    "type"
);
crate::entity_ref!(Type);

/// Signedness of a builtin integer type (`i32`, `si32`, `ui32`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Signedness {
    Signless,
    Signed,
    Unsigned,
}

/// A dimension of a shaped type: `None` is the dynamic `?`.
pub type Dim = Option<i64>;

/// The structure of a type. Builtin types, and the async ones (which the
/// IR core still knows by structure), are variants; a type owned by any
/// other dialect is [`TypeKind::Dialect`], whose text that dialect reads
/// and prints; the type of a dialect that has no type syntax is kept
/// opaque, spelled as it was read.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeKind {
    Integer(u32, Signedness),
    Index,
    BF16,
    F16,
    F32,
    F64,
    F80,
    F128,
    None,
    Function(Vec<Type>, Vec<Type>),
    MemRef {
        shape: Vec<Dim>,
        elem: Type,
        layout: Option<Attribute>,
        memory_space: Option<Attribute>,
    },
    UnrankedMemRef {
        elem: Type,
        memory_space: Option<Attribute>,
    },
    Vector {
        shape: Vec<i64>,
        scalable: usize,
        elem: Type,
    },
    Tensor {
        shape: Vec<Dim>,
        elem: Type,
        encoding: Option<Attribute>,
    },
    UnrankedTensor(Type),
    Tuple(Vec<Type>),
    Complex(Type),
    /// A type a dialect owns: its mnemonic and structured parameters, so
    /// that it is interned (and compared) by structure, and passes read it
    /// through the dialect's typed accessors.
    Dialect(DialectType),
    /// `!dialect.body` or `!dialect<"body">`: kept verbatim.
    Opaque {
        dialect: Symbol,
        body: String,
    },
}

impl TypeKind {
    pub fn is_float(&self) -> bool {
        matches!(
            self,
            TypeKind::BF16
                | TypeKind::F16
                | TypeKind::F32
                | TypeKind::F64
                | TypeKind::F80
                | TypeKind::F128
        )
    }
    pub fn is_integer(&self) -> bool {
        matches!(self, TypeKind::Integer(..))
    }
    pub fn is_int_or_index(&self) -> bool {
        matches!(self, TypeKind::Integer(..) | TypeKind::Index)
    }
    /// Bit width of integer and float types.
    pub fn bit_width(&self) -> Option<u32> {
        Some(match self {
            TypeKind::Integer(w, _) => *w,
            TypeKind::BF16 | TypeKind::F16 => 16,
            TypeKind::F32 => 32,
            TypeKind::F64 => 64,
            TypeKind::F80 => 80,
            TypeKind::F128 => 128,
            TypeKind::Index => 64,
            _ => return None,
        })
    }
    /// Element type of shaped types.
    pub fn element_type(&self) -> Option<Type> {
        match self {
            TypeKind::MemRef { elem, .. }
            | TypeKind::UnrankedMemRef { elem, .. }
            | TypeKind::Vector { elem, .. }
            | TypeKind::Tensor { elem, .. }
            | TypeKind::UnrankedTensor(elem) => Some(*elem),
            _ => None,
        }
    }
}

/// A type owned by a dialect, e.g. `!llvm.ptr<i8>` is dialect `llvm`,
/// mnemonic `ptr`, parameters `[Type(i8), Int(0)]`. What the parameters
/// mean is the dialect's business; the IR core only interns them.
///
/// A type whose identity is a name but whose body is set later (LLVM's
/// identified structs, which may refer to themselves) keeps only the name
/// here and its body in the context ([`crate::Context::set_type_body`]),
/// as MLIR's mutable type storage does.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct DialectType {
    pub dialect: Symbol,
    pub mnemonic: Symbol,
    /// Inline up to two: the common types (a pointer: pointee and address
    /// space) are interned without allocating their key.
    pub params: SmallVec<[TypeParam; 2]>,
}

/// A parameter of a [`DialectType`].
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeParam {
    Type(Type),
    Int(i64),
    /// A string or a name (an identified struct's).
    Str(Symbol),
    Flag(bool),
    Types(Box<[Type]>),
    Attr(Attribute),
}

impl TypeParam {
    pub fn as_type(&self) -> Option<Type> {
        match self {
            TypeParam::Type(t) => Some(*t),
            _ => None,
        }
    }
    pub fn as_int(&self) -> Option<i64> {
        match self {
            TypeParam::Int(i) => Some(*i),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<Symbol> {
        match self {
            TypeParam::Str(s) => Some(*s),
            _ => None,
        }
    }
    pub fn as_flag(&self) -> Option<bool> {
        match self {
            TypeParam::Flag(f) => Some(*f),
            _ => None,
        }
    }
    pub fn as_types(&self) -> Option<&[Type]> {
        match self {
            TypeParam::Types(ts) => Some(ts),
            _ => None,
        }
    }
}

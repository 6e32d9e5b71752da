//! Types, interned in the [`crate::Context`]: equality is a handle compare.

use crate::{Attribute, Symbol};

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

/// The structure of a type. Dialect types the IR core knows by structure
/// (the async ones) live here so that passes can match on them; any other
/// dialect type is kept opaque, spelled as it was read.
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
    AsyncToken,
    AsyncValue(Type),
    AsyncGroup,
    CoroId,
    CoroHandle,
    CoroState,
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

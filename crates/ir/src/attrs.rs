//! Attributes, interned in the [`crate::Context`].

use crate::{Symbol, Type};

crate::entity!(
    /// An interned attribute.
    Attribute,
    "attr"
);
crate::entity_ref!(Attribute);

/// A scalar inside `dense<...>`: integers keep their full value, floats
/// their bits in the element type's width.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DenseElem {
    Int(i128),
    /// The bits of an `f64`; narrower floats are stored widened, exactly.
    Float(u64),
    Bool(bool),
}

/// The structure of an attribute.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrKind {
    Unit,
    Bool(bool),
    /// Integer of the given integer or index type.
    Integer(i128, Type),
    /// Float of the given float type, as the bits of an `f64` (every value
    /// of the narrower formats converts to `f64` exactly).
    Float(u64, Type),
    /// Bytes, as MLIR's `StringAttr`: not necessarily UTF-8.
    String(Vec<u8>, Option<Type>),
    Type(Type),
    Array(Vec<Attribute>),
    /// Entries sorted by name, as MLIR keeps them.
    Dictionary(Vec<(Symbol, Attribute)>),
    /// `@root::@nested...`
    SymbolRef(Symbol, Vec<Symbol>),
    /// `dense<...> : type`; a single element is a splat.
    Dense(Vec<DenseElem>, Type, bool),
    /// `affine_map<...>`, `affine_set<...>`: text in canonical spelling.
    Affine(String),
    /// `#dialect.body` or `#dialect<"body">`: kept verbatim.
    Opaque(String),
}

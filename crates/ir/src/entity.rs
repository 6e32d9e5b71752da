//! Typed `u32` handles into arenas, in the style of `cranelift-entity`.
//!
//! Passes hold handles, never references, so the IR can be rewritten while
//! it is being walked without interior mutability.

/// Declares a `Copy` handle type wrapping a `u32` index.
#[macro_export]
macro_rules! entity {
    ($(#[$m:meta])* $name:ident, $prefix:literal) => {
        $(#[$m])*
        ///
        /// Stored as index + 1 so that `Option` of a handle is 4 bytes: the
        /// IR's links (parent, prev, next) are options, one per op.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(std::num::NonZeroU32);
        impl $name {
            /// The arena index of this handle.
            #[inline]
            pub fn index(self) -> usize {
                (self.0.get() - 1) as usize
            }
            /// Rebuilds a handle from an arena index.
            #[inline]
            pub fn from_index(i: usize) -> Self {
                $name(std::num::NonZeroU32::MIN.saturating_add(i as u32))
            }
        }
        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.index())
            }
        }
    };
}

/// A dense arena keyed by a handle type; entities are never moved, so
/// handles stay valid for the arena's lifetime (erased entities are marked
/// dead by their owner, not removed).
#[derive(Clone, Debug)]
pub struct Arena<K, V> {
    items: Vec<V>,
    _k: std::marker::PhantomData<K>,
}

/// Conversion between handles and indices, implemented by [`entity!`] types.
pub trait EntityRef: Copy {
    fn new(i: usize) -> Self;
    fn idx(self) -> usize;
}

impl<K: EntityRef, V> Default for Arena<K, V> {
    fn default() -> Self {
        Arena {
            items: Vec::new(),
            _k: std::marker::PhantomData,
        }
    }
}

impl<K: EntityRef, V> Arena<K, V> {
    pub fn push(&mut self, v: V) -> K {
        let k = K::new(self.items.len());
        self.items.push(v);
        k
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    /// Room for `n` more entities without moving the arena.
    pub fn reserve(&mut self, n: usize) {
        self.items.reserve(n);
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    pub fn keys(&self) -> impl Iterator<Item = K> {
        (0..self.items.len()).map(K::new)
    }
}

impl<K: EntityRef, V> std::ops::Index<K> for Arena<K, V> {
    type Output = V;
    #[inline]
    fn index(&self, k: K) -> &V {
        &self.items[k.idx()]
    }
}

impl<K: EntityRef, V> std::ops::IndexMut<K> for Arena<K, V> {
    #[inline]
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.items[k.idx()]
    }
}

/// Implements [`EntityRef`] for handle types declared with [`entity!`].
#[macro_export]
macro_rules! entity_ref {
    ($($name:ident),*) => {$(
        impl $crate::entity::EntityRef for $name {
            #[inline]
            fn new(i: usize) -> Self { $name::from_index(i) }
            #[inline]
            fn idx(self) -> usize { self.index() }
        }
    )*};
}

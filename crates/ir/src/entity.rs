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
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.items.iter_mut()
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

/// Data attached to entities of an arena it does not own, as
/// `cranelift-entity`'s `SecondaryMap`: a dense table indexed by handle
/// that reads as `default` where nothing was written and grows on write.
/// Analyses and passes keep their per-op, per-block and per-value facts
/// here instead of in hash maps (a lookup is an index) or in hand-grown
/// `Vec`s (which each had to remember to grow before writing).
#[derive(Clone, Debug)]
pub struct SecondaryMap<K, V> {
    items: Vec<V>,
    default: V,
    _k: std::marker::PhantomData<K>,
}

impl<K: EntityRef, V: Clone + Default> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        Self::with_default(V::default())
    }
}

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    /// A map that reads as `default` for every key.
    pub fn with_default(default: V) -> Self {
        SecondaryMap {
            items: Vec::new(),
            default,
            _k: std::marker::PhantomData,
        }
    }
    /// A map with room for `n` keys, so that writes below `n` never move it.
    pub fn with_capacity(n: usize, default: V) -> Self {
        let mut m = Self::with_default(default);
        m.items.reserve(n);
        m
    }
    pub fn get(&self, k: K) -> &V {
        self.items.get(k.idx()).unwrap_or(&self.default)
    }
    /// Writes `v` at `k`, growing the table as needed.
    pub fn set(&mut self, k: K, v: V) {
        *self.get_mut(k) = v;
    }
    pub fn get_mut(&mut self, k: K) -> &mut V {
        let i = k.idx();
        if i >= self.items.len() {
            self.items.resize(i + 1, self.default.clone());
        }
        &mut self.items[i]
    }
    /// Every key back to the default value, keeping the allocation.
    pub fn clear(&mut self) {
        self.items.clear();
    }
    /// The values of the keys [`SecondaryMap::iter`] visits, to change.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.items.iter_mut()
    }
    /// Keys that have been written (or lie below one that has), with their
    /// values, in handle order.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> {
        self.items.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
}

impl<K: EntityRef, V: Clone> std::ops::Index<K> for SecondaryMap<K, V> {
    type Output = V;
    fn index(&self, k: K) -> &V {
        self.get(k)
    }
}

impl<K: EntityRef, V: Clone> std::ops::IndexMut<K> for SecondaryMap<K, V> {
    fn index_mut(&mut self, k: K) -> &mut V {
        self.get_mut(k)
    }
}

#[cfg(test)]
mod secondary_map_tests {
    use super::SecondaryMap;
    use crate::Op;

    #[test]
    fn unwritten_keys_read_as_the_default_and_writes_grow_the_table() {
        let mut m: SecondaryMap<Op, u32> = SecondaryMap::with_default(7);
        let a = Op::from_index(3);
        let b = Op::from_index(10);
        assert_eq!(m[a], 7);
        m[b] = 1;
        assert_eq!(m[b], 1);
        assert_eq!(m[a], 7, "keys below a write keep the default");
        m[a] += 1;
        assert_eq!(m[a], 8);
        assert_eq!(m.iter().filter(|(_, &v)| v != 7).count(), 2);
        m.clear();
        assert_eq!(m[b], 7);
    }
}

//! Interning tables that hold each key once: the key lives in a `Vec`
//! indexed by handle, and the hash table holds only indices into it. A
//! map from key to handle next to that `Vec` stored every string,
//! attribute and type twice (two allocations for a new one) with 20 to
//! 50-byte table slots; at a million ops the tables are hundreds of
//! thousands of entries, probed at every new function name.

use crate::fxhash::FxHasher;
use hashbrown::hash_table::{Entry, HashTable};
use std::borrow::Borrow;
use std::hash::{Hash, Hasher};

pub(crate) struct Interner<K> {
    items: Vec<K>,
    table: HashTable<u32>,
}

impl<K> Default for Interner<K> {
    fn default() -> Self {
        Interner {
            items: Vec::new(),
            table: HashTable::new(),
        }
    }
}

fn hash<Q: Hash + ?Sized>(q: &Q) -> u64 {
    let mut h = FxHasher::default();
    q.hash(&mut h);
    h.finish()
}

impl<K: Hash + Eq> Interner<K> {
    /// The index of `q`, if interned.
    pub(crate) fn get<Q>(&self, q: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let items = &self.items;
        self.table
            .find(hash(q), |&i| items[i as usize].borrow() == q)
            .map(|&i| i as usize)
    }

    /// The index of `q`, interning `make(q)` (a key equal to `q`, hashing
    /// the same: `Borrow`'s contract) if new; also says whether it was.
    pub(crate) fn intern<Q, R>(&mut self, q: R, make: impl FnOnce(R) -> K) -> (usize, bool)
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
        R: Borrow<Q>,
    {
        let Interner { items, table } = self;
        let h = hash(q.borrow());
        match table.entry(
            h,
            |&i| items[i as usize].borrow() == q.borrow(),
            |&i| hash(&items[i as usize]),
        ) {
            Entry::Occupied(e) => (*e.get() as usize, false),
            Entry::Vacant(e) => {
                let i = items.len();
                e.insert(i as u32);
                items.push(make(q));
                (i, true)
            }
        }
    }

    pub(crate) fn reserve(&mut self, n: usize) {
        let Interner { items, table } = self;
        items.reserve(n);
        table.reserve(n, |&i| hash(&items[i as usize]));
    }
}

impl<K> Interner<K> {
    pub(crate) fn items(&self) -> &[K] {
        &self.items
    }
}

impl<K> std::ops::Index<usize> for Interner<K> {
    type Output = K;
    fn index(&self, i: usize) -> &K {
        &self.items[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_get_one_index_and_survive_growth() {
        let mut t: Interner<Box<str>> = Interner::default();
        let names: Vec<String> = (0..5000).map(|i| format!("async_execute_fn_{i}")).collect();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.intern::<str, _>(n.as_str(), Box::from), (i, true));
            if i == 100 {
                t.reserve(10_000);
            }
        }
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.intern::<str, _>(n.as_str(), Box::from), (i, false));
            assert_eq!(t.get(n.as_str()), Some(i));
            assert_eq!(&*t[i], n.as_str());
        }
        assert_eq!(t.get("async_execute_fn"), None);
        assert_eq!(t.items().len(), names.len());
    }
}

//! A bounded per-process memo of a deterministic validator's outcomes, per stage.
//!
//! A library repeats stage texts (stock vertex stages, one shader validated in several
//! preset contexts, texts that differ only in lines the compiler drops), so glslang,
//! naga and reflection each remember what they said of a (stage, input) pair. Each memo
//! holds at most its budget of bytes (the caller states what an entry costs); past it,
//! nothing more is remembered, so memory stays bounded and results never change. It
//! must only ever hold outcomes that depend on nothing but the key.

use super::Stage;
use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, PoisonError};

/// Outcomes by (stage, key), up to `budget` bytes as the callers count them.
pub(super) struct StageMemo<K, V> {
    budget: usize,
    /// Bytes remembered, and the outcomes of each stage by key.
    entries: Mutex<(usize, [HashMap<K, V>; 2])>,
}

impl<K: Eq + Hash, V: Clone> StageMemo<K, V> {
    pub(super) fn new(budget: usize) -> StageMemo<K, V> {
        StageMemo { budget, entries: Mutex::new((0, [HashMap::new(), HashMap::new()])) }
    }

    /// The outcome remembered for `key`, or `compute`'s, remembered when `cost` of it
    /// still fits the budget. Two threads may compute the same key at once; both get
    /// the same outcome, since it depends on the key alone.
    pub(super) fn get_or_compute<Q>(
        &self,
        stage: Stage,
        key: &Q,
        compute: impl FnOnce() -> V,
        cost: impl FnOnce(&V) -> usize,
    ) -> V
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ToOwned<Owned = K> + ?Sized,
    {
        if let Some(hit) = self.lock().1[stage as usize].get(key) {
            return hit.clone();
        }
        let value = compute();
        let cost = cost(&value);
        let mut entries = self.lock();
        if entries.0 + cost <= self.budget {
            entries.0 += cost;
            entries.1[stage as usize].insert(key.to_owned(), value.clone());
        }
        value
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (usize, [HashMap<K, V>; 2])> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn remembers_by_stage_and_key_within_the_budget() {
        let memo: StageMemo<String, usize> = StageMemo::new(10);
        let calls = Cell::new(0);
        let compute = |n: usize| {
            calls.set(calls.get() + 1);
            n
        };
        assert_eq!(memo.get_or_compute(Stage::Vertex, "a", || compute(1), |_| 4), 1);
        assert_eq!(memo.get_or_compute(Stage::Vertex, "a", || compute(9), |_| 4), 1);
        assert_eq!(calls.get(), 1);
        // The other stage is another key.
        assert_eq!(memo.get_or_compute(Stage::Fragment, "a", || compute(2), |_| 4), 2);
        assert_eq!(calls.get(), 2);
        // 8 of 10 bytes used: an entry of 4 is computed but not remembered.
        assert_eq!(memo.get_or_compute(Stage::Vertex, "b", || compute(3), |_| 4), 3);
        assert_eq!(memo.get_or_compute(Stage::Vertex, "b", || compute(5), |_| 4), 5);
        assert_eq!(calls.get(), 4);
    }
}

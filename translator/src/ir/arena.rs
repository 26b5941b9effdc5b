//! Typed arenas and handles, in the naga style.
//!
//! An [`Arena<T>`] owns values; a [`Handle<T>`] is a `u32` index that remembers its
//! element type. Handles are only meaningful for the arena that issued them; the IR
//! validator checks that every handle in a module is in bounds. Spans are not stored
//! here: each IR owner keeps them in a parallel vector.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

pub struct Handle<T> {
    index: u32,
    marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    pub const fn new(index: u32) -> Handle<T> {
        Handle { index, marker: PhantomData }
    }
    pub const fn index(self) -> usize {
        self.index as usize
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}
impl<T> Eq for Handle<T> {}
impl<T> PartialOrd for Handle<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Handle<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.index.cmp(&other.index)
    }
}
impl<T> Hash for Handle<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.index.hash(state)
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.index)
    }
}

/// A growable store of `T` addressed by [`Handle<T>`].
#[derive(Clone)]
pub struct Arena<T> {
    items: Vec<T>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { items: Vec::new() }
    }
}

impl<T: fmt::Debug> fmt::Debug for Arena<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<T> Arena<T> {
    pub fn new() -> Arena<T> {
        Arena::default()
    }
    pub fn append(&mut self, value: T) -> Handle<T> {
        let h = Handle::new(self.items.len() as u32);
        self.items.push(value);
        h
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    pub fn get(&self, h: Handle<T>) -> Option<&T> {
        self.items.get(h.index())
    }
    pub fn contains(&self, h: Handle<T>) -> bool {
        h.index() < self.items.len()
    }
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Handle<T>, &T)> {
        self.items.iter().enumerate().map(|(i, v)| (Handle::new(i as u32), v))
    }
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (Handle<T>, &mut T)> {
        self.items.iter_mut().enumerate().map(|(i, v)| (Handle::new(i as u32), v))
    }
}

impl<T> std::ops::Index<Handle<T>> for Arena<T> {
    type Output = T;
    fn index(&self, h: Handle<T>) -> &T {
        &self.items[h.index()]
    }
}

impl<T> std::ops::IndexMut<Handle<T>> for Arena<T> {
    fn index_mut(&mut self, h: Handle<T>) -> &mut T {
        &mut self.items[h.index()]
    }
}

//! Back ends: text emitted from the IR and the porting passes' plans.

pub mod slang;

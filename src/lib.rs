//! The library half of the `cg2slang` package: the migration of a whole Cg library
//! ([`migrate`]: discovery, planning, translation, validation, writing, the report, the
//! old/new comparison) and safe output files ([`output`]), shared by the binary's
//! commands (`src/cmd/`), the integration tests and the examples.
//!
//! It sits above `runtime-check` (it calls the validators and the comparison directly)
//! and must never parse command lines, print, or decide exit codes: that is the
//! binary's. It never panics on user input; what goes wrong is a diagnostic or an error
//! message for the caller to show.

pub mod migrate;
pub mod output;

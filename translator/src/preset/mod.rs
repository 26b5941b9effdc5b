//! RetroArch shader presets: `.cgp` in, `.slangp` out.
//!
//! Three layers, after librashader's preset parser (design anchors §4):
//! [`token`] splits lines into spanned tokens (`key = value`, `#reference`), [`value`]
//! types them ([`Value`], per-pass variants carrying the pass index), [`model`] builds
//! the [`Preset`] with RetroArch's defaults and rules. [`cgp`] reads files through a
//! [`grammar::FileSystem`] and follows `#reference` chains; [`slangp`] writes a
//! `.slangp` from the model and reads one back; [`files`] checks that the files a
//! loaded preset names can be read; [`parameters`] reads the `#pragma parameter` lines its
//! passes declare.
//!
//! Where implementations disagree this follows RetroArch, the reference runtime (runtime
//! sheet §4): what RetroArch's loader would reject is an error (E05xx), what it would
//! quietly ignore or misread is a warning (W05xx) and loading goes on. Every diagnostic
//! points into the [`grammar::SourceMap`], so it renders as file:line:column.
//!
//! **Invariant:** nothing here panics on any input, prints, or touches the disk except
//! through the `FileSystem` it is given; output is deterministic.

pub mod cgp;
pub mod files;
pub mod model;
pub mod parameters;
pub mod slangp;
pub mod token;
pub mod value;

#[cfg(test)]
mod tests;

pub use cgp::{load, load_cgp, load_str, parse_cgp_str, MAX_REFERENCE_DEPTH};
pub use model::{Lut, Pass, Preset, Scale};
pub use parameters::{declared_parameters, ParameterCache};
pub use slangp::{load_slangp, parse_slangp_str, write_slangp, write_slangp_with_notes, WriteNote, Written};
pub use value::{Dialect, ScaleType, Value, WrapMode, MAX_PASSES_CGP, MAX_PASSES_SLANGP};

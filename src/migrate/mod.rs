//! `cg2slang migrate` as a library: a whole Cg library (`.cgp` presets and `.cg` files)
//! to the complete slang tree, in named steps.
//!
//! 1. [`discover`](mod@discover): the inputs, directories walked with `.cg2slangignore`
//!    ([`Root`]s).
//! 2. [`plan()`](plan::plan): every preset loaded ([`presets`]), every pass and every
//!    `.cg` no preset uses turned into a translation request ([`jobs`]), each distinct
//!    request translated once and validated ([`translate`], [`validate`]), one output
//!    per distinct text ([`shaders`]), the `.slangp` files and LUT copies ([`presets`]):
//!    the whole tree in memory, a [`Plan`], with output paths from [`paths`] and each
//!    translation's Cg side ([`origins`]) for review.
//! 3. [`write`](mod@write): the refusal to overwrite, then atomic writes.
//! 4. [`compare`]: old/new of every translated preset (`migrate --compare`, `review`).
//! 5. [`report`]: the JSON report and the summary text.
//!
//! Planning is deterministic (inputs sorted, translation pure) and reads only through
//! the [`grammar::FileSystem`] it is given; only [`write`](mod@write) writes, and only under the
//! output directory. Nothing here prints, parses arguments or panics on user input.

pub mod compare;
pub mod discover;
pub mod jobs;
pub mod origins;
pub mod paths;
pub mod plan;
pub mod presets;
pub mod report;
pub mod shaders;
pub mod translate;
pub mod validate;
pub mod write;

pub use discover::{discover, Discovered, Root};
pub use origins::{CgFile, LineOrigin, Origins};
pub use plan::{plan, Copy, Plan, PresetOut, ShaderOut, Status};
pub use report::ReportDiagnostic;
pub use validate::Checks;

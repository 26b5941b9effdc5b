//! A `.slangp` on disk to a [`ChainDesc`]: the preset through the translator's reader
//! (`load_slangp`), every pass through [`super::slang::load_slang`], LUT images through
//! [`super::image_io`]. [`assemble`] is the part shared with `compare`, whose passes
//! come from translating a `.cgp` instead and whose LUTs are decoded once per run. `#pragma format` and `#pragma name` (when the preset gives no
//! alias) go into the pass specs; `#pragma parameter` initial values are the defaults,
//! the preset's values override them.
//!
//! **Invariant:** never panics; reads files only; returns every error it found.

use super::image_io;
use super::run::{ChainDesc, ChainPass, InputImage, LutImage};
use super::slang::{load_slang, SlangPass};
use crate::codes;
use crate::plan::{ChainSpec, Format, Runtime, Size};
use grammar::{Diagnostic, FileSystem, SourceMap};
use std::path::Path;
use translator::preset::{Pass as PresetPass, Preset};

/// Loads `path` for rendering. The preset's own diagnostics point into `sources`.
pub fn load_preset(sources: &mut SourceMap, path: &Path, fs: &dyn FileSystem) -> (Option<ChainDesc>, Vec<Diagnostic>) {
    let (preset, mut diags) = translator::preset::load_slangp(sources, path, fs);
    let Some(preset) = preset else {
        if !diags.iter().any(Diagnostic::is_error) {
            diags.push(Diagnostic::error(codes::E_CHAIN_PRESET, format!("cannot load `{}`", path.display())));
        }
        return (None, diags);
    };
    // The passes compile independently: on several threads at once (start-up time).
    let mut loaded = load_all(&preset, fs);
    let desc = assemble(&preset, &mut image_io::load_image, &mut |i, _| {
        let result = loaded.get_mut(i).and_then(Option::take).unwrap_or_else(|| {
            Err(vec![Diagnostic::error(codes::E_CHAIN_SHADER, "the pass was not compiled".to_string())])
        });
        result.map_err(|e| e.into_iter().map(|d| d.with_note(format!("pass {i} of the preset"))).collect())
    });
    match desc {
        Ok(desc) if !diags.iter().any(Diagnostic::is_error) => (Some(desc), diags),
        Ok(_) => (None, diags),
        Err(errors) => {
            diags.extend(errors);
            (None, diags)
        }
    }
}

/// One pass loaded by [`load_slang`], or its errors.
type Loaded = Result<SlangPass, Vec<Diagnostic>>;

/// Every pass of `preset` through [`load_slang`], in pass order, compiled on up to as
/// many threads as the machine has (each compiles its two stages on two).
fn load_all(preset: &Preset, fs: &dyn FileSystem) -> Vec<Option<Loaded>> {
    let n = preset.passes.len();
    let workers = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get).clamp(1, n.max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Loaded>>> = (0..n).map(|_| std::sync::Mutex::new(None)).collect();
    let work = || loop {
        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Some(p) = preset.passes.get(i) else { break };
        let r = load_slang(&p.shader_resolved, fs);
        if let Some(slot) = results.get(i) {
            *slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(r);
        }
    };
    std::thread::scope(|s| {
        for _ in 1..workers {
            s.spawn(work);
        }
        work();
    });
    results.into_iter().map(|m| m.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)).collect()
}

/// Loads pass `i` of a preset: its modules and `#pragma`s, or its errors.
pub type PassLoader<'a> = dyn FnMut(usize, &PresetPass) -> Result<SlangPass, Vec<Diagnostic>> + 'a;

/// Reads and decodes the LUT image file at a path (as [`image_io::load_image`] does).
pub type LutLoader<'a> = dyn FnMut(&Path) -> Result<InputImage, Diagnostic> + 'a;

/// Builds the chain of a loaded preset (`.slangp`, or a `.cgp` whose passes are
/// translated on the way): the LUT images from `load_lut`, the schedule from the preset,
/// each pass from `load_pass` (its modules and `#pragma`s); `#pragma format` and, where
/// the preset gives no alias, `#pragma name` go into the pass specs. Returns every error.
pub fn assemble(
    preset: &Preset,
    load_lut: &mut LutLoader<'_>,
    load_pass: &mut PassLoader<'_>,
) -> Result<ChainDesc, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut luts = Vec::new();
    for l in &preset.textures {
        match load_lut(&l.resolved) {
            Ok(img) => luts.push(img),
            Err(e) => errors.push(e.with_note(format!("LUT `{}` of the preset", l.name))),
        }
    }
    let sizes: Vec<Size> = luts.iter().map(|i| i.size).collect();
    let spec = ChainSpec::from_preset(preset, &sizes, Runtime::Slang);
    let mut passes = Vec::new();
    for (i, (p, mut ps)) in preset.passes.iter().zip(spec.passes).enumerate() {
        match load_pass(i, p) {
            Ok(loaded) => {
                if let Some(f) = &loaded.meta.format {
                    ps.format = Format::parse(f);
                }
                if ps.alias.is_none() {
                    ps.alias = loaded.meta.name.clone();
                }
                passes.push(ChainPass {
                    vertex: loaded.vertex,
                    fragment: loaded.fragment,
                    spec: ps,
                    parameters: loaded.meta.parameters.iter().map(|q| (q.id.clone(), q.initial)).collect(),
                });
            }
            Err(e) => errors.extend(e),
        }
    }
    if errors.iter().any(Diagnostic::is_error) {
        return Err(errors);
    }
    let luts = spec
        .luts
        .iter()
        .zip(luts)
        .map(|(l, img)| LutImage { name: l.name.clone(), size: img.size, rgba8: img.rgba8, sampling: l.sampling })
        .collect();
    Ok(ChainDesc { passes, luts, parameters: preset.parameters.clone() })
}

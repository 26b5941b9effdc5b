//! The `#pragma parameter` lines a loaded preset's passes declare, read as RetroArch's Cg
//! runtime compiled each pass (its alias defines and `PARAMETER_UNIFORM`): the input of
//! [`crate::translate::TranslateOptions::preset_parameters`], so that a parameter one
//! pass declares binds in every pass.
//!
//! Reads only through the [`grammar::FileSystem`] it is given, never writes, never
//! panics on any input: a pass whose file cannot be read declares nothing (loading the
//! pass reports it). Deterministic: passes in order, the first declaration of an id wins.

use super::Preset;
use grammar::{FileSystem, PpOptions, SourceMap};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

/// The lines of each file already preprocessed, per alias set (a file is read once
/// however many presets and passes use it with the same aliases). Shared by threads:
/// a file two threads miss at once is preprocessed by both, and either result (they are
/// equal) is kept.
#[derive(Debug, Default)]
pub struct ParameterCache {
    lines: Mutex<HashMap<CacheKey, Arc<Vec<String>>>>,
}

/// A preprocessed file: its normalised path and its sorted, non-empty aliases.
#[derive(Debug, PartialEq, Eq, Hash)]
struct CacheKey {
    cg: PathBuf,
    aliases: Vec<String>,
}

/// The `#pragma parameter` lines of every pass of `preset` (first declaration of each
/// id wins), read by preprocessing each pass as RetroArch compiled it.
pub fn declared_parameters(preset: &Preset, fs: &dyn FileSystem, cache: &ParameterCache) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    for (i, pass) in preset.passes.iter().enumerate() {
        let cg = grammar::source::normalize(&pass.shader_resolved);
        let mut aliases: Vec<String> = preset.pass_context(i).aliases.into_iter().filter(|a| !a.is_empty()).collect();
        aliases.sort();
        let key = CacheKey { cg, aliases };
        let known = cache.lines.lock().unwrap_or_else(PoisonError::into_inner).get(&key).cloned();
        let lines = match known {
            Some(lines) => lines,
            None => {
                let lines = Arc::new(pragma_lines(&key, fs));
                cache.lines.lock().unwrap_or_else(PoisonError::into_inner).entry(key).or_insert(lines).clone()
            }
        };
        for line in lines.iter() {
            for id in crate::port::semantics::parameter_names(std::slice::from_ref(line)) {
                if !ids.contains(&id) {
                    ids.push(id);
                    out.push(line.clone());
                }
            }
        }
    }
    out
}

/// The `#pragma parameter` lines of one file preprocessed with `key`'s aliases (only
/// its directives run: the text between them is neither expanded nor kept).
fn pragma_lines(key: &CacheKey, fs: &dyn FileSystem) -> Vec<String> {
    let mut defines: Vec<(String, Option<String>)> = vec![("PARAMETER_UNIFORM".into(), None)];
    defines.extend(key.aliases.iter().map(|a| (format!("{a}_ALIAS"), None)));
    let options = PpOptions { defines, ..PpOptions::default() };
    let mut sources = SourceMap::new();
    let Ok(bytes) = fs.read(&key.cg) else { return Vec::new() };
    let (text, _) = grammar::source::decode(bytes);
    let root = sources.add_file(key.cg.display().to_string(), Some(key.cg.clone()), text);
    let (pp, _) = grammar::pp::preprocess_directives(&mut sources, root, &options, fs);
    pp.pragmas.into_iter().map(|p| p.text).filter(|t| t.split_whitespace().nth(1) == Some("parameter")).collect()
}

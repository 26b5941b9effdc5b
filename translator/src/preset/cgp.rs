//! Loading a preset file: reading through a [`FileSystem`], the three layers, and
//! `#reference` chains.
//!
//! `#reference` is handled as RetroArch does (`video_shader_load_preset_into_shader`):
//! from the loaded preset, the *first* `#reference` of each file is followed until a
//! file without one; that file is the root and must have `shaders`; passes and LUTs
//! come from it alone. Further `#reference` lines of the loaded preset must not lead to
//! another full preset. Then every preset reachable through `#reference` lines is
//! applied on top of the root, referenced before referencing (depth first, in file
//! order, the loaded preset last); each may override only parameter values and LUT paths.
//! Chains are limited to 16 links; a cycle is an error that shows the chain.
//!
//! This module reads files only through the given [`FileSystem`] (so tests run in
//! memory) and adds every file it reads to the [`SourceMap`], so diagnostics point at
//! file:line:column. It never panics and never prints.

use super::model::{resolve, Preset};
use super::token::{tokenize, Item, Tokens};
use super::value::{values, Context, Dialect, Values};
use crate::codes;
use grammar::source::{decode, normalize};
use grammar::{Diagnostic, FileId, FileSystem, MemoryFs, SourceMap, Span};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// RetroArch's SHADER_MAX_REFERENCE_DEPTH: `#reference` links followed at most.
pub const MAX_REFERENCE_DEPTH: usize = 16;

/// Presets applied on top of a root at most (RetroArch has no such cap; it only bounds
/// the work a pathological reference graph can cause).
const MAX_OVERRIDE_FILES: usize = 1024;

/// Loads a `.cgp` preset and everything it references.
pub fn load_cgp(sources: &mut SourceMap, path: &Path, fs: &dyn FileSystem) -> (Option<Preset>, Vec<Diagnostic>) {
    load(sources, path, fs, Dialect::Cgp)
}

/// Parses `.cgp` text held in memory under `name`; a `#reference` in it cannot be
/// followed (there is no file system) and is reported.
pub fn parse_cgp_str(sources: &mut SourceMap, name: &str, text: &str) -> (Option<Preset>, Vec<Diagnostic>) {
    load_str(sources, name, text, &MemoryFs::new(), Dialect::Cgp)
}

/// Loads a preset of either dialect from `fs`.
pub fn load(
    sources: &mut SourceMap,
    path: &Path,
    fs: &dyn FileSystem,
    dialect: Dialect,
) -> (Option<Preset>, Vec<Diagnostic>) {
    let mut loader = Loader::new(sources, fs, dialect);
    let preset = loader.read(path, None).and_then(|start| loader.preset(start));
    let preset = preset.filter(|p| super::files::check_files(p, fs, dialect, &mut loader.diags));
    (preset, loader.diags)
}

/// Loads a preset whose own text is in memory under `name`; references resolve in `fs`.
pub fn load_str(
    sources: &mut SourceMap,
    name: &str,
    text: &str,
    fs: &dyn FileSystem,
    dialect: Dialect,
) -> (Option<Preset>, Vec<Diagnostic>) {
    let mut loader = Loader::new(sources, fs, dialect);
    let start = loader.add(Path::new(name), text.to_owned());
    let preset = loader.preset(start);
    (preset, loader.diags)
}

/// One preset file read and tokenized.
struct File {
    id: FileId,
    path: PathBuf,
    tokens: Tokens,
}

impl File {
    /// `#reference` targets, resolved against this file's directory, with their spans.
    fn references(&self) -> Vec<(PathBuf, Span)> {
        let base = self.path.parent().unwrap_or(Path::new(""));
        self.tokens
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Reference { path, .. } => Some((resolve(base, Path::new(&path.text)), path.span)),
                _ => None,
            })
            .collect()
    }

    fn has_shaders(&self) -> bool {
        self.tokens.items.iter().any(|i| matches!(i, Item::Entry { key, .. } if key.text == "shaders"))
    }

    fn name(&self) -> String {
        self.path.display().to_string()
    }
}

struct Loader<'a> {
    sources: &'a mut SourceMap,
    fs: &'a dyn FileSystem,
    dialect: Dialect,
    files: Vec<File>,
    by_path: HashMap<PathBuf, Option<usize>>,
    diags: Vec<Diagnostic>,
}

impl<'a> Loader<'a> {
    fn new(sources: &'a mut SourceMap, fs: &'a dyn FileSystem, dialect: Dialect) -> Loader<'a> {
        Loader { sources, fs, dialect, files: Vec::new(), by_path: HashMap::new(), diags: Vec::new() }
    }

    /// Adds a file's text to the source map and tokenizes it.
    fn add(&mut self, path: &Path, text: String) -> usize {
        let norm = normalize(path);
        let id = self.sources.add_file(path.display().to_string(), Some(norm.clone()), text);
        let tokens = tokenize(id, &self.sources.file(id).text);
        self.diags.extend(tokens.diagnostics.iter().cloned());
        self.files.push(File { id, path: norm.clone(), tokens });
        let index = self.files.len() - 1;
        self.by_path.insert(norm, Some(index));
        index
    }

    /// Reads a file once; `from` is the `#reference` that names it, for the error.
    fn read(&mut self, path: &Path, from: Option<Span>) -> Option<usize> {
        let norm = normalize(path);
        if let Some(known) = self.by_path.get(&norm) {
            return *known;
        }
        match self.fs.read(path) {
            Ok(bytes) => {
                let (text, bad) = decode(bytes);
                let index = self.add(path, text);
                if let Some(at) = bad {
                    self.diags.push(grammar::not_utf8(self.files[index].id, at));
                }
                Some(index)
            }
            Err(e) => {
                let code = grammar::source::read_error_code(&e, codes::E_PRESET_IO);
                let mut d = Diagnostic::error(code, format!("cannot read preset {}: {e}", path.display()));
                if let Some(span) = from {
                    d = d.with_primary(span, "referenced here");
                }
                self.diags.push(d);
                self.by_path.insert(norm, None);
                None
            }
        }
    }

    /// The chain of files from `start` along first `#reference`s to a file without one.
    fn root_chain(&mut self, start: usize) -> Option<Vec<usize>> {
        let mut chain = vec![start];
        loop {
            let cur = *chain.last()?;
            let Some((target, span)) = self.files[cur].references().into_iter().next() else {
                return Some(chain);
            };
            if chain.len() > MAX_REFERENCE_DEPTH {
                self.diags.push(
                    Diagnostic::error(
                        codes::E_PRESET_REFERENCE_DEPTH,
                        format!("more than {MAX_REFERENCE_DEPTH} nested #reference presets"),
                    )
                    .with_primary(span, "one too many")
                    .with_note(format!("chain: {}", self.chain_text(&chain, &target))),
                );
                return None;
            }
            let next = self.read(&target, Some(span))?;
            if chain.contains(&next) {
                self.diags.push(
                    Diagnostic::error(codes::E_PRESET_REFERENCE_CYCLE, "#reference presets form a cycle")
                        .with_primary(span, "closes the cycle")
                        .with_note(format!("chain: {}", self.chain_text(&chain, &target))),
                );
                return None;
            }
            chain.push(next);
        }
    }

    fn chain_text(&self, chain: &[usize], last: &Path) -> String {
        let mut names: Vec<String> = chain.iter().map(|&i| self.files[i].name()).collect();
        names.push(last.display().to_string());
        names.join(" -> ")
    }

    /// Every preset reachable from `at` through `#reference`s, referenced before
    /// referencing (RetroArch's `video_shader_gather_reference_path_list`).
    fn gather(&mut self, at: usize, depth: usize, stack: &mut Vec<usize>, out: &mut Vec<usize>) {
        // The size cap bounds diamond-shaped graphs (each file referencing the next twice).
        if depth > MAX_REFERENCE_DEPTH || stack.contains(&at) || out.len() >= MAX_OVERRIDE_FILES {
            return;
        }
        stack.push(at);
        for (target, span) in self.files[at].references() {
            if let Some(next) = self.read(&target, Some(span)) {
                self.gather(next, depth + 1, stack, out);
            }
        }
        stack.pop();
        out.push(at);
    }

    fn values(&self, index: usize, ctx: Context<'_>) -> Values {
        values(&self.files[index].tokens, ctx)
    }

    fn preset(&mut self, start: usize) -> Option<Preset> {
        let chain = self.root_chain(start)?;
        let root = *chain.last()?;
        if chain.len() > 1 && !self.files[root].has_shaders() {
            let root_id = self.files[root].id;
            self.diags.push(
                Diagnostic::error(
                    codes::E_PRESET_NO_PASSES,
                    format!("the root of the #reference chain, {}, has no `shaders` key", self.files[root].name()),
                )
                .with_primary(Span::new(root_id, 0, 0), "expected `shaders = <pass count>`")
                .with_note(format!(
                    "chain: {}",
                    chain.iter().map(|&i| self.files[i].name()).collect::<Vec<_>>().join(" -> ")
                )),
            );
            return None;
        }
        if chain.len() > 1 && self.files[start].has_shaders() {
            let span = self.files[start].tokens.items.iter().find_map(|i| match i {
                Item::Entry { key, .. } if key.text == "shaders" => Some(key.span),
                _ => None,
            });
            if let Some(span) = span {
                self.diags.push(
                    Diagnostic::warning(
                        codes::W_PRESET_NOT_OVERRIDABLE,
                        "this preset has `shaders` but also `#reference`: its passes are not used",
                    )
                    .with_primary(span, "ignored")
                    .with_note(format!(
                        "RetroArch takes passes and textures from the root, {}",
                        self.files[root].name()
                    )),
                );
            }
        }
        // Further references of the loaded preset must not lead to a full preset.
        let extra = self.files[start].references().into_iter().skip(1).collect::<Vec<_>>();
        let mut failed = false;
        for (target, span) in extra {
            let Some(next) = self.read(&target, Some(span)) else {
                failed = true;
                continue;
            };
            let Some(other) = self.root_chain(next) else {
                failed = true;
                continue;
            };
            if let Some(&end) = other.last() {
                if self.files[end].has_shaders() {
                    self.diags.push(
                        Diagnostic::error(
                            codes::E_PRESET_EXTRA_REFERENCE,
                            format!("a second #reference leads to a full preset ({})", self.files[end].name()),
                        )
                        .with_primary(span, "")
                        .with_note(
                            "only the first #reference may lead to the preset with the passes; RetroArch refuses this",
                        ),
                    );
                    failed = true;
                }
            }
        }
        let root_values = self.values(root, Context::root(self.dialect));
        self.diags.extend(root_values.diagnostics.iter().cloned());
        let root_path = self.files[root].path.clone();
        let mut preset = Preset::build(&root_values, self.files[root].id, &root_path, self.dialect, &mut self.diags);
        if failed {
            return None;
        }
        if let Some(p) = preset.as_mut() {
            p.path = self.files[start].path.clone();
        }
        if root == start {
            return preset;
        }
        let mut order = Vec::new();
        self.gather(start, 0, &mut Vec::new(), &mut order);
        let lut_ids: Vec<String> =
            preset.as_ref().map_or_else(Vec::new, |p| p.textures.iter().map(|l| l.name.clone()).collect());
        let mut reported = vec![root];
        for index in order {
            if index == root {
                continue;
            }
            let vals = self.values(index, Context { dialect: self.dialect, overrides: Some(&lut_ids) });
            let mut diags = Vec::new();
            if let Some(p) = preset.as_mut() {
                p.apply_overrides(&vals, &self.files[index].path, &mut diags);
            }
            if !reported.contains(&index) {
                reported.push(index);
                self.diags.extend(vals.diagnostics);
                self.diags.extend(diags);
            }
        }
        preset
    }
}

//! Output paths: where a source file's output goes under the output directory
//! ([`mirror`]) and how one output names another ([`relative`], for `.slangp` shader
//! and LUT paths).
//!
//! Pure path arithmetic: never touches the disk, never panics; an output path never
//! leaves the output directory (files outside the source tree go under `_external/`).

use std::path::{Component, Path, PathBuf};

/// Where one output goes, relative to the output directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mirrored {
    pub output: PathBuf,
    /// The source lies outside `base`, so the output went under `_external/`.
    pub external: bool,
}

/// The output path of `file` relative to `base`, with extension `ext`; files outside
/// go under `_external/`.
pub fn mirror(base: &Path, file: &Path, ext: &str) -> Mirrored {
    let file_n = grammar::source::normalize(file);
    let base_n = grammar::source::normalize(base);
    match file_n.strip_prefix(&base_n) {
        Ok(rel) if !rel.as_os_str().is_empty() => Mirrored { output: rel.with_extension(ext), external: false },
        _ => {
            let clean: PathBuf = file_n
                .components()
                .filter_map(|c| match c {
                    Component::Normal(s) => Some(s.to_owned()),
                    _ => None,
                })
                .collect();
            Mirrored { output: Path::new("_external").join(clean).with_extension(ext), external: true }
        }
    }
}

/// `to` relative to the directory of `from_file` (both relative to the output root).
pub fn relative(from_file: &Path, to: &Path) -> String {
    let from_dir: Vec<Component> = from_file.parent().map(|p| p.components().collect()).unwrap_or_default();
    let to_c: Vec<Component> = to.components().collect();
    let common = from_dir.iter().zip(&to_c).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = Vec::new();
    for _ in common..from_dir.len() {
        parts.push("..".into());
    }
    for c in &to_c[common..] {
        parts.push(c.as_os_str().to_string_lossy().into_owned());
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_and_relative_paths() {
        let m = mirror(Path::new("lib"), Path::new("lib/crt/a.cg"), "slang");
        assert_eq!(m, Mirrored { output: PathBuf::from("crt/a.slang"), external: false });
        let m = mirror(Path::new("lib/crt"), Path::new("lib/shaders/b.cg"), "slang");
        assert_eq!(m, Mirrored { output: PathBuf::from("_external/lib/shaders/b.slang"), external: true });
        assert_eq!(relative(Path::new("crt/x.slangp"), Path::new("crt/shaders/a.slang")), "shaders/a.slang");
        assert_eq!(relative(Path::new("crt/x.slangp"), Path::new("shaders/a.slang")), "../shaders/a.slang");
        assert_eq!(relative(Path::new("x.slangp"), Path::new("a.slang")), "a.slang");
    }
}

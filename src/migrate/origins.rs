//! The Cg side of one translation, for reviewing it: every file the preprocessor read
//! (the .cg first, then its includes, as the user wrote them) and, per output line, the
//! lines of those files it came from (macro expansions mapped to their call site).
//!
//! Computed from the translation's source map and line map only: never reads the disk,
//! never panics on a span (one that maps nowhere is a line without origin).

use grammar::SourceMap;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// Where each output line of a translation came from, and the Cg files it points into.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origins {
    pub files: Vec<CgFile>,
    /// One entry per line of `ShaderOut::text`; `None` for lines the writer made up.
    pub lines: Vec<Option<LineOrigin>>,
}

/// One Cg file as read: the name diagnostics use (`ReportDiagnostic::file`) and its text
/// (shared by every translation that read the same text, see [`SharedTexts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CgFile {
    pub name: String,
    pub text: Arc<str>,
}

/// The Cg texts of one run, each distinct (name, text) held once: a library's shaders
/// read the same includes over and over (a copy per translation was a third of
/// `migrate`'s memory). Equal texts are found by comparing them, never by a digest.
#[derive(Default)]
pub struct SharedTexts {
    by_name: Mutex<HashMap<String, Vec<Arc<str>>>>,
}

impl SharedTexts {
    /// The run's copy of `text`, read under `name`.
    pub fn get(&self, name: &str, text: &str) -> Arc<str> {
        let mut by_name = self.by_name.lock().unwrap_or_else(PoisonError::into_inner);
        let texts = by_name.entry(name.to_owned()).or_default();
        if let Some(t) = texts.iter().find(|t| ***t == *text) {
            return Arc::clone(t);
        }
        let t: Arc<str> = Arc::from(text);
        texts.push(Arc::clone(&t));
        t
    }
}

/// The Cg lines (1-based, inclusive) one output line came from, in `Origins::files[file]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineOrigin {
    pub file: usize,
    pub first: usize,
    pub last: usize,
}

impl Origins {
    /// The origins of a translation whose spans point into `sources`; the files' texts
    /// come from `texts`.
    pub fn of(sources: &SourceMap, line_map: &[Option<grammar::Span>], texts: &SharedTexts) -> Origins {
        let mut index: HashMap<grammar::FileId, usize> = HashMap::new();
        let mut files = Vec::new();
        for (id, f) in sources.files() {
            if f.kind == grammar::source::FileKind::Real {
                index.insert(id, files.len());
                files.push(CgFile { name: f.name.clone(), text: texts.get(&f.name, &f.text) });
            }
        }
        let lines = line_map
            .iter()
            .map(|span| {
                let span = sources.user_span((*span)?);
                let file = *index.get(&span.file)?;
                let f = sources.file(span.file);
                let first = f.line_index(span.start) + 1;
                let last = f.line_index(span.end.saturating_sub(1).max(span.start)) + 1;
                Some(LineOrigin { file, first, last })
            })
            .collect();
        Origins { files, lines }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_equal_text_under_the_same_name_is_shared_and_any_other_is_not() {
        let texts = SharedTexts::default();
        let a = texts.get("inc/a.inc", "float f;\n");
        let again = texts.get("inc/a.inc", &String::from("float f;\n"));
        assert!(Arc::ptr_eq(&a, &again));
        let changed = texts.get("inc/a.inc", "float g;\n");
        assert!(!Arc::ptr_eq(&a, &changed));
        assert_eq!(&*changed, "float g;\n");
        let elsewhere = texts.get("inc/b.inc", "float f;\n");
        assert!(!Arc::ptr_eq(&a, &elsewhere));
        // The first text is still found after another was added under its name.
        assert!(Arc::ptr_eq(&a, &texts.get("inc/a.inc", "float f;\n")));
    }
}

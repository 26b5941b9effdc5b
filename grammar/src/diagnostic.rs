//! Diagnostics: one type for every stage of cg2slang, rendered with codespan-reporting.
//!
//! A [`Diagnostic`] has a stable code (`E01xx` preprocess, `E02xx` parse, later stages
//! their own ranges, `Wxxxx` for warnings), a severity, a message, labelled spans and
//! notes. Spans point into the [`SourceMap`]; rendering adds an "in expansion of macro"
//! note for every macro the primary span came through, so every message lands on the
//! user's own file and line. This module only formats: it never prints and never decides
//! exit codes.

use crate::source::{FileId, FileKind, Location, SourceMap, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{self, Files};
use codespan_reporting::term;
use std::fmt;
use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub primary: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code, e.g. `E0103`; listed in [`crate::codes`].
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
}

/// Messages, labels and notes longer than this many characters are cut (a 1 MB literal
/// quoted in a message would otherwise be printed whole).
pub const MAX_MESSAGE_CHARS: usize = 400;

/// `text` cut to [`MAX_MESSAGE_CHARS`] characters, saying how much was left out.
fn bounded(text: String) -> String {
    match text.char_indices().nth(MAX_MESSAGE_CHARS) {
        None => text,
        Some((cut, _)) => {
            let left = text[cut..].chars().count();
            format!("{}... ({left} more characters)", &text[..cut])
        }
    }
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        let message = bounded(message.into());
        Diagnostic { code, severity: Severity::Error, message, labels: Vec::new(), notes: Vec::new() }
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(code, message) }
    }

    /// Information for a reviewer: nothing is wrong.
    pub fn note(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Note, ..Diagnostic::error(code, message) }
    }

    /// The main place; `message` may be empty.
    pub fn with_primary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { span, message: bounded(message.into()), primary: true });
        self
    }

    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { span, message: bounded(message.into()), primary: false });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(bounded(note.into()));
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn primary_span(&self) -> Option<Span> {
        self.labels.iter().find(|l| l.primary).or(self.labels.first()).map(|l| l.span)
    }

    /// File, line and column of the primary label, mapped to the user's own text.
    pub fn location(&self, sources: &SourceMap) -> Option<Location> {
        self.primary_span().map(|s| sources.location(sources.user_span(s)))
    }
}

/// At most this many diagnostics of one code are kept from one file set; the rest are
/// counted in one note (a runaway macro or a binary file otherwise gives millions).
pub const MAX_PER_CODE: usize = 100;

/// Keeps the first `max` diagnostics of each code, in order, and appends for each code
/// that had more one note of that code saying how many were left out. The severity of
/// what is kept is unchanged, so a capped run still fails.
pub fn cap_per_code(diagnostics: &mut Vec<Diagnostic>, max: usize) {
    let mut seen: std::collections::BTreeMap<&'static str, usize> = std::collections::BTreeMap::new();
    diagnostics.retain(|d| {
        let n = seen.entry(d.code).or_insert(0);
        *n += 1;
        *n <= max
    });
    for (code, n) in seen {
        if n > max {
            diagnostics.push(Diagnostic {
                severity: Severity::Note,
                ..Diagnostic::error(
                    code,
                    format!("{} more {code} diagnostics not shown (at most {max} of one code are)", n - max),
                )
            });
        }
    }
}

/// True when any diagnostic is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}

/// Renders diagnostics as plain text (no colour), the form used in snapshots.
pub fn render_plain(sources: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    let config = term::Config::default();
    let mut out = String::new();
    for d in diagnostics {
        if has_long_line(sources, d) {
            out.push_str(&without_snippet(sources, d));
            continue;
        }
        let cd = to_codespan(sources, d);
        if term::emit_to_string(&mut out, &config, &SourceFiles(sources), &cd).is_err() {
            out.push_str(&fallback_line(sources, d));
        }
    }
    out
}

/// Renders diagnostics with ANSI colours, for a terminal.
pub fn render_ansi(sources: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    use termcolor::Buffer;
    let config = term::Config::default();
    let mut buf = Buffer::ansi();
    for d in diagnostics {
        if has_long_line(sources, d) {
            use std::io::Write;
            let _ = buf.write_all(without_snippet(sources, d).as_bytes());
            continue;
        }
        let cd = to_codespan(sources, d);
        if term::emit_to_write_style(&mut buf, &config, &SourceFiles(sources), &cd).is_err() {
            use std::io::Write;
            let _ = writeln!(buf, "{}", fallback_line(sources, d));
        }
    }
    String::from_utf8_lossy(buf.as_slice()).into_owned()
}

/// One line per diagnostic: `file:line:col: severity[code]: message`.
pub fn render_short(sources: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    diagnostics.iter().map(|d| fallback_line(sources, d) + "\n").collect()
}

/// Source lines longer than this many bytes are not quoted in snippets (a 1 MB
/// literal would be printed whole, once per label).
pub const MAX_QUOTED_LINE: usize = 1000;

/// Whether any label of `d` lies on a line too long to quote.
fn has_long_line(sources: &SourceMap, d: &Diagnostic) -> bool {
    d.labels.iter().any(|l| {
        let user = sources.user_span(l.span);
        let f = sources.file(user.file);
        let first = f.line_index(user.start);
        let last = f.line_index(user.end);
        (first..=last.min(first + 1)).any(|i| {
            let start = f.line_start(i).unwrap_or(0) as usize;
            let end = f.line_start(i + 1).map_or(f.text.len(), |e| e as usize);
            end.saturating_sub(start) > MAX_QUOTED_LINE
        })
    })
}

/// The short form of `d` and its notes, for a diagnostic whose lines are too long.
fn without_snippet(sources: &SourceMap, d: &Diagnostic) -> String {
    let mut out = fallback_line(sources, d) + "\n";
    for n in &d.notes {
        out.push_str(&format!("  = {n}\n"));
    }
    out.push_str(&format!("  = the source line is longer than {MAX_QUOTED_LINE} bytes and is not quoted\n\n"));
    out
}

fn fallback_line(sources: &SourceMap, d: &Diagnostic) -> String {
    match d.location(sources) {
        Some(l) => format!("{}:{}:{}: {}[{}]: {}", l.file, l.line, l.column, d.severity, d.code, d.message),
        None => format!("{}[{}]: {}", d.severity, d.code, d.message),
    }
}

fn to_codespan(sources: &SourceMap, d: &Diagnostic) -> cs::Diagnostic<FileId> {
    let severity = match d.severity {
        Severity::Note => cs::Severity::Note,
        Severity::Warning => cs::Severity::Warning,
        Severity::Error => cs::Severity::Error,
    };
    let mut labels = Vec::new();
    let mut notes = Vec::new();
    for l in &d.labels {
        let user = sources.user_span(l.span);
        let style = if l.primary { cs::LabelStyle::Primary } else { cs::LabelStyle::Secondary };
        labels.push(cs::Label::new(style, user.file, user.range()).with_message(l.message.clone()));
        if l.primary {
            for e in sources.expansion_chain(l.span) {
                let def = sources.location(e.definition);
                notes.push(format!(
                    "in expansion of macro `{}` (defined at {}:{}:{})",
                    e.macro_name, def.file, def.line, def.column
                ));
            }
        }
    }
    notes.extend(d.notes.iter().cloned());
    cs::Diagnostic::new(severity)
        .with_code(d.code)
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(notes)
}

/// Adapter from our [`SourceMap`] to codespan's `Files`.
struct SourceFiles<'a>(&'a SourceMap);

impl<'a> Files<'a> for SourceFiles<'a> {
    type FileId = FileId;
    type Name = String;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<String, files::Error> {
        let f = self.0.file(id);
        Ok(match f.kind {
            FileKind::Real => f.name.clone(),
            FileKind::CommandLine | FileKind::Scratch => f.name.clone(),
        })
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, files::Error> {
        Ok(&self.0.file(id).text)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, files::Error> {
        Ok(self.0.file(id).line_index(byte_index as u32))
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, files::Error> {
        let f = self.0.file(id);
        let start = f
            .line_start(line_index)
            .ok_or(files::Error::LineTooLarge { given: line_index, max: f.line_count().saturating_sub(1) })?;
        let end = f.line_start(line_index + 1).unwrap_or(f.text.len() as u32);
        Ok(start as usize..end as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{Expansion, SourceMap};

    #[test]
    fn renders_code_location_and_macro_note() {
        let mut sm = SourceMap::new();
        let f = sm.add_file("a.cg", None, "#define BAD 1 +\nfloat x = BAD;\n".to_owned());
        let exp = sm.add_expansion(Expansion {
            macro_name: "BAD".into(),
            definition: Span::new(f, 8, 11),
            call_site: Span::new(f, 26, 29),
            parent: None,
        });
        let d = Diagnostic::error("E0201", "expected an expression")
            .with_primary(Span { expansion: Some(exp), ..Span::new(f, 14, 15) }, "after this `+`");
        let text = render_plain(&sm, std::slice::from_ref(&d));
        assert!(text.contains("error[E0201]: expected an expression"), "{text}");
        assert!(text.contains("a.cg:2:11"), "{text}");
        assert!(text.contains("in expansion of macro `BAD` (defined at a.cg:1:9)"), "{text}");
        assert_eq!(render_short(&sm, &[d]), "a.cg:2:11: error[E0201]: expected an expression\n");
    }
}

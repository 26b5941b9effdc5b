//! Placing findings: text searches that find the line a reflected name was declared or
//! used on, and the [`Locator`] that turns an [`Issue`] into a [`Diagnostic`] through
//! the translator's line map.
//!
//! SPIR-V from glslang carries no line information through the C API the bindings
//! expose, so interface findings are placed by searching the stage text for the
//! declaration or first use of the name involved. The searches are plain and
//! conservative: when nothing matches, the finding simply has no line.

use super::{Issue, Place, Stage, ValidationContext};
use grammar::{Diagnostic, FileId, Span};

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Byte offsets of `word` in `line` as a whole identifier.
fn word_at(line: &str, word: &str) -> Option<usize> {
    if word.is_empty() {
        return None;
    }
    let mut from = 0;
    while let Some(i) = line[from..].find(word) {
        let start = from + i;
        let end = start + word.len();
        let before = line[..start].chars().next_back().is_some_and(is_ident);
        let after = line[end..].chars().next().is_some_and(is_ident);
        if !before && !after {
            return Some(start);
        }
        from = end;
    }
    None
}

fn has_word(line: &str, word: &str) -> bool {
    word_at(line, word).is_some()
}

/// 1-based number of the first line satisfying `pred`, from line `from` (1-based) on.
fn find_line(text: &str, from: u32, mut pred: impl FnMut(&str) -> bool) -> Option<u32> {
    text.lines().enumerate().skip(from.saturating_sub(1) as usize).find(|(_, l)| pred(l)).map(|(i, _)| i as u32 + 1)
}

/// The line declaring block type `type_name` (`... uniform UBO`).
pub(crate) fn block_line(text: &str, type_name: &str) -> Option<u32> {
    find_line(text, 1, |l| has_word(l, "uniform") && has_word(l, type_name))
}

/// The line of member `member` inside the block declared at `block`.
pub(crate) fn member_decl_line(text: &str, block: u32, member: &str) -> Option<u32> {
    let mut past_open = false;
    for (i, l) in text.lines().enumerate().skip(block.saturating_sub(1) as usize) {
        if has_word(l, member) && (past_open || l.contains('{')) {
            return Some(i as u32 + 1);
        }
        past_open |= l.contains('{');
        if past_open && l.contains('}') {
            break;
        }
    }
    None
}

/// The first line reading `instance.member` (or `member` alone for a block without an
/// instance name), after the block's own lines.
pub(crate) fn member_use_line(text: &str, block: u32, instance: &str, member: &str) -> Option<u32> {
    let block_end = find_line(text, block, |l| l.contains('}')).unwrap_or(block);
    find_line(text, block_end + 1, |l| {
        if instance.is_empty() {
            return has_word(l, member);
        }
        let mut from = 0;
        while let Some(i) = l[from..].find(instance) {
            let start = from + i;
            let rest = l[start + instance.len()..].trim_start();
            let before = l[..start].chars().next_back().is_some_and(is_ident);
            if !before {
                if let Some(after_dot) = rest.strip_prefix('.') {
                    let after_dot = after_dot.trim_start();
                    if after_dot.starts_with(member) && !after_dot[member.len()..].chars().next().is_some_and(is_ident)
                    {
                        return true;
                    }
                }
            }
            from = start + instance.len();
        }
        false
    })
}

/// The line declaring variable `name` with storage `keyword` (`in`, `out`, `uniform`).
pub(crate) fn var_decl_line(text: &str, keyword: &str, name: &str) -> Option<u32> {
    find_line(text, 1, |l| has_word(l, keyword) && has_word(l, name) && l.trim_end().ends_with(';'))
}

/// The line of the stage's `void main`.
pub(crate) fn main_line(text: &str) -> Option<u32> {
    find_line(text, 1, |l| has_word(l, "void") && has_word(l, "main"))
}

/// The lines of a naga-dialect text and its line map.
type NagaLines<'a> = Option<(Vec<&'a str>, &'a [Option<Span>])>;

/// Turns issues into diagnostics through the line maps.
pub(crate) struct Locator<'a> {
    slang_lines: Vec<(usize, &'a str)>,
    line_map: &'a [Option<Span>],
    slang_file: Option<FileId>,
    files: &'a [String],
    naga: [NagaLines<'a>; 2],
}

/// Text of one line for a note: trimmed and shortened.
fn excerpt(line: &str) -> String {
    let t = line.trim();
    if t.chars().count() > 100 {
        let cut: String = t.chars().take(100).collect();
        format!("{cut}...")
    } else {
        t.to_owned()
    }
}

impl<'a> Locator<'a> {
    pub(crate) fn new(
        text: &'a str,
        line_map: &'a [Option<Span>],
        ctx: &'a ValidationContext<'_>,
        files: &'a [String],
    ) -> Locator<'a> {
        let mut offset = 0;
        let slang_lines = text
            .split('\n')
            .map(|l| {
                let start = offset;
                offset += l.len() + 1;
                (start, l.strip_suffix('\r').unwrap_or(l))
            })
            .collect();
        let naga_of = |s: Stage| ctx.naga_stage(s).map(|n| (n.text.lines().collect(), n.line_map.as_slice()));
        Locator {
            slang_lines,
            line_map,
            slang_file: ctx.slang_file,
            files,
            naga: [naga_of(Stage::Vertex), naga_of(Stage::Fragment)],
        }
    }

    /// A locator for one naga-dialect stage text without line map: places become notes.
    pub(crate) fn naga_only(stage: Stage, text: &'a str) -> Locator<'a> {
        let mut naga = [None, None];
        naga[usize::from(stage == Stage::Fragment)] = Some((text.lines().collect(), &[][..]));
        Locator { slang_lines: Vec::new(), line_map: &[], slang_file: None, files: &[], naga }
    }

    pub(crate) fn diagnostic(&self, issue: &Issue) -> Diagnostic {
        let mut d = Diagnostic::error(issue.code, issue.message.clone());
        d.severity = issue.severity;
        match issue.place {
            None => {}
            Some(Place::Slang { file: 0, line }) => {
                let idx = (line as usize).saturating_sub(1);
                let text = self.slang_lines.get(idx).map(|(_, l)| excerpt(l));
                let cg = self.line_map.get(idx).copied().flatten();
                let where_ = match &text {
                    Some(t) if !t.is_empty() => format!("emitted slang line {line}: `{t}`"),
                    _ => format!("emitted slang line {line}"),
                };
                if let Some(span) = cg {
                    d = d.with_primary(span, issue.label.clone()).with_note(where_);
                } else if let (Some(file), Some((start, l))) = (self.slang_file, self.slang_lines.get(idx)) {
                    let start = *start as u32;
                    d = d.with_primary(Span::new(file, start, start + l.len() as u32), issue.label.clone());
                } else if issue.label.is_empty() {
                    d = d.with_note(format!("at {where_}"));
                } else {
                    d = d.with_note(format!("at {where_}: {}", issue.label));
                }
            }
            Some(Place::Slang { file, line }) => {
                let name = self.files.get(file).map_or("an included file", String::as_str);
                let label = if issue.label.is_empty() { String::new() } else { format!(": {}", issue.label) };
                d = d.with_note(format!("at {name}:{line}{label}"));
            }
            Some(Place::Naga { stage, line }) => {
                let idx = (line as usize).saturating_sub(1);
                let slot = &self.naga[usize::from(stage == Stage::Fragment)];
                let text = slot.as_ref().and_then(|(lines, _)| lines.get(idx)).map(|l| excerpt(l));
                let cg = slot.as_ref().and_then(|(_, map)| map.get(idx).copied().flatten());
                let where_ = match text {
                    Some(t) if !t.is_empty() => {
                        format!("naga-dialect {stage} text, line {line}: `{t}`")
                    }
                    _ => format!("naga-dialect {stage} text, line {line}"),
                };
                if let Some(span) = cg {
                    d = d.with_primary(span, issue.label.clone()).with_note(where_);
                } else if issue.label.is_empty() {
                    d = d.with_note(format!("at {where_}"));
                } else {
                    d = d.with_note(format!("at {where_}: {}", issue.label));
                }
            }
        }
        for n in &issue.notes {
            d = d.with_note(n.clone());
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "#version 450\nlayout(push_constant) uniform Push\n{\n    vec4 SourceSize;\n    float Gamma;\n} params;\nlayout(location = 0) in vec2 uv;\nvoid main()\n{\n    x = params . Gamma * params.SourceSizeX + params.SourceSize.x;\n}\n";

    #[test]
    fn finds_declarations_and_uses() {
        let b = block_line(TEXT, "Push").expect("block");
        assert_eq!(b, 2);
        assert_eq!(member_decl_line(TEXT, b, "Gamma"), Some(5));
        assert_eq!(member_use_line(TEXT, b, "params", "Gamma"), Some(10));
        assert_eq!(member_use_line(TEXT, b, "params", "SourceSize"), Some(10));
        assert_eq!(member_use_line(TEXT, b, "params", "Missing"), None);
        assert_eq!(var_decl_line(TEXT, "in", "uv"), Some(7));
        assert_eq!(main_line(TEXT), Some(8));
        assert!(!has_word("SourceSizeX", "SourceSize"));
    }
}

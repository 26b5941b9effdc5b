//! Splitting a `.slang` file into its two stage texts, exactly as RetroArch's loader
//! does, and reading its meta pragmas.
//!
//! RetroArch (gfx/drivers_shader/glslang_util.c and slang_process.cpp) reads the file,
//! removes every `\r`, requires line 1 to start with `#version `, replaces each
//! `#include "relative"` (and `#pragma include_optional "relative"`) at the start of a
//! line by the lines of that file, then builds one text per stage: line 1 always; every
//! other line goes to the stage(s) active at that point (both before the first
//! `#pragma stage`); a `#pragma stage` line activates the stage only when the line is
//! *exactly* `#pragma stage vertex` / `#pragma stage fragment`. Directives are
//! recognised only at column 0, as RetroArch does.
//!
//! Here `#pragma stage`, `name`, `format` and `parameter` lines, and lines of the other
//! stage, become empty lines, so a stage text has exactly as many lines as the expanded
//! file and an error on line N of a stage is line N of the file. Includes insert lines;
//! [`StageSource::origins`] maps every stage line back to the file and line it came from.
//!
//! The meta pragmas are parsed like the strictest RetroArch still in use: the current
//! hand-written parser (id and description shorter than 64 bytes, three numbers required,
//! step optional) and the older `sscanf` one (description not empty).
//!
//! This module only reads text: it never touches the disk except through the
//! [`grammar::FileSystem`] it is given, and never panics on any input.

use super::{Issue, Place, Stage};
use crate::codes;
use grammar::{FileSystem, Severity};
use std::path::{Path, PathBuf};

/// Where `#include` lines are read from: the path of the `.slang` file (includes are
/// relative to the including file) and the file system to read through.
#[derive(Clone, Copy)]
pub struct Includes<'a> {
    pub path: &'a Path,
    pub fs: &'a dyn FileSystem,
}

/// The file and line a stage line came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    /// 0: the `.slang` text itself; n ≥ 1: `Stages::files[n]`.
    pub file: usize,
    /// 1-based line in that file.
    pub line: u32,
}

impl Origin {
    pub fn place(self) -> Place {
        Place::Slang { file: self.file, line: self.line }
    }
}

/// The text glslang compiles for one stage.
#[derive(Clone, Debug, Default)]
pub struct StageSource {
    /// The stage text, one line per expanded line of the file, ending in `\n`.
    pub text: String,
    /// `origins[i]` is where line `i + 1` of `text` came from.
    pub origins: Vec<Origin>,
}

impl StageSource {
    /// Where 1-based stage line `line` came from.
    pub fn origin(&self, line: u32) -> Option<Origin> {
        self.origins.get((line as usize).checked_sub(1)?).copied()
    }

    pub fn place(&self, line: u32) -> Option<Place> {
        self.origin(line).map(Origin::place)
    }
}

/// One `#pragma parameter`.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    pub id: String,
    pub description: String,
    pub initial: f32,
    pub minimum: f32,
    pub maximum: f32,
    /// Given, or RetroArch's default `0.1 * (maximum - minimum)`.
    pub step: f32,
    /// Where it was declared (first declaration for identical duplicates).
    pub origin: Origin,
}

/// The meta pragmas of a file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Meta {
    pub parameters: Vec<Parameter>,
    /// `#pragma name`: the pass alias when the preset gives none.
    pub name: Option<String>,
    /// `#pragma format`: the render-target format.
    pub format: Option<String>,
}

/// The result of [`split_stages`].
#[derive(Clone, Debug, Default)]
pub struct Stages {
    pub vertex: StageSource,
    pub fragment: StageSource,
    pub meta: Meta,
    /// Names of the files lines came from; `files[0]` is the `.slang` file itself.
    pub files: Vec<String>,
    /// Errors and warnings of the file format and the meta pragmas.
    pub issues: Vec<Issue>,
}

impl Stages {
    pub fn stage(&self, stage: Stage) -> &StageSource {
        match stage {
            Stage::Vertex => &self.vertex,
            Stage::Fragment => &self.fragment,
        }
    }

    pub fn has_errors(&self) -> bool {
        self.issues.iter().any(|i| i.severity == Severity::Error)
    }
}

/// The formats `#pragma format` accepts (RetroArch `glslang_find_format`).
pub const FORMATS: &[&str] = &[
    "R8_UNORM",
    "R8_UINT",
    "R8_SINT",
    "R8G8_UNORM",
    "R8G8_UINT",
    "R8G8_SINT",
    "R8G8B8A8_UNORM",
    "R8G8B8A8_UINT",
    "R8G8B8A8_SINT",
    "R8G8B8A8_SRGB",
    "A2B10G10R10_UNORM_PACK32",
    "A2B10G10R10_UINT_PACK32",
    "R16_UINT",
    "R16_SINT",
    "R16_SFLOAT",
    "R16G16_UINT",
    "R16G16_SINT",
    "R16G16_SFLOAT",
    "R16G16B16A16_UINT",
    "R16G16B16A16_SINT",
    "R16G16B16A16_SFLOAT",
    "R32_UINT",
    "R32_SINT",
    "R32_SFLOAT",
    "R32G32_UINT",
    "R32G32_SINT",
    "R32G32_SFLOAT",
    "R32G32B32A32_UINT",
    "R32G32B32A32_SINT",
    "R32G32B32A32_SFLOAT",
];

/// Deepest include nesting followed (RetroArch has no limit and overflows its stack).
const MAX_INCLUDE_DEPTH: usize = 32;

/// Splits a `.slang` text held in memory; `#include` lines are reported as errors.
pub fn split_stages(text: &str) -> Stages {
    split_stages_with(text, None)
}

/// Splits a `.slang` text, resolving `#include` through `includes` when given.
pub fn split_stages_with(text: &str, includes: Option<Includes<'_>>) -> Stages {
    let mut out = Stages::default();
    let root_name = includes.map_or_else(|| "<slang>".to_owned(), |i| i.path.display().to_string());
    out.files.push(root_name);
    let mut lines: Vec<(String, Origin)> = Vec::new();
    let mut stack = vec![includes.map(|i| i.path.to_path_buf()).unwrap_or_default()];
    expand(text, 0, includes, &mut stack, &mut lines, &mut out);

    match lines.first() {
        Some((first, _)) if first.starts_with("#version ") => {}
        _ => out.issues.push(Issue::error(
            codes::E_NO_VERSION,
            "the first line must be a `#version` directive (RetroArch refuses the file otherwise)",
            Some(Place::Slang { file: 0, line: 1 }),
            "expected `#version 450`",
        )),
    }

    parse_meta(&lines, &mut out);
    build_stages(&lines, &mut out);
    out
}

/// Appends the lines of `text` (file index `file`) to `lines`, expanding includes.
fn expand(
    text: &str,
    file: usize,
    includes: Option<Includes<'_>>,
    stack: &mut Vec<PathBuf>,
    lines: &mut Vec<(String, Origin)>,
    out: &mut Stages,
) {
    let text = text.replace('\r', "");
    let body = text.strip_suffix('\n').unwrap_or(&text);
    if text.is_empty() {
        return;
    }
    for (i, line) in body.split('\n').enumerate() {
        let origin = Origin { file, line: (i + 1) as u32 };
        let optional = line.starts_with("#pragma include_optional ");
        if !(line.starts_with("#include ") || optional) {
            lines.push((line.to_owned(), origin));
            continue;
        }
        let Some(target) = quoted(line) else {
            out.issues.push(Issue::error(
                codes::E_INCLUDE,
                format!("invalid include statement `{line}`"),
                Some(origin.place()),
                "expected `#include \"file\"`",
            ));
            continue;
        };
        let Some(inc) = includes else {
            out.issues.push(Issue::error(
                codes::E_INCLUDE,
                format!("cannot resolve `#include \"{target}\"`: the text was given without a file path"),
                Some(origin.place()),
                "include here",
            ));
            continue;
        };
        let including = stack.last().cloned().unwrap_or_default();
        let path = grammar::source::normalize(&including.parent().unwrap_or(Path::new("")).join(target));
        if stack.contains(&path) || stack.len() > MAX_INCLUDE_DEPTH {
            out.issues.push(Issue::error(
                codes::E_INCLUDE,
                format!("`{}` includes itself (directly or through other files)", path.display()),
                Some(origin.place()),
                "include here",
            ));
            continue;
        }
        match inc.fs.read(&path) {
            Ok(bytes) => {
                let (content, _) = grammar::source::decode(bytes);
                out.files.push(path.display().to_string());
                let index = out.files.len() - 1;
                stack.push(path);
                expand(&content, index, includes, stack, lines, out);
                stack.pop();
            }
            Err(e) if !optional => out.issues.push(Issue::error(
                codes::E_INCLUDE,
                format!("cannot read included file `{}`: {e}", path.display()),
                Some(origin.place()),
                "included here",
            )),
            Err(_) => {}
        }
    }
}

/// The text between the first pair of double quotes.
fn quoted(line: &str) -> Option<&str> {
    let start = line.find('"')? + 1;
    let len = line[start..].find('"')?;
    let name = &line[start..start + len];
    (!name.is_empty()).then_some(name)
}

fn parse_meta(lines: &[(String, Origin)], out: &mut Stages) {
    let mut name_origin: Option<Origin> = None;
    let mut format_origin: Option<Origin> = None;
    for (line, origin) in lines {
        let origin = *origin;
        if let Some(rest) = line.strip_prefix("#pragma name ") {
            let name = rest.trim_start_matches([' ', '\t']);
            if let Some(first) = name_origin {
                out.issues.push(
                    Issue::error(
                        codes::E_NAME_TWICE,
                        "`#pragma name` given twice (RetroArch: \"Trying to declare multiple names for file\")",
                        Some(origin.place()),
                        "second name",
                    )
                    .with_note(format!("the first is at line {}", first.line)),
                );
            } else {
                out.meta.name = Some(name.to_owned());
                name_origin = Some(origin);
            }
        } else if let Some(rest) = line.strip_prefix("#pragma format ") {
            let format = rest.trim_start_matches([' ', '\t']);
            if format_origin.is_some() {
                out.issues.push(Issue::error(
                    codes::E_FORMAT_TWICE,
                    "`#pragma format` given twice (RetroArch: \"Trying to declare format multiple times\")",
                    Some(origin.place()),
                    "second format",
                ));
            } else if !FORMATS.contains(&format) {
                out.issues.push(
                    Issue::error(
                        codes::E_UNKNOWN_FORMAT,
                        format!("unknown render-target format `{format}` in `#pragma format`"),
                        Some(origin.place()),
                        "not a RetroArch format",
                    )
                    .with_note(format!("known formats: {}", FORMATS.join(", "))),
                );
                format_origin = Some(origin);
            } else {
                out.meta.format = Some(format.to_owned());
                format_origin = Some(origin);
            }
        } else if line.starts_with("#pragma parameter ") {
            match parse_parameter(line, origin) {
                Ok(p) => add_parameter(p, out),
                Err(why) => out.issues.push(Issue::error(
                    codes::E_BAD_PARAMETER,
                    format!("invalid `#pragma parameter` line: {why}"),
                    Some(origin.place()),
                    "expected `#pragma parameter ID \"description\" initial minimum maximum [step]`",
                )),
            }
        }
    }
}

fn add_parameter(p: Parameter, out: &mut Stages) {
    match out.meta.parameters.iter().find(|q| q.id == p.id) {
        None => out.meta.parameters.push(p),
        Some(q) => {
            let same = q.description == p.description
                && q.initial == p.initial
                && q.minimum == p.minimum
                && q.maximum == p.maximum
                && q.step == p.step;
            if !same {
                let first = q.origin.line;
                out.issues.push(
                    Issue::error(
                        codes::E_PARAMETER_MISMATCH,
                        format!("parameter `{}` declared twice with different arguments", p.id),
                        Some(p.origin.place()),
                        "differs from the first declaration",
                    )
                    .with_note(format!(
                        "first declaration (line {first}): \"{}\" {} {} {} {}",
                        q.description, q.initial, q.minimum, q.maximum, q.step
                    ))
                    .with_note(format!(
                        "this one: \"{}\" {} {} {} {}",
                        p.description, p.initial, p.minimum, p.maximum, p.step
                    )),
                );
            }
        }
    }
}

/// Parses `#pragma parameter ID "desc" init min max [step]` like RetroArch.
pub fn parse_parameter(line: &str, origin: Origin) -> Result<Parameter, String> {
    let mut s = line.strip_prefix("#pragma parameter ").unwrap_or(line);
    s = s.trim_start_matches([' ', '\t']);
    let id_len = s.find([' ', '\t']).unwrap_or(s.len());
    let id = &s[..id_len];
    if id.is_empty() {
        return Err("no parameter name".into());
    }
    if id.len() >= 64 {
        return Err(format!("the name `{id}` is {} bytes long; RetroArch allows at most 63", id.len()));
    }
    s = s[id_len..].trim_start_matches([' ', '\t']);
    let Some(rest) = s.strip_prefix('"') else {
        return Err("the description must follow the name, in double quotes".into());
    };
    let Some(close) = rest.find('"') else {
        return Err("the description has no closing double quote".into());
    };
    let description = &rest[..close];
    if description.is_empty() {
        return Err("the description is empty (older RetroArch versions reject the line)".into());
    }
    if description.len() >= 64 {
        return Err(format!("the description is {} bytes long; RetroArch allows at most 63", description.len()));
    }
    s = &rest[close + 1..];
    let mut numbers = [0f32; 3];
    for (n, what) in numbers.iter_mut().zip(["initial value", "minimum", "maximum"]) {
        s = s.trim_start_matches([' ', '\t']);
        let (value, used) = strtod(s).ok_or_else(|| format!("the {what} is missing or not a number"))?;
        *n = value as f32;
        s = &s[used..];
    }
    s = s.trim_start_matches([' ', '\t']);
    let [initial, minimum, maximum] = numbers;
    let step = strtod(s).map_or(0.1 * (maximum - minimum), |(v, _)| v as f32);
    Ok(Parameter { id: id.to_owned(), description: description.to_owned(), initial, minimum, maximum, step, origin })
}

/// The longest prefix of `s` that C's `strtod` reads: its value and byte length.
fn strtod(s: &str) -> Option<(f64, usize)> {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let lower = s[i..].to_ascii_lowercase();
    for word in ["infinity", "inf", "nan"] {
        if lower.starts_with(word) {
            let end = i + word.len();
            return s[..end].parse::<f64>().ok().or(Some(f64::NAN)).map(|v| (v, end));
        }
    }
    let digits_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut mantissa_digits = i - digits_start;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let f = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        mantissa_digits += i - f;
    }
    if mantissa_digits == 0 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        let e = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > e {
            i = j;
        }
    }
    let text = &s[..i];
    let text = text.strip_suffix('.').unwrap_or(text);
    let text = text.strip_prefix('+').unwrap_or(text);
    let value = match text {
        "" | "-" => 0.0,
        t if t.starts_with('.') || t.starts_with("-.") => t.replacen('.', "0.", 1).parse().ok()?,
        t => t.parse().ok()?,
    };
    Some((value, i))
}

fn build_stages(lines: &[(String, Origin)], out: &mut Stages) {
    let mut vertex_active = true;
    let mut fragment_active = true;
    let (mut saw_vertex, mut saw_fragment) = (false, false);
    for (i, (line, origin)) in lines.iter().enumerate() {
        let mut v = String::new();
        let mut f = String::new();
        if i == 0 {
            v.clone_from(line);
            f.clone_from(line);
        } else if line.starts_with("#pragma stage ") {
            vertex_active = line == "#pragma stage vertex";
            fragment_active = line == "#pragma stage fragment";
            saw_vertex |= vertex_active;
            saw_fragment |= fragment_active;
            if !vertex_active && !fragment_active {
                out.issues.push(
                    Issue::warning(
                        codes::W_ODD_STAGE_PRAGMA,
                        format!("`{}` names no stage RetroArch knows", line.trim_end()),
                        Some(origin.place()),
                        "the lines after this one go to neither stage",
                    )
                    .with_note("RetroArch compares the whole line: exactly `#pragma stage vertex` or `#pragma stage fragment`, without trailing spaces"),
                );
            }
        } else if ["#pragma name ", "#pragma format ", "#pragma parameter "].iter().any(|p| line.starts_with(p)) {
            // Meta pragmas: read above, blank for the compiler.
        } else {
            if vertex_active {
                v.clone_from(line);
            }
            if fragment_active {
                f.clone_from(line);
            }
        }
        for (stage, text) in [(&mut out.vertex, v), (&mut out.fragment, f)] {
            stage.text.push_str(&text);
            stage.text.push('\n');
            stage.origins.push(*origin);
        }
    }
    for (saw, name) in [(saw_vertex, "vertex"), (saw_fragment, "fragment")] {
        if !saw && !lines.is_empty() {
            out.issues.push(Issue::warning(
                codes::W_MISSING_STAGE,
                format!("no `#pragma stage {name}` line: every line goes to the {name} stage as well"),
                None,
                "",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grammar::MemoryFs;

    fn codes_of(s: &Stages) -> Vec<&'static str> {
        s.issues.iter().map(|i| i.code).collect()
    }

    #[test]
    fn lines_before_first_stage_go_to_both_and_numbers_are_kept() {
        let text = "#version 450\n#pragma name Foo\nlayout(push_constant) uniform P { vec4 SourceSize; } p;\n#pragma stage vertex\nvoid main() {}\n#pragma stage fragment\nvoid main() { }\n";
        let s = split_stages(text);
        assert!(s.issues.is_empty(), "{:?}", s.issues);
        let v: Vec<&str> = s.vertex.text.lines().collect();
        let f: Vec<&str> = s.fragment.text.lines().collect();
        assert_eq!(v.len(), 7);
        assert_eq!(f.len(), 7);
        assert_eq!(v[0], "#version 450");
        assert_eq!(v[1], "");
        assert!(v[2].contains("push_constant") && f[2].contains("push_constant"));
        assert_eq!(v[4], "void main() {}");
        assert_eq!(f[4], "");
        assert_eq!(v[6], "");
        assert_eq!(f[6], "void main() { }");
        assert_eq!(s.meta.name.as_deref(), Some("Foo"));
        assert_eq!(s.vertex.origin(5), Some(Origin { file: 0, line: 5 }));
    }

    #[test]
    fn carriage_returns_are_removed() {
        let s = split_stages("#version 450\r\n#pragma stage vertex\r\nA\r\n#pragma stage fragment\r\nB\r\n");
        assert!(s.issues.is_empty(), "{:?}", s.issues);
        assert_eq!(s.vertex.text, "#version 450\n\nA\n\n\n");
        assert_eq!(s.fragment.text, "#version 450\n\n\n\nB\n");
    }

    #[test]
    fn stage_pragma_must_match_exactly() {
        let s = split_stages("#version 450\n#pragma stage vertex \nA\n#pragma stage fragment\nB\n");
        assert_eq!(codes_of(&s), vec![codes::W_ODD_STAGE_PRAGMA, codes::W_MISSING_STAGE]);
        assert_eq!(s.vertex.text, "#version 450\n\n\n\n\n");
    }

    #[test]
    fn version_must_come_first() {
        let s = split_stages("// hello\n#version 450\n#pragma stage vertex\n#pragma stage fragment\n");
        assert_eq!(codes_of(&s), vec![codes::E_NO_VERSION]);
    }

    #[test]
    fn parameters_are_parsed_and_duplicates_compared() {
        let text = "#version 450\n#pragma parameter A \"Alpha\" 0.5 0.0 1.0 0.05\n#pragma parameter B \"Beta\" 1 0 2\n#pragma parameter A \"Alpha\" 0.5 0.0 1.0 0.05\n#pragma parameter B \"Beta\" 1 0 3\n#pragma stage vertex\n#pragma stage fragment\n";
        let s = split_stages(text);
        assert_eq!(codes_of(&s), vec![codes::E_PARAMETER_MISMATCH]);
        assert_eq!(s.issues[0].place, Some(Place::Slang { file: 0, line: 5 }));
        assert_eq!(s.meta.parameters.len(), 2);
        let b = &s.meta.parameters[1];
        assert_eq!((b.initial, b.minimum, b.maximum), (1.0, 0.0, 2.0));
        assert!((b.step - 0.2).abs() < 1e-6);
        assert!(s.vertex.text.lines().nth(1) == Some(""));
    }

    #[test]
    fn malformed_parameters_are_errors() {
        for bad in [
            "#pragma parameter X",
            "#pragma parameter X Desc 1 0 1",
            "#pragma parameter X \"Desc 1 0 1",
            "#pragma parameter X \"Desc\" 1 0",
            "#pragma parameter X \"\" 1 0 1",
            "#pragma parameter X \"Desc\" a 0 1",
        ] {
            let s = split_stages(&format!("#version 450\n{bad}\n#pragma stage vertex\n#pragma stage fragment\n"));
            assert_eq!(codes_of(&s), vec![codes::E_BAD_PARAMETER], "{bad}");
        }
        let long = "d".repeat(64);
        let s = split_stages(&format!(
            "#version 450\n#pragma parameter X \"{long}\" 1 0 1\n#pragma stage vertex\n#pragma stage fragment\n"
        ));
        assert_eq!(codes_of(&s), vec![codes::E_BAD_PARAMETER]);
        let s = split_stages("#version 450\n#pragma parameter X \"D\" -1.5e1 -.5 +2. junk\n#pragma stage vertex\n#pragma stage fragment\n");
        assert!(s.issues.is_empty(), "{:?}", s.issues);
        let p = &s.meta.parameters[0];
        assert_eq!((p.initial, p.minimum, p.maximum), (-15.0, -0.5, 2.0));
    }

    #[test]
    fn name_and_format_rules() {
        let s = split_stages("#version 450\n#pragma name A\n#pragma name A\n#pragma format R8_UNORM\n#pragma format R8_UNORM\n#pragma stage vertex\n#pragma stage fragment\n");
        assert_eq!(codes_of(&s), vec![codes::E_NAME_TWICE, codes::E_FORMAT_TWICE]);
        let s =
            split_stages("#version 450\n#pragma format R8G8B8_UNORM\n#pragma stage vertex\n#pragma stage fragment\n");
        assert_eq!(codes_of(&s), vec![codes::E_UNKNOWN_FORMAT]);
        let s = split_stages(
            "#version 450\n#pragma format   R16G16B16A16_SFLOAT\n#pragma stage vertex\n#pragma stage fragment\n",
        );
        assert_eq!(s.meta.format.as_deref(), Some("R16G16B16A16_SFLOAT"));
    }

    #[test]
    fn includes_are_expanded_and_traced() {
        let fs = MemoryFs::new()
            .with("/s/inc/common.inc", "float helper() { return 1.0; }\n#pragma parameter P \"P\" 1 0 2\n")
            .with("/s/loop.inc", "#include \"loop.inc\"\n");
        let text = "#version 450\n#include \"inc/common.inc\"\n#pragma stage vertex\nX\n#pragma stage fragment\nY\n";
        let s = split_stages_with(text, Some(Includes { path: Path::new("/s/a.slang"), fs: &fs }));
        assert!(s.issues.is_empty(), "{:?}", s.issues);
        assert_eq!(s.meta.parameters[0].id, "P");
        assert_eq!(s.vertex.text.lines().nth(1), Some("float helper() { return 1.0; }"));
        assert_eq!(s.vertex.origin(2), Some(Origin { file: 1, line: 1 }));
        assert_eq!(s.vertex.origin(5), Some(Origin { file: 0, line: 4 }));
        assert_eq!(s.files[1], "/s/inc/common.inc");

        let s = split_stages_with("#version 450\n#include \"loop.inc\"\n#include \"missing.inc\"\n#pragma include_optional \"missing.inc\"\n#pragma stage vertex\n#pragma stage fragment\n", Some(Includes { path: Path::new("/s/a.slang"), fs: &fs }));
        assert_eq!(codes_of(&s), vec![codes::E_INCLUDE, codes::E_INCLUDE]);
        let s = split_stages("#version 450\n#include \"x.inc\"\n#pragma stage vertex\n#pragma stage fragment\n");
        assert_eq!(codes_of(&s), vec![codes::E_INCLUDE]);
    }

    #[test]
    fn odd_input_never_panics() {
        for text in [
            "",
            "\n",
            "#version",
            "#pragma parameter ",
            "#pragma parameter \u{e9}\u{e9} \"\u{e9}",
            "#include \"",
            "\r\r\r",
        ] {
            let _ = split_stages(text);
        }
    }
}

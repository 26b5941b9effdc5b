//! Layer 2 of the preset parser: tokens to typed values.
//!
//! Every `key = value` entry becomes one [`Value`]: per-pass keys carry their pass index
//! (`Scale(2, ..)` for `scale2`), per-LUT keys the texture id, parameter values the
//! parameter id. Values are read the way RetroArch reads them: booleans are `true`,
//! `false`, `1`, `0` (here also in any letter case, with a warning, where RetroArch would
//! have ignored the key); integers use C `strtoul`/`strtol` with base auto-detection
//! (`0x..` hex, `0..` octal); floats C `strtod` on the longest numeric prefix. A key given
//! twice keeps its first value, as RetroArch's config map does.
//!
//! What RetroArch ignores (unknown keys, typos such as `scale_1`, unparsable numbers, bad
//! wrap modes) becomes a warning with the key's position and no value; errors are kept
//! for what makes RetroArch's loader fail (a bad `shaders`, a bad scale type).
//! Whether an index is below `shaders`, and whether a listed texture has a path, is the
//! model's business ([`super::model`]): this layer looks at one file at a time.
//!
//! **Invariant:** never panics on any token list; each entry gives at most one value.

use super::token::{Item, Token, Tokens};
use crate::codes;
use grammar::{Diagnostic, Span};
use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;

/// GFX_MAX_SHADERS of Cg-era RetroArch: a `.cgp` with more passes has an absurd pass count.
pub const MAX_PASSES_CGP: u32 = 26;
/// GFX_MAX_SHADERS of current RetroArch, which reads `.slangp` files.
pub const MAX_PASSES_SLANGP: u32 = 64;

/// Sampler address mode of a pass input or a LUT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WrapMode {
    ClampToBorder,
    ClampToEdge,
    Repeat,
    MirroredRepeat,
}

impl WrapMode {
    pub fn as_str(self) -> &'static str {
        match self {
            WrapMode::ClampToBorder => "clamp_to_border",
            WrapMode::ClampToEdge => "clamp_to_edge",
            WrapMode::Repeat => "repeat",
            WrapMode::MirroredRepeat => "mirrored_repeat",
        }
    }

    /// The exact spelling RetroArch accepts.
    pub fn parse(s: &str) -> Option<WrapMode> {
        Some(match s {
            "clamp_to_border" => WrapMode::ClampToBorder,
            "clamp_to_edge" => WrapMode::ClampToEdge,
            "repeat" => WrapMode::Repeat,
            "mirrored_repeat" => WrapMode::MirroredRepeat,
            _ => return None,
        })
    }
}

impl fmt::Display for WrapMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How one axis of a pass output is sized.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScaleType {
    /// A multiple of the pass input.
    Source,
    /// A multiple of the final viewport.
    Viewport,
    /// A fixed number of pixels.
    Absolute,
}

impl ScaleType {
    pub fn as_str(self) -> &'static str {
        match self {
            ScaleType::Source => "source",
            ScaleType::Viewport => "viewport",
            ScaleType::Absolute => "absolute",
        }
    }

    /// The exact spelling RetroArch accepts.
    pub fn parse(s: &str) -> Option<ScaleType> {
        Some(match s {
            "source" => ScaleType::Source,
            "viewport" => ScaleType::Viewport,
            "absolute" => ScaleType::Absolute,
            _ => return None,
        })
    }
}

impl fmt::Display for ScaleType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A scale factor as RetroArch reads it both ways: `strtod` for source and viewport
/// axes, `strtol` (base auto) for absolute ones. Which applies is known only once the
/// axis type is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Factor {
    pub float: f32,
    pub int: i64,
}

/// One typed preset entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `shaders`: the pass count, as read (validated here: 1..=26 unless reported).
    Shaders(u32),
    /// `feedback_pass`: the 0-based pass Cg's `FEEDBACK` reads; negative is none.
    FeedbackPass(i32),
    Shader(usize, PathBuf),
    FilterLinear(usize, bool),
    WrapMode(usize, WrapMode),
    MipmapInput(usize, bool),
    Alias(usize, String),
    FloatFramebuffer(usize, bool),
    SrgbFramebuffer(usize, bool),
    ScaleType(usize, ScaleType),
    ScaleTypeX(usize, ScaleType),
    ScaleTypeY(usize, ScaleType),
    Scale(usize, Factor),
    ScaleX(usize, Factor),
    ScaleY(usize, Factor),
    FrameCountMod(usize, u32),
    /// `textures`: LUT ids, split on `;`, empty pieces dropped.
    Textures(Vec<String>),
    /// `parameters`: parameter ids, split on `;`, empty pieces dropped.
    Parameters(Vec<String>),
    /// `<id> = path` for a LUT id.
    LutPath(String, PathBuf),
    LutLinear(String, bool),
    LutWrapMode(String, WrapMode),
    LutMipmap(String, bool),
    /// `<ID> = float` for a parameter id.
    ParameterValue(String, f32),
    /// A float-valued key that `parameters` does not list, in a `.cgp` (Cg-era RetroArch
    /// applied only listed parameters): kept so a report can name it.
    UnlistedValue(String, f32),
    /// `#reference "path"`.
    Reference(PathBuf),
}

impl Value {
    /// The pass index of a per-pass value.
    pub fn pass(&self) -> Option<usize> {
        match self {
            Value::Shader(i, _)
            | Value::FilterLinear(i, _)
            | Value::WrapMode(i, _)
            | Value::MipmapInput(i, _)
            | Value::Alias(i, _)
            | Value::FloatFramebuffer(i, _)
            | Value::SrgbFramebuffer(i, _)
            | Value::ScaleType(i, _)
            | Value::ScaleTypeX(i, _)
            | Value::ScaleTypeY(i, _)
            | Value::Scale(i, _)
            | Value::ScaleX(i, _)
            | Value::ScaleY(i, _)
            | Value::FrameCountMod(i, _) => Some(*i),
            _ => None,
        }
    }
}

/// A value and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    pub value: Value,
    /// The key as written (`#reference` for a reference).
    pub key: String,
    pub key_span: Span,
    /// The value token (quotes included).
    pub span: Span,
}

impl Located {
    /// Key through value.
    pub fn full_span(&self) -> Span {
        self.key_span.to(self.span)
    }
}

/// Which preset language is being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Cg-era RetroArch: only parameters listed in `parameters` take a value.
    Cgp,
    /// Current RetroArch: any key may set a parameter the shaders declare.
    Slangp,
}

impl Dialect {
    /// The most passes the RetroArch of this dialect keeps.
    pub fn max_passes(self) -> u32 {
        match self {
            Dialect::Cgp => MAX_PASSES_CGP,
            Dialect::Slangp => MAX_PASSES_SLANGP,
        }
    }
}

/// What the file is to the preset being loaded.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    pub dialect: Dialect,
    /// `Some(root LUT ids)` when the file only overrides a root preset through
    /// `#reference`; `None` for the root itself.
    pub overrides: Option<&'a [String]>,
}

impl Context<'_> {
    pub fn root(dialect: Dialect) -> Context<'static> {
        Context { dialect, overrides: None }
    }
}

/// The values of one file and what was noticed reading them.
#[derive(Clone, Debug, Default)]
pub struct Values {
    pub items: Vec<Located>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Values {
    pub fn iter(&self) -> impl Iterator<Item = &Located> {
        self.items.iter()
    }

    /// The first value matching `f`.
    pub fn find<T>(&self, f: impl Fn(&Value) -> Option<T>) -> Option<(T, &Located)> {
        self.items.iter().find_map(|l| f(&l.value).map(|t| (t, l)))
    }

    pub fn references(&self) -> impl Iterator<Item = (&PathBuf, &Located)> {
        self.items.iter().filter_map(|l| match &l.value {
            Value::Reference(p) => Some((p, l)),
            _ => None,
        })
    }
}

/// Per-pass key prefixes. Longer prefixes sharing a start come first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PassKey {
    Shader,
    FilterLinear,
    WrapMode,
    MipmapInput,
    Alias,
    FloatFramebuffer,
    SrgbFramebuffer,
    ScaleTypeX,
    ScaleTypeY,
    ScaleType,
    ScaleX,
    ScaleY,
    Scale,
    FrameCountMod,
}

const PASS_KEYS: [(&str, PassKey); 14] = [
    ("shader", PassKey::Shader),
    ("filter_linear", PassKey::FilterLinear),
    ("wrap_mode", PassKey::WrapMode),
    ("mipmap_input", PassKey::MipmapInput),
    ("alias", PassKey::Alias),
    ("float_framebuffer", PassKey::FloatFramebuffer),
    ("srgb_framebuffer", PassKey::SrgbFramebuffer),
    ("scale_type_x", PassKey::ScaleTypeX),
    ("scale_type_y", PassKey::ScaleTypeY),
    ("scale_type", PassKey::ScaleType),
    ("scale_x", PassKey::ScaleX),
    ("scale_y", PassKey::ScaleY),
    ("scale", PassKey::Scale),
    ("frame_count_mod", PassKey::FrameCountMod),
];

const GLOBAL_KEYS: [&str; 4] = ["shaders", "feedback_pass", "textures", "parameters"];

/// `scale12` is `(Scale, 12)`. The index is written the way RetroArch formats it (`%u`):
/// `scale01` is not `scale1`.
fn pass_key(key: &str) -> Option<(PassKey, usize)> {
    let digits = key.len() - key.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 6 {
        return None;
    }
    let (prefix, index) = key.split_at(key.len() - digits);
    if index.len() > 1 && index.starts_with('0') {
        return None;
    }
    let kind = PASS_KEYS.iter().find(|(p, _)| *p == prefix)?.1;
    Some((kind, index.parse().ok()?))
}

/// Splits `A;B;;C` into ids, dropping empty pieces (RetroArch skips them).
pub fn split_list(s: &str) -> Vec<String> {
    s.split(';').filter(|p| !p.is_empty()).map(str::to_owned).collect()
}

/// Reads the values of one tokenized file.
pub fn values(tokens: &Tokens, ctx: Context<'_>) -> Values {
    let mut r = Reader { ctx, out: Values::default(), luts: Vec::new(), params: Vec::new(), imports: Vec::new() };
    // The lists come first: they decide what the other keys are. First occurrence wins.
    for item in &tokens.items {
        if let Item::Entry { key, value } = item {
            if key.text == "textures" && r.luts.is_empty() && ctx.overrides.is_none() {
                r.luts = split_list(&value.text);
            }
            if key.text == "parameters" && r.params.is_empty() {
                r.params = split_list(&value.text);
            }
            if key.text == "imports" && r.imports.is_empty() {
                r.imports = split_list(&value.text);
            }
        }
    }
    if let Some(root_luts) = ctx.overrides {
        r.luts = root_luts.to_vec();
    }
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for item in &tokens.items {
        match item {
            Item::Entry { key, value } => {
                if let Some(first) = seen.get(key.text.as_str()) {
                    r.out.diagnostics.push(
                        Diagnostic::warning(
                            codes::W_PRESET_DUPLICATE,
                            format!("`{}` is given twice; the first value is used", key.text),
                        )
                        .with_primary(key.span, "ignored")
                        .with_secondary(*first, "first given here")
                        .with_note("RetroArch keeps the first value of a key"),
                    );
                    continue;
                }
                seen.insert(&key.text, key.span);
                if let Some(v) = r.entry(key, value) {
                    r.out.items.push(Located { value: v, key: key.text.clone(), key_span: key.span, span: value.span });
                }
            }
            Item::Reference { directive, path } => r.out.items.push(Located {
                value: Value::Reference(PathBuf::from(&path.text)),
                key: directive.text.clone(),
                key_span: directive.span,
                span: path.span,
            }),
            Item::Include { directive, path } => r.out.diagnostics.push(
                Diagnostic::warning(
                    codes::W_PRESET_DIRECTIVE,
                    format!("`#include \"{}\"` is not followed in presets", path.text),
                )
                .with_primary(directive.span.to(path.span), "ignored")
                .with_note("RetroArch's config reader would merge that file's keys; no shader preset relies on it"),
            ),
        }
    }
    r.out
}

struct Reader<'a> {
    ctx: Context<'a>,
    out: Values,
    luts: Vec<String>,
    params: Vec<String>,
    /// Ids of Cg-era state-tracking `imports` (python/python.cgp uses them).
    imports: Vec<String>,
}

/// Per-import keys of RetroArch's old state tracker.
const IMPORT_SUFFIXES: [&str; 5] = ["_semantic", "_wram", "_input_slot", "_mask", "_equal"];

impl Reader<'_> {
    fn warn(&mut self, code: &'static str, message: String, span: Span, label: &str) -> &mut Diagnostic {
        self.out.diagnostics.push(Diagnostic::warning(code, message).with_primary(span, label));
        let last = self.out.diagnostics.len() - 1;
        &mut self.out.diagnostics[last]
    }

    fn note(&mut self, note: String) {
        if let Some(d) = self.out.diagnostics.last_mut() {
            d.notes.push(note);
        }
    }

    fn entry(&mut self, key: &Token, value: &Token) -> Option<Value> {
        let k = key.text.as_str();
        match k {
            "shaders" => return self.shaders(key, value),
            "feedback_pass" => {
                let n = self.integer(key, value)?;
                return match i32::try_from(n) {
                    Ok(n) => Some(Value::FeedbackPass(n)),
                    Err(_) => {
                        self.warn(
                            codes::W_PRESET_BAD_VALUE,
                            format!("`feedback_pass = {}` is out of range; ignored", value.text),
                            value.span,
                            "",
                        );
                        None
                    }
                };
            }
            "imports" => {
                self.warn(
                    codes::W_PRESET_UNKNOWN_KEY,
                    "RetroArch's state-tracking imports (`imports`) have no slang equivalent; ignored".into(),
                    key.span,
                    "",
                )
                .notes
                .push("the `<id>_semantic`, `_wram`, `_input_slot`, `_mask`, `_equal` and `import_script*` keys are ignored with it".into());
                return None;
            }
            "import_script" | "import_script_class" => return None,
            "textures" => return Some(Value::Textures(split_list(&value.text))),
            "parameters" => return Some(Value::Parameters(split_list(&value.text))),
            _ => {}
        }
        if let Some((kind, i)) = pass_key(k) {
            return self.pass_entry(kind, i, key, value);
        }
        if self.luts.iter().any(|l| l == k) {
            return Some(Value::LutPath(k.to_owned(), PathBuf::from(&value.text)));
        }
        for (suffix, which) in [("_linear", 0), ("_wrap_mode", 1), ("_mipmap", 2)] {
            let Some(id) = k.strip_suffix(suffix) else {
                continue;
            };
            if !self.luts.iter().any(|l| l == id) {
                continue;
            }
            let id = id.to_owned();
            return match which {
                0 => self.boolean(key, value).map(|b| Value::LutLinear(id, b)),
                1 => self.wrap_mode(key, value).map(|w| Value::LutWrapMode(id, w)),
                _ => self.boolean(key, value).map(|b| Value::LutMipmap(id, b)),
            };
        }
        if self.params.iter().any(|p| p == k) {
            return self.float(key, value).map(|f| Value::ParameterValue(k.to_owned(), f));
        }
        if IMPORT_SUFFIXES.iter().any(|s| k.strip_suffix(s).is_some_and(|id| self.imports.iter().any(|i| i == id))) {
            // Reported once, with `imports`.
            return None;
        }
        self.unknown(key, value)
    }

    fn unknown(&mut self, key: &Token, value: &Token) -> Option<Value> {
        let k = key.text.as_str();
        if let Some((hint, lr)) = suggestion(k, &self.luts) {
            let message = if lr {
                format!("`{k}` is a librashader-only key; RetroArch ignores it")
            } else {
                format!("unknown key `{k}`; ignored")
            };
            self.warn(codes::W_PRESET_UNKNOWN_KEY, message, key.span, "").notes.push(hint);
            return None;
        }
        let number = strtod(&value.text).filter(|(_, n)| *n == value.text.len()).map(|(f, _)| f as f32);
        let number = match number {
            Some(f) => Some(self.finite(key, value, f)?),
            None => None,
        };
        match number {
            Some(f) if self.ctx.overrides.is_some() || self.ctx.dialect == Dialect::Slangp => {
                // Current RetroArch looks every declared parameter up by name.
                Some(Value::ParameterValue(k.to_owned(), f))
            }
            Some(f) => {
                let message = if self.params.is_empty() {
                    format!("a value for `{k}`, but the preset has no `parameters` list; ignored")
                } else {
                    format!("a value for `{k}`, which `parameters` does not list; ignored")
                };
                self.warn(codes::W_PRESET_PARAMETER, message, key.span, "")
                    .notes
                    .push("Cg-era RetroArch applied only the parameters listed in `parameters`".into());
                Some(Value::UnlistedValue(k.to_owned(), f))
            }
            None => {
                let message = if self.ctx.overrides.is_some() {
                    format!("`{k}` is neither a texture of the root preset nor a number; ignored")
                } else {
                    format!("unknown key `{k}`; ignored")
                };
                self.warn(codes::W_PRESET_UNKNOWN_KEY, message, key.span, "");
                None
            }
        }
    }

    fn shaders(&mut self, key: &Token, value: &Token) -> Option<Value> {
        if self.ctx.overrides.is_some() {
            // Only the root's pass count matters; the model says so.
            return strtoul(&value.text).map(|(n, _, _)| Value::Shaders(u32::try_from(n).unwrap_or(u32::MAX)));
        }
        let Some((n, len, negative)) = strtoul(&value.text) else {
            self.out.diagnostics.push(
                Diagnostic::error(
                    codes::E_PRESET_NO_PASSES,
                    format!("`shaders = {}` is not a pass count", show(value)),
                )
                .with_primary(value.span, "expected a number of passes")
                .with_secondary(key.span, ""),
            );
            return Some(Value::Shaders(0));
        };
        if negative {
            self.out.diagnostics.push(
                Diagnostic::error(
                    codes::E_PRESET_PASS_COUNT,
                    format!("`shaders = {}`: a negative pass count", value.text),
                )
                .with_primary(value.span, ""),
            );
            return Some(Value::Shaders(0));
        }
        self.trailing(value, len, &n.to_string());
        let max = self.ctx.dialect.max_passes();
        if n == 0 {
            self.out.diagnostics.push(
                Diagnostic::error(codes::E_PRESET_NO_PASSES, "`shaders = 0`: a preset needs at least one pass")
                    .with_primary(value.span, ""),
            );
        } else if n > u64::from(max) {
            self.out.diagnostics.push(
                Diagnostic::error(codes::E_PRESET_PASS_COUNT, format!("absurd pass count: `shaders = {n}`"))
                    .with_primary(value.span, format!("at most {max} passes"))
                    .with_note(format!("RetroArch keeps at most {max} passes (GFX_MAX_SHADERS)")),
            );
        }
        Some(Value::Shaders(u32::try_from(n).unwrap_or(u32::MAX)))
    }

    fn pass_entry(&mut self, kind: PassKey, i: usize, key: &Token, value: &Token) -> Option<Value> {
        Some(match kind {
            PassKey::Shader => Value::Shader(i, PathBuf::from(&value.text)),
            PassKey::FilterLinear => Value::FilterLinear(i, self.boolean(key, value)?),
            PassKey::WrapMode => Value::WrapMode(i, self.wrap_mode(key, value)?),
            PassKey::MipmapInput => Value::MipmapInput(i, self.boolean(key, value)?),
            PassKey::Alias => Value::Alias(i, self.alias(value)?),
            PassKey::FloatFramebuffer => Value::FloatFramebuffer(i, self.boolean(key, value)?),
            PassKey::SrgbFramebuffer => Value::SrgbFramebuffer(i, self.boolean(key, value)?),
            PassKey::ScaleType => Value::ScaleType(i, self.scale_type(key, value)?),
            PassKey::ScaleTypeX => Value::ScaleTypeX(i, self.scale_type(key, value)?),
            PassKey::ScaleTypeY => Value::ScaleTypeY(i, self.scale_type(key, value)?),
            PassKey::Scale => Value::Scale(i, self.factor(key, value)?),
            PassKey::ScaleX => Value::ScaleX(i, self.factor(key, value)?),
            PassKey::ScaleY => Value::ScaleY(i, self.factor(key, value)?),
            PassKey::FrameCountMod => {
                let Some((n, len, negative)) = strtoul(&value.text) else {
                    self.bad(key, value, "a number", "RetroArch reads 0: no modulo");
                    return None;
                };
                if negative || n > u64::from(u32::MAX) {
                    self.warn(
                        codes::W_PRESET_BAD_VALUE,
                        format!("`{} = {}` is out of range; ignored", key.text, value.text),
                        value.span,
                        "",
                    );
                    return None;
                }
                self.trailing(value, len, &n.to_string());
                Value::FrameCountMod(i, n as u32)
            }
        })
    }

    fn bad(&mut self, key: &Token, value: &Token, expected: &str, note: &str) {
        let message = format!("`{} = {}`: expected {expected}; ignored", key.text, show(value));
        self.warn(codes::W_PRESET_BAD_VALUE, message, value.span, "").notes.push(note.to_owned());
    }

    /// Warns when a number was read from a prefix of the value only.
    fn trailing(&mut self, value: &Token, len: usize, read: &str) {
        if len < value.text.len() {
            let rest = value.text[len..].to_owned();
            self.warn(
                codes::W_PRESET_BAD_VALUE,
                format!("`{}` read as {read}; `{rest}` is ignored", value.text),
                value.span,
                "",
            )
            .notes
            .push("RetroArch reads the longest numeric prefix (C strtod/strtoul)".into());
        }
    }

    fn boolean(&mut self, key: &Token, value: &Token) -> Option<bool> {
        match value.text.as_str() {
            "true" | "1" => return Some(true),
            "false" | "0" => return Some(false),
            _ => {}
        }
        let lower = value.text.to_ascii_lowercase();
        let b = match lower.as_str() {
            "true" => true,
            "false" => false,
            _ => {
                self.bad(key, value, "`true`, `false`, `1` or `0`", "RetroArch ignores the key: the default applies");
                return None;
            }
        };
        self.warn(codes::W_PRESET_BAD_VALUE, format!("`{} = {}` read as {b}", key.text, value.text), value.span, "")
            .notes
            .push("RetroArch reads only lowercase `true`/`false` and would have ignored this key".into());
        Some(b)
    }

    fn wrap_mode(&mut self, key: &Token, value: &Token) -> Option<WrapMode> {
        if let Some(w) = WrapMode::parse(&value.text) {
            return Some(w);
        }
        self.bad(
            key,
            value,
            "`clamp_to_border`, `clamp_to_edge`, `repeat` or `mirrored_repeat`",
            "RetroArch falls back to clamp_to_border",
        );
        if let Some(w) = WrapMode::parse(&value.text.to_ascii_lowercase()) {
            self.note(format!("did you mean `{w}`?"));
        }
        None
    }

    fn scale_type(&mut self, key: &Token, value: &Token) -> Option<ScaleType> {
        if let Some(t) = ScaleType::parse(&value.text) {
            return Some(t);
        }
        if value.text.is_empty() {
            // RetroArch treats an empty type as no type.
            self.warn(
                codes::W_PRESET_BAD_VALUE,
                format!("`{}` is empty; taken as not given", key.text),
                value.span,
                "",
            );
            return None;
        }
        let mut d = Diagnostic::error(codes::E_PRESET_SCALE_TYPE, format!("invalid scale type `{}`", value.text))
            .with_primary(value.span, "expected `source`, `viewport` or `absolute`")
            .with_note("RetroArch refuses the preset (\"Invalid attribute\")");
        if let Some(t) = ScaleType::parse(&value.text.to_ascii_lowercase()) {
            d = d.with_note(format!("did you mean `{t}`?"));
        } else if value.text == "original" {
            d = d.with_note("`original` is librashader-only");
        }
        self.out.diagnostics.push(d);
        None
    }

    fn factor(&mut self, key: &Token, value: &Token) -> Option<Factor> {
        let Some((f, len)) = strtod(&value.text) else {
            self.bad(key, value, "a number", "RetroArch would read 0");
            return None;
        };
        self.trailing(value, len, &format!("{}", f as f32));
        let int = strtol(&value.text).map_or(0, |(n, _)| n);
        let float = f as f32;
        if !float.is_finite() || (float <= 0.0 && int <= 0) {
            self.out.diagnostics.push(
                Diagnostic::error(
                    codes::E_PRESET_BAD_SCALE,
                    format!("`{} = {}`: a scale factor must be a finite number above 0", key.text, show(value)),
                )
                .with_primary(value.span, "not a usable size")
                .with_note("RetroArch would make a framebuffer of no usable size from it"),
            );
            return None;
        }
        Some(Factor { float, int })
    }

    fn float(&mut self, key: &Token, value: &Token) -> Option<f32> {
        let Some((f, len)) = strtod(&value.text) else {
            self.bad(key, value, "a number", "RetroArch would read 0");
            return None;
        };
        self.trailing(value, len, &format!("{}", f as f32));
        self.finite(key, value, f as f32)
    }

    /// An alias names a texture in the shaders (`<alias>_ALIAS` is defined too): a Cg
    /// identifier of at most 63 bytes (RetroArch keeps 63), else an error.
    fn alias(&mut self, value: &Token) -> Option<String> {
        let a = value.text.as_str();
        let identifier = a.chars().next().is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
            && a.chars().all(|c| c == '_' || c.is_ascii_alphanumeric());
        if a.is_empty() || (identifier && a.len() < 64) {
            return Some(a.to_owned());
        }
        let why = if identifier {
            format!("it is {} bytes long; RetroArch keeps 63", a.len())
        } else {
            "it is not an identifier".to_owned()
        };
        self.out.diagnostics.push(
            Diagnostic::error(codes::E_PRESET_BAD_ALIAS, format!("alias `{a}` cannot name a texture: {why}"))
                .with_primary(value.span, "expected a name such as `PASS1` or `blurred`"),
        );
        None
    }

    /// A parameter value must be finite: NaN or infinity is reported and not used.
    fn finite(&mut self, key: &Token, value: &Token, f: f32) -> Option<f32> {
        if f.is_finite() {
            return Some(f);
        }
        self.bad(key, value, "a finite number", "the parameter keeps its default value");
        None
    }

    fn integer(&mut self, key: &Token, value: &Token) -> Option<i64> {
        let Some((n, len)) = strtol(&value.text) else {
            self.bad(key, value, "an integer", "RetroArch would read 0");
            return None;
        };
        self.trailing(value, len, &n.to_string());
        Some(n)
    }
}

/// The value as shown in a message (`""` for an empty one).
fn show(value: &Token) -> String {
    if value.text.is_empty() || value.quoted {
        format!("\"{}\"", value.text)
    } else {
        value.text.clone()
    }
}

/// A hint for an unknown key that looks like a known one; `true` when the key is a
/// librashader-only spelling.
fn suggestion(key: &str, luts: &[String]) -> Option<(String, bool)> {
    let known = |k: &str| GLOBAL_KEYS.contains(&k) || pass_key(k).is_some();
    let lower = key.to_ascii_lowercase();
    if lower != key && known(&lower) {
        return Some((format!("keys are case-sensitive: did you mean `{lower}`?"), false));
    }
    // `scale_1`, `filter_linear_0`: an underscore before the index.
    let body = key.trim_end_matches(|c: char| c.is_ascii_digit());
    let index = &key[body.len()..];
    if !index.is_empty() {
        if let Some(b) = body.strip_suffix('_') {
            if known(&format!("{b}{index}")) {
                return Some((format!("did you mean `{b}{index}`?"), false));
            }
        }
        if index.len() > 1 && index.starts_with('0') {
            let n = index.trim_start_matches('0');
            let n = if n.is_empty() { "0" } else { n };
            if known(&format!("{body}{n}")) {
                return Some((format!("RetroArch looks for `{body}{n}`, without leading zeros"), false));
            }
        }
        // librashader-only spellings.
        let lr = match body {
            "repeat_mode" | "texture_wrap_mode" => Some("wrap_mode"),
            "mipmap" => Some("mipmap_input"),
            _ => None,
        };
        if let Some(ra) = lr {
            return Some((format!("RetroArch spells it `{ra}{index}`"), true));
        }
        let close = PASS_KEYS.iter().map(|(p, _)| *p).filter(|p| near(body, p)).min_by_key(|p| edit_distance(body, p));
        if let Some(p) = close {
            return Some((format!("did you mean `{p}{index}`?"), false));
        }
    } else if PASS_KEYS.iter().any(|(p, _)| *p == key) {
        return Some((format!("per-pass keys need the pass number: `{key}0`, `{key}1`, ..."), false));
    }
    if let Some(id) = key.strip_prefix("filter_") {
        if luts.iter().any(|l| l == id) {
            return Some((format!("RetroArch spells it `{id}_linear`"), true));
        }
    }
    if let Some(id) = key.strip_suffix("_repeat_mode") {
        if luts.iter().any(|l| l == id) {
            return Some((format!("RetroArch spells it `{id}_wrap_mode`"), true));
        }
    }
    for suffix in ["_linear", "_wrap_mode", "_mipmap"] {
        if let Some(id) = key.strip_suffix(suffix) {
            if !id.is_empty() && !luts.iter().any(|l| l == id) {
                return Some((format!("`{id}` is not listed in `textures`"), false));
            }
        }
    }
    if index.is_empty() {
        if let Some(g) = GLOBAL_KEYS.iter().find(|g| near(key, g)) {
            return Some((format!("did you mean `{g}`?"), false));
        }
    }
    None
}

/// A likely typo of `known`: one edit away, two for long keys.
fn near(key: &str, known: &str) -> bool {
    edit_distance(key, known) <= if known.len() >= 8 { 2 } else { 1 }
}

/// Levenshtein distance (bytes), for typo hints on short keys.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

fn skip_c_blanks(s: &str) -> usize {
    s.len() - s.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']).len()
}

/// C `strtod` on the longest prefix of `s`: the value and the bytes read, or `None`
/// when nothing converts. Decimal and hexadecimal forms, `inf`, `infinity`, `nan`.
pub fn strtod(s: &str) -> Option<(f64, usize)> {
    let start = skip_c_blanks(s);
    let b = s.as_bytes();
    let mut i = start;
    let negative = b.get(i) == Some(&b'-');
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let sign = if negative { -1.0 } else { 1.0 };
    let rest = &s[i..];
    let lower = rest.get(..8).unwrap_or(rest).to_ascii_lowercase();
    if lower.starts_with("infinity") {
        return Some((sign * f64::INFINITY, i + 8));
    }
    if lower.starts_with("inf") {
        return Some((sign * f64::INFINITY, i + 3));
    }
    if lower.starts_with("nan") {
        return Some((f64::NAN, i + 3));
    }
    if (rest.starts_with("0x") || rest.starts_with("0X"))
        && rest[2..].starts_with(|c: char| c.is_ascii_hexdigit() || c == '.')
    {
        if let Some((v, n)) = hex_float(&rest[2..]) {
            return Some((sign * v, i + 2 + n));
        }
    }
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let int = digits(i);
    let mut j = i + int;
    let mut frac = 0;
    if b.get(j) == Some(&b'.') {
        frac = digits(j + 1);
        if int + frac > 0 {
            j += 1 + frac;
        }
    }
    if int + frac == 0 {
        return None;
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        let e = digits(k);
        if e > 0 {
            j = k + e;
        }
    }
    let v: f64 = s[start..j].parse().ok()?;
    Some((v, j))
}

/// The mantissa and optional `p` exponent of a hex float after `0x`.
fn hex_float(s: &str) -> Option<(f64, usize)> {
    let b = s.as_bytes();
    let mut v = 0f64;
    let mut i = 0;
    let mut any = false;
    while let Some(d) = b.get(i).and_then(|c| (*c as char).to_digit(16)) {
        v = v * 16.0 + f64::from(d);
        i += 1;
        any = true;
    }
    if b.get(i) == Some(&b'.') {
        let mut scale = 1.0 / 16.0;
        let mut j = i + 1;
        while let Some(d) = b.get(j).and_then(|c| (*c as char).to_digit(16)) {
            v += f64::from(d) * scale;
            scale /= 16.0;
            j += 1;
            any = true;
        }
        if any {
            i = j;
        }
    }
    if !any {
        return None;
    }
    if matches!(b.get(i), Some(b'p' | b'P')) {
        let mut k = i + 1;
        let neg = b.get(k) == Some(&b'-');
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        let n = b[k..].iter().take_while(|c| c.is_ascii_digit()).count();
        if n > 0 {
            let e: i32 = s[k..k + n].parse().unwrap_or(i32::MAX);
            v *= 2f64.powi(if neg { -e } else { e });
            i = k + n;
        }
    }
    Some((v, i))
}

/// C `strtol` with base 0 on the longest prefix: `0x` hex, leading `0` octal, else
/// decimal; saturates on overflow. The value and the bytes read, or `None`.
pub fn strtol(s: &str) -> Option<(i64, usize)> {
    let (magnitude, len, negative) = c_integer(s)?;
    let v = if negative {
        0i64.checked_sub_unsigned(magnitude).unwrap_or(i64::MIN)
    } else {
        i64::try_from(magnitude).unwrap_or(i64::MAX)
    };
    Some((v, len))
}

/// C `strtoul` with base 0: the magnitude, the bytes read and whether a `-` preceded it
/// (C would wrap it around; callers reject it).
pub fn strtoul(s: &str) -> Option<(u64, usize, bool)> {
    c_integer(s)
}

fn c_integer(s: &str) -> Option<(u64, usize, bool)> {
    let b = s.as_bytes();
    let mut i = skip_c_blanks(s);
    let negative = b.get(i) == Some(&b'-');
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let (radix, mut j) = if b.get(i) == Some(&b'0')
        && matches!(b.get(i + 1), Some(b'x' | b'X'))
        && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    {
        (16, i + 2)
    } else if b.get(i) == Some(&b'0') {
        (8, i)
    } else {
        (10, i)
    };
    let from = j;
    let mut v: u64 = 0;
    while let Some(d) = b.get(j).and_then(|c| (*c as char).to_digit(radix)) {
        v = v.saturating_mul(u64::from(radix)).saturating_add(u64::from(d));
        j += 1;
    }
    if j == from {
        return None;
    }
    Some((v, j, negative))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::token::tokenize;
    use grammar::FileId;

    fn read(text: &str, ctx: Context<'_>) -> (Vec<Value>, Vec<(&'static str, String)>) {
        let v = values(&tokenize(FileId(0), text), ctx);
        (
            v.items.into_iter().map(|l| l.value).collect(),
            v.diagnostics.into_iter().map(|d| (d.code, d.message)).collect(),
        )
    }

    fn cgp(text: &str) -> (Vec<Value>, Vec<(&'static str, String)>) {
        read(text, Context::root(Dialect::Cgp))
    }

    fn codes(d: &[(&'static str, String)]) -> Vec<&'static str> {
        d.iter().map(|(c, _)| *c).collect()
    }

    #[test]
    fn every_pass_key() {
        let text = "shaders = 1\nshader0 = a.cg\nfilter_linear0 = true\nwrap_mode0 = repeat\nmipmap_input0 = 1\nalias0 = X\n\
                    float_framebuffer0 = false\nsrgb_framebuffer0 = 0\nscale_type0 = viewport\nscale_type_x0 = source\n\
                    scale_type_y0 = absolute\nscale0 = 2\nscale_x0 = 0x10\nscale_y0 = 0.5\nframe_count_mod0 = 010\nfeedback_pass = -1\n";
        let (v, d) = cgp(text);
        assert!(d.is_empty(), "{d:?}");
        let f = |float: f32, int: i64| Factor { float, int };
        assert_eq!(
            v,
            [
                Value::Shaders(1),
                Value::Shader(0, "a.cg".into()),
                Value::FilterLinear(0, true),
                Value::WrapMode(0, WrapMode::Repeat),
                Value::MipmapInput(0, true),
                Value::Alias(0, "X".into()),
                Value::FloatFramebuffer(0, false),
                Value::SrgbFramebuffer(0, false),
                Value::ScaleType(0, ScaleType::Viewport),
                Value::ScaleTypeX(0, ScaleType::Source),
                Value::ScaleTypeY(0, ScaleType::Absolute),
                Value::Scale(0, f(2.0, 2)),
                Value::ScaleX(0, f(16.0, 16)),
                Value::ScaleY(0, f(0.5, 0)),
                Value::FrameCountMod(0, 8),
                Value::FeedbackPass(-1),
            ]
        );
    }

    #[test]
    fn booleans() {
        let (v, d) = cgp("filter_linear0 = TRUE\nfilter_linear1 = False\nfilter_linear2 = yes\nfilter_linear3 = \"\"\nmipmap_input0 = \"true\"\n");
        assert_eq!(v, [Value::FilterLinear(0, true), Value::FilterLinear(1, false), Value::MipmapInput(0, true)]);
        assert_eq!(codes(&d), [codes::W_PRESET_BAD_VALUE; 4]);
        assert!(d[0].1.contains("read as true"), "{d:?}");
        assert!(d[2].1.contains("expected `true`"), "{d:?}");
    }

    #[test]
    fn luts_and_parameters() {
        let text = "textures = \"A;;B\"\nA = a.png\nA_linear = false\nA_wrap_mode = mirrored_repeat\nA_mipmap = true\nB = \"b c.png\"\n\
                    parameters = \"P;Q\"\nP = 0.25\nQ = 3\nR = 1.5\nC_linear = true\n";
        let (v, d) = cgp(text);
        assert_eq!(
            v,
            [
                Value::Textures(vec!["A".into(), "B".into()]),
                Value::LutPath("A".into(), "a.png".into()),
                Value::LutLinear("A".into(), false),
                Value::LutWrapMode("A".into(), WrapMode::MirroredRepeat),
                Value::LutMipmap("A".into(), true),
                Value::LutPath("B".into(), "b c.png".into()),
                Value::Parameters(vec!["P".into(), "Q".into()]),
                Value::ParameterValue("P".into(), 0.25),
                Value::ParameterValue("Q".into(), 3.0),
                Value::UnlistedValue("R".into(), 1.5),
            ]
        );
        assert_eq!(codes(&d), [codes::W_PRESET_PARAMETER, codes::W_PRESET_UNKNOWN_KEY]);
        assert!(d[1].1.contains("C_linear"));
        // In a .slangp (current RetroArch) any numeric key may be a parameter.
        let (v, d) = read("R = 1.5\n", Context::root(Dialect::Slangp));
        assert_eq!((v, d.len()), (vec![Value::ParameterValue("R".into(), 1.5)], 0));
    }

    #[test]
    fn typos_get_hints() {
        let tokens = tokenize(FileId(0), "scale_1 = 2.0\nScale0 = 1\nfilter_liner0 = true\nscale = 2\nshader01 = a.cg\ntexture = \"A\"\nrepeat_mode0 = repeat\n");
        let v = values(&tokens, Context::root(Dialect::Cgp));
        assert!(v.items.is_empty(), "{:?}", v.items);
        let hints: Vec<_> = v.diagnostics.iter().map(|d| (d.code, d.notes.join(" "))).collect();
        assert!(hints.iter().all(|(c, _)| *c == codes::W_PRESET_UNKNOWN_KEY), "{hints:?}");
        let notes: Vec<_> = hints.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(
            notes,
            [
                "did you mean `scale1`?",
                "keys are case-sensitive: did you mean `scale0`?",
                "did you mean `filter_linear0`?",
                "per-pass keys need the pass number: `scale0`, `scale1`, ...",
                "RetroArch looks for `shader1`, without leading zeros",
                "did you mean `textures`?",
                "RetroArch spells it `wrap_mode0`",
            ]
        );
    }

    #[test]
    fn numbers_read_like_c() {
        assert_eq!(strtod("1.5x"), Some((1.5, 3)));
        assert_eq!(strtod(" -.5e1"), Some((-5.0, 6)));
        assert_eq!(strtod("1e"), Some((1.0, 1)));
        assert_eq!(strtod("0x1p4"), Some((16.0, 5)));
        assert_eq!(strtod("abc"), None);
        assert_eq!(strtod("."), None);
        assert_eq!(strtol("0x1F"), Some((31, 4)));
        assert_eq!(strtol("017"), Some((15, 3)));
        assert_eq!(strtol("-3"), Some((-3, 2)));
        assert_eq!(strtol("0"), Some((0, 1)));
        assert_eq!(strtol("09"), Some((0, 1)), "octal stops at 9");
        assert_eq!(strtoul("99999999999999999999999"), Some((u64::MAX, 23, false)));
        assert_eq!(strtoul("x"), None);
    }

    #[test]
    fn malformed_numbers_warn_and_keep_going() {
        let (v, d) =
            cgp("scale0 = 2.0x\nscale1 = big\nframe_count_mod0 = -2\nframe_count_mod1 = 3.5\nfeedback_pass = one\n");
        assert_eq!(v, [Value::Scale(0, Factor { float: 2.0, int: 2 }), Value::FrameCountMod(1, 3)]);
        assert_eq!(codes(&d), [codes::W_PRESET_BAD_VALUE; 5]);
    }

    #[test]
    fn shaders_errors() {
        for (text, code) in [
            ("shaders = 0\n", codes::E_PRESET_NO_PASSES),
            ("shaders = many\n", codes::E_PRESET_NO_PASSES),
            ("shaders = 27\n", codes::E_PRESET_PASS_COUNT),
            ("shaders = -1\n", codes::E_PRESET_PASS_COUNT),
        ] {
            let (_, d) = cgp(text);
            assert_eq!(codes(&d), [code], "{text}");
        }
        let (v, d) = cgp("shaders = \"26\"\n");
        assert_eq!((v, d.len()), (vec![Value::Shaders(26)], 0));
    }

    #[test]
    fn scale_types_and_wrap_modes() {
        let (v, d) = cgp("scale_type0 = Source\nscale_type1 = original\nscale_type2 = \"\"\nwrap_mode0 = border\nwrap_mode1 = REPEAT\n");
        assert!(v.is_empty(), "{v:?}");
        assert_eq!(
            codes(&d),
            [
                codes::E_PRESET_SCALE_TYPE,
                codes::E_PRESET_SCALE_TYPE,
                codes::W_PRESET_BAD_VALUE,
                codes::W_PRESET_BAD_VALUE,
                codes::W_PRESET_BAD_VALUE
            ]
        );
    }

    #[test]
    fn duplicates_keep_the_first() {
        let (v, d) = cgp("shader0 = a.cg\nshader0 = b.cg\n");
        assert_eq!(v, [Value::Shader(0, "a.cg".into())]);
        assert_eq!(codes(&d), [codes::W_PRESET_DUPLICATE]);
    }

    #[test]
    fn override_files_see_the_root_luts() {
        let luts = vec!["mask".to_owned()];
        let ctx = Context { dialect: Dialect::Cgp, overrides: Some(&luts) };
        let (v, d) = read("#reference \"root.cgp\"\nmask = other.png\nGAMMA = 2.2\n", ctx);
        assert_eq!(
            v,
            [
                Value::Reference("root.cgp".into()),
                Value::LutPath("mask".into(), "other.png".into()),
                Value::ParameterValue("GAMMA".into(), 2.2)
            ]
        );
        assert!(d.is_empty(), "{d:?}");
    }
}

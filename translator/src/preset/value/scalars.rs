//! One value token read as RetroArch reads it: a boolean (lowercase `true`/`false`/`1`/
//! `0`, other letter cases with a warning), a wrap mode, a scale type, a scale factor
//! (`strtod` and `strtol` both), a finite float, an integer, an alias; with the warnings
//! for a number read from a prefix only and for values RetroArch ignores.
//!
//! It never accepts what RetroArch's loader refuses (a bad scale type, a scale factor of
//! no usable size, an alias that cannot name a texture are errors) and never panics on
//! any token text.

use super::c_numbers::{strtod, strtol};
use super::reader::Reader;
use super::{Factor, ScaleType, WrapMode};
use crate::codes;
use crate::preset::token::Token;
use grammar::Diagnostic;

impl Reader<'_> {
    pub(super) fn bad(&mut self, key: &Token, value: &Token, expected: &str, note: &str) {
        let message = format!("`{} = {}`: expected {expected}; ignored", key.text, show(value));
        self.warn(codes::W_PRESET_BAD_VALUE, message, value.span, "").notes.push(note.to_owned());
    }

    /// Warns when a number was read from a prefix of the value only.
    pub(super) fn trailing(&mut self, value: &Token, len: usize, read: &str) {
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

    pub(super) fn boolean(&mut self, key: &Token, value: &Token) -> Option<bool> {
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

    pub(super) fn wrap_mode(&mut self, key: &Token, value: &Token) -> Option<WrapMode> {
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

    pub(super) fn scale_type(&mut self, key: &Token, value: &Token) -> Option<ScaleType> {
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

    pub(super) fn factor(&mut self, key: &Token, value: &Token) -> Option<Factor> {
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

    pub(super) fn float(&mut self, key: &Token, value: &Token) -> Option<f32> {
        let Some((f, len)) = strtod(&value.text) else {
            self.bad(key, value, "a number", "RetroArch would read 0");
            return None;
        };
        self.trailing(value, len, &format!("{}", f as f32));
        self.finite(key, value, f as f32)
    }

    /// An alias names a texture in the shaders (`<alias>_ALIAS` is defined too): a Cg
    /// identifier of at most 63 bytes (RetroArch keeps 63), else an error.
    pub(super) fn alias(&mut self, value: &Token) -> Option<String> {
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
    pub(super) fn finite(&mut self, key: &Token, value: &Token, f: f32) -> Option<f32> {
        if f.is_finite() {
            return Some(f);
        }
        self.bad(key, value, "a finite number", "the parameter keeps its default value");
        None
    }

    pub(super) fn integer(&mut self, key: &Token, value: &Token) -> Option<i64> {
        let Some((n, len)) = strtol(&value.text) else {
            self.bad(key, value, "an integer", "RetroArch would read 0");
            return None;
        };
        self.trailing(value, len, &n.to_string());
        Some(n)
    }
}

/// The value as shown in a message (`""` for an empty one).
pub(super) fn show(value: &Token) -> String {
    if value.text.is_empty() || value.quoted {
        format!("\"{}\"", value.text)
    } else {
        value.text.clone()
    }
}

//! Reading one file's entries: the `textures`, `parameters` and `imports` lists first
//! (they decide what the other keys mean), then every entry in order, the first of a
//! key kept, each dispatched to the value it gives (pass keys, LUT keys, parameter
//! values, the pass count, `feedback_pass`); `#reference` kept, `#include` warned about.
//!
//! It never looks beyond the one file (pass indices against `shaders` and LUT paths are
//! the model's business) and never gives an entry more than one value.

use super::c_numbers::{strtod, strtoul};
use super::hints::suggestion;
use super::keys::{pass_key, split_list, PassKey, IMPORT_SUFFIXES};
use super::scalars::show;
use super::{Context, Dialect, Located, Value, Values};
use crate::codes;
use crate::preset::token::{Item, Token, Tokens};
use grammar::{Diagnostic, Span};
use std::collections::HashMap;
use std::path::PathBuf;

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

pub(super) struct Reader<'a> {
    ctx: Context<'a>,
    pub(super) out: Values,
    luts: Vec<String>,
    params: Vec<String>,
    /// Ids of Cg-era state-tracking `imports` (python/python.cgp uses them).
    imports: Vec<String>,
}

impl Reader<'_> {
    pub(super) fn warn(&mut self, code: &'static str, message: String, span: Span, label: &str) -> &mut Diagnostic {
        self.out.diagnostics.push(Diagnostic::warning(code, message).with_primary(span, label));
        let last = self.out.diagnostics.len() - 1;
        &mut self.out.diagnostics[last]
    }

    pub(super) fn note(&mut self, note: String) {
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
}

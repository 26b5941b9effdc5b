//! Layer 3 of the preset parser: typed values to the preset model.
//!
//! [`Preset`] is what the filter chain needs: passes in order, LUTs, parameter values,
//! `feedback_pass`. Building it applies RetroArch's rules (runtime sheet §4):
//!
//! - `shaders` is required and gives the pass count; every pass below it needs
//!   `shaderN`; per-pass keys at or above it are ignored with a warning;
//! - scale: `scale_typeN` overrides both per-axis types; an axis without a type is
//!   source; factors default to 1.0 (absolute sizes to 0 px, as RetroArch leaves them);
//!   `scaleN` beats `scale_xN`/`scale_yN`; absolute sizes are read as integers; when no
//!   scale type is given at all every scale key is ignored and the pass has no scale
//!   (`Pass::scale == None`, the ignored keys kept in `Pass::ignored_scale_keys`);
//! - LUTs are those listed in `textures`, each with a required path;
//! - parameters: in a `.cgp`, the ids listed in `parameters` that have a value;
//!   in a `.slangp`, every parameter value (current RetroArch looks ids up directly);
//! - a referencing preset (`#reference`) may override only parameter values and LUT
//!   paths ([`Preset::apply_overrides`]).
//!
//! Paths are kept as written (relative to the file that wrote them) plus resolved
//! against that file's directory ([`resolve`]: lexically, backslashes as `/`; nothing
//! here touches a file system).
//!
//! **Invariant:** never panics; a preset is returned exactly when no error was reported.

use super::value::{Dialect, Factor, Located, ScaleType, Value, Values, WrapMode};
use crate::codes;
use crate::retro::PassContext;
use grammar::source::normalize;
use grammar::{Diagnostic, FileId, Span};
use std::path::{Path, PathBuf};

/// A loaded preset.
#[derive(Clone, Debug, PartialEq)]
pub struct Preset {
    /// The preset that was loaded (normalised).
    pub path: PathBuf,
    /// The preset the passes and LUTs come from: `path` itself unless `#reference` led
    /// elsewhere.
    pub root: PathBuf,
    /// The presets whose values were applied on top of the root, in the order applied
    /// (the loaded preset last); empty without `#reference`.
    pub references: Vec<PathBuf>,
    pub passes: Vec<Pass>,
    pub textures: Vec<Lut>,
    /// Parameter values, in `parameters` order (then in the order first set).
    pub parameters: Vec<(String, f32)>,
    /// `.cgp` values for ids that `parameters` does not list: Cg-era RetroArch ignored them.
    pub unlisted_values: Vec<(String, f32)>,
    /// `feedback_pass` (Cg only; the shader translation consumes it).
    pub feedback_pass: Option<usize>,
}

/// One pass.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    /// `shaderN` as written, relative to the preset that wrote it.
    pub shader: PathBuf,
    /// `shader` joined to that preset's directory and normalised.
    pub shader_resolved: PathBuf,
    /// The `shaderN` value in its file.
    pub span: Span,
    /// `filter_linearN`; `None` when absent (RetroArch then uses `video_smooth`).
    pub filter_linear: Option<bool>,
    /// `wrap_modeN`; `None` when absent (clamp_to_border).
    pub wrap_mode: Option<WrapMode>,
    pub mipmap_input: bool,
    /// `aliasN`; `None` when absent or empty.
    pub alias: Option<String>,
    pub float_framebuffer: bool,
    pub srgb_framebuffer: bool,
    /// `None` when no scale type was given: the pass is source x1 (or the viewport when last).
    pub scale: Option<Scale>,
    /// Scale keys RetroArch ignored for this pass (no scale type; or overridden by
    /// `scale_typeN` / `scaleN`), as written.
    pub ignored_scale_keys: Vec<String>,
    /// `frame_count_modN`; `None` when absent or 0.
    pub frame_count_mod: Option<u32>,
}

/// Output size rule of a pass: type and factor per axis. Absolute factors are whole pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    pub x: (ScaleType, f32),
    pub y: (ScaleType, f32),
}

/// A look-up texture.
#[derive(Clone, Debug, PartialEq)]
pub struct Lut {
    pub name: String,
    /// The path as written, relative to the preset that wrote it.
    pub path: PathBuf,
    /// `path` joined to that preset's directory and normalised.
    pub resolved: PathBuf,
    pub span: Span,
    /// `<id>_linear`; `None` when absent (RetroArch: linear).
    pub linear: Option<bool>,
    /// `<id>_wrap_mode`; `None` when absent (clamp_to_border).
    pub wrap_mode: Option<WrapMode>,
    pub mipmap: bool,
}

impl Preset {
    /// Where pass `i` sits in this preset, for the shader translation.
    pub fn pass_context(&self, i: usize) -> PassContext {
        PassContext {
            pass: i,
            passes: self.passes.len(),
            aliases: self.passes.iter().map(|p| p.alias.clone().unwrap_or_default()).collect(),
            feedback_pass: self.feedback_pass,
            luts: self.textures.iter().map(|l| l.name.clone()).collect(),
        }
    }

    /// The value of a parameter, when the preset sets one.
    pub fn parameter(&self, id: &str) -> Option<f32> {
        self.parameters.iter().find(|(p, _)| p == id).map(|(_, v)| *v)
    }

    /// Builds the model from the values of a root preset at `path` (`file` in the
    /// source map). Returns `None` when an error was reported, here or in `values`.
    pub fn build(
        values: &Values,
        file: FileId,
        path: &Path,
        dialect: Dialect,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Preset> {
        let errors_before = diags.iter().filter(|d| d.is_error()).count();
        let base = path.parent().unwrap_or(Path::new(""));
        let Some((count, shaders)) = values.find(|v| match v {
            Value::Shaders(n) => Some(*n),
            _ => None,
        }) else {
            diags.push(
                Diagnostic::error(codes::E_PRESET_NO_PASSES, "the preset has no `shaders` key")
                    .with_primary(Span::new(file, 0, 0), "expected `shaders = <pass count>`")
                    .with_note("RetroArch refuses a preset without a pass count"),
            );
            return None;
        };
        if count == 0 || count > dialect.max_passes() {
            // Reported by the value layer.
            return None;
        }
        let n = count as usize;
        let mut builders: Vec<PassBuilder> = (0..n).map(|_| PassBuilder::default()).collect();
        // Keys of passes at or beyond `shaders`, grouped by pass.
        let mut beyond: Vec<(usize, Vec<&Located>)> = Vec::new();
        for l in values.iter() {
            let Some(i) = l.value.pass() else { continue };
            match builders.get_mut(i) {
                Some(b) => b.values.push(l),
                None => match beyond.iter_mut().find(|(p, _)| *p == i) {
                    Some((_, keys)) => keys.push(l),
                    None => beyond.push((i, vec![l])),
                },
            }
        }
        beyond.sort_by_key(|(i, _)| *i);
        for (i, keys) in beyond {
            let names: Vec<String> = keys.iter().map(|l| format!("`{}`", l.key)).collect();
            let mut d = Diagnostic::warning(
                codes::W_PRESET_PASS_INDEX,
                format!("pass {i} is beyond `shaders = {count}`: {} ignored", names.join(", ")),
            )
            .with_primary(keys[0].key_span, format!("passes are 0..{}", n - 1))
            .with_secondary(shaders.span, "the pass count");
            for l in keys.iter().skip(1) {
                d = d.with_secondary(l.key_span, "");
            }
            diags.push(d);
        }
        let mut passes = Vec::with_capacity(n);
        for (i, b) in builders.iter().enumerate() {
            if let Some(p) = b.build(i, base, shaders, diags) {
                passes.push(p);
            }
        }
        let feedback_pass = match values.find(|v| match v {
            Value::FeedbackPass(f) => Some(*f),
            _ => None,
        }) {
            Some((f, _)) if f < 0 => None,
            Some((f, l)) if f as usize >= n => {
                diags.push(
                    Diagnostic::warning(
                        codes::W_PRESET_BAD_VALUE,
                        format!("`feedback_pass = {f}`, but the preset has {n} passes; ignored"),
                    )
                    .with_primary(l.span, format!("passes are 0..{}", n - 1)),
                );
                None
            }
            Some((f, _)) => Some(f as usize),
            None => None,
        };
        let textures = luts(values, base, diags);
        let (parameters, unlisted_values) = parameters(values, dialect, diags);
        let errors_after = diags.iter().filter(|d| d.is_error()).count();
        let value_errors = values.diagnostics.iter().any(Diagnostic::is_error);
        if errors_after > errors_before || value_errors || passes.len() != n {
            return None;
        }
        Some(Preset {
            path: normalize(path),
            root: normalize(path),
            references: Vec::new(),
            passes,
            textures,
            parameters,
            unlisted_values,
            feedback_pass,
        })
    }

    /// Applies the values of a preset that references this one (directly or through
    /// others): parameter values and LUT paths only; anything else is reported as not
    /// applied. `path` is that preset's path (LUT paths are relative to it).
    pub fn apply_overrides(&mut self, values: &Values, path: &Path, diags: &mut Vec<Diagnostic>) {
        let base = path.parent().unwrap_or(Path::new(""));
        let mut not_applied: Vec<&Located> = Vec::new();
        for l in values.iter() {
            match &l.value {
                Value::ParameterValue(id, v) => match self.parameters.iter_mut().find(|(p, _)| p == id) {
                    Some(slot) => slot.1 = *v,
                    None => self.parameters.push((id.clone(), *v)),
                },
                Value::LutPath(id, p) => {
                    if let Some(lut) = self.textures.iter_mut().find(|t| &t.name == id) {
                        if p.as_os_str().is_empty() {
                            not_applied.push(l);
                        } else {
                            lut.path = p.clone();
                            lut.resolved = resolve(base, p);
                            lut.span = l.span;
                        }
                    }
                }
                Value::Reference(_) | Value::Parameters(_) => {}
                _ => not_applied.push(l),
            }
        }
        if let Some(first) = not_applied.first() {
            let keys: Vec<String> = not_applied.iter().take(8).map(|l| format!("`{}`", l.key)).collect();
            let more = if not_applied.len() > 8 { ", ..." } else { "" };
            diags.push(
                Diagnostic::warning(
                    codes::W_PRESET_NOT_OVERRIDABLE,
                    format!("{} key(s) of a referencing preset are not applied: {}{more}", not_applied.len(), keys.join(", ")),
                )
                .with_primary(first.full_span(), "not applied")
                .with_note("through #reference, RetroArch applies only parameter values and texture paths; passes and LUT settings come from the root preset"),
            );
        }
        self.references.push(normalize(path));
    }
}

/// The values of one pass, in file order.
#[derive(Default)]
struct PassBuilder<'a> {
    values: Vec<&'a Located>,
}

impl PassBuilder<'_> {
    fn get<T>(&self, f: impl Fn(&Value) -> Option<T>) -> Option<(T, &Located)> {
        self.values.iter().find_map(|l| f(&l.value).map(|t| (t, *l)))
    }

    fn build(&self, i: usize, base: &Path, shaders: &Located, diags: &mut Vec<Diagnostic>) -> Option<Pass> {
        let Some((shader, sl)) = self.get(|v| match v {
            Value::Shader(_, p) => Some(p.clone()),
            _ => None,
        }) else {
            diags.push(
                Diagnostic::error(codes::E_PRESET_MISSING_SHADER, format!("pass {i} has no `shader{i}`"))
                    .with_primary(shaders.span, format!("this asks for shader0..shader{}", shaders_count(shaders)))
                    .with_note("RetroArch refuses the preset (\"Couldn't parse shader source\")"),
            );
            return None;
        };
        if shader.as_os_str().is_empty() {
            diags.push(
                Diagnostic::error(codes::E_PRESET_MISSING_SHADER, format!("`shader{i}` is empty"))
                    .with_primary(sl.span, "expected the path of a shader"),
            );
            return None;
        }
        let flag = |f: fn(&Value) -> Option<bool>| self.get(f).map(|(b, _)| b);
        let filter_linear = flag(|v| match v {
            Value::FilterLinear(_, b) => Some(*b),
            _ => None,
        });
        let mipmap_input = flag(|v| match v {
            Value::MipmapInput(_, b) => Some(*b),
            _ => None,
        });
        let float_framebuffer = flag(|v| match v {
            Value::FloatFramebuffer(_, b) => Some(*b),
            _ => None,
        });
        let srgb_framebuffer = flag(|v| match v {
            Value::SrgbFramebuffer(_, b) => Some(*b),
            _ => None,
        });
        let wrap_mode = self
            .get(|v| match v {
                Value::WrapMode(_, w) => Some(*w),
                _ => None,
            })
            .map(|(w, _)| w);
        let alias = self
            .get(|v| match v {
                Value::Alias(_, a) => Some(a.clone()),
                _ => None,
            })
            .map(|(a, _)| a)
            .filter(|a| !a.is_empty());
        let frame_count_mod = self
            .get(|v| match v {
                Value::FrameCountMod(_, m) => Some(*m),
                _ => None,
            })
            .map(|(m, _)| m)
            .filter(|m| *m != 0);
        let (scale, ignored_scale_keys) = self.scale(i, diags);
        Some(Pass {
            shader_resolved: resolve(base, &shader),
            shader,
            span: sl.span,
            filter_linear,
            wrap_mode,
            mipmap_input: mipmap_input.unwrap_or(false),
            alias,
            float_framebuffer: float_framebuffer.unwrap_or(false),
            srgb_framebuffer: srgb_framebuffer.unwrap_or(false),
            scale,
            ignored_scale_keys,
            frame_count_mod,
        })
    }

    /// RetroArch's `video_shader_parse_pass` scale rules.
    fn scale(&self, i: usize, diags: &mut Vec<Diagnostic>) -> (Option<Scale>, Vec<String>) {
        let ty = |f: fn(&Value) -> Option<ScaleType>| self.get(f);
        let both = ty(|v| match v {
            Value::ScaleType(_, t) => Some(*t),
            _ => None,
        });
        let tx = ty(|v| match v {
            Value::ScaleTypeX(_, t) => Some(*t),
            _ => None,
        });
        let ty_ = ty(|v| match v {
            Value::ScaleTypeY(_, t) => Some(*t),
            _ => None,
        });
        let factor = |f: fn(&Value) -> Option<Factor>| self.get(f);
        let s = factor(|v| match v {
            Value::Scale(_, f) => Some(*f),
            _ => None,
        });
        let sx = factor(|v| match v {
            Value::ScaleX(_, f) => Some(*f),
            _ => None,
        });
        let sy = factor(|v| match v {
            Value::ScaleY(_, f) => Some(*f),
            _ => None,
        });
        let mut ignored: Vec<&Located> = Vec::new();
        let (type_x, type_y) = match both {
            Some((t, _)) => {
                ignored.extend(tx.map(|(_, l)| l));
                ignored.extend(ty_.map(|(_, l)| l));
                (Some(t), Some(t))
            }
            None => (tx.map(|(t, _)| t), ty_.map(|(t, _)| t)),
        };
        if type_x.is_none() && type_y.is_none() {
            let keys: Vec<&Located> = [s, sx, sy].into_iter().flatten().map(|(_, l)| l).collect();
            if let Some(first) = keys.first() {
                let names: Vec<String> = keys.iter().map(|l| format!("`{}`", l.key)).collect();
                diags.push(
                    Diagnostic::warning(
                        codes::W_PRESET_SCALE_IGNORED,
                        format!("pass {i} has {} but no scale type: ignored, the pass is source x1", names.join(", ")),
                    )
                    .with_primary(first.full_span(), "ignored")
                    .with_note(format!("RetroArch applies scale factors only with `scale_type{i}` or `scale_type_x{i}`/`scale_type_y{i}`; librashader would apply them")),
                );
            }
            return (None, keys.iter().map(|l| l.key.clone()).collect());
        }
        if s.is_some() {
            ignored.extend(sx.map(|(_, l)| l));
            ignored.extend(sy.map(|(_, l)| l));
        }
        if !ignored.is_empty() {
            let names: Vec<String> = ignored.iter().map(|l| format!("`{}`", l.key)).collect();
            let by = if both.is_some() { format!("`scale_type{i}`") } else { format!("`scale{i}`") };
            diags.push(
                Diagnostic::warning(
                    codes::W_PRESET_SCALE_IGNORED,
                    format!("{} overridden by {by}; ignored", names.join(", ")),
                )
                .with_primary(ignored[0].full_span(), "ignored"),
            );
        }
        let type_span = both.or(tx).or(ty_).map(|(_, l)| l.full_span());
        let mut axis = |t: Option<ScaleType>, per_axis: Option<(Factor, &Located)>, name: &str| {
            let t = t.unwrap_or(ScaleType::Source);
            let f = s.or(per_axis).map(|(f, _)| f);
            let v = match (t, f) {
                (ScaleType::Absolute, Some(f)) => f.int as f32,
                (_, Some(f)) => f.float,
                (ScaleType::Absolute, None) => {
                    diags.push(
                        Diagnostic::warning(
                            codes::W_PRESET_BAD_VALUE,
                            format!("pass {i}: absolute {name} size without `scale{i}` or `scale_{name}{i}`"),
                        )
                        .with_primary(type_span.unwrap_or(Span::new(FileId(0), 0, 0)), "")
                        .with_note("RetroArch leaves the size at 0 pixels"),
                    );
                    0.0
                }
                (_, None) => 1.0,
            };
            (t, v)
        };
        let x = axis(type_x, sx, "x");
        let y = axis(type_y, sy, "y");
        (Some(Scale { x, y }), ignored.iter().map(|l| l.key.clone()).collect())
    }
}

/// `path` as written in a preset in `base`, joined and normalised lexically. Backslashes
/// become `/`, as RetroArch conforms them (`pathname_conform_slashes_to_os`): presets
/// written on Windows name `..\misc\x.cg`.
pub fn resolve(base: &Path, path: &Path) -> PathBuf {
    let conformed = PathBuf::from(path.to_string_lossy().replace('\\', "/"));
    normalize(&base.join(conformed))
}

fn shaders_count(shaders: &Located) -> String {
    match shaders.value {
        Value::Shaders(n) => n.saturating_sub(1).to_string(),
        _ => "?".into(),
    }
}

fn luts(values: &Values, base: &Path, diags: &mut Vec<Diagnostic>) -> Vec<Lut> {
    let Some((ids, list)) = values.find(|v| match v {
        Value::Textures(ids) => Some(ids.clone()),
        _ => None,
    }) else {
        return Vec::new();
    };
    let mut out: Vec<Lut> = Vec::new();
    for id in ids {
        if out.iter().any(|l| l.name == id) {
            diags.push(
                Diagnostic::warning(codes::W_PRESET_DUPLICATE, format!("texture `{id}` is listed twice; kept once"))
                    .with_primary(list.span, ""),
            );
            continue;
        }
        let path = values.find(|v| match v {
            Value::LutPath(i, p) if *i == id => Some(p.clone()),
            _ => None,
        });
        let (path, pl) = match path {
            Some((p, l)) if !p.as_os_str().is_empty() => (p, l),
            other => {
                let mut d = Diagnostic::error(
                    codes::E_PRESET_MISSING_TEXTURE,
                    format!("texture `{id}` is listed in `textures` but has no path"),
                )
                .with_primary(list.span, format!("expected a line `{id} = \"path\"`"))
                .with_note("RetroArch refuses the preset (\"Cannot find path to texture\")");
                if let Some((_, l)) = other {
                    d = d.with_secondary(l.span, "empty");
                }
                if id.trim() != id {
                    d = d.with_note("ids are not trimmed: write `textures = \"A;B\"` without blanks");
                }
                diags.push(d);
                continue;
            }
        };
        let linear = values
            .find(|v| match v {
                Value::LutLinear(i, b) if *i == id => Some(*b),
                _ => None,
            })
            .map(|(b, _)| b);
        let wrap_mode = values
            .find(|v| match v {
                Value::LutWrapMode(i, w) if *i == id => Some(*w),
                _ => None,
            })
            .map(|(w, _)| w);
        let mipmap = values
            .find(|v| match v {
                Value::LutMipmap(i, b) if *i == id => Some(*b),
                _ => None,
            })
            .is_some_and(|(b, _)| b);
        out.push(Lut { resolved: resolve(base, &path), path, span: pl.span, name: id, linear, wrap_mode, mipmap });
    }
    out
}

/// Parameter values and, for a .cgp, the values `parameters` does not list.
type Params = (Vec<(String, f32)>, Vec<(String, f32)>);

fn parameters(values: &Values, dialect: Dialect, diags: &mut Vec<Diagnostic>) -> Params {
    let mut out: Vec<(String, f32)> = Vec::new();
    if let Some((ids, list)) = values.find(|v| match v {
        Value::Parameters(ids) => Some(ids.clone()),
        _ => None,
    }) {
        for id in ids {
            if out.iter().any(|(p, _)| *p == id) {
                continue;
            }
            match values.find(|v| match v {
                Value::ParameterValue(p, f) if *p == id => Some(*f),
                _ => None,
            }) {
                Some((f, _)) => out.push((id, f)),
                None => diags.push(
                    Diagnostic::warning(
                        codes::W_PRESET_PARAMETER,
                        format!("parameter `{id}` is listed in `parameters` but has no value"),
                    )
                    .with_primary(list.span, "")
                    .with_note("the shader's default applies"),
                ),
            }
        }
    }
    let mut unlisted = Vec::new();
    for l in values.iter() {
        match &l.value {
            Value::ParameterValue(id, f) if dialect == Dialect::Slangp && !out.iter().any(|(p, _)| p == id) => {
                out.push((id.clone(), *f))
            }
            Value::UnlistedValue(id, f) => unlisted.push((id.clone(), *f)),
            _ => {}
        }
    }
    (out, unlisted)
}

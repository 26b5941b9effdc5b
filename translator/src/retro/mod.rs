//! RetroArch's runtime conventions as data: the Cg names the old runtime bound, the
//! slang semantics that replace them, and the preset context a pass is translated in.
//!
//! Facts follow the project's runtime sheet (shared/reference/retroarch-runtime.md §1-3),
//! including its corrections of the public porting guide: `PASSk` is `PassOutput(k-1)`,
//! `PASSPREVk` in pass p is `PassOutput(p-k)` (or `Original` when k = p+1), `PREVk` is
//! `OriginalHistory(k+1)`. The slang side's names (samplers, sizes, built-in uniforms) and
//! their parser live in [`semantics`], the one vocabulary every crate spells them with.
//! Pure data and name logic; nothing here reads the IR.

pub mod semantics;

pub use semantics::{Texture, Uniform};

/// Where one pass sits in its preset: what the runtime would have bound.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PassContext {
    /// 0-based index of this pass.
    pub pass: usize,
    /// Number of passes in the preset.
    pub passes: usize,
    /// `aliasN` of every pass (empty when none), indexed by pass.
    pub aliases: Vec<String>,
    /// `feedback_pass` of the .cgp, when given.
    pub feedback_pass: Option<usize>,
    /// LUT ids from `textures`, in order.
    pub luts: Vec<String>,
}

impl PassContext {
    /// A lone .cg: pass 0 of a one-pass chain.
    pub fn single() -> PassContext {
        PassContext { pass: 0, passes: 1, aliases: vec![String::new()], feedback_pass: None, luts: Vec::new() }
    }
}

/// What a Cg uniform struct parameter such as `IN`, `ORIG`, `PASS2` or `PREV3` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CgTextureStruct {
    /// `IN`: the pass input (Source), plus output size and frame counters.
    Input,
    /// Any other texture struct, resolved to its slang texture.
    Texture(Texture),
}

/// Why a Cg texture name cannot be bound in this pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unbound {
    pub message: String,
}

/// Resolves a Cg uniform struct name (`IN`, `ORIG`, `PASS3`, `PASSPREV2`, `PREV`, `PREV4`,
/// `FEEDBACK`, an alias) to what the runtime bound in pass `ctx.pass`. `Ok(None)` means
/// the name is not a RetroArch name at all.
pub fn texture_struct(name: &str, ctx: &PassContext) -> Result<Option<CgTextureStruct>, Unbound> {
    let p = ctx.pass;
    if name == "IN" {
        return Ok(Some(CgTextureStruct::Input));
    }
    if name == "ORIG" {
        return Ok(Some(CgTextureStruct::Texture(Texture::Original)));
    }
    if name == "FEEDBACK" {
        return Ok(Some(CgTextureStruct::Texture(match ctx.feedback_pass {
            Some(f) => Texture::PassFeedback(f),
            None => Texture::Original,
        })));
    }
    if name == "PREV" {
        return Ok(Some(CgTextureStruct::Texture(Texture::OriginalHistory(1))));
    }
    if let Some(k) = numbered(name, "PREV") {
        return if (1..=6).contains(&k) {
            Ok(Some(CgTextureStruct::Texture(Texture::OriginalHistory(k + 1))))
        } else {
            Err(Unbound { message: format!("`{name}`: the Cg runtime bound only PREV and PREV1..PREV6") })
        };
    }
    if let Some(k) = numbered(name, "PASSPREV") {
        return match k {
            0 => Err(Unbound { message: format!("`{name}`: PASSPREV numbering starts at 1") }),
            _ if p == 0 => Err(Unbound {
                message: format!("`{name}` in pass 0: the Cg runtime bound no PASSPREV in the first pass"),
            }),
            k if k <= p => Ok(Some(CgTextureStruct::Texture(Texture::PassOutput(p - k)))),
            k if k == p + 1 => Ok(Some(CgTextureStruct::Texture(Texture::Original))),
            _ => {
                Err(Unbound { message: format!("`{name}` in pass {p}: only PASSPREV1..PASSPREV{} exist here", p + 1) })
            }
        };
    }
    if let Some(k) = numbered(name, "PASS") {
        return match k {
            0 => Err(Unbound {
                message: format!("`{name}`: Cg pass numbering starts at PASS1 (the first pass's output)"),
            }),
            k if k <= p => Ok(Some(CgTextureStruct::Texture(Texture::PassOutput(k - 1)))),
            _ => Err(Unbound {
                message: format!("`{name}` in pass {p}: PASS{k} is the output of pass {} which has not run yet", k - 1),
            }),
        };
    }
    if let Some(i) = ctx.aliases.iter().position(|a| !a.is_empty() && a == name) {
        return if i < p {
            Ok(Some(CgTextureStruct::Texture(Texture::Named(name.to_owned()))))
        } else {
            Err(Unbound { message: format!("`{name}` is the alias of pass {i}, which has not run before pass {p}") })
        };
    }
    Ok(None)
}

/// `PASS12` with prefix `PASS` is `Some(12)`; the suffix must be all digits.
fn numbered(name: &str, prefix: &str) -> Option<usize> {
    let rest = name.strip_prefix(prefix)?;
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    rest.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(pass: usize) -> PassContext {
        PassContext {
            pass,
            passes: 8,
            aliases: vec![
                "FIRST".into(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ],
            feedback_pass: None,
            luts: vec![],
        }
    }

    fn tex(name: &str, pass: usize) -> Texture {
        match texture_struct(name, &ctx(pass)) {
            Ok(Some(CgTextureStruct::Texture(t))) => t,
            other => panic!("{name} in pass {pass}: {other:?}"),
        }
    }

    #[test]
    fn pass_numbering_is_one_based_in_cg() {
        assert_eq!(tex("PASS1", 1), Texture::PassOutput(0));
        // gb-pass-4.cg is shader4 and reads PASS2, the output of 0-based pass 1.
        assert_eq!(tex("PASS2", 4), Texture::PassOutput(1));
        assert!(texture_struct("PASS3", &ctx(2)).is_err(), "not yet rendered");
        assert!(texture_struct("PASS0", &ctx(2)).is_err());
    }

    #[test]
    fn passprev_counts_back_from_the_current_pass() {
        // resolve.cg is shader6 reading PASSPREV4: pass 2.
        assert_eq!(tex("PASSPREV4", 6), Texture::PassOutput(2));
        assert_eq!(tex("PASSPREV1", 3), Texture::PassOutput(2));
        assert_eq!(tex("PASSPREV4", 3), Texture::Original, "k = p + 1 is ORIG");
        assert!(texture_struct("PASSPREV5", &ctx(3)).is_err());
        assert!(texture_struct("PASSPREV1", &ctx(0)).is_err(), "no PASSPREV in pass 0");
    }

    #[test]
    fn history_feedback_and_aliases() {
        assert_eq!(tex("PREV", 0), Texture::OriginalHistory(1));
        assert_eq!(tex("PREV1", 0), Texture::OriginalHistory(2));
        assert_eq!(tex("PREV6", 0), Texture::OriginalHistory(7));
        assert!(texture_struct("PREV7", &ctx(0)).is_err());
        assert_eq!(tex("FEEDBACK", 0), Texture::Original, "no feedback_pass: RetroArch bound ORIG");
        let mut c = ctx(2);
        c.feedback_pass = Some(1);
        assert_eq!(texture_struct("FEEDBACK", &c), Ok(Some(CgTextureStruct::Texture(Texture::PassFeedback(1)))));
        assert_eq!(tex("FIRST", 1), Texture::Named("FIRST".into()));
        assert!(texture_struct("FIRST", &ctx(0)).is_err());
        assert_eq!(texture_struct("decal", &ctx(0)), Ok(None));
        assert_eq!(texture_struct("PASSX", &ctx(1)), Ok(None));
    }
}

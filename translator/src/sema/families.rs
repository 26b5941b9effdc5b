//! The two profile families RetroArch compiled Cg with, and which of them declared each
//! standard-library overload: the GLSL profiles (glslv/glslf, most GPUs) and NVIDIA's
//! gp4/gp5 profiles (gp4vp/gp4fp, gp5vp/gp5fp, NVIDIA GPUs). The answer is measured
//! data, not a rule: `tests/cgc/cg-stdlib-overloads.tsv` (cgc 3.1's own candidate lists,
//! with the profiles each overload is declared for), embedded and read once.
//!
//! [`family_difference`] says where a call's meaning depends on the family: the overload
//! chosen from the union of both (what we translate: "accept what either accepted") is
//! declared in one family only, and the other family resolved the call to another
//! overload or rejected it. Overloads the file does not list (it only lists those that
//! tie for some probe) count as declared in both, so nothing is claimed without data.
//! This module never emits diagnostics and never changes a resolution.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::intrinsics::Overload;
use super::overload::{resolve, Candidate, Resolution};
use super::profile::Profile;
use crate::ir::types::builtin_type;
use crate::ir::{Module, Stage, Type};

/// The measured table (a copy of `shared/reference/cg-stdlib-overloads.tsv`).
const TSV: &str = include_str!("../../tests/cgc/cg-stdlib-overloads.tsv");

/// Which families declared an overload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Families {
    /// glslv/glslf.
    pub glsl: bool,
    /// gp4 (and therefore gp5, which declares everything gp4 does).
    pub gp4: bool,
    /// gp5.
    pub gp5: bool,
}

impl Families {
    const BOTH: Families = Families { glsl: true, gp4: true, gp5: true };

    fn nvidia(self) -> bool {
        self.gp4 || self.gp5
    }

    /// cgc's profile tags (`all`, `glsl`, `ps`, `gp5 gp4 cp50 ...`) to the families that
    /// declare the overload for `stage`.
    fn from_tags(tags: &str, stage: Stage) -> Families {
        let mut f = Families::default();
        for t in tags.split_whitespace() {
            match t {
                // Unannotated, or every fragment (`ps`) / vertex (`vs`) profile.
                "all" => return Families::BOTH,
                "ps" if stage == Stage::Fragment => return Families::BOTH,
                "vs" if stage == Stage::Vertex => return Families::BOTH,
                "glsl" => f.glsl = true,
                "gp4" => {
                    f.gp4 = true;
                    f.gp5 = true;
                }
                "gp5" => f.gp5 = true,
                _ => {}
            }
        }
        f
    }

    fn union(self, o: Families) -> Families {
        Families { glsl: self.glsl || o.glsl, gp4: self.gp4 || o.gp4, gp5: self.gp5 || o.gp5 }
    }

    /// The NVIDIA profiles declaring it, for messages (`gp4/gp5` or `gp5`).
    fn nvidia_name(self, stage: Stage) -> &'static str {
        match (self.gp4, stage) {
            (true, Stage::Vertex) => "gp4vp/gp5vp",
            (true, Stage::Fragment) => "gp4fp/gp5fp",
            (false, Stage::Vertex) => "gp5vp",
            (false, Stage::Fragment) => "gp5fp",
        }
    }
}

/// Per function: parameter types, and the families per stage (vertex, fragment).
type Table = HashMap<&'static str, Vec<(Vec<Type>, [Families; 2])>>;

fn stage_index(stage: Stage) -> usize {
    match stage {
        Stage::Vertex => 0,
        Stage::Fragment => 1,
    }
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut map: Table = HashMap::new();
        for line in TSV.lines().filter(|l| !l.starts_with('#')).skip(1) {
            let mut cols = line.split('\t');
            let (Some(name), Some(_ret), Some(params), Some(tags)) =
                (cols.next(), cols.next(), cols.next(), cols.next())
            else {
                continue;
            };
            // Rows with types the IR does not model (`char`, `isampler2D`) are skipped.
            let Some(params) =
                params.split(',').filter(|p| !p.is_empty()).map(builtin_type).collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            let fam = [Families::from_tags(tags, Stage::Vertex), Families::from_tags(tags, Stage::Fragment)];
            let rows = map.entry(name).or_default();
            match rows.iter_mut().find(|(p, _)| *p == params) {
                Some((_, f)) => *f = [f[0].union(fam[0]), f[1].union(fam[1])],
                None => rows.push((params, fam)),
            }
        }
        map
    })
}

/// The families that declared `name(params)` for `stage`, or `None` when the file does
/// not list it.
pub fn declared_in(name: &str, params: &[Type], stage: Stage) -> Option<Families> {
    table().get(name)?.iter().find(|(p, _)| p == params).map(|(_, f)| f[stage_index(stage)])
}

/// How the family lacking the chosen overload read the call.
#[derive(Clone, Debug, PartialEq)]
pub enum Elsewhere {
    /// It resolved the call to this other overload (an index into the candidates).
    Resolved(usize),
    /// It had no overload for the call, or several tied.
    Rejected,
}

/// A call whose meaning depends on the profile family.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// The profiles that declared the chosen overload (`gp4fp/gp5fp`, `glslf`).
    pub declared: &'static str,
    /// The profiles that did not (`glslf`, `gp5fp`).
    pub other: &'static str,
    pub elsewhere: Elsewhere,
}

/// Where the call `name(args)` that resolved to `candidates[chosen]` (standard-library
/// overloads only) means something else, or nothing, in the other profile family.
pub fn family_difference(
    module: &Module,
    name: &str,
    candidates: &[&Overload],
    chosen: usize,
    args: &[Type],
    profile: &Profile,
) -> Option<Difference> {
    let fams = |o: &Overload| declared_in(name, &o.param_types, profile.stage).unwrap_or(Families::BOTH);
    let got = fams(candidates.get(chosen)?);
    if got.glsl && got.nvidia() {
        return None;
    }
    let glsl_name = match profile.stage {
        Stage::Vertex => "glslv",
        Stage::Fragment => "glslf",
    };
    // The family that lacks the overload, and which candidates it has.
    let (declared, other, keep): (&'static str, &'static str, fn(Families) -> bool) = if got.glsl {
        (glsl_name, Families::BOTH.nvidia_name(profile.stage), Families::nvidia)
    } else if got.nvidia() {
        (got.nvidia_name(profile.stage), glsl_name, |f: Families| f.glsl)
    } else {
        return None;
    };
    let kept: Vec<usize> = (0..candidates.len()).filter(|&i| keep(fams(candidates[i]))).collect();
    let list: Vec<Candidate> = kept
        .iter()
        .map(|&i| Candidate {
            params: &candidates[i].param_types,
            required: candidates[i].param_types.len(),
            profiles: &[],
        })
        .collect();
    let elsewhere = match resolve(module, &list, args, profile) {
        Resolution::Unique(k) => Elsewhere::Resolved(kept[k]),
        Resolution::NoMatch(_) | Resolution::Ambiguous(_) => Elsewhere::Rejected,
    };
    Some(Difference { declared, other, elsewhere })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(name: &str) -> Type {
        builtin_type(name).unwrap_or_else(|| panic!("{name}"))
    }

    #[test]
    fn families_from_cgc_tags() {
        let (v, f) = (Stage::Vertex, Stage::Fragment);
        assert_eq!(Families::from_tags("all", v), Families::BOTH);
        assert_eq!(Families::from_tags("ps ps_2_x", f), Families::BOTH);
        assert_eq!(Families::from_tags("ps ps_2_x", v), Families::default());
        assert_eq!(Families::from_tags("vs generic", v), Families::BOTH);
        assert_eq!(Families::from_tags("glsl", v), Families { glsl: true, gp4: false, gp5: false });
        assert_eq!(Families::from_tags("gp5", f), Families { glsl: false, gp4: false, gp5: true });
        assert_eq!(Families::from_tags("gp4 fpf gpf vpf tpf hpf", v), Families { glsl: false, gp4: true, gp5: true });
        // Fragment profiles of every family, and gp4/gp5 vertex profiles.
        let tags = "ps gp5 gp4 cp50 fp50 vp50 gp50 cpf fpf vpf gpf";
        assert_eq!(Families::from_tags(tags, f), Families::BOTH);
        assert_eq!(Families::from_tags(tags, v), Families { glsl: false, gp4: true, gp5: true });
    }

    #[test]
    fn families_of_measured_overloads() {
        let (v, f) = (Stage::Vertex, Stage::Fragment);
        let both = Some(Families::BOTH);
        assert_eq!(declared_in("abs", &[t("float2")], f), both);
        let gp = declared_in("abs", &[t("int2")], f).expect("listed");
        assert!(gp.gp4 && gp.gp5 && !gp.glsl);
        let fma = declared_in("fma", &[t("float"), t("float"), t("float")], v).expect("listed");
        assert!(fma.gp5 && !fma.gp4 && !fma.glsl);
        let offset = declared_in("tex2D", &[t("sampler2D"), t("float2"), t("int2")], f).expect("listed");
        assert!(offset.gp4 && !offset.glsl);
        // `step(half, half3)`: every fragment profile, but no GLSL vertex profile.
        assert_eq!(declared_in("step", &[t("half"), t("half3")], f), both);
        assert!(!declared_in("step", &[t("half"), t("half3")], v).expect("listed").glsl);
        assert_eq!(declared_in("nosuch", &[t("float")], f), None);
    }
}

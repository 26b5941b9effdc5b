//! Compilation profiles: which stage a profile compiles for, and how profile names on
//! functions (`vs float f()`, `fp40 float f()`) match it, exact or by wildcard.
//!
//! Pure name logic; it never looks at code.

use crate::ir::Stage;

/// The profile an entry point is analysed under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    pub name: String,
    pub stage: Stage,
}

const VERTEX: &[&str] = &[
    "arbvp1", "vp20", "vp30", "vp40", "gp4vp", "gp5vp", "glslv", "hlslv", "vs_1_1", "vs_2_0", "vs_2_x", "vs_3_0",
    "vs_4_0", "vs_5_0",
];
const FRAGMENT: &[&str] = &[
    "arbfp1", "fp20", "fp30", "fp40", "gp4fp", "gp5fp", "glslf", "hlslf", "ps_1_1", "ps_1_2", "ps_1_3", "ps_2_0",
    "ps_2_x", "ps_3_0", "ps_4_0", "ps_5_0",
];
const WILDCARDS: &[&str] =
    &["vs", "ps", "vs_1", "vs_2", "vs_3", "vs_4", "vs_5", "ps_1", "ps_2", "ps_3", "ps_4", "ps_5"];

impl Profile {
    /// Looks a profile up by name (`vp40`, `glslf`, `ps_3_0`).
    pub fn named(name: &str) -> Option<Profile> {
        let stage = if VERTEX.contains(&name) {
            Stage::Vertex
        } else if FRAGMENT.contains(&name) {
            Stage::Fragment
        } else {
            return None;
        };
        Some(Profile { name: name.to_owned(), stage })
    }

    /// The profile used when none is given: RetroArch compiled with the latest profile
    /// of the GPU; we take the GLSL ones, which allow everything the others do.
    pub fn default_for(stage: Stage) -> Profile {
        match stage {
            Stage::Vertex => Profile { name: "glslv".into(), stage },
            Stage::Fragment => Profile { name: "glslf".into(), stage },
        }
    }

    /// How well a profile name written on a function matches this profile: `Exact`,
    /// a wildcard with its specificity (longer is more specific), or `None`.
    pub fn match_spec(&self, spec: &str) -> Match {
        if spec == self.name {
            return Match::Exact;
        }
        if !WILDCARDS.contains(&spec) {
            return Match::None;
        }
        let stage_prefix = match self.stage {
            Stage::Vertex => "vs",
            Stage::Fragment => "ps",
        };
        if spec == stage_prefix || (self.name.starts_with(spec) && self.name[spec.len()..].starts_with('_')) {
            Match::Wildcard(spec.len())
        } else {
            Match::None
        }
    }
}

/// True when `name` is a profile or wildcard Cg knows.
pub fn is_profile_name(name: &str) -> bool {
    VERTEX.contains(&name) || FRAGMENT.contains(&name) || WILDCARDS.contains(&name)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Match {
    None,
    Wildcard(usize),
    Exact,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_their_stage_only() {
        let vp = Profile::named("vs_2_0").unwrap();
        assert_eq!(vp.match_spec("vs_2_0"), Match::Exact);
        assert_eq!(vp.match_spec("vs"), Match::Wildcard(2));
        assert_eq!(vp.match_spec("vs_2"), Match::Wildcard(4));
        assert_eq!(vp.match_spec("vs_1"), Match::None);
        assert_eq!(vp.match_spec("ps"), Match::None);
        assert!(vp.match_spec("vs_2") > vp.match_spec("vs"));
        let fp = Profile::named("fp40").unwrap();
        assert_eq!(fp.match_spec("ps"), Match::Wildcard(2));
        assert_eq!(fp.match_spec("fp30"), Match::None);
        assert_eq!(Profile::named("nope"), None);
    }
}

//! Compilation profiles: which kind of program (domain) a profile compiles, and how
//! profile names on functions (`vs float f()`, `fp40 float f()`) match it, exact or by
//! wildcard.
//!
//! Cg 3.1 had five domains: vertex, fragment, geometry (gp4gp, gp5gp, glslg, gs_4_0,
//! gs_5_0) and tessellation control and evaluation (gp5tcp, gp5tep, hs_5_0, ds_5_0).
//! Slang passes have only the first two ([`Stage`]); a geometry or tessellation profile
//! is analysed with the vertex stage's library rules (no derivatives, no `discard`) and
//! its programs never reach the porting passes.
//!
//! Pure name logic; it never looks at code.

use crate::ir::Stage;

/// The profile an entry point is analysed under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    pub name: String,
    /// The slang stage whose library rules apply (`Vertex` for geometry and
    /// tessellation profiles, see the module documentation).
    pub stage: Stage,
    pub domain: Domain,
}

/// The kind of program a Cg profile compiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Domain {
    Vertex,
    Fragment,
    Geometry,
    TessControl,
    TessEval,
}

impl Domain {
    pub fn name(self) -> &'static str {
        match self {
            Domain::Vertex => "vertex",
            Domain::Fragment => "fragment",
            Domain::Geometry => "geometry",
            Domain::TessControl => "tessellation control",
            Domain::TessEval => "tessellation evaluation",
        }
    }

    /// Profiles of this domain, for messages.
    pub fn example_profiles(self) -> &'static str {
        match self {
            Domain::Vertex => "glslv, vp40, arbvp1, vs_3_0",
            Domain::Fragment => "glslf, fp40, arbfp1, ps_3_0",
            Domain::Geometry => "gp4gp, gp5gp, glslg, gs_4_0",
            Domain::TessControl => "gp5tcp, hs_5_0",
            Domain::TessEval => "gp5tep, ds_5_0",
        }
    }
}

const VERTEX: &[&str] = &[
    "arbvp1", "vp20", "vp30", "vp40", "gp4vp", "gp5vp", "glslv", "hlslv", "vs_1_1", "vs_2_0", "vs_2_x", "vs_3_0",
    "vs_4_0", "vs_5_0",
];
const FRAGMENT: &[&str] = &[
    "arbfp1", "fp20", "fp30", "fp40", "gp4fp", "gp5fp", "glslf", "hlslf", "ps_1_1", "ps_1_2", "ps_1_3", "ps_2_0",
    "ps_2_x", "ps_3_0", "ps_4_0", "ps_5_0",
];
const GEOMETRY: &[&str] = &["gp4gp", "gp5gp", "glslg", "gs_4_0", "gs_5_0"];
const TESS_CONTROL: &[&str] = &["gp5tcp", "hs_5_0"];
const TESS_EVAL: &[&str] = &["gp5tep", "ds_5_0"];
const WILDCARDS: &[&str] =
    &["vs", "ps", "vs_1", "vs_2", "vs_3", "vs_4", "vs_5", "ps_1", "ps_2", "ps_3", "ps_4", "ps_5"];

impl Profile {
    /// Looks a profile up by name (`vp40`, `glslf`, `ps_3_0`).
    pub fn named(name: &str) -> Option<Profile> {
        let domain = if VERTEX.contains(&name) {
            Domain::Vertex
        } else if FRAGMENT.contains(&name) {
            Domain::Fragment
        } else if GEOMETRY.contains(&name) {
            Domain::Geometry
        } else if TESS_CONTROL.contains(&name) {
            Domain::TessControl
        } else if TESS_EVAL.contains(&name) {
            Domain::TessEval
        } else {
            return None;
        };
        let stage = if domain == Domain::Fragment { Stage::Fragment } else { Stage::Vertex };
        Some(Profile { name: name.to_owned(), stage, domain })
    }

    /// The profile used when none is given: RetroArch compiled with the latest profile
    /// of the GPU; we take the GLSL ones, which allow everything the others do.
    pub fn default_for(stage: Stage) -> Profile {
        match stage {
            Stage::Vertex => Profile { name: "glslv".into(), stage, domain: Domain::Vertex },
            Stage::Fragment => Profile { name: "glslf".into(), stage, domain: Domain::Fragment },
        }
    }

    /// The profile an entry of `domain` is analysed under when none is given: the GLSL
    /// ones for vertex and fragment programs, gp5gp (which takes primitives and patches),
    /// gp5tcp and gp5tep for the others.
    pub fn default_for_domain(domain: Domain) -> Profile {
        let name = match domain {
            Domain::Vertex => "glslv",
            Domain::Fragment => "glslf",
            Domain::Geometry => "gp5gp",
            Domain::TessControl => "gp5tcp",
            Domain::TessEval => "gp5tep",
        };
        let stage = if domain == Domain::Fragment { Stage::Fragment } else { Stage::Vertex };
        Profile { name: name.to_owned(), stage, domain }
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
        let stage_prefix = match self.domain {
            Domain::Vertex => "vs",
            Domain::Fragment => "ps",
            // The `vs`/`ps` wildcards name vertex and fragment profiles only.
            Domain::Geometry | Domain::TessControl | Domain::TessEval => return Match::None,
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
    Profile::named(name).is_some() || WILDCARDS.contains(&name)
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

    #[test]
    fn geometry_and_tessellation_profiles_have_their_domains() {
        for (name, domain) in [
            ("gp4gp", Domain::Geometry),
            ("gp5gp", Domain::Geometry),
            ("gs_4_0", Domain::Geometry),
            ("gp5tcp", Domain::TessControl),
            ("hs_5_0", Domain::TessControl),
            ("gp5tep", Domain::TessEval),
            ("ds_5_0", Domain::TessEval),
        ] {
            let p = Profile::named(name).unwrap();
            assert_eq!((p.domain, p.stage), (domain, Stage::Vertex), "{name}");
            assert!(is_profile_name(name));
            // The vertex wildcards never select a function for these profiles.
            assert_eq!(p.match_spec("vs"), Match::None);
            assert_eq!(p.match_spec(name), Match::Exact);
        }
        assert_eq!(Profile::named("glslf").unwrap().domain, Domain::Fragment);
        assert_eq!(Profile::default_for(Stage::Vertex).domain, Domain::Vertex);
        for d in [Domain::Vertex, Domain::Fragment, Domain::Geometry, Domain::TessControl, Domain::TessEval] {
            let p = Profile::default_for_domain(d);
            assert_eq!(Profile::named(&p.name), Some(p.clone()), "{d:?}");
            assert_eq!(p.domain, d);
        }
    }
}

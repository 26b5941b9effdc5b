//! Overload resolution: the Cg spec's seven steps, for user functions and the standard
//! library alike.
//!
//! Callers describe each candidate by its formal parameter types, how many of them are
//! required (the rest have defaults), and its profile names; [`resolve`] returns the
//! winner or why there is none. It never builds IR and never emits diagnostics.
//!
//! Our reading of two points the spec leaves open, both needed for real code:
//! * An untyped constant (`cint`/`cfloat`) promotes to every numeric type, which would
//!   make `pow(2.0, x)` ambiguous. Before step 5c, a constant argument prefers the
//!   candidates whose formal is its default type (`int`/`float`) of the same shape.
//! * Within step 5d, a conversion that keeps the argument's shape beats one that
//!   changes it (NVIDIA's compiler resolved `lerp(float3, float3, bool)` and
//!   `mul(half3x3, float3)`, which the plain rule leaves ambiguous).
//! * A user function whose parameter types equal a standard-library overload's replaces
//!   that overload (the caller removes the library one before resolving).

use super::convert::{classify, is_promotion};
use super::profile::{Match, Profile};
use crate::ir::{Module, Type};

pub struct Candidate<'a> {
    pub params: &'a [Type],
    /// Parameters without a default value.
    pub required: usize,
    pub profiles: &'a [String],
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    Unique(usize),
    /// No candidate survives; the step that emptied the set is named for messages.
    NoMatch(&'static str),
    /// Several remain after step 6 (indices into the candidate list).
    Ambiguous(Vec<usize>),
}

fn is_dynamic_compatible(module: &Module, arg: Type, formal: Type) -> bool {
    match (arg, formal) {
        (Type::Struct(s), Type::Interface(i)) => implements(module, s, i),
        (Type::Array(a), Type::Array(f)) => {
            let (a, f) = (module.array_type(a), module.array_type(f));
            f.len.is_none() && classify(module, a.elem, f.elem).implicit_ok()
        }
        _ => false,
    }
}

/// Whether struct `s` implements interface `i`, directly or through the interface's bases.
pub fn implements(module: &Module, s: crate::ir::StructId, i: crate::ir::InterfaceId) -> bool {
    let mut next = module.struct_def(s).implements;
    let mut steps = 0;
    while let Some(x) = next {
        if x == i {
            return true;
        }
        next = module.interface(x).base;
        steps += 1;
        if steps > 64 {
            break;
        }
    }
    false
}

fn same_shape(a: Type, b: Type) -> bool {
    a.scalar().is_some() && a.with_scalar(crate::ir::Scalar::Float) == b.with_scalar(crate::ir::Scalar::Float)
}

/// Runs the seven steps.
pub fn resolve(module: &Module, candidates: &[Candidate<'_>], args: &[Type], profile: &Profile) -> Resolution {
    // Step 1 is the caller's: `candidates` holds every visible function of the name.
    // Step 2: profile conflicts.
    let mut set: Vec<usize> = (0..candidates.len())
        .filter(|&i| {
            let c = &candidates[i];
            c.profiles.is_empty() || c.profiles.iter().any(|p| profile.match_spec(p) != Match::None)
        })
        .collect();
    if set.is_empty() {
        return Resolution::NoMatch("no version of this function exists for the profile");
    }
    // Step 3: arity, with defaults.
    set.retain(|&i| {
        let c = &candidates[i];
        args.len() <= c.params.len() && args.len() >= c.required
    });
    // Step 4.
    if set.is_empty() {
        return Resolution::NoMatch("no overload takes this number of arguments");
    }
    // Step 5: argument by argument.
    for (k, &arg) in args.iter().enumerate() {
        let formal = |i: usize| candidates[i].params[k];
        let keep = |set: &mut Vec<usize>, pred: &dyn Fn(Type) -> bool| -> bool {
            if set.iter().any(|&i| pred(formal(i))) {
                set.retain(|&i| pred(formal(i)));
                true
            } else {
                false
            }
        };
        // a. exact match of the unqualified type
        if keep(&mut set, &|f| f == arg) {
            continue;
        }
        // b. dynamically typed formals (interfaces, unsized arrays)
        if keep(&mut set, &|f| is_dynamic_compatible(module, arg, f)) {
            continue;
        }
        // (our reading) a constant prefers its default type
        if arg.scalar().is_some_and(|s| s.is_compile_time()) && keep(&mut set, &|f| f == arg.concrete()) {
            continue;
        }
        // c. promotions
        if keep(&mut set, &|f| is_promotion(arg, f)) {
            continue;
        }
        // (our reading) an implicit cast that keeps the shape beats one that smears,
        // truncates or reshapes: `lerp(v, v, b)` with `bool b` takes the scalar-t form,
        // `mul(half3x3, float3)` the matrix-vector form.
        if keep(&mut set, &|f| same_shape(arg, f) && classify(module, arg, f).implicit_ok()) {
            continue;
        }
        // d. implicit casts
        if keep(&mut set, &|f| classify(module, arg, f).implicit_ok()) {
            continue;
        }
        // e.
        return Resolution::NoMatch("an argument converts to no overload's parameter");
    }
    // Step 6: profile specificity.
    let best = set
        .iter()
        .map(|&i| candidates[i].profiles.iter().map(|p| profile.match_spec(p)).max().unwrap_or(Match::None))
        .max()
        .unwrap_or(Match::None);
    if best != Match::None {
        set.retain(|&i| candidates[i].profiles.iter().any(|p| profile.match_spec(p) == best));
    }
    // Step 7.
    match set.as_slice() {
        [one] => Resolution::Unique(*one),
        _ => Resolution::Ambiguous(set),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Scalar::*, Stage};

    fn res(cands: &[(&[Type], usize, &[String])], args: &[Type], profile: &str) -> Resolution {
        let m = Module::default();
        let cs: Vec<Candidate> =
            cands.iter().map(|(p, r, pr)| Candidate { params: p, required: *r, profiles: pr }).collect();
        resolve(&m, &cs, args, &Profile::named(profile).unwrap())
    }

    const F: Type = Type::FLOAT;
    const H: Type = Type::Scalar(Half);
    const I: Type = Type::INT;
    const CF: Type = Type::Scalar(CFloat);
    const CI: Type = Type::Scalar(CInt);

    #[test]
    fn step2_profile_conflict_removes_candidates() {
        let vs = vec!["vs".to_owned()];
        let ps = vec!["ps".to_owned()];
        let r = res(&[(&[F], 1, &vs), (&[F], 1, &ps)], &[F], "fp40");
        assert_eq!(r, Resolution::Unique(1));
    }

    #[test]
    fn step3_arity_counts_defaults() {
        let r = res(&[(&[F, F], 1, &[]), (&[F, F, F], 3, &[])], &[F], "fp40");
        assert_eq!(r, Resolution::Unique(0));
        let r = res(&[(&[F, F], 2, &[])], &[F], "fp40");
        assert!(matches!(r, Resolution::NoMatch(_)));
    }

    #[test]
    fn step5a_exact_beats_conversion() {
        // f(half) and f(float) with a half argument: exact wins even though both convert.
        assert_eq!(res(&[(&[F], 1, &[]), (&[H], 1, &[])], &[H], "fp40"), Resolution::Unique(1));
    }

    #[test]
    fn step5c_promotion_beats_implicit_cast() {
        // half -> float is a promotion; half -> int is only an implicit cast.
        assert_eq!(res(&[(&[I], 1, &[]), (&[F], 1, &[])], &[H], "fp40"), Resolution::Unique(1));
    }

    #[test]
    fn step5d_implicit_cast_when_nothing_better() {
        let v3 = Type::vec(Float, 3);
        let v2 = Type::vec(Float, 2);
        // float4 -> float3 truncates (allowed with warning), float4 -> float2x2 reshapes
        // (also allowed with warning): both survive step 5d, so the call is ambiguous.
        let m22 = Type::mat(Float, 2, 2);
        let r = res(&[(&[v3], 1, &[]), (&[m22], 1, &[])], &[Type::vec(Float, 4)], "fp40");
        assert_eq!(r, Resolution::Ambiguous(vec![0, 1]));
        // float3 cannot become float4, so only the float2 candidate (truncation) remains.
        let r = res(&[(&[Type::vec(Float, 4)], 1, &[]), (&[v2], 1, &[])], &[v3], "fp40");
        assert_eq!(r, Resolution::Unique(1));
    }

    #[test]
    fn step5e_fails_when_no_conversion() {
        let r = res(&[(&[Type::vec(Float, 4)], 1, &[])], &[Type::vec(Float, 2)], "fp40");
        assert!(matches!(r, Resolution::NoMatch(_)));
    }

    #[test]
    fn arguments_are_considered_left_to_right() {
        // f(float, int) vs f(int, float) with (float, float): arg 0 exact keeps the first.
        assert_eq!(res(&[(&[F, I], 2, &[]), (&[I, F], 2, &[])], &[F, F], "fp40"), Resolution::Unique(0));
    }

    #[test]
    fn constants_prefer_their_default_type() {
        assert_eq!(res(&[(&[H], 1, &[]), (&[F], 1, &[]), (&[I], 1, &[])], &[CF], "fp40"), Resolution::Unique(1));
        assert_eq!(res(&[(&[H], 1, &[]), (&[F], 1, &[]), (&[I], 1, &[])], &[CI], "fp40"), Resolution::Unique(2));
        // With only half available, the constant promotes to it.
        assert_eq!(res(&[(&[H], 1, &[]), (&[I], 1, &[])], &[CF], "fp40"), Resolution::Unique(0));
    }

    #[test]
    fn step6_exact_profile_then_most_specific_wildcard_then_open() {
        let exact = vec!["vs_2_0".to_owned()];
        let vs2 = vec!["vs_2".to_owned()];
        let vs = vec!["vs".to_owned()];
        let c: [(&[Type], usize, &[String]); 4] = [(&[F], 1, &[]), (&[F], 1, &vs), (&[F], 1, &vs2), (&[F], 1, &exact)];
        assert_eq!(res(&c, &[F], "vs_2_0"), Resolution::Unique(3));
        assert_eq!(res(&c[..3], &[F], "vs_2_0"), Resolution::Unique(2));
        assert_eq!(res(&c[..2], &[F], "vs_2_0"), Resolution::Unique(1));
        assert_eq!(res(&c[..2], &[F], "fp40"), Resolution::Unique(0));
        assert_eq!(Profile::named("vs_2_0").map(|p| p.stage), Some(Stage::Vertex));
    }

    #[test]
    fn step7_ambiguity_is_reported() {
        assert_eq!(res(&[(&[F], 1, &[]), (&[F], 1, &[])], &[F], "fp40"), Resolution::Ambiguous(vec![0, 1]));
    }
}

//! The standard-library table against NVIDIA's compiler: every overload cgc 3.1 declares
//! (`shared/reference/cg-stdlib-overloads.tsv`, extracted from its own candidate lists in
//! glslf, glslv, gp5fp and gp5vp) must exist in `translator::sema::intrinsics` with the
//! same parameter types and return type, and every argument shape cgc resolved to exactly
//! one overload (`cg-stdlib-probe-unique.tsv`) must resolve here to a call returning what
//! cgc returned in one of the profiles RetroArch used.
//!
//! What the table does not model yet is named below, function by function, with the
//! reason ([`GAPS`]); the test fails when a gap closes without its entry being removed,
//! so the list stays exact. Rows whose types Cg has but the IR does not model (`char`,
//! `short`, `long`, integer and array samplers) are counted, not compared.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use translator::ir::types::builtin_type;
use translator::ir::{Module, SamplerDim, Scalar, Stage, Type};
use translator::sema::intrinsics::{self, Overload};
use translator::sema::overload::{resolve, Candidate, Resolution};
use translator::sema::profile::Profile;

/// Functions with overload rows our table does not have yet, and why.
const GAPS: &[(&str, &str)] = &[(
    "tex2Dgather",
    "the shadow-compare (float3) and four-offset (int4, int4) forms: what cgc computed is not measured",
)];

fn reference(name: &str) -> PathBuf {
    // The measured tables, kept in the repository (tests/cgc/README.md says where from).
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cgc").join(name);
    assert!(p.is_file(), "{} is missing", p.display());
    p
}

fn rows(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(reference(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1) // the header
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

/// A type our IR models for the standard library, or `None` (counted as not modelled).
fn modelled(text: &str) -> Option<Type> {
    let t = builtin_type(text.trim())?;
    let ok = match t {
        Type::Sampler(d) => d != SamplerDim::Any,
        Type::Void => true,
        _ => t.scalar().is_some_and(|s| {
            matches!(
                s,
                Scalar::Float
                    | Scalar::Half
                    | Scalar::Fixed
                    | Scalar::Double
                    | Scalar::Int
                    | Scalar::UInt
                    | Scalar::Bool
            )
        }),
    };
    ok.then_some(t)
}

fn ours(name: &str) -> Vec<&'static Overload> {
    let cg = intrinsics::overloads(name).unwrap_or_default();
    let glsl = intrinsics::glsl_overloads(name).unwrap_or_default();
    cg.iter().chain(glsl).collect()
}

fn gap(name: &str) -> bool {
    GAPS.iter().any(|(g, _)| *g == name)
}

#[test]
fn stdlib_table_declares_every_cgc_overload() {
    let rows = rows("cg-stdlib-overloads.tsv");
    assert!(rows.len() > 2000, "cg-stdlib-overloads.tsv has only {} rows", rows.len());
    let mut compared = 0;
    let mut not_modelled = 0;
    let mut missing: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut wrong = Vec::new();
    // Signatures cgc declares, per function (to check our extra matrix forms).
    let mut declared: BTreeSet<(String, Vec<Type>)> = BTreeSet::new();
    for row in &rows {
        let [name, ret, params, ..] = row.as_slice() else { panic!("short row {row:?}") };
        let params: Option<Vec<Type>> = params.split(',').filter(|p| !p.is_empty()).map(modelled).collect();
        let (Some(ret), Some(params)) = (modelled(ret), params) else {
            not_modelled += 1;
            continue;
        };
        compared += 1;
        declared.insert((name.clone(), params.clone()));
        match ours(name).into_iter().find(|o| o.param_types == params) {
            Some(o) if o.ret == ret => {}
            Some(o) => wrong.push(format!("{name}{params:?}: cgc returns {ret}, ours {}", o.ret)),
            None => missing.entry(name.clone()).or_default().push(format!("{ret} {name}{params:?}")),
        }
    }
    assert!(wrong.is_empty(), "return types differ from cgc's:\n{}", wrong.join("\n"));
    let unexpected: Vec<String> =
        missing.iter().filter(|(n, _)| !gap(n)).flat_map(|(_, l)| l.iter().cloned()).collect();
    assert!(unexpected.is_empty(), "cgc declares overloads our table lacks:\n{}", unexpected.join("\n"));
    let closed: Vec<&str> = GAPS.iter().map(|(g, _)| *g).filter(|g| !missing.contains_key(*g)).collect();
    assert!(closed.is_empty(), "gaps now closed, remove them from GAPS: {closed:?}");
    // The other way: a function cgc declares without any matrix form has none here
    // either (cgc has no component-wise matrix functions: `sin(float2x2)` is an error
    // there). The matrix functions' own half/fixed forms tie in no probe, so the file
    // cannot say whether cgc has them; they stay.
    let is_matrix = |t: &Type| matches!(t, Type::Matrix { .. });
    let names: BTreeSet<&String> = declared.iter().map(|(n, _)| n).collect();
    let mut extra = Vec::new();
    for name in names {
        if declared.iter().any(|(n, p)| n == name && p.iter().any(is_matrix)) {
            continue;
        }
        for o in ours(name) {
            if o.param_types.iter().any(is_matrix) {
                extra.push(format!("{name}{:?}", o.param_types));
            }
        }
    }
    assert!(extra.is_empty(), "matrix forms cgc does not declare:\n{}", extra.join("\n"));
    println!("compared {compared} rows, {not_modelled} use types the IR does not model");
}

/// `glslf:half4 | gp5fp:half4 [casts ...]` to (profile, return type) pairs.
fn answers(field: &str) -> Vec<(String, String)> {
    field
        .split('|')
        .filter_map(|a| {
            let (p, r) = a.trim().split_once(':')?;
            let r = r.split_whitespace().next()?;
            Some((p.to_owned(), r.to_owned()))
        })
        .collect()
}

#[test]
fn stdlib_table_resolves_probe_shapes_as_cgc() {
    let rows = rows("cg-stdlib-probe-unique.tsv");
    assert!(rows.len() > 7000, "cg-stdlib-probe-unique.tsv has only {} rows", rows.len());
    let module = Module::default();
    let mut agree = 0;
    let mut differ: BTreeMap<String, usize> = BTreeMap::new();
    let mut unexpected: Vec<String> = Vec::new();
    for row in &rows {
        let [name, shapes, results, ..] = row.as_slice() else { panic!("short row {row:?}") };
        let Some(args) = shapes.split(',').map(modelled).collect::<Option<Vec<Type>>>() else { continue };
        let list = ours(name);
        if list.is_empty() {
            continue; // a function not in our table: the declaration test names it
        }
        for stage in [Stage::Vertex, Stage::Fragment] {
            let want: Vec<String> = answers(results)
                .into_iter()
                .filter(|(p, _)| {
                    p.ends_with(if stage == Stage::Vertex { "vp" } else { "fp" })
                        || p.ends_with(if stage == Stage::Vertex { 'v' } else { 'f' })
                })
                .map(|(_, r)| r)
                .collect();
            if want.is_empty() {
                continue;
            }
            let profile = Profile::default_for(stage);
            let candidates: Vec<Candidate> = list
                .iter()
                .map(|o| Candidate { params: &o.param_types, required: o.param_types.len(), profiles: &[] })
                .collect();
            let got = match resolve(&module, &candidates, &args, &profile) {
                Resolution::Unique(i) => Ok(list[i].ret),
                Resolution::NoMatch(_) => Err("no match"),
                Resolution::Ambiguous(_) => Err("ambiguous"),
            };
            // RetroArch ran glsl* or gp5*: either profile family's answer is Cg's meaning.
            if want.iter().any(|w| got.is_ok_and(|t| modelled(w) == Some(t))) {
                agree += 1;
            } else if let Some(why) = probe_gap(name, &args, got) {
                *differ.entry(why).or_default() += 1;
            } else {
                let got = got.map_or_else(str::to_owned, |t| t.to_string());
                unexpected.push(format!("{name}({shapes}) in {stage:?}: cgc {want:?}, ours {got}"));
            }
        }
    }
    assert!(unexpected.is_empty(), "{agree} probe calls agree; these differ:\n{}", unexpected.join("\n"));
    assert!(agree >= 4030, "only {agree} probe calls agree");
    println!("{agree} probe calls agree with cgc; known differences: {differ:?}");
}

/// Why a probe call may still resolve differently from cgc, or `None` when it must not.
fn probe_gap(name: &str, args: &[Type], got: Result<Type, &str>) -> Option<String> {
    if gap(name) {
        return Some(format!("{name}: table gap"));
    }
    if let Some((_, why)) = PROBE_GAPS.iter().find(|(g, _)| *g == name) {
        return Some(format!("{name}: {why}"));
    }
    if got == Err("ambiguous") && args.iter().all(|t| !t.scalar().is_some_and(Scalar::is_floating)) {
        // cgc ranks the conversions of int/uint/bool variables to the float family and
        // picks one (float, half or double, by declaration order); our resolver leaves
        // them tied and reports E0313: an error, never a different meaning.
        return Some("int/bool variable to a float-family function: ambiguous here".into());
    }
    let sizes: BTreeSet<u8> =
        args.iter().filter_map(|t| if let Type::Vector(_, n) = t { Some(*n) } else { None }).collect();
    if sizes.len() > 1 && got == Err("no match") {
        // cgc truncates to the narrowest overload; we resolve left to right.
        return Some("vector arguments of different sizes".into());
    }
    if args.iter().any(|t| matches!(t, Type::Matrix { .. })) {
        // cgc casts a matrix argument to a scalar parameter (C7011); we do not.
        return Some("matrix argument cast to a scalar".into());
    }
    if name.starts_with("tex") && args.len() >= 3 {
        // The gp4 texel-offset forms of tex1D/tex2D/texRECT(proj) are modelled; cgc's
        // other multi-argument forms (bias or lod as separate arguments, tex3D offsets)
        // and GLSL's texelFetchOffset with int coordinates are not.
        return Some("multi-argument texture forms not modelled".into());
    }
    None
}

/// Functions whose probe calls resolve differently for a reason of their own.
const PROBE_GAPS: &[(&str, &str)] = &[
    ("tex1Dfetch", "fetch with a coordinate shorter than int4 (cgc has such forms)"),
    ("tex2Dfetch", "fetch with a coordinate shorter than int4 (cgc has such forms)"),
    ("texRECTfetch", "fetch with a coordinate shorter than int4 (cgc has such forms)"),
    ("texCUBE", "an int coordinate: cgc picks the float3 form, ours is ambiguous"),
    ("determinant", "a vector reshaped to a square matrix argument"),
];

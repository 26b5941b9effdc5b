//! Unit tests of the writer's own invariants.

use super::*;
use crate::ir::Scalar;

#[test]
fn a_type_without_a_glsl_name_is_an_internal_error_not_an_empty_name() {
    let (m, b, c, layout) = (Module::default(), Bindings::default(), Connectors::default(), Layout::default());
    let mut w = StageWriter::new(&m, Stage::Fragment, &b, &c, &layout, StagePlan::default(), Dialect::Canonical);
    assert_eq!(w.type_name(Type::Vector(Scalar::Float, 3)), "vec3");
    assert!(w.take_diagnostics().is_empty());
    // float1x3 has no GLSL spelling (the porting passes rewrite it first).
    let odd = Type::Matrix { scalar: Scalar::Float, rows: 1, cols: 3 };
    assert_eq!(w.type_name(odd), "");
    assert_eq!(w.type_name(odd), "");
    assert_eq!(w.struct_name(crate::ir::StructId(7)), "");
    let d = w.take_diagnostics();
    assert_eq!(d.len(), 2, "one error per unnamed thing: {d:?}");
    assert!(d.iter().all(|d| d.code == codes::E_WRITER_INTERNAL && d.is_error()));
    assert!(d.iter().any(|d| d.message.contains("Matrix")) && d.iter().any(|d| d.message.contains("struct #7")));
    assert!(w.take_diagnostics().is_empty(), "taken once");
}

#[test]
fn a_uniform_read_the_plan_did_not_count_is_an_internal_error() {
    let (m, b, c) = (Module::default(), Bindings::default(), Connectors::default());
    let layout = Layout { push: vec![Uniform::OutputSize], ubo: vec![Uniform::Mvp] };
    let mut plan = StagePlan::default();
    plan.uniform_reads.insert(Uniform::OutputSize, 1);
    let mut w = StageWriter::new(&m, Stage::Fragment, &b, &c, &layout, plan, Dialect::Canonical);
    assert_eq!(w.uniform(Uniform::OutputSize), "params.OutputSize");
    assert!(w.take_diagnostics().is_empty(), "printed as planned");
    assert_eq!(w.uniform(Uniform::Mvp), "global.MVP");
    let d = w.take_diagnostics();
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].code == codes::E_WRITER_INTERNAL && d[0].message.contains("planned"), "{d:?}");
}

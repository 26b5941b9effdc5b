//! Unit tests of the writer's own invariants.

use super::*;
use crate::ir::Scalar;

#[test]
fn a_type_without_a_glsl_name_is_an_internal_error_not_an_empty_name() {
    let (m, b, c) = (Module::default(), Bindings::default(), Connectors::default());
    let mut w = StageWriter::new(&m, Stage::Fragment, &b, &c, false);
    assert_eq!(w.type_name(Type::Vector(Scalar::Float, 3)), "vec3");
    assert!(w.take_diagnostics().is_empty());
    // float1x3 has no GLSL spelling (the porting passes rewrite it first).
    let odd = Type::Matrix { scalar: Scalar::Float, rows: 1, cols: 3 };
    assert_eq!(w.type_name(odd), "");
    assert_eq!(w.type_name(odd), "");
    assert_eq!(w.struct_name(7), "");
    let d = w.take_diagnostics();
    assert_eq!(d.len(), 2, "one error per unnamed thing: {d:?}");
    assert!(d.iter().all(|d| d.code == codes::E_WRITER_INTERNAL && d.is_error()));
    assert!(d.iter().any(|d| d.message.contains("Matrix")) && d.iter().any(|d| d.message.contains("struct #7")));
    assert!(w.take_diagnostics().is_empty(), "taken once");
}

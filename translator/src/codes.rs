//! Stable diagnostic codes of the translator (E03xx/W03xx: semantic analysis).
//!
//! A code never changes meaning once released. Constants only.

/// A name that is not declared.
pub const E_UNDECLARED: &str = "E0301";
/// A type name that is not declared or malformed.
pub const E_UNKNOWN_TYPE: &str = "E0302";
/// A value that cannot be converted to the required type (even with a cast).
pub const E_TYPE_MISMATCH: &str = "E0303";
/// A conversion that needs an explicit cast.
pub const E_NEEDS_CAST: &str = "E0304";
/// No overload matches the arguments.
pub const E_NO_OVERLOAD: &str = "E0305";
/// More than one overload matches equally well.
pub const E_AMBIGUOUS_OVERLOAD: &str = "E0306";
/// An operator applied to operands it does not accept.
pub const E_BAD_OPERANDS: &str = "E0307";
/// A swizzle, matrix swizzle or field that does not exist.
pub const E_BAD_MEMBER: &str = "E0308";
/// An assignment target that is not an lvalue, or a write mask repeating a component.
pub const E_NOT_LVALUE: &str = "E0309";
/// A name declared twice in one scope.
pub const E_REDECLARED: &str = "E0310";
/// An expression that must be a compile-time constant and is not.
pub const E_NOT_CONSTANT: &str = "E0311";
/// Wrong number of constructor components or initialiser elements.
pub const E_BAD_CONSTRUCTOR: &str = "E0312";
/// `break`/`continue` outside a loop or switch, `return` with the wrong value, `case` outside switch.
pub const E_BAD_CONTROL_FLOW: &str = "E0313";
/// The requested entry point does not exist or is not a function.
pub const E_NO_ENTRY_POINT: &str = "E0314";
/// A construct the entry point's profile does not allow (e.g. `ddx` in a vertex program).
pub const E_PROFILE: &str = "E0315";
/// Calling something that is not a function; wrong argument for an `out` parameter.
pub const E_BAD_CALL: &str = "E0316";
/// An interface method not implemented, or a struct deriving from a non-interface.
pub const E_BAD_INTERFACE: &str = "E0317";
/// Recursion (Cg forbids it).
pub const E_RECURSION: &str = "E0318";
/// A declaration that is not allowed where it is (e.g. a sampler local variable).
pub const E_BAD_DECLARATION: &str = "E0319";

/// An implicit conversion that loses components (vector/matrix truncation, vector to scalar).
pub const W_TRUNCATION: &str = "W0301";
/// An implicit conversion between a vector and a matrix of the same size.
pub const W_RESHAPE: &str = "W0302";
/// An implicit conversion that may lose precision (e.g. float to int).
pub const W_PRECISION: &str = "W0303";
/// A qualifier that is ignored where it is written.
pub const W_IGNORED_QUALIFIER: &str = "W0304";
/// A variable declared but used before any assignment (Cg allows it; the value is undefined).
pub const W_UNINITIALIZED: &str = "W0305";

// ---- porting (E04xx / W04xx) ----
/// A Cg name the RetroArch runtime would not have bound in this pass (PASSPREV in pass 0, an unknown sampler, ...).
pub const E_UNBOUND_NAME: &str = "E0401";
/// A Cg construct the slang output cannot express (yet), e.g. a texture struct passed whole.
pub const E_UNSUPPORTED: &str = "E0402";
/// Varyings that do not link: a fragment input no vertex output provides, types that differ.
pub const E_VARYING: &str = "E0403";
/// More uniforms than a push block and a UBO can hold, or a parameter declared twice differently.
pub const E_UNIFORMS: &str = "E0404";
/// A sampler without a TEXUNIT semantic taken as the pass input.
pub const W_ASSUMED_SOURCE: &str = "W0401";
/// A uniform the runtime never set, emitted as a constant with its initial value.
pub const W_UNBOUND_UNIFORM: &str = "W0402";
/// A fragment input that no vertex output writes (undefined in Cg; zero in the output).
pub const W_UNLINKED_VARYING: &str = "W0403";
/// Reading the fragment position (WPOS/VPOS): GL framebuffers were bottom-up, slang's are top-down.
pub const W_FRAG_COORD: &str = "W0404";

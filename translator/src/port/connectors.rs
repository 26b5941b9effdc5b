//! Porting pass: connector flattening.
//!
//! Cg programs exchange data through semantics on entry parameters, return values and
//! the fields of connector structs. slang wants one `layout(location = n)` variable per
//! varying, `Position` (location 0) and `TexCoord` (location 1) as the only vertex
//! inputs, `gl_Position`, and one `FragColor` output. This pass lists every slot of both
//! entry points, links fragment inputs to vertex outputs by semantic, and assigns
//! locations in the vertex program's declaration order. It only plans; the writer emits.

use super::semantics::{Binding, Bindings};
use crate::codes;
use crate::ir::{Function, Module, ParamDir, Semantic, Type};
use grammar::{Diagnostic, Span};

/// Where a slot's value lives in the Cg program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    Param(u32),
    /// A field of a connector-struct parameter.
    ParamField(u32, u32),
    Return,
    ReturnField(u32),
}

/// What a slot becomes in slang.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// Vertex input `Position` (vec4, location 0).
    Position,
    /// Vertex input `TexCoord` (vec2, location 1); every Cg texture coordinate.
    TexCoord,
    /// The vertex `COLOR` attribute: RetroArch fed constant white.
    White,
    /// `gl_Position`.
    ClipPosition,
    /// A varying at a location (vertex output or fragment input).
    Varying(u32),
    /// A fragment input no vertex output writes: zero.
    Unlinked,
    /// `gl_FragCoord` (fragment WPOS/VPOS/POSITION input).
    FragCoord,
    /// `FragColor` (location 0).
    FragColor,
    /// `gl_FragDepth`.
    FragDepth,
    /// A vertex output nothing consumes in slang (PSIZE, FOG, ...): written to a local only.
    Discarded,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    pub place: Place,
    pub kind: SlotKind,
    pub ty: Type,
    /// The Cg name (field or parameter), used for the varying's name.
    pub name: String,
    pub semantic: String,
}

#[derive(Clone, Debug, Default)]
pub struct Connectors {
    pub vertex_inputs: Vec<Slot>,
    pub vertex_outputs: Vec<Slot>,
    pub fragment_inputs: Vec<Slot>,
    pub fragment_outputs: Vec<Slot>,
}

impl Connectors {
    pub fn slot(&self, vertex: bool, place: Place) -> Option<&Slot> {
        let lists: [&Vec<Slot>; 2] = if vertex {
            [&self.vertex_inputs, &self.vertex_outputs]
        } else {
            [&self.fragment_inputs, &self.fragment_outputs]
        };
        lists.into_iter().flatten().find(|s| s.place == place)
    }
}

/// One semantic-bearing value of an entry point: each field of a struct, or the value.
struct Item {
    place: Place,
    ty: Type,
    name: String,
    semantic: Option<Semantic>,
    span: Span,
}

/// The slot of an interface item, of `kind`.
fn slot(it: Item, kind: SlotKind) -> Slot {
    Slot { place: it.place, kind, ty: it.ty, name: it.name, semantic: it.semantic.map(|s| s.text).unwrap_or_default() }
}

fn items(module: &Module, f: &Function, bound: &Bindings, inputs: bool) -> Vec<Item> {
    let mut out = Vec::new();
    let mut push =
        |place_of: &dyn Fn(Option<u32>) -> Place, ty: Type, name: &str, sem: Option<&Semantic>, span: Span| match ty {
            // A struct is flattened even under a semantic of its own (`output
            // main_fragment(...) : COLOR` returning `struct output { float4 color :
            // COLOR; }`): a field's semantic wins, as in cgc.
            Type::Struct(s) => {
                for (i, fd) in module.struct_def(s).fields.iter().enumerate() {
                    out.push(Item {
                        place: place_of(Some(i as u32)),
                        ty: fd.ty,
                        name: fd.name.clone(),
                        semantic: fd.semantic.clone().or_else(|| sem.cloned()),
                        span: fd.span,
                    });
                }
            }
            _ => out.push(Item { place: place_of(None), ty, name: name.to_owned(), semantic: sem.cloned(), span }),
        };
    for (i, p) in f.params.iter().enumerate() {
        // Uniforms, samplers and RetroArch structs (`IN`, `ORIG`, ...) are no connectors.
        if p.uniform || p.ty.is_sampler() || !matches!(bound.params.get(i), None | Some(Binding::Varying)) {
            continue;
        }
        let is_input = p.dir != ParamDir::Out;
        let is_output = p.dir != ParamDir::In;
        if (inputs && is_input) || (!inputs && is_output) {
            let i = i as u32;
            push(
                &|field| field.map_or(Place::Param(i), |f| Place::ParamField(i, f)),
                p.ty,
                &p.name,
                p.semantic.as_ref(),
                p.span,
            );
        }
    }
    if !inputs && f.ret != Type::Void {
        push(&|field| field.map_or(Place::Return, Place::ReturnField), f.ret, "", f.ret_semantic.as_ref(), f.span);
    }
    out
}

/// The linking key of a slot: its semantic, or (without one) its name, as cgc linked
/// semantic-less connector fields by struct layout.
fn slot_key(it: &Item) -> Option<(String, u32)> {
    match &it.semantic {
        Some(s) => Some(key(s)),
        None if !it.name.is_empty() => Some((format!("name:{}", it.name), 0)),
        None => None,
    }
}

fn key(s: &Semantic) -> (String, u32) {
    let base = match s.base.as_str() {
        "TEX" => "TEXCOORD".to_owned(),
        b => b.to_owned(),
    };
    (base, s.index.unwrap_or(0))
}

/// Plans the connectors of a vertex and a fragment module (either may be absent).
pub fn plan(
    vertex: Option<(&Module, &Bindings)>,
    fragment: Option<(&Module, &Bindings)>,
    diags: &mut Vec<Diagnostic>,
) -> Connectors {
    let mut c = Connectors::default();
    let mut locations: Vec<((String, u32), u32, Type)> = Vec::new();
    if let Some((m, bound)) = vertex {
        vertex_slots(m, bound, &mut c, &mut locations, diags);
    }
    if let Some((m, bound)) = fragment {
        fragment_slots(m, bound, &mut c, &locations, diags);
    }
    c
}

/// The vertex stage's inputs (RetroArch's attributes) and outputs (varyings, given
/// locations in `locations` by semantic).
fn vertex_slots(
    m: &Module,
    bound: &Bindings,
    c: &mut Connectors,
    locations: &mut Vec<((String, u32), u32, Type)>,
    diags: &mut Vec<Diagnostic>,
) {
    if let Some(e) = &m.entry_point {
        let f = &m.functions[e.function];
        for it in items(m, f, bound, true) {
            let semantic = it.semantic.as_ref().map(key);
            let by_name = it.name.as_str();
            let kind = match semantic.as_ref().map(|(b, i)| (b.as_str(), *i)) {
                Some(("POSITION" | "ATTR", 0)) => SlotKind::Position,
                Some(("TEXCOORD", _)) => SlotKind::TexCoord,
                Some(("COLOR" | "DIFFUSE", _)) => SlotKind::White,
                None if by_name == "vertex_coord" || by_name == "position" => SlotKind::Position,
                None if by_name.contains("tex_coord") || by_name == "tex" || by_name == "texCoord" => {
                    SlotKind::TexCoord
                }
                None if by_name == "color" => SlotKind::White,
                _ => {
                    let sem = it.semantic.as_ref().map_or_else(|| "(none)".to_owned(), |s| s.text.clone());
                    diags.push(
                        Diagnostic::warning(codes::W_UNLINKED_VARYING, format!("vertex input `{}` with semantic {sem}: RetroArch feeds only POSITION, TEXCOORD and COLOR; it reads zero", it.name))
                            .with_primary(it.span, ""),
                    );
                    SlotKind::Unlinked
                }
            };
            c.vertex_inputs.push(slot(it, kind));
        }
        for it in items(m, f, bound, false) {
            let Some(k) = slot_key(&it) else {
                diags.push(
                    Diagnostic::error(
                        codes::E_VARYING,
                        format!(
                            "vertex output `{}` has no semantic, so nothing can link it to the fragment program",
                            it.name
                        ),
                    )
                    .with_primary(it.span, ""),
                );
                continue;
            };
            let sem_text = it.semantic.as_ref().map_or_else(String::new, |s| s.text.clone());
            let kind = match k.0.as_str() {
                "POSITION" | "HPOS" => SlotKind::ClipPosition,
                "PSIZE" | "FOG" | "FOGP" | "CLP" => SlotKind::Discarded,
                _ => {
                    let loc = match locations.iter().find(|(kk, _, _)| *kk == k) {
                        Some((_, l, _)) => *l,
                        None => {
                            let l = locations.len() as u32;
                            locations.push((k.clone(), l, it.ty));
                            l
                        }
                    };
                    SlotKind::Varying(loc)
                }
            };
            c.vertex_outputs.push(Slot { place: it.place, kind, ty: it.ty, name: it.name, semantic: sem_text });
        }
    }
}

/// The fragment stage's inputs (linked to the vertex outputs' `locations`) and outputs.
fn fragment_slots(
    m: &Module,
    bound: &Bindings,
    c: &mut Connectors,
    locations: &[((String, u32), u32, Type)],
    diags: &mut Vec<Diagnostic>,
) {
    if let Some(e) = &m.entry_point {
        let f = &m.functions[e.function];
        for it in items(m, f, bound, true) {
            let kind = match slot_key(&it) {
                Some((b, _)) if b == "WPOS" || b == "VPOS" || b == "POSITION" => {
                    if b != "POSITION" {
                        diags.push(
                            Diagnostic::warning(codes::W_FRAG_COORD, format!("`{}` reads the fragment position: GL framebuffers were bottom-up, slang's are top-down", it.name))
                                .with_primary(it.span, ""),
                        );
                    }
                    SlotKind::FragCoord
                }
                Some(k) => {
                    match locations.iter().find(|(kk, _, _)| *kk == k) {
                        Some((_, l, vty)) => {
                            if it.ty.components() > vty.components() {
                                diags.push(
                                Diagnostic::error(codes::E_VARYING, format!("fragment input `{}` ({}) has more components than the vertex output it reads", it.name, m.type_name(it.ty)))
                                    .with_primary(it.span, ""),
                            );
                            }
                            SlotKind::Varying(*l)
                        }
                        None => {
                            diags.push(
                                Diagnostic::warning(
                                    codes::W_UNLINKED_VARYING,
                                    format!(
                                        "fragment input `{}` ({}) is written by no vertex output; it reads zero",
                                        it.name,
                                        it.semantic.as_ref().map_or("", |s| s.text.as_str())
                                    ),
                                )
                                .with_primary(it.span, ""),
                            );
                            SlotKind::Unlinked
                        }
                    }
                }
                None => {
                    diags.push(
                        Diagnostic::warning(
                            codes::W_UNLINKED_VARYING,
                            format!("fragment input `{}` has no semantic; it reads zero", it.name),
                        )
                        .with_primary(it.span, ""),
                    );
                    SlotKind::Unlinked
                }
            };
            c.fragment_inputs.push(slot(it, kind));
        }
        for it in items(m, f, bound, false) {
            let kind = match it.semantic.as_ref().map(key) {
                Some((b, 0)) if b == "COLOR" => SlotKind::FragColor,
                Some((b, _)) if b == "DEPTH" => SlotKind::FragDepth,
                _ => {
                    let sem = it.semantic.as_ref().map_or_else(|| "(none)".to_owned(), |s| s.text.clone());
                    diags.push(
                        Diagnostic::error(
                            codes::E_UNSUPPORTED,
                            format!(
                                "fragment output `{}` with semantic {sem}: slang has one colour output (COLOR0)",
                                it.name
                            ),
                        )
                        .with_primary(it.span, ""),
                    );
                    SlotKind::Discarded
                }
            };
            c.fragment_outputs.push(slot(it, kind));
        }
    }
}

//! Keyword, type-name and reserved-word classification of identifiers.
//!
//! The logos lexer gives every identifier-like lexeme the kind `Ident`, because the
//! preprocessor must see `float` or `if` as ordinary names (a macro may be called
//! `half`). After preprocessing, [`classify_word`] decides what a spelling is to the
//! grammar: a keyword, a built-in type name, a word whose meaning depends on the next
//! token (`texture`, `vector`, `matrix`, `technique`, `pass`, `compile`, `AttribArray`),
//! a reserved word that Cg does not
//! use (`goto`, `class`, `__x`, `ASM`: reported as E0205 and then read as a name), or a
//! plain identifier.
//!
//! This module only looks at one spelling at a time: it keeps no state, never allocates,
//! and knows nothing of declared `struct`/`typedef` names (the parser's token stream in
//! `parser::stream` adds those: the C "lexer hack").
//!
//! Leniency, on purpose: the spec marks `texture`, `string`, `pass`, `technique`,
//! `compile`, `vector`, `matrix` and `float` as reserved (some case-insensitively), but
//! real shader libraries use `texture`, `matrix` and `pass` as variable names and cgc
//! accepts them. Those words are therefore contextual or plain names here, and their
//! other-case spellings (`Texture`, `FLOAT`) are plain names. Words with no use in Cg
//! programs (C++ keywords, `goto`, `asm`, `decl`, `dword`, the D3D fragment-linker words
//! `pixelfragment` and `vertexfragment`, `get`, `emit`, anything starting with `__`) are
//! reserved. The CgFX state-object types `vertexshader` and `pixelshader` (any case, as
//! the spec marks them) are built-in type names: an effect file declares
//! `VertexShader vs = compile vp40 f();`.

use crate::parser::token::Tok;

/// What an identifier's spelling means to the grammar, before declared names are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    /// A keyword or built-in type name, always read as this token.
    Token(Tok),
    /// A word whose meaning depends on what follows it.
    Contextual(Contextual),
    /// A reserved word of the spec that Cg programs cannot use (E0205, then a name).
    Reserved,
    /// An ordinary identifier (possibly a declared type name: the parser decides).
    Plain,
}

/// Words that are type keywords in some positions and names in others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contextual {
    /// `texture` (a CgFX type): a type when a name follows it, else a name.
    Texture,
    /// `vector<float, 3>`: generic when `<` and a type follow, a type when a name
    /// follows (`vector v;` means `float4`), else a name.
    Vector,
    /// `matrix<half, 2, 2>`: like `vector`.
    Matrix,
    /// `technique`: a CgFX technique block at the start of a file-scope item, else a name.
    Technique,
    /// `precise` (Cg 3.x): a qualifier when a word follows (`precise float x`), else a
    /// name (older shaders call variables `precise`).
    Precise,
    /// `unsigned`: a type on its own, or the first word of `unsigned int` (and
    /// `char`, `short`, `long`).
    Unsigned,
    /// `pass` (CgFX): a pass inside a technique block, else a name (`pass` is a common
    /// variable name in shader libraries).
    Pass,
    /// `compile fp40 f(...)` (CgFX): a keyword when a profile name and a function name
    /// follow, else a name.
    Compile,
    /// `AttribArray<float4>` (geometry and tessellation programs): a generic type when
    /// `<` follows, else a name.
    AttribArray,
}

/// Classifies one identifier spelling.
pub fn classify_word(text: &str) -> Word {
    if let Some(tok) = keyword(text) {
        return Word::Token(tok);
    }
    if is_builtin_type(text) {
        return Word::Token(Tok::TypeName);
    }
    match text {
        "texture" => return Word::Contextual(Contextual::Texture),
        "vector" => return Word::Contextual(Contextual::Vector),
        "matrix" => return Word::Contextual(Contextual::Matrix),
        "technique" => return Word::Contextual(Contextual::Technique),
        "unsigned" => return Word::Contextual(Contextual::Unsigned),
        "precise" => return Word::Contextual(Contextual::Precise),
        "pass" => return Word::Contextual(Contextual::Pass),
        "compile" => return Word::Contextual(Contextual::Compile),
        "AttribArray" => return Word::Contextual(Contextual::AttribArray),
        _ => {}
    }
    if is_reserved(text) {
        Word::Reserved
    } else {
        Word::Plain
    }
}

/// The keywords of Cg 3.1 that the grammar uses, spelled exactly (case-sensitive).
pub fn keyword(text: &str) -> Option<Tok> {
    Some(match text {
        "if" => Tok::If,
        "else" => Tok::Else,
        "for" => Tok::For,
        "while" => Tok::While,
        "do" => Tok::Do,
        "switch" => Tok::Switch,
        "case" => Tok::Case,
        "default" => Tok::Default,
        "break" => Tok::Break,
        "continue" => Tok::Continue,
        "return" => Tok::Return,
        "discard" => Tok::Discard,
        "struct" => Tok::Struct,
        "interface" => Tok::Interface,
        "typedef" => Tok::Typedef,
        "const" => Tok::Const,
        "extern" => Tok::Extern,
        "static" => Tok::Static,
        "uniform" => Tok::Uniform,
        "varying" => Tok::Varying,
        "in" => Tok::In,
        "out" => Tok::Out,
        "inout" => Tok::InOut,
        "inline" => Tok::Inline,
        "noinline" | "__noinline" => Tok::NoInline,
        "packed" => Tok::Packed,
        "unpacked" => Tok::Unpacked,
        "row_major" => Tok::RowMajor,
        "column_major" => Tok::ColumnMajor,
        "shared" => Tok::Shared,
        "volatile" => Tok::Volatile,
        "register" => Tok::Register,
        "true" => Tok::True,
        "false" => Tok::False,
        "sampler_state" => Tok::SamplerState,
        _ => return None,
    })
}

/// Scalar types that also come in vector (`float4`) and matrix (`float3x4`) forms.
const SHAPED_BASES: [&str; 9] = ["bool", "int", "float", "half", "fixed", "double", "char", "short", "long"];

/// Built-in type names (except `unsigned`, `texture`, `vector`, `matrix`: contextual).
pub fn is_builtin_type(text: &str) -> bool {
    if is_state_object_type(text) {
        return true;
    }
    match text {
        "void" | "bool" | "int" | "char" | "short" | "long" | "float" | "half" | "fixed" | "double" | "cint"
        | "cfloat" | "string" | "sampler" | "sampler1D" | "sampler2D" | "sampler3D" | "samplerCUBE" | "samplerRECT"
        | "sampler1DARRAY" | "sampler2DARRAY" | "samplerCUBEARRAY" | "samplerBUF" | "texture1D" | "texture2D"
        | "texture3D" | "textureCUBE" | "textureRECT" => return true,
        _ => {}
    }
    let b = text.as_bytes();
    let n = b.len();
    let dim = |c: u8| (b'1'..=b'4').contains(&c);
    // TYPEnxm
    if n >= 4 && dim(b[n - 1]) && b[n - 2] == b'x' && dim(b[n - 3]) {
        return SHAPED_BASES.contains(&&text[..n - 3]) || is_glsl_alias(text);
    }
    // TYPEn
    if n >= 2 && dim(b[n - 1]) {
        return SHAPED_BASES.contains(&&text[..n - 1]) || is_glsl_alias(text);
    }
    false
}

/// GLSL spellings that NVIDIA's compiler accepted as Cg type names in every profile:
/// `vecN`, `ivecN`, `uvecN`, `bvecN`, `dvecN` (N = 2..4), `matN` and `matRxC` (R, C =
/// 2..4). Which Cg type each stands for is the translator's business
/// (`translator::ir::types::builtin_type`); here they are only type names.
pub fn is_glsl_alias(text: &str) -> bool {
    let b = text.as_bytes();
    let dim = |c: &u8| (b'2'..=b'4').contains(c);
    match b {
        [b'v', b'e', b'c', n] | [b'i' | b'u' | b'b' | b'd', b'v', b'e', b'c', n] | [b'm', b'a', b't', n] => dim(n),
        [b'm', b'a', b't', r, b'x', c] => dim(r) && dim(c),
        _ => false,
    }
}

/// The CgFX state-object types, any case (`VertexShader`, `pixelshader`): the values of
/// `compile` expressions, declared at file scope in effect files.
pub fn is_state_object_type(text: &str) -> bool {
    text.len() <= 12 && ["vertexshader", "pixelshader"].iter().any(|w| w.eq_ignore_ascii_case(text))
}

/// Words that `unsigned` combines with into one type name (`unsigned int`).
pub fn combines_with_unsigned(text: &str) -> bool {
    matches!(text, "int" | "char" | "short" | "long")
}

/// Reserved words of the spec that no Cg program may use as a name.
pub fn is_reserved(text: &str) -> bool {
    if text.starts_with("__") {
        return true;
    }
    if matches!(
        text,
        "asm_fragment"
            | "auto"
            | "catch"
            | "class"
            | "const_cast"
            | "delete"
            | "dynamic_cast"
            | "emit"
            | "enum"
            | "explicit"
            | "friend"
            | "get"
            | "goto"
            | "mutable"
            | "namespace"
            | "new"
            | "operator"
            | "private"
            | "protected"
            | "public"
            | "reinterpret_cast"
            | "signed"
            | "sizeof"
            | "static_cast"
            | "template"
            | "this"
            | "throw"
            | "try"
            | "typeid"
            | "typename"
            | "union"
            | "using"
            | "virtual"
    ) {
        return true;
    }
    // Case-insensitive reserved words of the spec that have no use in Cg programs.
    const ANY_CASE: [&str; 5] = ["asm", "decl", "dword", "pixelfragment", "vertexfragment"];
    text.len() <= 14 && ANY_CASE.iter().any(|w| w.eq_ignore_ascii_case(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_types_and_plain_names() {
        assert_eq!(classify_word("if"), Word::Token(Tok::If));
        assert_eq!(classify_word("sampler_state"), Word::Token(Tok::SamplerState));
        for t in ["float", "float4", "half3x3", "bool2", "fixed1x4", "sampler2D", "samplerRECT", "void", "string"] {
            assert_eq!(classify_word(t), Word::Token(Tok::TypeName), "{t}");
        }
        for p in ["float5", "float4x5", "floatx4", "float0", "x4", "input", "output", "COLOR", "texture2d", "Float"] {
            assert_eq!(classify_word(p), Word::Plain, "{p}");
        }
        assert_eq!(classify_word("texture"), Word::Contextual(Contextual::Texture));
        assert_eq!(classify_word("texture2D"), Word::Token(Tok::TypeName));
        assert_eq!(classify_word("matrix"), Word::Contextual(Contextual::Matrix));
        assert_eq!(classify_word("unsigned"), Word::Contextual(Contextual::Unsigned));
    }

    #[test]
    fn glsl_type_names_are_cg_type_names() {
        for t in
            ["vec2", "vec3", "vec4", "ivec2", "uvec3", "bvec4", "dvec2", "mat2", "mat3", "mat4", "mat2x3", "mat4x2"]
        {
            assert_eq!(classify_word(t), Word::Token(Tok::TypeName), "{t}");
        }
        for p in ["vec1", "vec5", "mat1", "mat5", "mat2x1", "mat2x5", "ivec", "xvec2", "mat2x", "Vec2", "dmat2"] {
            assert_eq!(classify_word(p), Word::Plain, "{p}");
        }
    }

    #[test]
    fn reserved_words_including_case_insensitive_ones() {
        for r in ["goto", "class", "template", "__foo", "__", "ASM", "asm", "Decl", "PixelFragment", "this"] {
            assert_eq!(classify_word(r), Word::Reserved, "{r}");
        }
        for ok in ["_m00", "_11", "Get", "trY", "Pass", "Compile", "asmx", "attribArray"] {
            assert_eq!(classify_word(ok), Word::Plain, "{ok}");
        }
    }

    #[test]
    fn effect_and_geometry_words() {
        for t in ["vertexshader", "VertexShader", "PIXELSHADER", "pixelshader", "PixelShader"] {
            assert_eq!(classify_word(t), Word::Token(Tok::TypeName), "{t}");
        }
        assert_eq!(classify_word("pass"), Word::Contextual(Contextual::Pass));
        assert_eq!(classify_word("compile"), Word::Contextual(Contextual::Compile));
        assert_eq!(classify_word("AttribArray"), Word::Contextual(Contextual::AttribArray));
        assert_eq!(classify_word("technique"), Word::Contextual(Contextual::Technique));
        // Primitive modifiers are plain words: the grammar reads them as words before a
        // function's return type, like profile names.
        for p in ["TRIANGLE", "POINT", "LINE_ADJ", "TRIANGLE_OUT", "PATCH_4", "QUADS"] {
            assert_eq!(classify_word(p), Word::Plain, "{p}");
        }
    }
}

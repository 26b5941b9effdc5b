//! Building blocks of generated Cg inputs, shared by the property tests and the fuzzer.
//!
//! [`SOUP`] lists Cg keywords, built-in type names, names that matter to RetroArch
//! shaders, the Cg 3.x geometry and CgFX words, literals in every lexical form, punctuation, comment and splice fragments,
//! stray characters, and preprocessor directives (each starting on a fresh line, some
//! deliberately incomplete or self-referential). Concatenated at random they reach the
//! error paths of the lexer, the preprocessor and the parser far more often than random
//! bytes do.

/// Words the soups are made of; directives start on a fresh line.
#[rustfmt::skip]
pub const SOUP: &[&str] = &[
    "float", "float4", "half3", "fixed2", "int", "bool4", "float4x4", "half2x3", "sampler2D", "void",
    "struct", "interface", "typedef", "uniform", "static", "const", "in", "out", "inout", "packed", "row_major",
    "if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "return", "discard",
    "true", "false", "technique", "pass", "compile", "vs", "ps", "a", "b", "main", "IN", "x", "xyz", "rgba", "_m01",
    "_11_22", "POSITION", "TEXCOORD0", "COLOR", "BUFFER", "register", "mul", "tex2D", "0", "1", "1.", ".5", "1.0f",
    "2h", "3x", "0x1F", "017", "1e5", "1..xxx", "\"str\"", "'c'", "(", ")", "[", "]", "{", "}", ";", ",", ".", ":",
    "?", "=", "+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "!", "&", "|", "^", "~", "<<",
    ">>", "+=", "<<=", "++", "--", "::", "...", "#", "##", "defined", "\\\n", "/*", "*/", "//", "@", "$", "\u{e9}",
    "\n#define A", "\n#define A 1", "\n#define F(x) x", "\n#define G(a, b) a ## b", "\n#define S(x) #x",
    "\n#define R R", "\n#define H(x) H(x)", "\n#undef A", "\n#if", "\n#if 1", "\n#if defined(A) &&", "\n#ifdef A",
    "\n#ifndef A", "\n#elif", "\n#elif 0", "\n#else", "\n#endif", "\n#include \"x.inc\"",
    "\n#include \"missing.inc\"", "\n#include \"soup.cg\"", "\n#include \"cycle.inc\"", "\n#include <x.inc>",
    "\n#include", "\n#pragma parameter P \"P\" 1.0 0.0 2.0 0.1", "\n#pragma once", "\n#error oops", "\n#line 5",
    "\n#bogus", "\n", "\n",
    "AttribArray", "TRIANGLE", "LINE_OUT", "PATCH_3", "QUADS", "emitVertex", "restartStrip", "VertexShader",
    "PixelShader", "sampler_state", "precise",
];

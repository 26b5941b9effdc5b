//! `#[versioned]`: compiles a function once per x86-64 feature level and calls, at run
//! time, the copy for the level the processor has. The CPU reference renderer puts it
//! on the functions that build its compiled closures: a closure takes the target
//! features of the function it is written in, so the closures a copy builds run their
//! lane loops on AVX2 or AVX-512 where the processor has them.
//!
//! The function keeps its signature. Its body is emitted three times: as two nested
//! functions with `#[target_feature]` (x86-64-v4 and x86-64-v3, on x86-64 only) and as
//! the baseline body, and the function first asks
//! `crate::reference::isa::level()` which copy to run; that function must exist in the
//! crate that uses the attribute, and it must never answer a level the processor lacks
//! (the generated `unsafe` call rests on it). The macro never changes what the body
//! computes; parameters must be plain names (`x: T` or `mut x: T`), and a
//! `self` or `impl Trait` parameter is refused with a compile error.

use proc_macro::TokenStream;
use quote::{format_ident, quote};
use syn::{parse_macro_input, FnArg, GenericParam, ItemFn, Pat, Type};

/// The target features of x86-64-v3 (AVX2 and its companions); `reference::isa`
/// detects exactly these before it answers the level.
macro_rules! v3 {
    () => {
        "avx2,fma,bmi1,bmi2,lzcnt,movbe,f16c,popcnt"
    };
}
const V3: &str = v3!();
/// x86-64-v4: v3 with AVX-512 F, BW, CD, DQ and VL.
const V4: &str = concat!(v3!(), ",avx512f,avx512bw,avx512cd,avx512dq,avx512vl");

#[proc_macro_attribute]
pub fn versioned(attr: TokenStream, item: TokenStream) -> TokenStream {
    if !attr.is_empty() {
        let msg = "#[versioned] takes no arguments";
        return syn::Error::new(proc_macro2::Span::call_site(), msg).to_compile_error().into();
    }
    let func = parse_macro_input!(item as ItemFn);
    match expand(&func) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

fn expand(func: &ItemFn) -> syn::Result<proc_macro2::TokenStream> {
    let sig = &func.sig;
    let mut args = Vec::new();
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(r) => return Err(syn::Error::new_spanned(r, "#[versioned] functions take no `self`")),
            FnArg::Typed(t) => {
                if let Type::ImplTrait(_) = &*t.ty {
                    return Err(syn::Error::new_spanned(
                        &t.ty,
                        "#[versioned] needs named type parameters, not `impl Trait`",
                    ));
                }
                match &*t.pat {
                    Pat::Ident(p) if p.subpat.is_none() => args.push(p.ident.clone()),
                    other => return Err(syn::Error::new_spanned(other, "#[versioned] parameters must be plain names")),
                }
            }
        }
    }
    // The turbofish that calls a copy with the function's own type and const parameters.
    let params: Vec<proc_macro2::TokenStream> = sig
        .generics
        .params
        .iter()
        .filter_map(|p| match p {
            GenericParam::Type(t) => Some({
                let i = &t.ident;
                quote!(#i)
            }),
            GenericParam::Const(c) => Some({
                let i = &c.ident;
                quote!(#i)
            }),
            GenericParam::Lifetime(_) => None,
        })
        .collect();
    let turbofish = if params.is_empty() { quote!() } else { quote!(::<#(#params),*>) };
    let copy = |name: &syn::Ident| {
        let mut s = sig.clone();
        s.ident = name.clone();
        s
    };
    let (v3, v4) = (format_ident!("__{}_x86_64_v3", sig.ident), format_ident!("__{}_x86_64_v4", sig.ident));
    let base = format_ident!("__{}_baseline", sig.ident);
    let (sig3, sig4, sig0) = (copy(&v3), copy(&v4), copy(&base));
    let body = &func.block;
    let attrs = &func.attrs;
    let vis = &func.vis;
    // The outer function passes its parameters on; `mut` belongs to the copies.
    let mut outer = sig.clone();
    for input in outer.inputs.iter_mut() {
        if let FnArg::Typed(t) = input {
            if let Pat::Ident(p) = &mut *t.pat {
                p.mutability = None;
            }
        }
    }
    Ok(quote! {
        #(#attrs)*
        #vis #outer {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = #V4)]
                #sig4 #body
                #[target_feature(enable = #V3)]
                #sig3 #body
                match crate::reference::isa::level() {
                    // SAFETY: `level` answers a level only where the processor has
                    // every feature of it.
                    crate::reference::isa::Level::V4 => {
                        #[allow(unsafe_code)]
                        return unsafe { #v4 #turbofish (#(#args),*) };
                    }
                    crate::reference::isa::Level::V3 => {
                        #[allow(unsafe_code)]
                        return unsafe { #v3 #turbofish (#(#args),*) };
                    }
                    crate::reference::isa::Level::Baseline => {}
                }
            }
            #[inline(always)]
            #sig0 #body
            #base #turbofish (#(#args),*)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expanded(f: ItemFn) -> String {
        match expand(&f) {
            Ok(t) => t.to_string(),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn each_copy_is_called_with_the_functions_parameters_and_generics() {
        let out = expanded(syn::parse_quote! {
            /// Doc.
            pub(crate) fn build<'a, const FUSED: bool, F: Fn(f64) -> f64>(mut cells: Vec<usize>, f: F, name: &'a str) -> u32 {
                cells.push(1);
                0
            }
        });
        for copy in ["__build_x86_64_v4", "__build_x86_64_v3", "__build_baseline"] {
            assert!(
                out.contains(&format!("fn {copy} < 'a , const FUSED : bool , F : Fn (f64) -> f64 > (mut cells")),
                "{out}"
            );
            assert!(out.contains(&format!("{copy} :: < FUSED , F > (cells , f , name)")), "{out}");
        }
        // The outer function keeps the signature but passes its parameters on.
        assert!(
            out.contains(
                "pub (crate) fn build < 'a , const FUSED : bool , F : Fn (f64) -> f64 > (cells : Vec < usize >"
            ),
            "{out}"
        );
        assert!(out.contains(&format!("target_feature (enable = \"{V4}\")")), "{out}");
        assert!(out.contains(&format!("target_feature (enable = \"{V3}\")")), "{out}");
        assert_eq!(out.matches("cells . push (1)").count(), 3, "the body once per copy: {out}");
    }

    #[test]
    fn receivers_impl_trait_and_patterns_are_refused() {
        let refused = [
            expanded(syn::parse_quote! { fn f(self) {} }),
            expanded(syn::parse_quote! { fn f(g: impl Fn()) {} }),
            expanded(syn::parse_quote! { fn f((a, b): (u8, u8)) {} }),
        ];
        assert!(refused[0].contains("take no `self`"), "{}", refused[0]);
        assert!(refused[1].contains("not `impl Trait`"), "{}", refused[1]);
        assert!(refused[2].contains("plain names"), "{}", refused[2]);
    }
}

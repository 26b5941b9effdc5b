//! PLACEHOLDER: the spanned Cg AST, being implemented.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TranslationUnit {
    pub items: Vec<()>,
}

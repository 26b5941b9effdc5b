//! PLACEHOLDER: keyword and type-name classification, being implemented.

//! The cg2slang command line.
fn main() {
    std::process::exit(0)
}

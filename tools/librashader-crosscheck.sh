#!/usr/bin/env bash
# Cross-checks cg2slang's wgpu filter chain against librashader, a real slang runtime:
# migrates the corpus, renders every migrated preset with both, and prints the
# comparison metrics of each pair.
#
#   tools/librashader-crosscheck.sh [LIBRASHADER_CLI] [OUT_DIR]
#
# LIBRASHADER_CLI defaults to `librashader-cli` on PATH (install it with
# `cargo install librashader-cli --no-default-features --features vulkan,wgpu`).
# librashader's Vulkan runtime renders at the input size (it ignores --dimensions), so
# both sides render the 64x48 test card at 64x48, over 10 frames (the history ring is
# full by then: librashader does not clear it at start-up, RetroArch and we do).
# Expected differences are listed in ARCHITECTURE.md ("Where implementations differ").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
lr="${1:-librashader-cli}"
out="${2:-target/crosscheck}"
image="$PWD/corpus/retroarch/images/testcard_64x48.png"

cargo build --release --quiet
cargo build --release --quiet -p runtime-check --example png_metrics
bin="$PWD/target/release/cg2slang"
metrics="$PWD/target/release/examples/png_metrics"

rm -rf "$out"
mkdir -p "$out/png"
"$bin" migrate corpus --out "$out/slang" --no-validate > /dev/null
for preset in "$out"/slang/retroarch/*.slangp; do
    name="$(basename "$preset" .slangp)"
    theirs="$out/png/$name.librashader.png"
    ours="$out/png/$name.cg2slang.png"
    if ! "$lr" render -p "$preset" -i "$image" -f 9 -o "$theirs" -r vulkan > /dev/null 2>&1; then
        printf '%-22s librashader failed\n' "$name"
        continue
    fi
    if ! "$bin" render "$preset" --image "$image" --viewport 64x48 --frames 10 --out "$ours" > /dev/null 2>&1; then
        printf '%-22s cg2slang render failed\n' "$name"
        continue
    fi
    printf '%-22s %s\n' "$name" "$("$metrics" "$theirs" "$ours")"
done

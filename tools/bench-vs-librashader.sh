#!/usr/bin/env bash
# Times cg2slang's filter chain against librashader's Vulkan runtime on the same .slangp
# files, and prints per-frame cost, start-up and their ratios.
#
#   tools/bench-vs-librashader.sh MIGRATED_TREE IMAGE [FRAMES]
#
# MIGRATED_TREE is the output of `cg2slang migrate` over libretro/common-shaders (e.g.
#   cg2slang migrate ../common-shaders --out /tmp/cs-slang --no-validate);
# IMAGE the input frame (PNG; the 256x224 test card is corpus/tools/gen_images.py's);
# FRAMES (default 601) the longer run. Binaries: $CG2SLANG (default
# target/release/cg2slang) and $LIBRASHADER_CLI (default: `librashader-cli` on PATH,
# else in $CARGO_HOME/bin; install it with `cargo install librashader-cli
# --no-default-features --features vulkan,wgpu`, or `--root DIR` and point
# LIBRASHADER_CLI at DIR/bin/librashader-cli). $PRESETS overrides the preset list
# (paths relative to the tree).
#
# Both sides render at the input image's size: librashader-cli 0.12's Vulkan runtime
# takes its viewport from the input image whatever `--dimensions` says (it only sizes
# the output image), so a larger `--viewport` on our side would time a different amount
# of work. To time a 1920x1080 viewport, give a 1920x1080 IMAGE. Both draw the last
# pass into B8G8R8A8_UNORM (librashader-cli's output image; our viewport), a format
# llvmpipe rasterizes on a faster path than R8G8B8A8.
#
# The two runtimes do not always do the same work. librashader samples a pass output
# read by name (an alias, PassOutputN) with the filter of the pass that wrote it;
# RetroArch, and cg2slang after it, with the filter of the pass after that one. Where
# the two filters differ (crt-royale's ORIG_LINEARIZED: nearest against linear), the
# ratio compares different work. With EQUAL_FILTERS=1 the script finds those passes
# (a later pass's file names the output's alias or PassOutputN), and also times a
# copy of such a preset (written under a temporary directory, its shader and LUT paths
# made absolute) where each such pass's filter_linearN is the next pass's: both
# runtimes then sample alike. The copy's row is named "PRESET (equal filters)" and says
# which passes changed. librashader also draws the last pass straight to the viewport
# whatever its scale type, where RetroArch renders a last pass with a scale type into a
# framebuffer and stretches that to the viewport: the chain does as RetroArch, except
# where the stretch would copy texel for texel (a last pass scaled to exactly the
# viewport, as crt-royale's), which it draws straight in too. A last pass scaled to
# another size is more work for the chain (and another image).
#
# start-up = wall time of a 1-frame run (process start, device, shader compilation,
# pipelines, one frame, read-back, PNG); per frame = (t(FRAMES) - t(1)) / (FRAMES - 1).
# The runs go in $ROUNDS (default 21) interleaved rounds, each timing both sides
# (1 frame, FRAMES frames, cold; which side goes first alternates between rounds), so
# that a machine which speeds up or slows down during the script moves both sides
# alike. Each figure is the median over the rounds; each ratio (ours / librashader's)
# is the median of the rounds' own ratios, followed by its 95 % confidence interval
# (distribution-free: the order statistics of the rounds' ratios that a sign test
# gives, so it needs no assumption about the noise). An interval that holds 1.00 means
# the two are not told apart at this many rounds; single runs on one machine spread
# over several per cent (start-ups on an NVIDIA driver over 20-50 ms), which is why
# one run, or the best of a few, proves nothing at that scale. Before the rounds each
# side renders once to fill its caches. librashader keeps compiled
# shaders in an on-disk cache ($XDG_CACHE_HOME/librashader): its start-up is given
# both warm (that cache, as a user runs it; the per-frame runs use it too) and cold (an
# empty private cache per run; the driver's own caches stay as they are for both
# sides). cg2slang keeps glslang's SPIR-V and a Vulkan pipeline cache in its own cache
# ($XDG_CACHE_HOME/cg2slang): its start-up is likewise given warm and cold
# (CG2SLANG_NO_CACHE=1: glslang runs every time and no pipeline cache is read). CI does
# not run this script.
#
# librashader-cli renders with its Vulkan runtime (glslang's SPIR-V, combined image
# samplers, straight to the driver, as RetroArch does); LR_RUNTIME=wgpu times its wgpu
# runtime instead, which goes through naga and binds textures and samplers apart, as
# wgpu (and so this chain) must.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tree="${1:?usage: $0 MIGRATED_TREE IMAGE [FRAMES]}"
image="${2:?usage: $0 MIGRATED_TREE IMAGE [FRAMES]}"
frames="${3:-601}"
ours="${CG2SLANG:-target/release/cg2slang}"
theirs="${LIBRASHADER_CLI:-}"
if [ -z "$theirs" ]; then
    if command -v librashader-cli > /dev/null 2>&1; then
        theirs=librashader-cli
    else
        theirs="${CARGO_HOME:-$HOME/.cargo}/bin/librashader-cli"
    fi
fi
rounds="${ROUNDS:-21}"
case "$rounds" in *[!0-9]* | "" | 0) echo "ROUNDS must be a positive whole number, not $rounds" >&2; exit 2 ;; esac
lr_runtime="${LR_RUNTIME:-vulkan}"
case "$lr_runtime" in vulkan | wgpu) ;; *) echo "LR_RUNTIME must be vulkan or wgpu, not $lr_runtime" >&2; exit 2 ;; esac
presets="${PRESETS:-crt/crt-geom crt/crt-royale xbr/super-xbr-6p-adaptive crt/crt-easymode-halation ntsc/ntsc-320px-svideo-gauss-scanline}"

if ! command -v "$theirs" > /dev/null 2>&1; then
    echo "librashader-cli not found ($theirs). Install it with:" >&2
    echo "  cargo install librashader-cli --no-default-features --features vulkan,wgpu" >&2
    echo "or point LIBRASHADER_CLI at the binary." >&2
    exit 2
fi
if [ ! -x "$ours" ]; then
    echo "$ours not found: build it (cargo build --release) or set CG2SLANG" >&2
    exit 2
fi
# A PNG's width and height: big-endian 32-bit words at bytes 16 and 20 (no Python needed).
size="$(od -An -tu1 -j16 -N8 "$image" | awk '{ printf "%dx%d", (($1 * 256 + $2) * 256 + $3) * 256 + $4, (($5 * 256 + $6) * 256 + $7) * 256 + $8 }')"
# wgpu and librashader print XDG warnings without a session; give them a private dir.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# wall time in seconds of "$@"; fails when the command fails.
wall() {
    local s e
    s=$(date +%s.%N)
    "$@" > /dev/null 2>&1 || return 1
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN { printf "%.5f", e - s }'
}
run_ours() { "$ours" render "$1" --image "$image" --viewport "$size" --frames "$2" --out "$out/ours.png" --force; }
run_ours_cold() { CG2SLANG_NO_CACHE=1 run_ours "$1" 1; }
run_theirs() { "$theirs" render -p "$1" -i "$image" -f "$(($2 - 1))" -o "$out/theirs.png" -r "$lr_runtime"; }
# a 1-frame run with an empty librashader cache of its own; the driver's caches (Mesa's
# mesa_shader_cache, NVIDIA's) stay warm, as they are for our runs
user_cache="${XDG_CACHE_HOME:-$HOME/.cache}"
run_theirs_cold() {
    local cache entry
    cache="$(mktemp -d "$out/cache.XXXXXX")"
    for entry in "$user_cache"/*; do
        [ -e "$entry" ] && [ "$(basename "$entry")" != librashader ] && ln -s "$entry" "$cache/"
    done
    XDG_CACHE_HOME="$cache" run_theirs "$1" 1
    local rc=$?
    rm -rf "$cache"
    return $rc
}

if command -v vulkaninfo > /dev/null 2>&1; then
    echo "Vulkan devices: $(vulkaninfo --summary 2>/dev/null | grep deviceName | sed 's/.*= //' | paste -sd ', ')"
fi
echo "image $image ($size), viewport $size, $frames frames, $rounds rounds, librashader's $lr_runtime runtime"
echo "medians over the rounds; ratio = ours / librashader's, the median of the rounds' ratios [95 % interval]"
printf '%-40s %10s %10s %-17s %9s %9s %-17s %9s %9s %-17s\n' preset "ours ms/fr" "lr ms/fr" "ratio [95 %]" "ours warm" "lr warm" "ratio [95 %]" "ours cold" "lr cold" "ratio [95 %]"
# Times one side's three runs of the preset file $2 ($1: ours or theirs); prints the
# seconds of 1 frame, FRAMES frames and a cold start, or fails when a run failed.
side_runs() {
    local a b c
    a=$(wall "run_$1" "$2" 1) && b=$(wall "run_$1" "$2" "$frames") && c=$(wall "run_$1_cold" "$2") && echo "$a $b $c"
}

# The message of a row whose side $2 (ours or theirs) failed to render, for the row $1.
render_failed() {
    local tool=cg2slang
    [ "$2" = theirs ] && tool=librashader-cli
    printf '%-40s %s render failed\n' "$1" "$tool"
}

# One row: the preset file $2 timed on both sides under the name $1, in $rounds rounds.
bench_row() {
    local name="$1" file="$2" r side order runs mine others times=""
    for side in ours theirs; do
        if ! "run_$side" "$file" 1 > /dev/null 2>&1; then
            render_failed "$name" "$side"
            return
        fi
    done
    for r in $(seq "$rounds"); do
        order="ours theirs"
        [ $((r % 2)) = 0 ] && order="theirs ours"
        for side in $order; do
            if ! runs=$(side_runs "$side" "$file"); then
                render_failed "$name" "$side"
                return
            fi
            if [ "$side" = ours ]; then mine=$runs; else others=$runs; fi
        done
        times="$times$mine $others"$'\n'
    done
    printf '%s' "$times" | awk -v p="$name" -v n="$frames" '
        function sorted(a, k,    i, j, t) {
            for (i = 2; i <= k; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        }
        function median(a, k) { sorted(a, k); return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
        # The ratio column: median [lo-hi], lo and hi the order statistics x(j) and
        # x(k+1-j) with j the largest such that P(Binomial(k, 1/2) < j) <= 0.025.
        function ratio(a, k,    m, j, c, p, i) {
            m = median(a, k)
            j = 0; p = 0.5 ^ k; c = p
            for (i = 0; c <= 0.025; i++) { j = i + 1; p = p * (k - i) / (i + 1); c += p }
            if (j < 1) return sprintf("%.2f [-]", m)
            return sprintf("%.2f [%.2f-%.2f]", m, a[j], a[k + 1 - j])
        }
        {
            k++
            of[k] = ($2 - $1) / (n - 1) * 1000; tf[k] = ($5 - $4) / (n - 1) * 1000
            if (of[k] < 0) of[k] = 0
            if (tf[k] < 0) tf[k] = 0
            if (tf[k] > 0) { f++; rf[f] = of[k] / tf[k] }
            o1[k] = $1 * 1000; t1[k] = $4 * 1000; rw[k] = $1 / $4
            oc[k] = $3 * 1000; tc[k] = $6 * 1000; rc[k] = $3 / $6
        }
        END {
            fr = (f > 0) ? ratio(rf, f) : "-"
            w = ratio(rw, k); c = ratio(rc, k)
            printf "%-40s %10.3f %10.3f %-17s %9.1f %9.1f %-17s %9.1f %9.1f %-17s\n", p, median(of, k), median(tf, k), fr, median(o1, k), median(t1, k), w, median(oc, k), median(tc, k), c
        }'
}

# Writes to $2 a copy of the .slangp $1 in which every pass N whose output a later pass
# reads by name (its alias or PassOutputN in that pass's source) gets the next pass's
# filter_linear, with shader and LUT paths made absolute; prints the passes changed
# (nothing when none). Handles the presets `cg2slang migrate` writes (no #reference).
equal_filters() {
    awk -v dir="$(cd "$(dirname "$1")" && pwd)" -v dst="$2" '
        function unquote(v) { sub(/^[ \t]*"/, "", v); sub(/"[ \t]*$/, "", v); sub(/^[ \t]+/, "", v); sub(/[ \t]+$/, "", v); return v }
        function absolute(v) { return (v ~ /^\//) ? v : dir "/" v }
        function truthy(v) { return v == "true" || v == "1" }
        function reads(m, name,    file, line, found) {
            file = absolute(val["shader" m]); found = 0
            while ((getline line < file) > 0) {
                if (match(line, "(^|[^A-Za-z0-9_])" name "([^A-Za-z0-9_]|$)")) { found = 1; break }
            }
            close(file)
            return found
        }
        { lines[NR] = $0 }
        /^[ \t]*[A-Za-z0-9_]+[ \t]*=/ {
            k = $0; sub(/[ \t]*=.*/, "", k); gsub(/[ \t]/, "", k)
            v = $0; sub(/^[^=]*=/, "", v)
            if (!(k in val)) { val[k] = unquote(v); at[k] = NR }
        }
        END {
            n = val["shaders"] + 0
            split(val["textures"], luts, ";")
            changed = ""
            for (i = 0; i + 1 < n; i++) {
                a = truthy(val["filter_linear" i]); b = truthy(val["filter_linear" (i + 1)])
                if (a == b) continue
                named = 0
                for (m = i + 1; m < n && !named; m++) {
                    if (reads(m, "PassOutput" i)) named = 1
                    if (val["alias" i] != "" && reads(m, val["alias" i])) named = 1
                }
                if (!named) continue
                want[i] = b ? "true" : "false"
                changed = changed (changed == "" ? "" : ",") i
            }
            for (r = 1; r <= NR; r++) {
                line = lines[r]
                for (k in at) if (at[k] == r) {
                    if (k ~ /^shader[0-9]+$/) line = k " = \"" absolute(val[k]) "\""
                    for (t in luts) if (k == luts[t]) line = k " = \"" absolute(val[k]) "\""
                    if (k ~ /^filter_linear[0-9]+$/) { i = substr(k, 14) + 0; if (i in want) { line = k " = " want[i]; delete want[i] } }
                }
                print line > dst
            }
            for (i in want) print "filter_linear" i " = " want[i] > dst
            close(dst)
            print changed
        }' "$1"
}

for p in $presets; do
    bench_row "$p" "$tree/$p.slangp"
    if [ "${EQUAL_FILTERS:-0}" = 1 ]; then
        copy="$out/equal-$(echo "$p" | tr '/' '_').slangp"
        changed="$(equal_filters "$tree/$p.slangp" "$copy")"
        if [ -n "$changed" ]; then
            bench_row "$p (equal filters)" "$copy"
            echo "    (equal filters: filter_linear of pass $changed set to the next pass's)"
        fi
    fi
done

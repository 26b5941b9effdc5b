//! A long-running fuzz driver for the Cg front end and the translator (stable Rust, no
//! cargo-fuzz).
//!
//! Usage: `cargo run --release -p translator --example fuzz -- [--seconds N] [--seed S]
//! [--out DIR] [--hang-seconds N]`.
//!
//! Generates inputs from a seeded xorshift RNG: byte-level mutations of the corpus files
//! (bit flips, interesting bytes, insertions, deletions, duplicated ranges, dictionary
//! words, splices between files, truncation), token soups made of Cg words and
//! directives, raw random bytes, and the hostile shapes of issue #20 (macro bombs, long
//! operator chains, deep brackets, huge arrays and literals, long call chains, a
//! byte-order mark). Every input goes through `grammar::parse_file`
//! over an in-memory copy of the corpus (so `#include`s resolve but nothing outside the
//! corpus is ever read) and, when it parses, through the whole translation
//! (`translator::translate::translate`: both stages' semantics, the porting passes and
//! both writers; validation aside), inside `std::panic::catch_unwind`; the diagnostics
//! of both steps are checked with the invariants shared with the front end's property
//! tests. A panic or a violated
//! invariant is a crash: the input is saved under `--out` (default `fuzz/artifacts`),
//! one file per distinct message. A watchdog saves the current input and stops the run
//! when one input takes longer than `--hang-seconds` (default 20). The slowest input of
//! the run is kept as `slowest.cg` (a hint at quadratic behaviour), and every input over
//! two seconds is saved as `slow-NNN.cg` (the first 20). At the end it prints
//! the number of inputs, the duration and the crashes; the exit status is 0 only when
//! there were none.

#[path = "../../grammar/tests/support/invariants.rs"]
mod invariants;
#[path = "../../grammar/examples/support/sweep.rs"]
mod sweep;
#[path = "../../grammar/tests/support/words.rs"]
mod words;

use grammar::{MemoryFs, PpOptions, SourceMap};
use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use translator::translate::TranslateOptions;

/// Largest input the mutators produce.
const MAX_LEN: usize = 64 * 1024;

/// An input that takes longer than this is saved as a finding (`slow-NNN.cg`).
const SLOW: Duration = Duration::from_secs(2);

struct Options {
    seconds: u64,
    seed: u64,
    out: PathBuf,
    hang_seconds: u64,
}

fn parse_options() -> Result<Options, String> {
    let mut o = Options { seconds: 60, seed: 0x5eed_c9c9, out: PathBuf::from("fuzz/artifacts"), hang_seconds: 20 };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--seconds" => o.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--seed" => o.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--out" => o.out = PathBuf::from(value()?),
            "--hang-seconds" => o.hang_seconds = value()?.parse().map_err(|e| format!("--hang-seconds: {e}"))?,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(o)
}

/// xorshift64*: small, fast, reproducible from the seed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The corpus: every `*.cg` and `*.inc` file under `corpus/`, keyed by absolute path.
fn load_corpus(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    sweep::files(root, &["cg", "inc"]).into_iter().filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b))).collect()
}

const INTERESTING: &[u8] = b"\0\xff\n\r\\#\"'/*(){}[];,.:?<>=!&|^~+-%0123456789_\t eExXhHfF";

fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>, corpus: &[(PathBuf, Vec<u8>)]) {
    let rounds = 1 + rng.below(16);
    for _ in 0..rounds {
        let len = bytes.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                bytes[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                bytes[i] = *rng.pick(INTERESTING);
            }
            2 => {
                let i = rng.below(len + 1);
                let b = *rng.pick(INTERESTING);
                bytes.insert(i, b);
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below(64.min(len - i));
                bytes.drain(i..i + n);
            }
            4 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below(256.min(len - i));
                let chunk = bytes[i..i + n].to_vec();
                let at = rng.below(len + 1);
                bytes.splice(at..at, chunk);
            }
            5 => {
                let i = rng.below(len + 1);
                let w = rng.pick(words::SOUP);
                bytes.splice(i..i, w.bytes());
            }
            6 => {
                let (_, other) = rng.pick(corpus);
                if !other.is_empty() {
                    let s = rng.below(other.len());
                    let n = 1 + rng.below(512.min(other.len() - s));
                    let at = rng.below(len + 1);
                    let cut = (at + rng.below(64)).min(len);
                    bytes.splice(at..cut, other[s..s + n].iter().copied());
                }
            }
            7 if len > 0 => bytes.truncate(rng.below(len)),
            _ => {
                let i = rng.below(len + 1);
                let b = (rng.next() & 0xff) as u8;
                bytes.insert(i, b);
            }
        }
    }
    bytes.truncate(MAX_LEN);
}

fn soup(rng: &mut Rng) -> Vec<u8> {
    let n = rng.below(400);
    let mut text = String::new();
    for _ in 0..n {
        text.push_str(rng.pick::<&str>(words::SOUP));
        text.push_str(rng.pick::<&str>(&[" ", " ", "", "\n", "\t"]));
    }
    text.into_bytes()
}

/// Hostile inputs of issue #20 with random sizes: doubling macro bombs, long flat
/// operator chains, deep brackets, huge array sizes, long call chains, a byte-order
/// mark, a huge literal, mixed with corpus text. Each must stay fast and bounded.
fn hostile(rng: &mut Rng) -> Vec<u8> {
    let mut text = String::new();
    if rng.below(4) == 0 {
        text.push('\u{feff}');
    }
    match rng.below(7) {
        0 => {
            // Object-like macro bomb: mN expands to two m(N-1).
            let levels = 1 + rng.below(40);
            text.push_str("#define m0 x\n");
            for n in 1..=levels {
                let sep = rng.pick::<&str>(&["+1 ", " ", "+", ", "]);
                text.push_str(&format!("#define m{n} m{p}{sep}m{p}\n", p = n - 1));
            }
            text.push_str(&format!("float f() {{ return m{levels}; }}\n"));
        }
        1 => {
            // A flat chain of one operator, or of mixed ones.
            let n = rng.below(5000);
            let ops = ["+", "-", "*", "&&", "||", "<", "==", "|"];
            text.push_str("float f(float a) { return a");
            let mixed = rng.below(2) == 0;
            let op = *rng.pick(&ops);
            for _ in 0..n {
                let o = if mixed { *rng.pick(&ops) } else { op };
                text.push_str(&format!(" {o} a"));
            }
            text.push_str("; }\n");
        }
        2 => {
            // Deep brackets of one kind or another.
            let n = rng.below(3000);
            let (open, close) = *rng.pick(&[("(", ")"), ("{", "}"), ("[", "]"), ("-(", ")"), ("f(", ")")]);
            text.push_str("float g() { return ");
            text.push_str(&open.repeat(n));
            text.push('1');
            text.push_str(&close.repeat(rng.below(n + 2)));
            text.push_str("; }\n");
        }
        3 => {
            // Huge arrays, global and local, with or without initialisers.
            let size = *rng.pick(&["100000000", "4294967295", "4294967296", "0", "-1", "65537", "1e9"]);
            let q = *rng.pick(&["static ", "uniform ", "", "const "]);
            text.push_str(&format!("{q}float a[{size}];\nfloat4 main_fragment() : COLOR {{ return a[0]; }}\n"));
        }
        4 => {
            // A chain of functions each calling the previous.
            let n = rng.below(3000);
            text.push_str("float f0(float x) { return x; }\n");
            for i in 1..=n {
                text.push_str(&format!("float f{i}(float x) {{ return f{}(x) + 1.0; }}\n", i - 1));
            }
        }
        5 => {
            // A huge literal or identifier.
            let n = rng.below(1 << 20);
            let body = if rng.below(2) == 0 { "9".repeat(n) } else { "a".repeat(n) };
            text.push_str(&format!("float x = {body};\n\"{body}\n"));
        }
        _ => {
            // A function-like macro bomb.
            let levels = 1 + rng.below(30);
            text.push_str("#define g0(a) a\n");
            for n in 1..=levels {
                text.push_str(&format!("#define g{n}(a) g{p}(a) g{p}(a)\n", p = n - 1));
            }
            text.push_str(&format!("g{levels}(1)\n"));
        }
    }
    text.into_bytes()
}

/// Parses one input; `Err` describes a violated invariant.
fn run_one(fs: &MemoryFs, root: &Path) -> Result<(), String> {
    let mut sources = SourceMap::new();
    let result = grammar::parse_file(&mut sources, root, &PpOptions::default(), fs);
    if result.root.is_none() {
        return Err("the root file was not read from the in-memory file system".into());
    }
    invariants::check(&sources, &result.diagnostics)?;
    if result.has_errors() {
        return Ok(());
    }
    let translation = translator::translate::translate(&sources, &result, &TranslateOptions::default());
    invariants::check(&sources, &translation.diagnostics).map_err(|e| format!("translation: {e}"))?;
    if translation.text.is_none() && !grammar::has_errors(&translation.diagnostics) {
        return Err("translation: no text and no error".into());
    }
    Ok(())
}

/// The message of the last panic, recorded by the hook installed in `main`.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

fn save(dir: &Path, name: &str, input: &[u8], message: &str) -> PathBuf {
    let path = dir.join(name);
    let _ = std::fs::create_dir_all(dir);
    if let Err(e) = std::fs::write(&path, input) {
        eprintln!("fuzz: cannot save {}: {e}", path.display());
    }
    let _ = std::fs::write(path.with_extension("txt"), message);
    path
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("fuzz: {e}\nusage: fuzz [--seconds N] [--seed S] [--out DIR] [--hang-seconds N]");
            return ExitCode::from(2);
        }
    };
    let corpus_root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let corpus = load_corpus(&corpus_root);
    if corpus.is_empty() {
        eprintln!("fuzz: no corpus files under {}", corpus_root.display());
        return ExitCode::from(2);
    }
    let soup_dir = corpus_root.join("grammar");
    let soup_root = soup_dir.join("soup.cg");
    let mut base = MemoryFs::new()
        .with(soup_dir.join("x.inc"), "#define X_INC 1\nfloat x_inc;\n#define F2(a, b) (a) + (b)\n")
        .with(soup_dir.join("cycle.inc"), "#include \"cycle.inc\"\n");
    for (path, bytes) in &corpus {
        base.insert(path.clone(), bytes.clone());
    }

    panic::set_hook(Box::new(|info| {
        let location = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic payload".into());
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = Some(format!("panic{location}: {payload}"));
        }
    }));

    // Watchdog: if no input finishes for `hang_seconds`, save the current one and stop.
    let done = Arc::new(AtomicU64::new(0));
    let current: Arc<Mutex<Vec<u8>>> = Arc::new(Mutex::new(Vec::new()));
    {
        let done = Arc::clone(&done);
        let current = Arc::clone(&current);
        let out = options.out.clone();
        let limit = options.hang_seconds.max(1);
        std::thread::spawn(move || {
            let mut last = (0, Instant::now());
            loop {
                std::thread::sleep(Duration::from_millis(500));
                let n = done.load(Ordering::Relaxed);
                if n != last.0 {
                    last = (n, Instant::now());
                } else if last.1.elapsed() > Duration::from_secs(limit) {
                    let input = current.lock().map(|c| c.clone()).unwrap_or_default();
                    let path = save(&out, "hang.cg", &input, &format!("no progress for {limit} s"));
                    eprintln!("fuzz: HANG after {n} inputs; input saved to {}", path.display());
                    std::process::exit(3);
                }
            }
        });
    }

    println!(
        "fuzz: seed {}, {} corpus files, running {} s, crashes go to {}",
        options.seed,
        corpus.len(),
        options.seconds,
        options.out.display()
    );
    let mut rng = Rng::new(options.seed);
    let start = Instant::now();
    let deadline = start + Duration::from_secs(options.seconds);
    let mut next_report = start + Duration::from_secs(30);
    let mut inputs: u64 = 0;
    let mut bytes_total: u64 = 0;
    let mut crashes: u64 = 0;
    let mut distinct: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut slowest: (Duration, Vec<u8>) = (Duration::ZERO, Vec::new());
    let mut slow: u64 = 0;

    while Instant::now() < deadline {
        let (root, input) = match rng.below(24) {
            20..=23 => (soup_root.clone(), hostile(&mut rng)),
            0..=10 => {
                let (path, original) = rng.pick(&corpus);
                let mut bytes = original.clone();
                mutate(&mut rng, &mut bytes, &corpus);
                (path.clone(), bytes)
            }
            11..=17 => {
                let mut bytes = soup(&mut rng);
                if rng.below(4) == 0 {
                    mutate(&mut rng, &mut bytes, &corpus);
                }
                (soup_root.clone(), bytes)
            }
            _ => {
                let n = rng.below(2048);
                ((soup_root.clone()), (0..n).map(|_| (rng.next() & 0xff) as u8).collect())
            }
        };
        if let Ok(mut c) = current.lock() {
            c.clear();
            c.extend_from_slice(&input);
        }
        let mut fs = base.clone();
        fs.insert(root.clone(), input.clone());
        let began = Instant::now();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| run_one(&fs, &root)));
        let took = began.elapsed();
        if took > slowest.0 {
            slowest = (took, input.clone());
        }
        if took > SLOW {
            slow += 1;
            if slow <= 20 {
                let path = save(&options.out, &format!("slow-{slow:03}.cg"), &input, &format!("took {took:?}\n"));
                eprintln!("fuzz: SLOW input ({took:?}) saved to {}", path.display());
            }
        }
        let failure = match outcome {
            Ok(Ok(())) => None,
            Ok(Err(violation)) => Some(format!("invariant: {violation}")),
            Err(_) => Some(LAST_PANIC.lock().ok().and_then(|mut p| p.take()).unwrap_or_else(|| "panic".into())),
        };
        if let Some(message) = failure {
            crashes += 1;
            let key = message.lines().next().unwrap_or("").to_owned();
            if !distinct.contains_key(&key) {
                let name = format!("crash-{:03}.cg", distinct.len());
                let path = save(&options.out, &name, &input, &format!("{message}\nroot: {}\n", root.display()));
                eprintln!("fuzz: CRASH #{} ({}): {key}", distinct.len(), path.display());
                distinct.insert(key, path);
            }
        }
        inputs += 1;
        bytes_total += input.len() as u64;
        done.store(inputs, Ordering::Relaxed);
        if Instant::now() >= next_report {
            let secs = start.elapsed().as_secs_f64();
            println!(
                "fuzz: {:>6.0} s  {inputs} inputs ({:.0}/s, {:.1} MB)  {crashes} crashes ({} distinct)",
                secs,
                inputs as f64 / secs,
                bytes_total as f64 / 1e6,
                distinct.len()
            );
            next_report += Duration::from_secs(30);
        }
    }

    let secs = start.elapsed().as_secs_f64();
    println!(
        "fuzz: done: {inputs} inputs in {secs:.0} s ({:.0}/s, {:.1} MB), {crashes} crashes, {} distinct, {slow} slower than {SLOW:?}",
        inputs as f64 / secs.max(1e-9),
        bytes_total as f64 / 1e6,
        distinct.len()
    );
    let note = format!("slowest input: {:.1} ms\n", slowest.0.as_secs_f64() * 1e3);
    let path = save(&options.out, "slowest.cg", &slowest.1, &note);
    println!(
        "fuzz: slowest input took {:.1} ms ({} bytes), saved to {}",
        slowest.0.as_secs_f64() * 1e3,
        slowest.1.len(),
        path.display()
    );
    for (message, path) in &distinct {
        println!("  {}: {message}", path.display());
    }
    if crashes == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

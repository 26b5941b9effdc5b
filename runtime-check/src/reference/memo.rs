//! The pass memo: one run's record of rendered pass outputs, so that a pass which
//! another preset of the same run already rendered with exactly the same inputs is not
//! rendered again. Presets of a library share passes (the same first passes under
//! different later ones, variants that differ in one pass), and a pass render is a pure
//! function of what it reads.
//!
//! A render is keyed by a [`Fingerprint`] of everything it reads ([`KeyWriter`]): the
//! program's source text, the value of every uniform and the fingerprint and sampler
//! state of every texture its names bind ([`super::pass::render_key`]), the pass input,
//! the target's size, storage format and mip chain, and the device conversions. A
//! texture's fingerprint is that of its content ([`MipChain::fingerprint`]), or, for a
//! pass output, the key of the render that made it (equal keys make equal outputs), so
//! a key never needs the pixels of a rendered pass hashed again.
//!
//! The memo must never hand back an output for a key that differs from the one it was
//! stored under (fingerprints are 128 bits, from two independent SipHash streams), and
//! never holds more than its byte budget: the least recently used outputs go first.

use super::image::MipChain;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

/// A 128-bit digest: equal fingerprints stand for equal content.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub u128);

/// Builds a [`Fingerprint`] from a sequence of writes; every write is length- or
/// tag-delimited by the caller's order, and each key starts with a domain name, so
/// digests of different kinds of things never meet.
pub struct KeyWriter {
    low: DefaultHasher,
    high: DefaultHasher,
}

impl KeyWriter {
    /// A writer for the domain `domain` (`"content"`, `"pass"`...).
    pub fn new(domain: &str) -> KeyWriter {
        let mut low = DefaultHasher::new();
        let mut high = DefaultHasher::new();
        // Two streams that differ from their first byte on: independent 64-bit halves.
        low.write_u8(0x5a);
        high.write_u8(0xa5);
        let mut k = KeyWriter { low, high };
        k.str(domain);
        k
    }

    pub fn bytes(&mut self, b: &[u8]) {
        self.low.write(b);
        self.high.write(b);
    }

    pub fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.bytes(s.as_bytes());
    }

    pub fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    pub fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }

    pub fn tag(&mut self, v: u8) {
        self.bytes(&[v]);
    }

    /// A long run of values (a level's pixels): digested word by word by [`bulk`], whose
    /// 128 bits then go into the key, instead of through both keyed streams byte by byte
    /// (a 4K LUT is 130 MB).
    pub fn f32s(&mut self, values: &[f32]) {
        self.u64(values.len() as u64);
        let (pairs, rest) = values.as_chunks::<2>();
        let words = pairs.iter().map(|p| u64::from(p[0].to_bits()) | (u64::from(p[1].to_bits()) << 32));
        let tail = rest.iter().map(|v| u64::from(v.to_bits()));
        self.fingerprint(Fingerprint(bulk(words.chain(tail))));
    }

    pub fn bools(&mut self, values: &[bool]) {
        self.u64(values.len() as u64);
        let words = values.chunks(64).map(|c| c.iter().enumerate().fold(0u64, |w, (i, &b)| w | (u64::from(b) << i)));
        self.fingerprint(Fingerprint(bulk(words)));
    }

    pub fn fingerprint(&mut self, f: Fingerprint) {
        self.bytes(&f.0.to_le_bytes());
    }

    pub fn finish(&self) -> Fingerprint {
        Fingerprint(u128::from(self.low.finish()) | (u128::from(self.high.finish()) << 64))
    }
}

/// A 128-bit digest of a sequence of words: two independent multiply-xorshift chains
/// (distinct odd multipliers and seeds), each word's position carried by the chain, the
/// count mixed in at the end. Not keyed and not for adversaries: it tells apart, with
/// overwhelming probability, the pixel data of one run, at a fraction of SipHash's cost.
fn bulk(words: impl Iterator<Item = u64>) -> u128 {
    const M1: u64 = 0x9E37_79B9_7F4A_7C15;
    const M2: u64 = 0xC2B2_AE3D_27D4_EB4F;
    let (mut a, mut b, mut n) = (0x243F_6A88_85A3_08D3u64, 0x1319_8A2E_0370_7344u64, 0u64);
    for w in words {
        a = (a ^ w).wrapping_mul(M1);
        a ^= a >> 29;
        b = (b ^ w.rotate_left(23)).wrapping_mul(M2);
        b ^= b >> 31;
        n += 1;
    }
    let fin = |mut x: u64, m: u64| {
        x = (x ^ n).wrapping_mul(m);
        x ^= x >> 32;
        x = x.wrapping_mul(m);
        x ^ (x >> 29)
    };
    u128::from(fin(a, M2)) | (u128::from(fin(b, M1)) << 64)
}

/// The fingerprint of a chain's content: every level's size and pixels (bit patterns)
/// and every hazard map.
pub fn content(chain: &MipChain) -> Fingerprint {
    let mut k = KeyWriter::new("content");
    k.u64(chain.levels.len() as u64);
    for level in &chain.levels {
        k.u32(level.width);
        k.u32(level.height);
        k.f32s(level.pixels.as_flattened());
    }
    k.u64(chain.hazard.len() as u64);
    for map in &chain.hazard {
        k.bools(map);
    }
    k.finish()
}

/// How often the memo answered, for the run's report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoStats {
    pub hits: u64,
    pub misses: u64,
}

struct Entry {
    chain: Arc<MipChain>,
    bytes: usize,
    last_use: u64,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<Fingerprint, Entry>,
    bytes: usize,
    clock: u64,
    stats: MemoStats,
}

/// Rendered pass outputs by key, shared by the presets of one run (any thread), and the
/// run's LUTs as the reference samples them ([`PassMemo::lut`]).
pub struct PassMemo {
    inner: Mutex<Inner>,
    budget: usize,
    luts: Mutex<Luts>,
}

/// LUT textures by file and sampling, with the bytes they hold.
#[derive(Default)]
struct Luts {
    chains: HashMap<(std::path::PathBuf, bool, Fingerprint), Arc<MipChain>>,
    bytes: usize,
}

/// The bytes a chain holds (pixels and hazard maps).
fn bytes_of(chain: &MipChain) -> usize {
    let pixels: usize = chain.levels.iter().map(|l| l.pixels.len() * 16).sum();
    let maps: usize = chain.hazard.iter().map(Vec::len).sum();
    pixels + maps
}

impl PassMemo {
    /// An empty memo that holds at most `budget` bytes of outputs.
    pub fn new(budget: usize) -> PassMemo {
        PassMemo { inner: Mutex::new(Inner::default()), budget, luts: Mutex::new(Luts::default()) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The LUT texture of the file `path` as the reference samples it (`mipmap`: with
    /// its mip chain), under the device conversions whose key is `conversions`: made by
    /// `make` the first time and then shared, so that the presets of a run that use the
    /// same LUT decode, convert and digest it once (console borders are 3200x1600). LUTs
    /// are kept while they fit half the memo's budget, beside the pass outputs; a file
    /// is assumed not to change during the run.
    pub fn lut<E>(
        &self,
        path: &std::path::Path,
        mipmap: bool,
        conversions: Fingerprint,
        make: impl FnOnce() -> Result<MipChain, E>,
    ) -> Result<Arc<MipChain>, E> {
        let key = (path.to_path_buf(), mipmap, conversions);
        let lock = || self.luts.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(hit) = lock().chains.get(&key) {
            return Ok(hit.clone());
        }
        let chain = Arc::new(make()?);
        let bytes = bytes_of(&chain);
        let mut luts = lock();
        if luts.bytes + bytes <= self.budget / 2 {
            luts.bytes += bytes;
            luts.chains.insert(key, chain.clone());
        }
        Ok(chain)
    }

    /// The size of the LUT of `path` if any sampling of it is kept.
    pub fn lut_size(&self, path: &std::path::Path) -> Option<(u32, u32)> {
        let luts = self.luts.lock().unwrap_or_else(PoisonError::into_inner);
        luts.chains
            .iter()
            .find(|((p, _, _), _)| p == path)
            .and_then(|(_, c)| c.levels.first())
            .map(|l| (l.width, l.height))
    }

    /// The output stored under `key`, if any (counted as a hit or a miss).
    pub fn get(&self, key: Fingerprint) -> Option<Arc<MipChain>> {
        let mut inner = self.lock();
        inner.clock += 1;
        let now = inner.clock;
        let found = inner.entries.get_mut(&key).map(|e| {
            e.last_use = now;
            e.chain.clone()
        });
        match found {
            Some(_) => inner.stats.hits += 1,
            None => inner.stats.misses += 1,
        }
        found
    }

    /// Stores `chain` under `key` (an output larger than the whole budget is not kept),
    /// then drops the least recently used outputs until the memo fits its budget.
    pub fn put(&self, key: Fingerprint, chain: Arc<MipChain>) {
        let bytes = bytes_of(&chain);
        if bytes > self.budget {
            return;
        }
        let mut inner = self.lock();
        inner.clock += 1;
        let last_use = inner.clock;
        if let Some(old) = inner.entries.insert(key, Entry { chain, bytes, last_use }) {
            inner.bytes -= old.bytes;
        }
        inner.bytes += bytes;
        while inner.bytes > self.budget {
            let Some(oldest) = inner.entries.iter().min_by_key(|(_, e)| e.last_use).map(|(k, _)| *k) else { break };
            if let Some(e) = inner.entries.remove(&oldest) {
                inner.bytes -= e.bytes;
            }
        }
    }

    pub fn stats(&self) -> MemoStats {
        self.lock().stats
    }

    /// The bytes of outputs held now.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::image::RgbaF32Image;

    fn chain(v: f32, w: u32) -> Arc<MipChain> {
        Arc::new(MipChain::single(RgbaF32Image::filled(w, 1, [v; 4])))
    }

    #[test]
    fn a_lut_is_made_once_per_file_sampling_and_conversions() {
        let memo = PassMemo::new(1 << 20);
        let made = std::cell::Cell::new(0);
        let make = |v: f32| {
            made.set(made.get() + 1);
            Ok::<_, ()>(MipChain::single(RgbaF32Image::filled(4, 2, [v; 4])))
        };
        let (file, conv, other) = (std::path::Path::new("/l/a.png"), Fingerprint(1), Fingerprint(2));
        let a = memo.lut(file, false, conv, || make(0.5)).unwrap_or_else(|()| panic!());
        let again = memo.lut(file, false, conv, || make(0.9)).unwrap_or_else(|()| panic!());
        assert!(Arc::ptr_eq(&a, &again));
        assert_eq!(made.get(), 1);
        assert_eq!(memo.lut_size(file), Some((4, 2)));
        // Another sampling or other conversions make their own.
        memo.lut(file, true, conv, || make(0.5)).unwrap_or_else(|()| panic!());
        memo.lut(file, false, other, || make(0.5)).unwrap_or_else(|()| panic!());
        assert_eq!(made.get(), 3);
        // A failure is handed back and nothing is kept.
        let missing = std::path::Path::new("/l/missing.png");
        assert_eq!(memo.lut(missing, false, conv, || Err::<MipChain, _>("no file")).map(|_| ()), Err("no file"));
        assert_eq!(memo.lut_size(missing), None);
        // Beyond half the budget a LUT is handed out but not kept.
        let small = PassMemo::new(100);
        small.lut(file, false, conv, || make(0.5)).unwrap_or_else(|()| panic!());
        assert_eq!(small.lut_size(file), None);
    }

    #[test]
    fn every_single_change_of_a_large_image_changes_its_content_digest() {
        let base = RgbaF32Image::from_fn(64, 48, |x, y| [x as f32 / 64.0, y as f32 / 48.0, 0.5, 1.0]);
        let digest = |img: &RgbaF32Image, hazard: Option<Vec<bool>>| {
            let chain = MipChain::single(img.clone());
            content(&match hazard {
                Some(h) => chain.with_hazard(h),
                None => chain,
            })
        };
        let reference = digest(&base, None);
        let mut seen = std::collections::HashSet::new();
        seen.insert(reference);
        // One bit of one channel of each pixel, and each pair of neighbours swapped.
        for i in 0..base.pixels.len() {
            let mut flipped = base.clone();
            flipped.pixels[i][i % 4] = f32::from_bits(flipped.pixels[i][i % 4].to_bits() ^ (1 << (i % 23)));
            assert!(seen.insert(digest(&flipped, None)), "bit flip at {i}");
            if i + 1 < base.pixels.len() && base.pixels[i] != base.pixels[i + 1] {
                let mut swapped = base.clone();
                swapped.pixels.swap(i, i + 1);
                assert!(seen.insert(digest(&swapped, None)), "swap at {i}");
            }
        }
        // One hazard flag anywhere.
        for i in 0..base.pixels.len() {
            let mut map = vec![false; base.pixels.len()];
            map[i] = true;
            assert!(seen.insert(digest(&base, Some(map))), "hazard at {i}");
        }
    }

    #[test]
    fn content_tells_pixels_sizes_and_hazards_apart() {
        let a = MipChain::single(RgbaF32Image::filled(2, 2, [0.5; 4]));
        let same = MipChain::single(RgbaF32Image::filled(2, 2, [0.5; 4]));
        let other_value = MipChain::single(RgbaF32Image::filled(2, 2, [0.25; 4]));
        let other_shape = MipChain::single(RgbaF32Image::filled(4, 1, [0.5; 4]));
        let hazardous = a.clone().with_hazard(vec![true, false, false, false]);
        // -0.0 and 0.0 compare equal but are different bits: a shader can tell them apart.
        let zero = MipChain::single(RgbaF32Image::filled(1, 1, [0.0; 4]));
        let negative_zero = MipChain::single(RgbaF32Image::filled(1, 1, [-0.0; 4]));
        assert_eq!(content(&a), content(&same));
        for different in [&other_value, &other_shape, &hazardous] {
            assert_ne!(content(&a), content(different));
        }
        assert_ne!(content(&zero), content(&negative_zero));
    }

    #[test]
    fn domains_and_write_boundaries_give_different_keys() {
        let key = |domain: &str, parts: &[&str]| {
            let mut k = KeyWriter::new(domain);
            parts.iter().for_each(|p| k.str(p));
            k.finish()
        };
        assert_eq!(key("pass", &["ab", "c"]), key("pass", &["ab", "c"]));
        assert_ne!(key("pass", &["ab", "c"]), key("pass", &["a", "bc"]));
        assert_ne!(key("pass", &["x"]), key("content", &["x"]));
        // The two halves are independent streams.
        let f = key("pass", &["x"]).0;
        assert_ne!(f as u64, (f >> 64) as u64);
    }

    #[test]
    fn hands_back_what_was_stored_and_counts() {
        let memo = PassMemo::new(1 << 20);
        let k1 = Fingerprint(1);
        assert!(memo.get(k1).is_none());
        let c = chain(0.5, 4);
        memo.put(k1, c.clone());
        let got = memo.get(k1).expect("stored");
        assert!(Arc::ptr_eq(&got, &c));
        assert!(memo.get(Fingerprint(2)).is_none());
        assert_eq!(memo.stats(), MemoStats { hits: 1, misses: 2 });
        assert_eq!(memo.bytes(), 4 * 16);
    }

    #[test]
    fn keeps_to_its_budget_dropping_the_least_recently_used() {
        // Room for two 4-texel outputs (64 bytes each).
        let memo = PassMemo::new(128);
        memo.put(Fingerprint(1), chain(0.1, 4));
        memo.put(Fingerprint(2), chain(0.2, 4));
        // Using 1 makes 2 the least recently used.
        assert!(memo.get(Fingerprint(1)).is_some());
        memo.put(Fingerprint(3), chain(0.3, 4));
        assert!(memo.get(Fingerprint(2)).is_none());
        assert!(memo.get(Fingerprint(1)).is_some());
        assert!(memo.get(Fingerprint(3)).is_some());
        assert_eq!(memo.bytes(), 128);
        // An output larger than the budget is not kept and evicts nothing.
        memo.put(Fingerprint(4), chain(0.4, 16));
        assert!(memo.get(Fingerprint(4)).is_none());
        assert_eq!(memo.bytes(), 128);
        // Storing a key again replaces its entry without counting it twice.
        memo.put(Fingerprint(3), chain(0.5, 4));
        assert_eq!(memo.bytes(), 128);
    }
}
